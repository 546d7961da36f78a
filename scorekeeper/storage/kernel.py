"""What every stored game has, whatever its rounds hold: written once, used by both stores.

- the ``games`` row: one INSERT for every way a game is added (:func:`insert_game`), its
  header read back (:func:`header`), the summary the history list shows rewritten and the
  version bumped by every change (:func:`save_summary`), the two link secrets;
- groups (:func:`add_group`, :func:`group_of`, :func:`group_games`, :func:`name_group`): the
  people who play together; every game belongs to one, and so does every player (a name is
  unique within its group), and a group has its own two link secrets and its name;
- who sits where (:func:`seat_players`): the people behind the names, across the games of
  a group;
- request ids (:func:`once`): a form acted on twice (a double tap, a resubmit) counts once;
- the refusals every change can end in (:class:`Refused`, :class:`Stale`, …), as sentences
  (words.Say; a library error's own sentence passed on as it is, never its text).

The stores of rounds (storage/logs.py for logs of plays, storage/rounds.py for hands
counted at the end) build on these; every change is one ``write(db)`` transaction.
"""
from __future__ import annotations

import json
import re
import secrets
import sqlite3
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

import icu
from sqlite_utils import Database

from ..gamefile.document import NAME_LENGTH as NAME_LENGTH  # the rule for names: here, with clean_name
from ..games import registry
from ..games.cards import parse_card
from ..games.variant import Variant
from ..games.words import Say, Sentence, from_data, to_data
from .db import write


class Told(Exception):
    """What the stores tell a person, as a sentence of the rules library (words.Say; a
    text where another error's words are passed on as they are).

    ``said_reason``: the clause as said (a value for a sentence of one's own);
    ``reason``: that clause in the game file's English (the command line prints it so);
    ``message``: the English as a sentence (capital, full stop); ``said``: the same for
    a page (words.Sentence: shown in the reader's language). ``str()`` is ``reason``."""

    def __init__(self, message: Say | str) -> None:
        super().__init__(str(message))
        self.said_reason = message
        self.reason = str(message)
        self.message = sentence(self.reason)
        self.said = Sentence(message)


class Refused(Told):
    """A change the rules (or the state of the table) do not allow; nothing was saved.
    ``tells_nothing_saved``: its words say so themselves (a page adds nothing); ``read``:
    the game as the store had read it when it refused, where it says (a play of the
    round: storage/log_changes.py), so that a page answers with it, not reading it again."""

    tells_nothing_saved = False
    read: Any = None


class Unreadable(Refused):
    """A game whose stored log the rules no longer allow (an entry written by hand): it
    cannot be read, so nothing is asked of it (the pages say so, with its reason)."""


class NotFound(Told):
    """No such game, play, round or player."""


class Stale(Refused):
    """The phone acted on a table that another phone has changed since; nothing was saved
    (its words say so)."""

    tells_nothing_saved = True


class Repeated(Told):
    """This form was acted on already (a double tap, a resubmitted form): nothing more to do."""


class AlreadyHere(Refused):
    """A game made or imported once already: ``game_id`` is the one there is."""

    def __init__(self, message: Say | str, game_id: int) -> None:
        super().__init__(message)
        self.game_id = game_id


def sentence(text: str) -> str:
    """The engine's reasons are lower-case clauses; people read sentences (the English
    text; words.Sentence says a clause so in any language)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_secret() -> str:
    """The secret of a game's link: 144 random bits."""
    return secrets.token_urlsafe(18)


def inserted(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT added (sqlite3 sets ``lastrowid`` after every one)."""
    row_id = cursor.lastrowid
    assert row_id is not None  # an INSERT was run: typeshed's None is for a cursor before one
    return row_id


# ---------------------------------------------------------------------------------------
# The games row.


def insert_game(db: Database, variant: Variant, players: list[str], rules: Mapping[str, Any],
                first_dealer: int, teams: list[list[str]] | None = None, *,
                status: Say = Say("in progress"), totals: Mapping[str, int] | None = None,
                made_by: str | None = None, source: str | None = None,
                group: int | None = None) -> tuple[int, str]:
    """A new game's row (version 0; the summary of a game with no rounds) and its seats,
    in the caller's write transaction; (id, the secret of its edit link).

    ``group``: the group it joins (None: a new group of its own, :func:`add_group`).
    ``made_by``: the form's key that made it (this phone's: web/forms.py), ``source``: the
    digest of the game file it was imported from; a game made once already, or a file
    imported into this group already, raises :class:`AlreadyHere` and nothing is added
    (the same file in another group is another game).
    """
    check_request_id(made_by)
    found = made_by and db.execute("SELECT id FROM games WHERE made_by = ?", [made_by]).fetchone()
    if found:
        raise AlreadyHere(Say("this game was made already (the form was sent twice)"), found[0])
    found = imported_already(db, source, group)
    if found:
        raise AlreadyHere(Say("this game file was imported already: the game is here"), found)
    if group is None:
        group = add_group(db)
    elif not db.execute("SELECT 1 FROM groups WHERE id = ?", [group]).fetchone():
        raise NotFound(Say("there is no such group"))
    stamp = now()
    edit = new_secret()
    game_id = inserted(db.execute(
        "INSERT INTO games (variant, players, rules, teams, first_dealer, created, updated, "
        "version, over, status, said_status, round_no, totals, edit_token, view_token, made_by, "
        "source, group_id) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
        [variant.key, json.dumps(players, ensure_ascii=False), json.dumps(dict(rules)),
         json.dumps(teams, ensure_ascii=False) if teams is not None else None, first_dealer,
         stamp, stamp, str(status), _said(status), json.dumps(dict(totals or {}), ensure_ascii=False),
         edit, new_secret(),
         made_by or None, source, group],
    ))
    seat_players(db, game_id, players)
    return game_id, edit


def next_seat(players: Sequence[str], seat: int, out: Collection[str]) -> int:
    """The seat to the left of ``seat`` (the next in seating order) whose player is not
    ``out`` of the round or the game: the next seat if every other player is. The turn
    and the deal move so."""
    count = len(players)
    return next(((seat + k) % count for k in range(1, count) if players[(seat + k) % count] not in out),
                (seat + 1) % count)


def header(db: Database, game_id: int) -> dict[str, Any]:
    """A game's row without its rounds: variant (the registry's), players, rules, teams,
    first dealer, version, the link secrets and the summary kept for the history list."""
    cursor = db.execute("SELECT * FROM games WHERE id = ?", [game_id])
    row = cursor.fetchone()
    if row is None:
        raise NotFound(Say("there is no game %(game)s", game=game_id))
    game = dict(zip([c[0] for c in cursor.description], row))
    for name in ("players", "rules", "totals"):
        game[name] = json.loads(game[name] or "{}")
    game["teams"] = json.loads(game["teams"]) if game.get("teams") else None
    game["over"] = bool(game["over"])
    variant = registry.get(game["variant"])
    if variant is None:  # written by a release with a game this one does not have
        raise NotFound(Say("game %(game)s is a game of %(variant)s, which this version of the app does "
                           "not have", game=game_id, variant=repr(game["variant"])))
    game["variant"] = variant
    return game


@contextmanager
def reading(db: Database) -> Iterator[Database]:
    """One snapshot for several reads: what they find belongs to one version of the game.
    Inside a write transaction, that transaction is the snapshot."""
    if db.conn.in_transaction:
        yield db
        return
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.execute("COMMIT")


def version_of(db: Database, game_id: int) -> int:
    """The game's version, bumped by every change: a phone watching the table polls it."""
    row: tuple[int] | None = db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()
    if row is None:
        raise NotFound(Say("there is no game %(game)s", game=game_id))
    return row[0]


def save_summary(db: Database, game_id: int, version: int, *, over: bool, status: Say,
                 round_no: int, totals: Mapping[str, int]) -> None:
    """Bump the game's version past ``version`` (the one the change was made on) and keep
    what the history list shows of it: the status in English and as a sentence."""
    db.execute(
        "UPDATE games SET updated = ?, version = ?, over = ?, status = ?, said_status = ?, "
        "round_no = ?, totals = ? WHERE id = ?",
        [now(), version + 1, int(over), str(status), _said(status), round_no,
         json.dumps(dict(totals), ensure_ascii=False), game_id],
    )


def _said(status: Say) -> str:
    return json.dumps(to_data(status), ensure_ascii=False)


def said_status(row: Mapping[str, Any]) -> Say | str:
    """A games row's status as a sentence, to be read in any language (its English for a
    game not changed since the sentence was kept)."""
    kept = row.get("said_status")
    status: Say | str = from_data(json.loads(kept), parse_card) if kept else row["status"]
    return status


def secrets_of(db: Database, game_id: int) -> tuple[str, str]:
    """The secrets of a game's edit link and read-only link."""
    row = db.execute("SELECT edit_token, view_token FROM games WHERE id = ?", [game_id]).fetchone()
    if row is None:
        raise NotFound(Say("there is no game %(game)s", game=game_id))
    return row[0], row[1]


def list_games(db: Database, ids: Iterable[int]) -> list[dict[str, Any]]:
    """These games, unfinished first, the most recently played first within each."""
    ids = list(ids)
    if not ids:
        return []
    marks = ", ".join("?" * len(ids))
    query = f"SELECT * FROM games WHERE id IN ({marks}) ORDER BY over, updated DESC, id DESC"
    games = []
    for row in db.query(query, ids):
        row = dict(row)
        row["players"] = json.loads(row["players"])
        row["totals"] = json.loads(row["totals"] or "{}")
        row["said_status"] = said_status(row)
        games.append(row)
    return games


def backup(db: Database, path: str) -> None:
    """A consistent copy of the whole database, safe while the server runs (SQLite backup)."""
    target = sqlite3.connect(path)
    try:
        db.conn.backup(target)
    finally:
        target.close()


# ---------------------------------------------------------------------------------------
# Groups: the people who play together. A group's links open its games' history, its
# players and their statistics, and its new-game form (web/links.py); nothing here or
# there crosses from one group to another.


def add_group(db: Database) -> int:
    """A new group (in the caller's write transaction), with its two link secrets."""
    return inserted(db.execute("INSERT INTO groups (edit_token, view_token, created) VALUES (?, ?, ?)",
                               [new_secret(), new_secret(), now()]))


def group_secrets(db: Database, group_id: int) -> tuple[str, str]:
    """The secrets of a group's edit link and read-only link."""
    row = db.execute("SELECT edit_token, view_token FROM groups WHERE id = ?", [group_id]).fetchone()
    if row is None:
        raise NotFound(Say("there is no such group"))
    return row[0], row[1]


def secrets_by_id(db: Database, ids: Iterable[int], *, groups: bool = False) -> dict[int, tuple[str, str]]:
    """:func:`secrets_of` (or, ``groups``, :func:`group_secrets`) of many at once, by id;
    an id that is not there is left out (web/links.py checks a phone's keys with them)."""
    ids = list(ids)
    if not ids:
        return {}
    table = "groups" if groups else "games"
    rows = db.execute(f"SELECT id, edit_token, view_token FROM {table} WHERE id IN ({', '.join('?' * len(ids))})",
                      ids).fetchall()
    return {found: (edit, view) for found, edit, view in rows}


def group_names(db: Database, group_ids: Iterable[int]) -> dict[int, str]:
    """The names of these groups, by id ("" for a group not named yet)."""
    ids = sorted({int(i) for i in group_ids})
    if not ids:
        return {}
    rows = db.execute(f"SELECT id, name FROM groups WHERE id IN ({','.join('?' * len(ids))})", ids).fetchall()
    return {group_id: name for group_id, name in rows}


def name_group(db: Database, group_id: int, name: str) -> str:
    """Give a group its name, kept as a player's is (:func:`clean_name`), or, empty, take
    it away; the name kept. Naming it twice the same is naming it once."""
    name = clean_name(name) if (name or "").strip() else ""
    with write(db):
        if db.execute("UPDATE groups SET name = ? WHERE id = ?", [name, group_id]).rowcount != 1:
            raise NotFound(Say("there is no such group"))
    return name


def group_of(db: Database, game_id: int) -> int:
    """The group a game belongs to."""
    row: tuple[int] | None = db.execute("SELECT group_id FROM games WHERE id = ?", [game_id]).fetchone()
    if row is None:
        raise NotFound(Say("there is no game %(game)s", game=game_id))
    return row[0]


def group_games(db: Database, group_ids: Iterable[int]) -> list[int]:
    """The games of these groups, by id."""
    ids = sorted({int(i) for i in group_ids})
    if not ids:
        return []
    return [row[0] for row in db.execute(
        f"SELECT id FROM games WHERE group_id IN ({', '.join('?' * len(ids))}) ORDER BY id", ids)]


def imported_already(db: Database, source: str | None, group: int | None) -> int | None:
    """The game of this group imported from the file of digest ``source``, if there is one
    (a new group, None, has none)."""
    if not source or group is None:
        return None
    row = db.execute("SELECT id FROM games WHERE source = ? AND group_id = ? ORDER BY id LIMIT 1",
                     [source, group]).fetchone()
    return row[0] if row else None


# ---------------------------------------------------------------------------------------
# Forms acted on once, and plays changed meanwhile.


REQUEST_ID_LONGEST = 64  # a form's key: the pages make 16 characters (web/forms.py)


def check_request_id(request_id: str | None) -> None:
    """A form's key longer than any page makes is refused, on every route alike (one limit:
    :data:`REQUEST_ID_LONGEST`), before anything is changed."""
    if request_id and len(str(request_id)) > REQUEST_ID_LONGEST:
        refusal = Refused(Say("this form's key is longer than %(n)s characters: nothing was saved. "
                              "Reload the page and try again", n=REQUEST_ID_LONGEST))
        refusal.tells_nothing_saved = True
        raise refusal


def once(db: Database, game_id: int, request_id: str | None) -> None:
    """Record this form's key with the change; a key acted on before raises Repeated, a
    key longer than any page makes is refused (:func:`check_request_id`)."""
    if not request_id:
        return
    check_request_id(request_id)
    cursor = db.execute(
        "INSERT OR IGNORE INTO requests (game, request_id, created) VALUES (?, ?, ?)",
        [game_id, str(request_id), now()],
    )
    if cursor.rowcount == 0:
        raise Repeated(Say("this was saved already"))


def acted_on(db: Database, game_id: int, request_id: str | None) -> bool:
    """Whether this form was acted on already (a double tap, a resubmitted form)."""
    return bool(request_id) and db.execute(
        "SELECT 1 FROM requests WHERE game = ? AND request_id = ?", [game_id, str(request_id)]
    ).fetchone() is not None


def acted_on_anywhere(db: Database, request_id: str | None) -> list[int]:
    """The games a form's key was recorded with (a rename or a merge records it with
    every game it changes): empty if it was never acted on."""
    if not request_id:
        return []
    return [row[0] for row in db.execute(
        "SELECT game FROM requests WHERE request_id = ? ORDER BY game", [str(request_id)]).fetchall()]


TRIES = 3  # times a change is checked again while other phones change the game first
T = TypeVar("T")  # what a change's ``save()`` answers


def change(db: Database, game_id: int, request_id: str | None,
           plan: Callable[[], tuple[int, Callable[[], T]]], *, checked_under_lock: bool = False) -> T:
    """One change of a game: every store's way to change one.

    ``plan()`` reads the game (in a snapshot of its own), checks and scores the change
    (Refused, Stale …: nothing is saved) and returns (the version it read, ``save``);
    under the write lock, if the game is still at that version, the form's request id is
    claimed and ``save()`` writes the change (its answer is returned). If another phone
    changed the game meanwhile, the change is checked again on the game as it now is, a
    few times; then the phone is told to try again. So the lock is held only to write,
    whatever a check costs (the best last turn of a hand, a long game's later rounds).

    ``checked_under_lock``: a change whose check is small and bounded (a play of the round
    being played: one round's replay, its plays bounded by its cards) is checked under the
    lock instead, so that phones playing at once are each taken in turn, never told to
    try again."""
    if acted_on(db, game_id, request_id):
        raise Repeated(Say("this was saved already"))
    if checked_under_lock:
        with write(db):
            once(db, game_id, request_id)
            _version, save = plan()
            return save()
    for _try in range(TRIES):
        version, save = plan()
        with write(db):
            if version_of(db, game_id) != version:
                continue  # changed meanwhile: this transaction writes nothing
            once(db, game_id, request_id)
            return save()
    raise Stale(Say("the game kept changing on other phones while this was checked: nothing "
                    "was saved. Try again"))


def revision_of(db: Database, game_id: int, play_id: int) -> int | None:
    """How many times a play (or a counted round's row) has been changed; None: no such
    play in this game. A page names the revision it showed, so a change made meanwhile
    on another phone is refused rather than overwritten."""
    if not -2**63 <= play_id < 2**63:  # no row has such an id (SQLite's integers)
        return None
    # ``+game``: found by the play's own index (play_entries_of), not by reading the game's entries.
    row = db.execute("SELECT revision FROM plays WHERE id = ? AND +game = ?",
                     [play_id, game_id]).fetchone()
    return None if row is None else row[0]


# ---------------------------------------------------------------------------------------
# Who sits where: the people behind the names (storage/players.py renames and merges).


# Characters Unicode counts as letters or marks but draws as nothing (fillers, the
# combining grapheme joiner, Khmer's inherent vowels, Mongolian variation selectors).
_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")
# Variation selectors only choose how the character before them is drawn (❤ or ❤️):
# dropped, so that the two are one name.
_VARIATION_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def clean_name(name: str) -> str:
    """A player's name as it is kept: one rule for the new-game form, an import and a
    rename. Unicode NFC (a composed and a decomposed Zoë are one name), trimmed, inner
    white space made one space; a control or invisible character (a zero-width space, a
    tab) is refused, as is an empty name or one over NAME_LENGTH letters. Names are
    compared without case (:func:`key_of`)."""
    name = _normal(name or "")
    hidden = next((ch for ch in name if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn")
                   or ch in _BLANK_LETTERS), None)
    if hidden is not None:
        raise Refused(Say("a name cannot hold an invisible character (%(code)s): type it again",
                          code=f"U+{ord(hidden):04X}"))
    if not name:
        raise Refused(Say("a player needs a name"))
    if unicodedata.category(name[0]).startswith("M"):
        raise Refused(Say("a name cannot start with an accent on its own: type it again"))
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise Refused(Say("a name needs at least one letter or digit"))
    if len(name) > NAME_LENGTH:
        raise Refused(Say("keep names to %(most)s letters", most=NAME_LENGTH))
    return name


def _normal(name: str) -> str:
    """NFC, variation selectors dropped, white space made single spaces, trimmed."""
    return " ".join(_VARIATION_SELECTORS.sub("", unicodedata.normalize("NFC", name)).split())


# ICU's spoof checker: Unicode TR 39's confusable skeletons (https://www.unicode.org/reports/tr39/).
_LOOK_ALIKES = icu.SpoofChecker()


def key_of(name: str) -> str:
    """A name as players are matched: its kept form (:func:`clean_name`'s, but for the
    checks), case-folded, as its confusable skeleton (Unicode TR 39): names that look the
    same are one name, "Ann", "Аnn" (a Cyrillic А) and "Ａnn" (full width) alike."""
    skeleton: str = _LOOK_ALIKES.getSkeleton(0, _normal(name).casefold())  # PyICU has no types
    return skeleton


def _find_or_add(db: Database, group: int | None, name: str, taken: set[int]) -> int:
    """The player of ``group`` called ``name`` (any case), or a new one; never one in ``taken``.

    Two seats of one game whose names differ only in case ("Bob" and "bob", possible in
    games made before players were kept) are two people: the second gets an entry of
    their own, named with a number ("bob (2)") until someone renames or merges it.
    """
    base, n = name.strip(), 1
    candidate = base
    while True:
        row: tuple[int] | None
        if group is None:  # before there were groups (migration m004)
            row = db.execute("SELECT id FROM players WHERE key = ?", [key_of(candidate)]).fetchone()
        else:
            row = db.execute("SELECT id FROM players WHERE key = ? AND group_id = ?",
                             [key_of(candidate), group]).fetchone()
        if row is None:
            if group is None:
                return inserted(db.execute("INSERT INTO players (name, key, created) VALUES (?, ?, ?)",
                                           [candidate, key_of(candidate), now()]))
            return inserted(db.execute(
                "INSERT INTO players (name, key, created, group_id) VALUES (?, ?, ?, ?)",
                [candidate, key_of(candidate), now(), group]))
        if row[0] not in taken:
            return row[0]
        n += 1
        candidate = f"{base} ({n})"


def player_named(db: Database, group: int, name: str) -> int:
    """The player of ``group`` called ``name`` (compared as names are: :func:`key_of`), or
    a new one, with no game yet (a night's player who has not sat at a table)."""
    return _find_or_add(db, group, clean_name(name), set())


def seat_players(db: Database, game_id: int, names: Iterable[str], *, grouped: bool = True) -> None:
    """Record who sits in each seat of a game, players of the game's group (a game already
    seated is left alone). ``grouped``: False before there were groups (migration m004),
    when a name was one player on the server."""
    if db.execute("SELECT 1 FROM seats WHERE game = ? LIMIT 1", [game_id]).fetchone():
        return
    group = (db.execute("SELECT group_id FROM games WHERE id = ?", [game_id]).fetchone()[0]
             if grouped else None)
    taken: set[int] = set()
    for seat, name in enumerate(names):
        player_id = _find_or_add(db, group, name, taken)
        taken.add(player_id)
        db.execute("INSERT INTO seats (game, seat, player) VALUES (?, ?, ?)",
                   [game_id, seat, player_id])
