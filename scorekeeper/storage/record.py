"""The record of every change to a game's log: what it was, what it became, what that did
to the scores, when and from whose phone.

Each edit, delete, bring-back, undo, hand corrected, round end reopened, counted round
changed, deleted or brought back, and each rename is one ``changes`` row, written in the
change's own transaction beside the log's new entries (storage/entries.py), which name it.
Its facts are the game file's ``changes`` (gamefile/changes.py: their fields, checked on
import); the pages say them in words (:func:`what_said`, :func:`effects_said`,
:func:`by_said`).
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from ..games.words import Joined, Say, Signed, joined
from . import kernel
from .entries import BY
from .logs import LogState
from .plays import PlayRow, cards_said


def note(db: Database, game_id: int, facts: dict[str, Any], *, play: int | None = None) -> int:
    """Keep one change (``facts``: its kind and what it did, gamefile/changes.py); its id,
    for the log's entries it writes."""
    row = {"at": kernel.now(), "by": BY.get()(game_id), **facts}
    return kernel.inserted(db.execute(
        "INSERT INTO changes (game, at, by, kind, play, round_no, facts) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [game_id, row["at"], row["by"], row["kind"], play, row.get("round"),
         json.dumps(row, ensure_ascii=False)]))


IN_A_ROUND = ("edit", "delete", "undo", "restore", "hand")  # changes whose words name no round: the page does


def play_facts(row: PlayRow) -> dict[str, Any]:
    """A play as the record keeps it."""
    return {"kind": row.type, "player": row.player, "cards": list(row.cards)}


def hand_facts(round_no: int, player: str, was: Sequence[str], now: Sequence[str],
               scores: tuple[Mapping[str, int], Mapping[str, int]] | None = None) -> dict[str, Any]:
    """A hand at a round's end changed, as the record keeps it; ``scores``: the round's
    scores before and after, when both are known."""
    facts: dict[str, Any] = {"kind": "hand", "round": round_no, "was": {"player": player, "cards": list(was)},
                             "now": {"player": player, "cards": list(now)}}
    moved = score_facts(*scores) if scores is not None else None
    if moved:
        facts["scores"] = moved
    return facts


def score_facts(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, list[int]]:
    """The players whose score a change moved: name → [before, after]."""
    return {p: [before.get(p, 0), after[p]] for p in after if before.get(p, 0) != after[p]}


def card_facts(before: Iterable[tuple[int | None, str, Sequence[str], Sequence[int]]],
               after: Iterable[tuple[int | None, str, Sequence[str], Sequence[int]]],
               changed: int | None) -> list[list[Any]]:
    """The cards of other plays whose points a change moved (a lay-off that became the 5th
    card of a run, not the 4th): [player, card, before, after]. Each play is (its id, its
    player, its cards, their points)."""
    was = {(play_id, card): pts for play_id, _p, cards, points in before if play_id != changed
           for card, pts in zip(cards, points)}
    return [[player, card, was[(play_id, card)], pts]
            for play_id, player, cards, points in after if play_id != changed
            for card, pts in zip(cards, points)
            if (play_id, card) in was and was[(play_id, card)] != pts]


@dataclass(frozen=True)
class Change:
    """One change as a page lists it: when, from whose phone, in words; the play it
    changed (None: a hand, a round, a name)."""

    id: int
    at: str
    by: str | None
    play: int | None
    facts: dict[str, Any]


# The changes of one round: a logged round keeps its number, so its changes are found by it; a
# counted round moves when an earlier one is deleted or brought back, so a change of one
# ("round edit" …) is found by the round's row, which keeps its id as it moves.
# (A counted round's change imported from a file names no row: found by its number.)
_OF_ROUND = ("(((kind NOT LIKE 'round %' OR play IS NULL) AND round_no = ?) OR "
             "(kind LIKE 'round %' AND play IN (SELECT id FROM plays WHERE game = ? AND round_no = ?)))")

SHOWN = 200  # the changes a page lists at most, the latest (the game file holds them all)


def of_game(db: Database, game_id: int, play: int | None = None, round_no: int | None = None,
            latest: int = SHOWN) -> tuple[list[Change], int]:
    """A game's ``latest`` changes, the latest first (only those of one play, with ``play``;
    of one round, with ``round_no``), and how many there are."""
    where, args = "game = ?", [game_id]
    if play is not None:
        where, args = where + " AND play = ?", [*args, play]
    if round_no is not None:
        where, args = where + " AND " + _OF_ROUND, [*args, round_no, game_id, round_no]
    count: int = db.execute(f"SELECT count(*) FROM changes WHERE {where}", args).fetchone()[0]
    return [Change(i, at, by, p, json.loads(facts)) for i, at, by, p, facts in db.execute(
        f"SELECT id, at, by, play, facts FROM changes WHERE {where} ORDER BY id DESC LIMIT ?",
        [*args, latest]).fetchall()], count


@dataclass(frozen=True)
class Line:
    """A change as the Changes page says it: when, whose phone, the round it names (None:
    its words name it, or it has none), what it did, what that did to the scores; ``back``:
    the play it deleted (or undid), when it is still out of the game (it can be brought back)."""

    at: str
    by: Say | None
    round: int | None
    what: Say
    effects: Joined | None
    back: int | None = None


def lines(db: Database, game_id: int, players: Sequence[str], round_word: str, play: int | None = None,
          round_no: int | None = None) -> tuple[list[Line], int]:
    """The latest changes of a game (:func:`of_game`) in words, and how many there are."""
    found, count = of_game(db, game_id, play, round_no)
    now = _rounds_now(db, game_id, found)
    out = _still_out(db, game_id, found)
    lines = []
    for c in found:  # the latest first: a play taken out twice is brought back from its latest
        back = c.play if c.play in out and c.facts.get("kind") in TAKEN_OUT else None
        out.discard(back)
        lines.append(Line(c.at, by_said(c.by, players), c.facts.get("round") if c.facts.get("kind") in IN_A_ROUND
                          else None, what_said(c.facts, round_word, now.get(c.play) if c.play is not None else None),
                          effects_said(c.facts), back))
    return lines, count


TAKEN_OUT = ("delete", "undo")  # changes that take a play out of the game


def renames_since(db: Database, game_id: int, change: int | None) -> list[tuple[str, str]]:
    """The game's renames after change ``change`` (all of them for None), in order: (was, now)."""
    rows = db.execute("SELECT facts FROM changes WHERE game = ? AND kind = 'rename' AND id > ? ORDER BY id",
                      [game_id, change or 0]).fetchall()
    return [(str(f.get("was", "")), str(f.get("now", ""))) for f in (json.loads(r[0]) for r in rows)]


def _still_out(db: Database, game_id: int, changes: Iterable[Change]) -> set[int]:
    """The plays these changes took out of the game that are out of it still (their
    latest entry removed them), and whose place in their round no play has taken since."""
    ids = sorted({c.play for c in changes if c.play is not None and c.facts.get("kind") in TAKEN_OUT})
    if not ids:
        return set()
    found = db.execute(
        "SELECT play FROM play_entries AS e WHERE game = ? AND play IN ({}) AND live = 0 AND id = "
        "(SELECT max(id) FROM play_entries WHERE play = e.play AND game = e.game) "
        "AND NOT EXISTS (SELECT 1 FROM plays WHERE game = e.game AND round_no = e.round_no AND seq = e.seq)"
        .format(", ".join("?" * len(ids))),
        [game_id, *ids]).fetchall()
    return {play for (play,) in found}


def _rounds_now(db: Database, game_id: int, changes: Iterable[Change]) -> dict[int, int]:
    """The round each counted round's row these changes name is now (play id → round)."""
    ids = sorted({c.play for c in changes if c.play is not None and str(c.facts.get("kind", "")).startswith("round ")})
    if not ids:
        return {}
    found = db.execute(f"SELECT id, round_no FROM plays WHERE +game = ? AND id IN ({', '.join('?' * len(ids))})",
                       [game_id, *ids]).fetchall()
    return {play: round_no for play, round_no in found}


def in_round(db: Database, game_id: int, round_no: int) -> tuple[int, set[int]]:
    """(How many changes a round has had, the plays of it that have a history)."""
    rows = db.execute(f"SELECT play FROM changes WHERE game = ? AND {_OF_ROUND}",
                      [game_id, round_no, game_id, round_no]).fetchall()
    return len(rows), {p for (p,) in rows if p is not None}


def export(db: Database, game_id: int) -> list[dict[str, Any]]:
    """The game's changes as its game file keeps them, the first first: all of them."""
    return [json.loads(facts) for (facts,) in db.execute(
        "SELECT facts FROM changes WHERE game = ? ORDER BY id", [game_id]).fetchall()]


def import_changes(db: Database, game_id: int, kept: Sequence[dict[str, Any]],
                   held: Iterable[tuple[tuple[Any, ...], int]] = ()) -> None:
    """A game file's changes (checked: gamefile/changes.py) kept as the game's record, each
    change of a play linked to the play it made, found by what it became (the file names
    plays by what they hold, not by id): the latest change first, a play's earlier change
    by what its next one says it was. ``held``: the plays the import wrote, as (what each
    holds: its round, kind, player and cards; its id), given by the import rather than
    read again under the write lock."""
    if not kept:
        return
    plays: dict[tuple[Any, ...], int] = dict(held)

    def key(change: Mapping[str, Any], side: str) -> tuple[Any, ...] | None:
        play = change.get(side)
        if not isinstance(play, Mapping) or "kind" not in play:
            return None
        return change.get("round"), play["kind"], play.get("player", ""), tuple(play.get("cards", ()))

    linked: list[int | None] = []
    for change in reversed(kept):
        now, was = key(change, "now"), key(change, "was")
        play_id = plays.get(now) if now is not None and change["kind"] in ("edit", "restore") else None
        if play_id is not None and was is not None:
            plays[was] = play_id  # an earlier change of this play said it became what this one says it was
        linked.append(play_id)
    db.conn.executemany(
        "INSERT INTO changes (game, at, by, kind, play, round_no, facts) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, c["at"], c.get("by"), c["kind"], play_id, c.get("round"), json.dumps(c, ensure_ascii=False))
         for c, play_id in zip(kept, reversed(linked))])


# ---------------------------------------------------------------------------------------
# In words.


def _play(facts: Mapping[str, Any], round_no: int) -> PlayRow:
    return PlayRow(None, round_no, 0, str(facts.get("kind", "")), str(facts.get("player", "")),
                   tuple(str(c) for c in facts.get("cards", ())))


def by_said(by: str | None, players: Sequence[str]) -> Say | None:
    """Whose phone made a change, in words (None: not known)."""
    if by is None:
        return None
    if by.startswith("seat:"):
        seat = int(by[5:]) if by[5:].isdigit() else -1
        if 0 <= seat < len(players):
            return Say("%(player)s's phone", player=players[seat])
        return Say("a player's phone")
    return {"table": Say("the table's phone"), "phone": Say("a phone"),
            "command line": Say("the command line")}.get(by)


def what_said(facts: Mapping[str, Any], round_word: str = "round", round_now: int | None = None) -> Say:
    """What a change did, in a sentence ("Mia's meld (5♥ 6♥ 7♥) became 4♥ 5♥ 6♥ 7♥"); ``round_now``:
    the number a counted round changed or brought back has now, if an earlier one moved it."""
    kind, round_no = facts.get("kind"), int(facts.get("round") or 0)
    in_hand = round_word == "hand"
    if kind in ("edit", "delete", "undo", "restore"):
        was = _play(facts.get("was") or facts.get("now") or {}, round_no)
        if kind == "edit":
            now = _play(facts.get("now") or {}, round_no)
            if now.player == was.player:
                return Say("%(play)s became %(cards)s", play=was.describe(), cards=cards_said(now.cards))
            return Say("%(play)s became %(now)s", play=was.describe(), now=now.describe())
        if kind == "delete":
            return Say("%(play)s was deleted", play=was.describe())
        if kind == "undo":
            return Say("%(play)s was taken back", play=was.describe())
        return Say("%(play)s was brought back", play=was.describe())
    if kind == "hand":
        player = str((facts.get("now") or {}).get("player", ""))
        now_names = list((facts.get("now") or {}).get("cards", ()))
        was_names = list((facts.get("was") or {}).get("cards", ()))
        cards, old = cards_said(now_names), cards_said(was_names)
        values = dict(player=player, was=old if old.cards else Say("(no cards)"),
                      now=cards if cards.cards else Say("(no cards)"))
        # What changed, so that one card is not to be found by eye between two hands.
        out = cards_said(list((Counter(was_names) - Counter(now_names)).elements()))
        added = cards_said(list((Counter(now_names) - Counter(was_names)).elements()))
        if out.cards and added.cards:
            return Say("%(player)s's hand %(was)s became %(now)s: %(out)s taken out, %(added)s added",
                       out=out, added=added, **values)
        if out.cards:
            return Say("%(player)s's hand %(was)s became %(now)s: %(out)s taken out", out=out, **values)
        if added.cards:
            return Say("%(player)s's hand %(was)s became %(now)s: %(added)s added", added=added, **values)
        return Say("%(player)s's hand %(was)s became %(now)s", **values)
    if kind == "reopen":
        return (Say("the end of hand %(round)s was reopened", round=round_no) if in_hand
                else Say("the end of round %(round)s was reopened", round=round_no))
    if kind == "rename":
        return Say("%(was)s was renamed %(now)s", was=str(facts.get("was", "")), now=str(facts.get("now", "")))
    if kind == "round edit":
        if round_now is not None and round_now != round_no:
            return Say("round %(round)s (round %(then)s then) was changed", round=round_now, then=round_no)
        return Say("round %(round)s was changed", round=round_no)
    if kind == "round delete":
        return Say("round %(round)s was deleted", round=round_no)
    if kind == "round restore":
        if round_now is not None and round_now != round_no:
            return Say("round %(round)s (round %(then)s then) was brought back", round=round_now, then=round_no)
        return Say("round %(round)s was brought back", round=round_no)
    return Say("a change the app does not know (%(kind)s)", kind=str(kind))


def effects_said(facts: Mapping[str, Any]) -> Joined | None:
    """What a change did to the scores ("Mia +10, Zoe's 8♥ 40 → 50"; None: nothing)."""
    parts: list[Say] = []
    for player, (before, after) in (facts.get("scores") or {}).items():
        parts.append(Say("%(player)s %(points)s", player=player, points=Signed(after - before)))
    for player, card, before, after in facts.get("cards") or ():
        parts.append(Say("%(player)s's %(card)s %(before)s → %(after)s", player=player,
                         card=cards_said([card]), before=before, after=after))
    for player, (before, after) in (facts.get("totals") or {}).items():
        parts.append(Say("%(player)s's total %(before)s → %(after)s", player=player, before=before, after=after))
    return joined(parts, ", ") if parts else None


# ---------------------------------------------------------------------------------------
# What a change of a logged round did (storage/log_changes.py).


def laid(state: LogState) -> list[tuple[int | None, str, tuple[str, ...], tuple[int, ...]]]:
    """Each play of a round that scores card by card (Iceberg's and Rummy 500's melds and
    lay-offs): its id, player, cards and their points."""
    found = []
    for table_play in state.plays():
        points = getattr(table_play.play, "card_points", None)
        cards = getattr(table_play.play, "cards", None)
        if points and cards:
            found.append((table_play.row.id, table_play.row.player, tuple(str(c) for c in cards),
                          tuple(int(p) for p in points)))
    return found


def round_change(kind: str, before: LogState, after: LogState, *, was: PlayRow | None = None,
                 now: PlayRow | None = None, scores_before: Mapping[str, int] | None = None,
                 changed: int | None = None) -> dict[str, Any]:
    """The facts of a change of a logged round: the play it was and became, the players'
    round scores it moved (from ``scores_before``, by default ``before``'s) and the other
    plays' cards whose points it moved."""
    facts: dict[str, Any] = {"kind": kind, "round": after.round_no}
    if was is not None:
        facts["was"] = play_facts(was)
    if now is not None:
        facts["now"] = play_facts(now)
    moved = score_facts(before.scored_round.scores if scores_before is None else scores_before,
                        after.scored_round.scores)
    if moved:
        facts["scores"] = moved
    cards = card_facts(laid(before), laid(after), changed)
    if cards:
        facts["cards"] = cards
    return facts
