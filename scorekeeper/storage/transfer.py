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

from ..gamefile import parse_json, read_header
from ..games.errors import GameFileError, ScorekeeperError
from ..games.words import Say
from . import games
from .kernel import NAME_LENGTH, Refused, clean_name, key_of

# A spreadsheet reads a cell starting with one of these as a formula: a player called
# "=HYPERLINK(…)" must stay a name (OWASP, CSV injection), so it gets a leading quote.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_START) else text


def sheet_csv(head: tuple[str, str], players: list[str],
              rows: Iterable[tuple[int | str, str, Mapping[str, int]]],
              totals: Mapping[str, int]) -> str:
    """A score sheet as CSV (every game's): two leading columns named by ``head`` (the
    round and what it says of it: dealer, how it ended), a column per player; ``rows``
    are (first, second, scores by player) — a label row such as Bonuses too; then Total."""
    out = io.StringIO()
    sheet = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    sheet.writerow([*head, *(cell(p) for p in players)])
    for first, second, scores in rows:
        sheet.writerow([first, cell(second), *(scores[p] for p in players)])
    sheet.writerow(["Total", "", *(totals[p] for p in players)])
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


def check_names(doc: object) -> None:
    """The app's rule for names (kernel.clean_name: the new-game form's and a rename's),
    checked before an import: a name as it would be kept, and no two names alike but for
    their case. (``scorekeeper score`` takes any names the game file format allows.)"""
    read_header(doc)
    assert isinstance(doc, dict)  # read_header refuses any other document
    players = doc.get("players")
    if not isinstance(players, list):
        return
    seen: dict[str, str] = {}
    for name in players:
        if not isinstance(name, str):
            continue
        if len(name) > NAME_LENGTH:
            raise GameFileError(Say(
                "players: '%(name)s…' is longer than %(most)s letters; shorten it in the file "
                "and try again", name=name[:NAME_LENGTH], most=NAME_LENGTH))
        try:
            kept = clean_name(name)
        except Refused as e:
            shown = name[:NAME_LENGTH].encode("unicode_escape").decode("ascii")
            raise GameFileError(Say("players: '%(name)s': %(reason)s; change it in the file and "
                                    "try again", name=shown, reason=e.said_reason)) from None
        if kept != name:
            raise GameFileError(Say("players: '%(name)s' is written with spaces around it, doubled "
                                    "or of another kind: write it '%(kept)s' in the file and try "
                                    "again", name=name.strip(), kept=kept))
        if key_of(name) in seen:
            raise GameFileError(Say("players: '%(first)s' and '%(second)s' look like one name (names "
                                    "are compared without case, letters that look alike as one): "
                                    "give each a different name",
                                    first=seen[key_of(name)], second=name))
        seen[key_of(name)] = name


def import_upload(db: Database, data: bytes, group: int | None = None) -> int:
    """Add the game in an uploaded game file to ``group`` (None: a new group of its own);
    returns its id. Refused: nothing is saved."""
    try:
        doc = read_game_file(data)
        check_names(doc)
        return games.import_document(db, doc, group)
    except ScorekeeperError as e:  # GameFileError and the rules' own errors
        raise Refused(e.message) from None  # its sentence, as said
