"""Robber Rummy in the database: the log of plays ⇄ the game document ⇄ scores.

A Robber game is kept like an Iceberg game (store.py): rows in ``plays`` and the hands
counted at the end of each hand in ``hands`` (entered one by one as drafts, then
confirmed together). Its rows:

- ``meld``, ``layoff`` (``target``: the play id of the meld it lies on) and ``out``: the
  game file's events (a lay-off on a meld someone else owns steals it);
- ``pass``: the turn passed on (a discard); not in the game file;
- ``take``: the discard pile taken, ``cards`` its top card, which must go into a meld (or
  lay-off) by the same player at once: the next play of the hand is that meld, or that
  player's renege. Not in the game file: the meld that follows carries the card;
- ``renege``: ``player`` reneged this hand; the game file's ``"renege": [names]``;
- ``stock``: the last stock card was drawn: the hand ends (no event in the game file; a
  hand without ``out`` but with ``hands`` is one whose stock ran out; imported, its
  ``player`` is empty: the file does not say who drew the last card).

The cards of a meld or lay-off are kept in the order given (CONTRACT.md allows any
order), so a game file comes back out as it went in; the log shows them arranged as the
meld lies on the table (a sequence low to high, its ace where it was played).

Every read builds the game document and scores it with ``gamefile.score_robber`` (the
code behind ``scorekeeper score``); every change is one ``write(db)`` transaction that
checks the changed log the same way first, records the form's request id (a double tap
counts once) and bumps the game's version, with the history list's cache refreshed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Iterable, Mapping

from sqlite_utils import Database

from . import gamefile, store
from .db import write
from .gamefile import FORMAT
from .games import robber
from .games.cards import Card, card_names, parse_card
from .games.errors import GameFileError, ScorekeeperError
from .links import new_secret
from .store import GameLog, PlayRow, Refused, Repeated, Stale

VARIANT = "robber"
EVENTS = ("meld", "layoff", "out")
ROW_TYPES = (*EVENTS, "pass", "take", "renege", "stock")
ENDINGS = ("out", "stock")


def is_robber(variant: str) -> bool:
    return variant == VARIANT


# ---------------------------------------------------------------------------------------
# The log as a game document.


def _round_data(log: GameLog, rows: list[PlayRow], hands: Mapping | None) -> dict:
    events = tuple(r for r in rows if r.type in EVENTS)
    data: dict = {"events": store._events_json(log, events, (), fresh=True)}
    renege = [r.player for r in rows if r.type == "renege"]
    if renege:
        data["renege"] = renege
    if hands is not None:
        data["hands"] = {p: list(c) for p, c in hands.items()}
    return data


def document(log: GameLog) -> dict:
    """The CONTRACT.md game file of this log."""
    hands = dict(log.hands)
    last = max([p.round_no for p in log.plays] + list(hands), default=0)
    rounds = [_round_data(log, log.rows(r), hands.get(r)) for r in range(1, last + 1)]
    return {"format": FORMAT, "variant": VARIANT, "rules": dict(log.rules),
            "players": list(log.players), "teams": log.teams, "rounds": rounds}


def _events_of(log: GameLog, last: int) -> list[list[PlayRow]]:
    """Each round's event rows: the rows behind the document's events (for refusals)."""
    return [[r for r in log.rows(n) if r.type in EVENTS] for n in range(1, last + 1)]


# ---------------------------------------------------------------------------------------
# The replayed game.


@dataclass
class TableMeld:
    """A meld on the table as the page shows it."""

    pid: int  # the play id of the row that made it
    number: int
    tm: robber.TableMeld
    side: str  # its owner's side: the player, or the team
    colour: int  # the side's colour (its index among the sides)
    locked: bool
    value: int


@dataclass
class LogLine:
    row: PlayRow
    text: str
    steal: bool = False


@dataclass
class RobberState:
    """What the replay says: the hand being played, whose turn, the live and game scores."""

    log: GameLog
    doc: dict
    scored: dict
    round: robber.Round  # the hand being played (or the last one, once the game is over)
    rules: Mapping
    round_no: int
    drafts: dict  # the hands entered so far at the end of the hand
    preview: dict | None = None  # the score with those hands counted (replay with_drafts)

    @property
    def players(self) -> list[str]:
        return self.log.players

    @property
    def teams(self) -> list[list[str]] | None:
        return self.log.teams

    @property
    def sides(self) -> list[str]:
        """The sides that score: the teams' names, or the players."""
        if self.teams:
            return [" & ".join(t) for t in self.teams]
        return list(self.players)

    def side(self, player: str) -> str:
        return self.round.side(player)

    def colour(self, player: str) -> int:
        return self.sides.index(self.side(player))

    @property
    def over(self) -> bool:
        return bool(self.scored["winners"])

    @property
    def winners(self) -> list[str]:
        return self.scored["winners"]

    @property
    def tied(self) -> bool:
        return self.scored["status"].startswith("tie")

    def status(self) -> str:
        return self.scored["status"]

    @property
    def result(self) -> SimpleNamespace:
        """What the shared score strip (_scores.html) reads."""
        return SimpleNamespace(totals=self.scored["totals"], winners=self.winners)

    @property
    def finished_rounds(self) -> int:
        return sum(1 for r in self.scored["rounds"] if r["finished"])

    def rows(self) -> list[PlayRow]:
        return self.log.rows(self.round_no)

    def dealer(self, round_no: int | None = None) -> str:
        return self.players[self.log.dealer_index(round_no or self.round_no)]

    @property
    def turn(self) -> str:
        return self.players[self.log.turn_index(self.round_no)]

    @property
    def ending(self) -> bool:  # Iceberg's "last turn" screen: none in Robber Rummy
        return False

    @property
    def end_row(self) -> PlayRow | None:
        return next((r for r in self.rows() if r.type in ENDINGS), None)

    @property
    def ended(self) -> bool:
        """The hand is over (someone went out, or the stock ran out) and not counted yet."""
        return not self.over and self.end_row is not None

    def end_reason(self) -> str:
        row = self.end_row
        return "" if row is None else ended_words(row)

    @property
    def pending_take(self) -> PlayRow | None:
        """A discard pile taken whose top card has not gone into a meld yet."""
        pending = None
        for row in self.rows():
            if row.type == "take":
                pending = row
            elif pending is not None and _settles(pending, row):
                pending = None
        return pending

    def last_row(self) -> PlayRow | None:
        rows = self.rows()
        return rows[-1] if rows else None

    def live(self) -> dict:
        """Each player's score if the hand ended now (melds owned; the team's in partnership)."""
        return self.scored["rounds"][-1]["scores"] if self.current_in_doc else {p: 0 for p in self.players}

    @property
    def current_in_doc(self) -> bool:
        return len(self.scored["rounds"]) >= self.round_no and not self.over

    def melds(self) -> list[TableMeld]:
        pids = [r.id for r in self.rows() if r.type == "meld"]
        return [TableMeld(pid, tm.number, tm, self.side(tm.owner), self.colour(tm.owner),
                          self.round.locked(tm.number), tm.meld.value(self.rules))
                for pid, tm in zip(pids, self.round.melds)]

    def _arranged(self, play: robber.Play) -> str:
        """A play's cards in the order they lie in their meld on the table now (a card's
        place in a meld never changes once played)."""
        lying = self.round.melds[play.meld_number - 1].meld.cards
        return card_names(sorted(play.cards, key=lying.index))

    def log_lines(self) -> list[LogLine]:
        """The hand so far, newest last, in words: steals say whose meld was stolen."""
        lines = []
        turn = self.log.dealer_index(self.round_no) + 1
        plays = iter(self.round.plays)
        for row in self.rows():
            if row.type in EVENTS:
                play = next(plays)
                if row.type == "meld":
                    text = f"{row.player} melds {self._arranged(play)} (meld {play.meld_number})"
                elif row.type == "layoff" and play.stolen_from:
                    text = (f"{row.player} steals meld {play.meld_number} from {play.stolen_from} "
                            f"with {self._arranged(play)}")
                elif row.type == "layoff":
                    text = f"{row.player} adds {self._arranged(play)} to meld {play.meld_number}"
                else:
                    text = f"{row.player} went out"
                lines.append(LogLine(row, text, bool(play.stolen_from)))
            elif row.type == "pass":
                turn += 1
                lines.append(LogLine(row, f"{row.player} discarded: {self.players[turn % len(self.players)]}’s turn"))
            elif row.type == "take":
                lines.append(LogLine(row, f"{row.player} took the discard pile ({row.cards[0]} on top)"))
            elif row.type == "renege":
                lines.append(LogLine(row, f"{row.player} reneged: −{self.rules['renege_penalty']} this hand"))
            else:
                lines.append(LogLine(row, stock_words(row)))
        return lines

    def hand_ended(self, round_no: int) -> str:
        """How hand ``round_no`` ended, in words: out, the stock, or the game file's word."""
        row = next((r for r in self.log.rows(round_no) if r.type in ENDINGS), None)
        if row is not None:
            return ended_words(row)
        result = self.hand_result(round_no)
        return result["ended"] if result else ""

    def hand_result(self, round_no: int) -> dict | None:
        rounds = self.scored["rounds"]
        return rounds[round_no - 1] if 1 <= round_no <= len(rounds) else None

    def missing_hands(self) -> list[str]:
        out = self.end_row.player if self.end_row is not None and self.end_row.type == "out" else None
        return [p for p in self.players if p not in self.drafts and p != out]

    @property
    def out(self) -> str | None:
        row = self.end_row
        return row.player if row is not None and row.type == "out" else None


def ended_words(row: PlayRow) -> str:
    """How a hand ended, from its ``out`` or ``stock`` row."""
    if row.type == "out":
        return f"{row.player} went out"
    return f"the stock ran out ({row.player} drew the last card)" if row.player else "the stock ran out"


def stock_words(row: PlayRow) -> str:
    return f"the stock ran out: {row.player} drew the last card" if row.player else "the stock ran out"


def read_cards(values: Iterable[str]) -> tuple[str, ...]:
    """Canonical names for the cards of a play, in the order given; an unknown card is
    refused (store.read_cards sorts them: a hand has no order, a game file's meld may)."""
    cards: list[Card] = []
    for value in values:
        try:
            cards.append(parse_card(value))
        except ScorekeeperError as e:
            raise Refused(str(e)) from None
    return tuple(str(c) for c in cards)


def _refused(error: ScorekeeperError, log: GameLog, last: int, changed: PlayRow | None) -> Refused:
    if isinstance(error, GameFileError):
        return store._refusal(error, _events_of(log, last), changed, log)
    return Refused(str(error))


def replay(log: GameLog, changed: PlayRow | None = None, with_drafts: bool = False) -> RobberState:
    """Score the log through the game file; refuse (plain words) what the rules do not allow.

    ``with_drafts``: at the end of a hand, also score it with the hands entered so far
    (``state.preview``), as it would be counted.
    """
    finished = max(log.hands, default=0)
    round_no = max([finished + 1] + [p.round_no for p in log.plays])
    drafts = dict(log.drafts.get(round_no, {}))
    doc = document(log)
    preview = None
    try:
        scored = gamefile.score_robber(doc)
        if scored["winners"]:
            round_no = finished
        data = doc["rounds"][round_no - 1] if round_no <= len(doc["rounds"]) else {"events": []}
        players = list(log.players)
        rules = robber.resolve_rules(log.rules, len(players))
        teams = gamefile._check_teams(doc, players)
        round_, _hands = gamefile.replay_round(robber.Round(players, rules, teams),
                                               {k: v for k, v in data.items() if k != "hands"},
                                               round_no, EVENTS, ("renege",))
        if with_drafts and not scored["winners"] and any(r.type in ENDINGS for r in log.rows(round_no)):
            out = next((r.player for r in log.rows(round_no) if r.type == "out"), None)
            hands = {p: list(c) for p, c in drafts.items()}
            if out:
                hands[out] = []
            counted = dict(doc, rounds=doc["rounds"][:round_no - 1] + [dict(data, hands=hands)])
            preview = gamefile.score_robber(counted)
    except ScorekeeperError as e:
        raise _refused(e, log, max(round_no, len(doc["rounds"])), changed) from None
    return RobberState(log, doc, scored, round_, rules, round_no, drafts, preview)


def load(db: Database, game_id: int, with_drafts: bool = False) -> RobberState:
    log = store.load(db, game_id)
    if not is_robber(log.variant):
        raise ValueError(f"game {game_id} is not a Robber Rummy game")
    return replay(log, with_drafts=with_drafts)


# ---------------------------------------------------------------------------------------
# Changes: each is one transaction, checked by scoring the changed log first.


def _save_cache(db: Database, log: GameLog, state: RobberState | None = None) -> RobberState:
    """The games row's summary, as ``store._save_cache`` keeps it (a Robber state answers
    what it reads: over, status, hand number, totals)."""
    return store._save_cache(db, log, state or replay(log))


def _playing(state: RobberState) -> None:
    if state.over:
        raise Refused(f"the game is over: {state.status()}")
    if state.ended:
        raise Refused(f"the hand is over ({state.end_reason()}): count the hands")


def _settles(take: PlayRow, row: PlayRow) -> bool:
    """``row`` settles the discard pile ``take``: its taker puts the top card into a meld or
    lay-off, or reneges."""
    return row.player == take.player and (
        row.type == "renege" or (row.type in ("meld", "layoff") and take.cards[0] in row.cards))


def check_order(rows: Iterable[PlayRow], penalty: int) -> None:
    """The table's order of play that the game file does not record: the discard pile's
    top card goes at once into a meld or lay-off by whoever took it (or that player
    reneges); a renege is once a hand."""
    pending, reneged = None, set()
    for row in rows:
        if row.type == "take" and len(row.cards) != 1:
            raise Refused("pick the one card on top of the discard pile")
        if row.type == "renege":
            if row.player in reneged:
                raise Refused(f"{row.player} has reneged this hand already: the hand scores "
                              f"−{penalty} once")
            reneged.add(row.player)
        if pending is not None and not (row.type == "renege" and row.player != pending.player):
            top = pending.cards[0]
            mine = row.player == pending.player
            if not _settles(pending, row):
                why = (f": {' '.join(row.cards)} does not include {top}"
                       if mine and row.type in ("meld", "layoff") else "")
                raise Refused(f"{pending.player} took the discard pile: its top card {top} must "
                              f"go into a meld or lay-off by {pending.player} first (or "
                              f"{pending.player} reneges){why}")
            pending = None
        if row.type == "take":
            pending = row


def _candidate(state: RobberState, kind: str, player: str, cards: tuple[str, ...],
               target: int | None) -> PlayRow:
    if kind not in ROW_TYPES:
        raise Refused(f"unknown kind of play {kind!r}")
    if player not in state.players:
        raise Refused(f"'{player}' is not playing in this game")
    rows = state.rows()
    seq = rows[-1].seq + 1 if rows else 1
    if kind in ("meld", "layoff", "take") and not cards:
        raise Refused("pick the cards first")
    if kind == "layoff" and target not in {m.pid for m in state.melds()}:
        raise Refused("tap a meld on the table to lay off on it")
    return PlayRow(None, state.round_no, seq, kind, player,
                   cards if kind in ("meld", "layoff", "take") else (),
                   target if kind == "layoff" else None)


def check_play(state: RobberState, kind: str, player: str, cards: Iterable[str] = (),
               target: int | None = None) -> tuple[PlayRow, RobberState]:
    """The row this play would add and the game after it; Refused (nothing saved) if not."""
    _playing(state)
    cards = read_cards(cards)
    row = _candidate(state, kind, player, cards, target)
    check_order(state.rows() + [row], state.rules["renege_penalty"])
    store.check_supply(state, row.cards)
    log = replace(state.log, plays=state.log.plays + [row])
    return row, replay(log, row)


def add_play(db: Database, game_id: int, request_id: str | None, kind: str, player: str,
             cards: Iterable[str] = (), target: int | None = None,
             turn: str | None = None) -> tuple[PlayRow, RobberState]:
    """Log a play of the hand being played: meld, lay-off (a steal when the meld is
    someone else's), take (the discard pile), renege, out, stock (ran out) or pass.

    ``turn`` (for a pass): whose turn the phone showed; if another phone passed it on
    meanwhile, the pass is refused rather than skipping a player.
    """
    with write(db):
        log = store.load(db, game_id)
        if not is_robber(log.variant):
            raise Refused("this game is not a Robber Rummy game")
        store._once(db, game_id, request_id)
        state = replay(log)
        if kind == "pass":
            _playing(state)
            player = state.turn
            if turn is not None and turn != state.turn:
                raise Stale(f"the turn already passed to {state.turn} (on another phone): "
                            "nothing was changed")
        row, after = check_play(state, kind, player, cards, target)
        row.id = store._insert_play(db, game_id, row)
        log.plays.append(row)
        return row, _save_cache(db, log, after)


def undo(db: Database, game_id: int, request_id: str | None = None,
         last: int | None = None) -> str:
    """Take back the last play of the hand; with none, reopen the last hand's count.

    ``last``: the id of the last play the phone showed (0: none); if another phone
    logged or took back a play meanwhile, nothing is undone.
    """
    with write(db):
        log = store.load(db, game_id)
        store._once(db, game_id, request_id)
        state = replay(log)
        rows = [] if state.over else state.rows()
        now_last = rows[-1].id if rows else 0
        if last is not None and last != now_last:
            raise Stale("the table changed on another phone: nothing was undone; "
                        "look at the table and undo again")
        if rows:
            row = rows[-1]
            log.plays.remove(row)
            after = replay(log)  # what is left still scores: else nothing is deleted
            db.conn.execute("DELETE FROM plays WHERE id = ?", [row.id])
            _save_cache(db, log, after)
            return f"took back {play_words(row)}"
        if not log.hands:
            raise Refused("there is nothing to undo yet")
        round_no = max(log.hands)
        db.conn.execute("UPDATE hands SET confirmed = 0 WHERE game = ? AND round_no = ?",
                        [game_id, round_no])
        log.drafts[round_no] = log.hands.pop(round_no)
        _save_cache(db, log)
        return f"reopened the count of hand {round_no}: the hands can be changed"


_WORDS = {"take": "taking of the discard pile", "renege": "renege", "stock": "stock running out"}


def play_words(row: PlayRow) -> str:
    """A play of the log in a few words ("Ann's meld (H3 H4 H5)", "the stock running out")."""
    if row.type in store.PLAY_TYPES:
        return row.describe()
    return f"{row.player}’s {_WORDS[row.type]}" if row.player else f"the {_WORDS[row.type]}"


def delete_play(db: Database, game_id: int, request_id: str | None, play_id: int,
                revision: int | None = None) -> PlayRow:
    """Remove a play of the hand being played, if everything after it still stands."""
    with write(db):
        log = store.load(db, game_id)
        store._once(db, game_id, request_id)
        store._same_revision(db, log, play_id, revision)
        row = log.play(play_id)
        state = replay(log)
        if row.round_no != state.round_no or state.over or row.round_no in log.hands:
            raise Refused("only the plays of the hand being played can be deleted")
        if row.type == "meld" and any(p.target == row.id for p in log.plays):
            raise Refused("a lay-off lies on this meld: delete that lay-off first")
        log.plays.remove(row)
        after = replay(log)
        check_order(after.rows(), after.rules["renege_penalty"])
        db.conn.execute("DELETE FROM plays WHERE id = ?", [play_id])
        _save_cache(db, log, after)
        return row


# The end of a hand: each player's leftover cards (drafts), then confirmed together.


def _hand_end(state: RobberState, round_no: int) -> None:
    if state.over:
        raise Refused(f"the game is over: {state.status()}")
    if round_no != state.round_no:
        raise Refused(f"hand {round_no} is not the hand being played (hand {state.round_no} is)")
    if not state.ended:
        raise Refused("the hand is not over yet: someone goes out, or the stock runs out")


def save_hand(db: Database, game_id: int, request_id: str | None, round_no: int, player: str,
              cards: Iterable[str]) -> RobberState:
    with write(db):
        log = store.load(db, game_id)
        store._once(db, game_id, request_id)
        state = replay(log)
        _hand_end(state, round_no)
        if player not in log.players:
            raise Refused(f"'{player}' is not playing in this game")
        cards = store.read_cards(cards)
        if player == state.out and cards:
            raise Refused(f"{player} went out and holds no cards")
        log.drafts.setdefault(round_no, {})[player] = cards
        after = replay(log, with_drafts=True)
        store._upsert_hand(db, game_id, round_no, player, cards, 0)
        _save_cache(db, log)
        return after


def confirm_hand(db: Database, game_id: int, request_id: str | None, round_no: int) -> RobberState:
    """Count the hands entered: the hand is scored and the next starts with the next dealer."""
    with write(db):
        log = store.load(db, game_id)
        store._once(db, game_id, request_id)
        if round_no in log.hands:
            raise Repeated(f"hand {round_no} was counted already")
        state = replay(log)
        _hand_end(state, round_no)
        missing = state.missing_hands()
        if missing:
            raise Refused(f"enter the cards left in {', '.join(missing)}'s hand first")
        hands = dict(log.drafts.pop(round_no, {}))
        if state.out:
            hands[state.out] = ()
        log.hands[round_no] = hands
        after = replay(log)
        for player, cards in hands.items():
            store._upsert_hand(db, game_id, round_no, player, cards, 1)
        return _save_cache(db, log, after)


# ---------------------------------------------------------------------------------------
# Game files in and out.


def export_document(db: Database, game_id: int) -> dict:
    return document(store.load(db, game_id))


def import_document(db: Database, doc: Mapping) -> int:
    """A Robber Rummy game from its game file, checked in full first (the first seat deals)."""
    try:
        gamefile.score_robber(doc)
    except ScorekeeperError as e:
        raise Refused(str(e)) from None
    players = list(doc["players"])
    rules = dict(doc.get("rules") or {})
    teams = doc.get("teams")
    stamp = store.now()
    with write(db):
        game_id = db["games"].insert(
            {"variant": VARIANT, "players": json.dumps(players, ensure_ascii=False),
             "rules": json.dumps(rules), "first_dealer": 0, "created": stamp, "updated": stamp,
             "teams": json.dumps(teams, ensure_ascii=False) if teams is not None else None,
             "version": 0, "over": 0, "status": "in progress", "round_no": 1,
             "totals": "{}", "edit_token": new_secret(), "view_token": new_secret()}
        ).last_pk
        store._seat_players(db.conn, game_id, players)

        def insert(round_no: int, seq: int, kind: str, player: str, cards=(), target=None) -> int:
            return db.conn.execute(
                "INSERT INTO plays (game, round_no, seq, type, player, cards, target, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [game_id, round_no, seq, kind, player, json.dumps(list(cards)), target, stamp],
            ).lastrowid

        for round_no, data in enumerate(doc.get("rounds", []), 1):
            meld_ids: list[int] = []
            seq = 0
            for event in data.get("events", []):
                seq += 1
                cards = [str(parse_card(c)) for c in event.get("cards", [])]
                target = meld_ids[event["meld"] - 1] if event["type"] == "layoff" else None
                play_id = insert(round_no, seq, event["type"], event["player"], cards, target)
                if event["type"] == "meld":
                    meld_ids.append(play_id)
            for player in data.get("renege", []):
                seq += 1
                insert(round_no, seq, "renege", player)
            if "hands" in data:
                if not any(e["type"] == "out" for e in data.get("events", [])):
                    seq += 1  # the file does not say who drew the last card
                    insert(round_no, seq, "stock", "")
                for player in players:
                    cards = [str(parse_card(c)) for c in data["hands"].get(player, [])]
                    store._upsert_hand(db, game_id, round_no, player, cards, 1)
        _save_cache(db, store.load(db, game_id))
    return game_id
