"""Games in and out: the CSV score sheet, and an uploaded game file read back.

The game file itself is docs/game-file.md's document (``games.export_document``); the score
sheet is for people and spreadsheets: one row per counted round, each player's score,
then the totals, the same numbers as the game page. An uploaded game file is read as
UTF-8 JSON and checked in full by ``games.import_document``: anything wrong is one
plain sentence, and nothing is saved.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from sqlite_utils import Database

from ..gamefile import parse_json
from ..games.errors import GameFileError, ScorekeeperError
from ..games.words import Say
from . import games
from .kernel import Refused

# A spreadsheet reads a cell starting with one of these as a formula: a player called
# "=HYPERLINK(…)" must stay a name (OWASP, CSV injection), so it gets a leading quote.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_START) else text


def sheet_csv(head: tuple[str, str], players: list[str],
              rows: Iterable[tuple[int | str, str, Mapping[str, int]]],
              totals: Mapping[str, int], total: str = "Total") -> str:
    """A score sheet as CSV (every game's): two leading columns named by ``head`` (the
    round and what it says of it: dealer, how it ended), a column per player; ``rows``
    are (first, second, scores by player) — a label row such as Bonuses too; then the
    totals' row, named ``total`` (the words are the caller's: the page's language)."""
    out = io.StringIO()
    sheet = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    sheet.writerow([*head, *(cell(p) for p in players)])
    for first, second, scores in rows:
        sheet.writerow([first, cell(second), *(scores[p] for p in players)])
    sheet.writerow([total, "", *(totals[p] for p in players)])
    return out.getvalue()


def read_game_file(data: bytes) -> object:
    """The JSON document in an uploaded file, or GameFileError saying why it is not one."""
    if not data.strip():
        raise GameFileError(Say("the file is empty: choose a game file exported from Scorekeeper"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GameFileError(Say(
            "not a game file: it is not text (a game file is JSON, as 'Download the game "
            "file' saves it)")) from None
    return parse_json(text)


def import_upload(db: Database, data: bytes, group: int | None = None) -> int:
    """Add the game in an uploaded game file to ``group`` (None: a new group of its own);
    returns its id. Refused: nothing is saved."""
    try:
        return games.import_document(db, read_game_file(data), group)
    except ScorekeeperError as e:  # GameFileError and the rules' own errors
        raise Refused(e.message) from None  # its sentence, as said
