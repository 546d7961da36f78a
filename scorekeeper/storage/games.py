"""A stored game, whatever its rounds hold: the one door to the two stores.

A game's variant says how its rounds are recorded (games/variant.py): as logs of plays,
kept by storage/logs.py (read) and storage/log_changes.py (changed), or counted at the
end, kept by storage/rounds.py. What every game needs (made, read, its finished rounds'
results, exported, imported, its summary kept) is asked here, which hands it to the
right store; nothing here knows a game by name.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import RoundRecord, Standing
from ..games.errors import GameFileError, ScorekeeperError
from ..games.variant import COUNT, LOG, Variant
from ..games.words import Say
from . import count_store, kernel, log_store, logs, record, results, rounds
from .db import write
from .kernel import NAME_LENGTH, AlreadyHere, Refused, clean_name, key_of


class Store(Protocol):
    """What each way of recording rounds answers, whatever the variant: the functions of
    its module (storage/log_store.py, storage/count_store.py), which mypy holds to this."""

    def state(self, db: Database, game_id: int, round_no: int | None = None) -> logs.LogState | rounds.Scored:
        """The game as its pages read it (a log's round ``round_no``, else the one being played)."""

    def refresh(self, db: Database, game_id: int) -> None:
        """The history list's summary made again and the version bumped (the caller's transaction)."""

    def replayed_rounds(self, db: Database, game_id: int) -> list[tuple[RoundRecord, Standing]]:
        """Every finished round's record and the game after it, replayed from the stored rounds."""

    def export_document(self, db: Database, game_id: int) -> dict[str, Any]:
        """The game file of the game."""

    def import_document(self, db: Database, variant: Variant, doc: Mapping[str, Any], source: str,
                        group: int | None = None, changes: Sequence[dict[str, Any]] = ()) -> int:
        """A game added from its game file (header checked), its rounds replayed before the
        lock, its record of changes (checked: gamefile/changes.py) kept with it."""


# Each way of recording rounds (games/variant.py: a variant's ``recording``) and its store.
STORES: dict[str, Store] = {LOG: log_store, COUNT: count_store}


def store_of(variant: Variant) -> Store:
    return STORES[variant.recording]


def create(db: Database, variant: Variant, players: list[str], rules: Mapping[str, Any],
           first_dealer: int, teams: list[list[str]] | None = None,
           request_id: str | None = None, group: int | None = None,
           also: Callable[[Database, int], None] | None = None) -> tuple[int, str]:
    """A new game, checked by replaying its game file with no rounds; (id, edit secret).
    ``request_id``: the new-game form's; sent twice, it makes one game (AlreadyHere).
    ``group``: the group it joins (None: a new group of its own). ``also``: what else the
    same transaction writes, given the new game's id (a night's table: storage/nights.py)."""
    if not 0 <= first_dealer < len(players):
        raise Refused(Say("the first dealer must be one of the players"))
    game = check_new(variant, players, rules, teams)
    with write(db):
        made = kernel.insert_game(db, variant, players, rules, first_dealer, teams,
                                  status=game.said_status(), totals=game.totals, made_by=request_id,
                                  group=group)
        if also is not None:
            also(db, made[0])
        return made


def check_new(variant: Variant, players: Sequence[str], rules: Mapping[str, Any],
              teams: list[list[str]] | None = None) -> gamefile.LogGame | gamefile.CountGame:
    """A new game as its rules see it (its game file with no rounds, replayed); Refused,
    in the rules' words, for one they do not allow (a deck too small for the players)."""
    doc = {"format": gamefile.FORMAT, "variant": variant.key, "rules": dict(rules),
           "players": list(players), "teams": teams, "rounds": []}
    try:
        game: gamefile.LogGame | gamefile.CountGame = gamefile.replay(doc)
    except ScorekeeperError as e:
        raise Refused(e.message) from None  # its sentence, as the rules said it
    return game


def state(db: Database, game_id: int, round_no: int | None = None) -> logs.LogState | rounds.Scored:
    """The game as its pages read it: a log's round being played (or round ``round_no``),
    replayed (:class:`logs.LogState`), or a counted game's kept rounds (:class:`rounds.Scored`).
    NotFound; Refused for a stored log the rules no longer allow."""
    return store_of(kernel.header(db, game_id)["variant"]).state(db, game_id, round_no)


def stored(db: Database, game_id: int, *, facts: bool = True) -> gamefile.LogGame | gamefile.CountGame:
    """The game as its kept results have it, every finished round (no replay): a
    gamefile.LogGame or CountGame whose rounds are the records (gamefile.RoundRecord;
    ``facts``: with their card-level records, which only the statistics read)."""
    with kernel.reading(db):
        game = kernel.header(db, game_id)
        head = results.header(game)
        records = results.records(db, game_id, facts=facts)
        standing = results.standing(db, game_id, head, len(records))
    kept: gamefile.LogGame | gamefile.CountGame = gamefile.game_of(head, standing, records)
    return kept


def replayed_rounds(db: Database, game_id: int) -> list[tuple[RoundRecord, Standing]]:
    """Every finished round's results as a replay of the log gives them: [(record, the game
    after it)] (storage/results.py keeps them, rebuilds them, and the tests compare)."""
    variant = kernel.header(db, game_id)["variant"]
    return store_of(variant).replayed_rounds(db, game_id)


def rebuild(db: Database, game_id: int) -> int:
    """Every finished round's kept results of a game made again from its log (a full
    replay, round by round, before the write lock; written in one transaction if the game
    did not change meanwhile, else replayed again). Returns how many rounds it keeps."""
    for _try in range(kernel.TRIES):
        version = kernel.version_of(db, game_id)
        rows = results.encode(replayed_rounds(db, game_id))
        with write(db):
            if kernel.version_of(db, game_id) != version:
                continue
            results.write(db, game_id, 1, rows)
            return len(rows)
    raise kernel.Stale(Say("the game kept changing while its results were made again: try again"))


def refresh(db: Database, game_id: int) -> None:
    """Recompute the summary the history list shows and bump the version (in the caller's
    transaction): after a change made outside the stores, such as a rename."""
    store_of(kernel.header(db, game_id)["variant"]).refresh(db, game_id)


def export_document(db: Database, game_id: int) -> dict[str, Any]:
    """The game file of a game: what ``scorekeeper score`` and an import read back."""
    variant = kernel.header(db, game_id)["variant"]
    doc = store_of(variant).export_document(db, game_id)
    kept = record.export(db, game_id)
    if kept:
        doc["changes"] = kept
    return doc


def import_document(db: Database, doc: Any, group: int | None = None) -> int:
    """Add a game from a game file to ``group`` (None: a new group of its own), checked in
    full first; a bad file changes nothing.

    The same file imported into this group before is found before anything is replayed
    (AlreadyHere); in another group it is another game.
    The file does not say who dealt first or when turns passed: the first seat deals.
    """
    try:
        variant, _rounds = gamefile.read_header(doc)
        check_names(doc)  # whoever imports it: the pages' upload, or the command line
        gamefile.read_game(doc)
        kept = gamefile.changes.check(doc.get("changes"))
    except ScorekeeperError as e:
        raise Refused(e.message) from None  # its sentence, as the rules said it
    source = source_of(doc)
    found = kernel.imported_already(db, source, group)
    if found:
        raise AlreadyHere(Say("this game file was imported already: the game is here"), found)
    return store_of(variant).import_document(db, variant, doc, source, group, kept)


def check_names(doc: object) -> None:
    """The app's rule for names (kernel.clean_name: the new-game form's and a rename's),
    checked before an import, once its header is read (:func:`import_document`): a name
    as it would be kept, and no two names alike but for their case. (``scorekeeper
    score`` takes any names the game file format allows.)"""
    assert isinstance(doc, dict)  # gamefile.read_header, first, refuses any other document
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


def source_of(doc: Any) -> str:
    """A game file's digest: the same game, however its keys were ordered or spaced, has
    the same one (an import of it twice is said to be here already)."""
    return hashlib.sha256(gamefile.canonical_text(doc).encode()).hexdigest()
