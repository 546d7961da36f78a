"""Finished rounds' results, kept beside each game's log: derived from it, never the only copy.

A page of a game reads the round being played, not the game: what the rounds before it
came to is kept here, one ``round_results`` row per finished round (storage/migrations.py,
migration m007): the round's record (gamefile.RoundRecord: its scores, how it ended in words, what
the game page shows of each player, the card-level records of the statistics, each a
column of its own, so that a page reads only what it shows) and the game's standing after
it (gamefile.Standing: the totals, whether it is over and who won, a counted game's own
state). A round is replayed from the standing before it.

The stores write these rows in the same transaction as the change of the log that made
them: a round counted adds its row; a change to an earlier round writes the rows from
that round on (:func:`write`). storage/games.py's ``rebuild`` makes every row of a game
again from its log, replaying it round by round (``scorekeeper rebuild``; the tests
compare the rows with a full replay of the game file). Nothing here knows Flask.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import RoundRecord, Standing, round_replay


def header(game: Mapping[str, Any]) -> gamefile.Header:
    """The replay's header of a stored game (kernel.header's row): the game file's checks
    of its players, partnerships and rules, as a file with no rounds gets them."""
    return gamefile.read_game({"format": gamefile.FORMAT, "variant": game["variant"].key,
                               "rules": game["rules"], "players": game["players"], "teams": game["teams"]})


def finished(db: Database, game_id: int) -> int:
    """How many rounds of the game are finished (counted)."""
    row = db.execute("SELECT max(round_no) FROM round_results WHERE game = ?", [game_id]).fetchone()
    return row[0] or 0


def standing(db: Database, game_id: int, game_header: gamefile.Header, after: int) -> Standing:
    """The game after round ``after`` (0: before its first round)."""
    if after <= 0:
        return round_replay.start(game_header)
    row = db.execute("SELECT standing FROM round_results WHERE game = ? AND round_no = ?",
                     [game_id, after]).fetchone()
    if row is None:
        raise LookupError(f"game {game_id} has no result for round {after}")  # a bug: rebuild
    return Standing.from_data(json.loads(row[0]))


def records(db: Database, game_id: int, first: int = 1, *, facts: bool = True) -> list[RoundRecord]:
    """The finished rounds' records, from round ``first`` on, in order (``facts``: with
    their card-level records, which only the statistics read)."""
    facts_column = "facts" if facts else "'{}'"
    rows = db.execute(
        f"SELECT scores, said, figures, {facts_column} FROM round_results "
        "WHERE game = ? AND round_no >= ? ORDER BY round_no", [game_id, first]).fetchall()
    return [RoundRecord.from_data({"scores": json.loads(scores), "said": json.loads(said),
                                   "figures": json.loads(figures), "facts": json.loads(of)})
            for scores, said, figures, of in rows]


def scores(db: Database, game_id: int, first: int = 1) -> list[dict[str, int]]:
    """The scores of the finished rounds from round ``first`` on."""
    return [json.loads(text) for (text,) in db.execute(
        "SELECT scores FROM round_results WHERE game = ? AND round_no >= ? ORDER BY round_no",
        [game_id, first]).fetchall()]


def encode(rounds: Iterable[tuple[RoundRecord, Standing]]) -> list[tuple[str, ...]]:
    """Rounds' results as the rows keep them (their JSON), made before the write lock."""
    encoded = []
    for record, after in rounds:
        data = record.as_data()
        encoded.append(tuple(json.dumps(data[part], ensure_ascii=False)
                             for part in ("scores", "said", "figures", "facts"))
                       + (json.dumps(after.as_data(), ensure_ascii=False),))
    return encoded


def write(db: Database, game_id: int, first: int, rows: list[tuple[str, ...]]) -> None:
    """Keep these rounds' results (:func:`encode`'s rows) as those of rounds ``first``,
    ``first + 1`` … and drop any kept for later rounds (in the caller's write transaction)."""
    db.execute("DELETE FROM round_results WHERE game = ? AND round_no >= ?", [game_id, first])
    db.conn.executemany("INSERT INTO round_results (game, round_no, scores, said, figures, facts, standing) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [(game_id, n, *row) for n, row in enumerate(rows, first)])


def snapshot(db: Database, game_id: int) -> list[tuple[int, str, str, str, str, str]]:
    """A game's kept rows as they are (to tell whether a rebuild changed them)."""
    return db.execute("SELECT round_no, scores, said, figures, facts, standing FROM round_results "
                      "WHERE game = ? ORDER BY round_no", [game_id]).fetchall()


def rename(db: Database, game_id: int, old: str, new: str) -> None:
    """A player renamed in a game's kept results, as a replay of the renamed log would give
    them: the keys of the scores, figures, facts, totals and figures added up, the winners,
    the names in the words of how a round ended, and what a counted game carries by player."""
    rows = db.execute("SELECT round_no, scores, said, figures, facts, standing FROM round_results "
                      "WHERE game = ?", [game_id]).fetchall()
    for round_no, *texts in rows:
        by_player = [_keys(json.loads(text), old, new) for text in (texts[0], texts[2], texts[3])]
        said, after = _said(json.loads(texts[1]), old, new), json.loads(texts[4])
        after["totals"] = _keys(after["totals"], old, new)
        after["figures"] = _keys(after["figures"], old, new)
        after["winners"] = [new if p == old else p for p in after["winners"]]
        after["carry"] = {name: (_keys(value, old, new) if isinstance(value, dict) else
                                 [new if p == old else p for p in value] if isinstance(value, list) else value)
                          for name, value in after["carry"].items()}
        db.execute("UPDATE round_results SET scores = ?, said = ?, figures = ?, facts = ?, standing = ? "
                   "WHERE game = ? AND round_no = ?",
                   [json.dumps(by_player[0], ensure_ascii=False), json.dumps(said, ensure_ascii=False),
                    json.dumps(by_player[1], ensure_ascii=False), json.dumps(by_player[2], ensure_ascii=False),
                    json.dumps(after, ensure_ascii=False), game_id, round_no])


V = TypeVar("V")  # what a player has, by name


def _keys(by_player: Mapping[str, V], old: str, new: str) -> dict[str, V]:
    return {(new if k == old else k): v for k, v in by_player.items()}


def _said(value: Any, old: str, new: str) -> Any:
    """A sentence's data (words.to_data) with the old name among its values made new."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_said(v, old, new) for v in value]
    if not isinstance(value, dict):
        return value
    if "say" in value:
        return {**value, "values": {k: _said(v, old, new) for k, v in value.get("values", {}).items()}}
    if "joined" in value:
        return {**value, "joined": [_said(v, old, new) for v in value["joined"]]}
    if "sentence" in value:
        return {**value, "sentence": _said(value["sentence"], old, new)}
    return value  # a card, cards, a number: no names
