"""Hand-count rummies in the database: rows ⇄ the CONTRACT.md game document ⇄ scores.

Basic Rummy, Gin, Kalooki, Conquian and Manipulation are not logged play by play: a
round is recorded when it ends (CONTRACT.md, "Hand-count rummies"), by how it ended and
the cards left in each hand. It is kept in the tables Iceberg uses:

- one ``plays`` row per round says how it ended (``seq`` 1): ``type`` ``out`` (``player``
  went out), ``rummy`` (went out in one turn: the game file's ``"rummy": true``),
  ``knock`` (Gin: ``player`` knocked) or ``stalemate`` (``player`` empty; a tableau in
  Conquian); ``cards`` is ``[]``. Its ``revision`` is bumped by every edit of the round,
  so an edit or delete made from a page that another phone has since changed is refused;
- the ``hands`` table holds each hand entered for the round (``confirmed`` 1): Gin
  both ten-card hands, the other games every player's cards left (the one who went out
  holds none). A round without hand rows has no ``hands`` in the document (Conquian,
  stalemates).

Scores are never stored except as the history list's cache on ``games``: every read
builds the document and scores it with :func:`scorekeeper.gamefile.score_document`,
the same code as ``scorekeeper score``. Every change is one ``write(db)`` transaction
that scores the changed document first: what the rules refuse is :class:`store.Refused`
in plain words, and nothing is saved.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from sqlite_utils import Database

from . import store
from .db import write
from .gamefile import FORMAT, HAND_COUNT, score_document
from .games.cards import parse_card, sort_key
from .games.errors import GameFileError, ScorekeeperError
from .links import new_secret
from .stats import low_wins

VARIANTS = tuple(HAND_COUNT)  # rummy, gin, kalooki, conquian, manipulation
ENDINGS = ("out", "rummy", "knock", "stalemate")
# A round that ended with no one out, as each game calls it.
STALEMATE_WORDS = {"conquian": "tableau", "gin": "void hand (no knock)"}


def ended_words(variant: str, result: Mapping) -> str:
    """How a scored hand-count round ended, for people: a Gin knock says what came of it
    ("Bob went gin", "Ann knocked, Bob undercut"). The game file's own word, ``result["ended"]``
    ("Bob knocked"), is what ``scorekeeper score`` prints and stays as it is."""
    if result["ended"] == "stalemate":
        return STALEMATE_WORDS.get(variant, "stalemate")
    if variant == "gin" and result.get("finished", True):
        roles = {d.get("role"): p for p, d in result.get("detail", {}).items()}
        knocker, defender = roles.get("knocker"), roles.get("defender")
        if knocker and defender:
            if result["scores"].get(defender, 0) > 0:
                return f"{knocker} knocked, {defender} undercut"
            if result["detail"][knocker].get("deadwood_points") == 0:
                return f"{knocker} went gin"
    return result["ended"]


def gin_bonus_words(rules: Mapping, players: list[str], rounds: list[Mapping],
                    sums: Mapping[str, int]) -> str:
    """The bonuses a finished Gin game gave (game.final_totals): "game", "shutout" when the
    loser won no point, "lines" for the hands won; only those worth something."""
    winner = max(players, key=lambda p: sums[p])
    loser = next(p for p in players if p != winner)
    given = []
    if rules.get("game_bonus"):
        given.append("game")
    if sums[loser] == 0 and (rules.get("shutout") == "double" or rules.get("game_bonus")):
        given.append("shutout")
    if rules.get("line_bonus") and any(v > 0 for r in rounds for v in r["scores"].values()):
        given.append("lines")
    return ", ".join(given)


def is_counted(variant: str) -> bool:
    return variant in HAND_COUNT


@dataclass
class CountedRound:
    """One recorded round: how it ended, and the hands entered (player → card names)."""

    how: str  # one of ENDINGS
    player: str = ""  # who went out or knocked ("" for a stalemate)
    hands: dict[str, tuple[str, ...]] | None = None  # None: no hands recorded
    play_id: int | None = None
    revision: int = 0

    def data(self) -> dict:
        """The round as the game file has it."""
        if self.how == "stalemate":
            data: dict = {"stalemate": True}
        elif self.how == "knock":
            data = {"knocker": self.player}
        else:
            data = {"out": self.player, "rummy": self.how == "rummy"}
        if self.hands is not None:
            data["hands"] = {p: list(c) for p, c in self.hands.items()}
        return data

    @classmethod
    def from_data(cls, data: Mapping) -> "CountedRound | None":
        """A checked game file's round (None: an unfinished round, nothing to keep)."""
        if data.get("stalemate"):
            how, player = "stalemate", ""
        elif data.get("knocker"):
            how, player = "knock", data["knocker"]
        elif data.get("out"):
            how, player = ("rummy" if data.get("rummy") else "out"), data["out"]
        else:
            return None
        hands = None
        if "hands" in data:
            hands = {p: canonical(cards) for p, cards in data["hands"].items()}
        return cls(how, player, hands)


def canonical(cards: Iterable[str]) -> tuple[str, ...]:
    """Card names as stored: canonical, sorted by suit and rank (CONTRACT.md, Cards)."""
    return tuple(str(c) for c in sorted((parse_card(c) for c in cards), key=sort_key))


@dataclass
class CountedGame:
    """A hand-count game as stored: seating, rules, and its recorded rounds."""

    id: int | None
    variant: str
    players: list[str]
    rules: dict
    first_dealer: int
    version: int = 0
    created: str = ""
    rounds: list[CountedRound] = field(default_factory=list)

    def document(self, rounds: list[CountedRound] | None = None) -> dict:
        return {
            "format": FORMAT,
            "variant": self.variant,
            "rules": dict(self.rules),
            "players": list(self.players),
            "teams": None,
            "rounds": [r.data() for r in (self.rounds if rounds is None else rounds)],
        }


@dataclass
class Scored:
    """A game and what ``scorekeeper score`` says about it."""

    game: CountedGame
    result: dict  # score_document's output

    @property
    def players(self) -> list[str]:
        return self.game.players

    @property
    def rules(self) -> dict:
        return self.result["rules"]

    @property
    def over(self) -> bool:
        return bool(self.result["winners"])

    @property
    def winners(self) -> list[str]:
        return self.result["winners"]

    @property
    def totals(self) -> dict[str, int]:
        return self.result["totals"]

    @property
    def rounds(self) -> list[dict]:
        return self.result["rounds"]

    @property
    def round_no(self) -> int:
        """The round to be recorded next; once the game is over, the last one played."""
        n = len(self.game.rounds)
        return n if self.over else n + 1

    def round_sums(self) -> dict[str, int]:
        return {p: sum(r["scores"][p] for r in self.rounds) for p in self.players}

    def bonuses(self) -> dict[str, int]:
        """What the totals add to the rounds' scores (Gin's game, shutout and line bonuses)."""
        sums = self.round_sums()
        return {p: self.totals[p] - sums[p] for p in self.players}

    @property
    def lowest_wins(self) -> bool:
        """Penalty games: Manipulation, Kalooki's elimination, Rummy with penalty scoring."""
        return low_wins(self.game.variant, self.rules)

    def ended(self, result: Mapping) -> str:
        """How a scored round ended, in the game's own words (a Conquian stalemate is a tableau)."""
        return ended_words(self.game.variant, result)

    def bonus_words(self) -> str:
        """Gin, once over: which bonuses the Bonuses row holds ("game, lines"), only those given."""
        return gin_bonus_words(self.rules, self.players, self.rounds, self.round_sums()) if (
            self.game.variant == "gin" and self.over) else ""

    def how_won(self) -> str:
        """Why the winner won, once the game is over: "" when the highest total wins."""
        if not self.over:
            return ""
        if self.game.variant == "kalooki":  # who went out scored 0: someone is always left
            return "the last player left"
        return "lowest total" if self.lowest_wins else ""

    def eliminated(self, before: int | None = None) -> list[str]:
        """Kalooki: the players whose total went above the elimination limit (by the end
        of the rounds before round ``before``; of every round scored if None). Rounds are
        scored in order: the first rounds of a game score as they would alone."""
        rounds = self.rounds if before is None else self.rounds[:before - 1]
        if not rounds:
            return []
        last = rounds[-1]["detail"]
        return [p for p in self.players if last.get(p, {}).get("eliminated")]

    def in_play(self, before: int | None = None) -> list[str]:
        """Who still plays (in round ``before``; after every round scored if None)."""
        out = set(self.eliminated(before))
        return [p for p in self.players if p not in out]

    def dealer(self, round_no: int | None = None) -> str:
        """The deal passes to the left each round (seating order, first dealer chosen at the start)."""
        round_no = round_no or self.round_no
        return self.players[(self.game.first_dealer + round_no - 1) % len(self.players)]

    def status(self) -> str:
        if self.over:
            return self.result["status"]
        gone = self.eliminated()
        return "in progress" + (f"; eliminated: {', '.join(gone)}" if gone else "")


# ---------------------------------------------------------------------------------------
# Reading the rows.


def load(db: Database, game_id: int) -> CountedGame:
    """The game as stored (store.NotFound if there is none, ValueError if not hand-count)."""
    conn = db.conn
    snapshot = not conn.in_transaction
    if snapshot:
        conn.execute("BEGIN")
    try:
        cursor, row = store._game_row(conn, game_id)
        game = dict(zip([c[0] for c in cursor.description], row))
        plays = conn.execute(
            "SELECT id, round_no, type, player, revision FROM plays WHERE game = ? "
            "ORDER BY round_no, seq", [game_id]).fetchall()
        hands = conn.execute(
            "SELECT round_no, player, cards FROM hands WHERE game = ? AND confirmed = 1 "
            "ORDER BY round_no, id", [game_id]).fetchall()
    finally:
        if snapshot:
            conn.execute("COMMIT")
    if not is_counted(game["variant"]):
        raise ValueError(f"game {game_id} is a {game['variant']} game")
    counted = CountedGame(game["id"], game["variant"], json.loads(game["players"]),
                          json.loads(game["rules"]), game["first_dealer"], game["version"],
                          game["created"])
    by_round: dict[int, dict] = {}
    for round_no, player, cards in hands:
        by_round.setdefault(round_no, {})[player] = tuple(json.loads(cards))
    for play_id, round_no, kind, player, revision in plays:
        counted.rounds.append(CountedRound(kind, player or "", by_round.get(round_no), play_id,
                                           revision or 0))
    return counted


def score(game: CountedGame, rounds: list[CountedRound] | None = None,
          changed: int | None = None) -> Scored:
    """Score the game (with ``rounds`` instead of its own); the rules' refusal in plain words.

    ``changed``: the round being recorded or edited; a complaint about another round says
    that the change would break it.
    """
    rounds = game.rounds if rounds is None else rounds
    try:
        result = score_document(game.document(rounds))
    except GameFileError as e:
        raise _refusal(e, changed, len(rounds)) from None
    except ScorekeeperError as e:
        raise store.Refused(str(e)) from None
    return Scored(replace(game, rounds=list(rounds)), result)


def _refusal(error: GameFileError, changed: int | None, count: int) -> store.Refused:
    round_no = getattr(error, "round_no", None)
    text = str(error)
    if round_no is None:
        return store.Refused(text)
    here = text.removeprefix(f"round {round_no}, ").removeprefix(f"round {round_no}: ")
    if changed is None or round_no == changed:
        return store.Refused(here)
    if "already over" in text:
        return store.Refused(f"that would end the game before round {round_no}, which was "
                             "played after it: delete the later rounds first")
    return store.Refused(f"that would make round {round_no} illegal: {here}")


# ---------------------------------------------------------------------------------------
# A round as entered on the round-end screen.


def new_round(variant: str, players: list[str], how: str, player: str | None, rummy: bool,
              hands: Mapping[str, Iterable[str]]) -> CountedRound:
    """The round a form describes, checked for what the form itself can get wrong.

    ``how``: "out", "knock" or "stalemate"; ``hands``: the cards picked for each player.
    The rules (hand sizes, the knock limit, cards the decks do not hold …) are checked by
    scoring the game with it (:func:`score`).
    """
    if how not in ("out", "knock", "stalemate"):
        raise store.Refused("say how the round ended: who went out"
                            + (" or knocked" if variant == "gin" else "") + ", or a stalemate")
    if how != "stalemate" and player not in players:
        raise store.Refused("say who " + ("knocked" if how == "knock" else "went out"))
    if how == "knock" and variant != "gin":
        raise store.Refused("only Gin hands end with a knock: say who went out")
    if how == "out" and variant == "gin":
        raise store.Refused("a Gin hand ends with a knock (or gin): say who knocked")
    if rummy and how != "out":
        raise store.Refused("rummy means going out in one turn: say who went out")
    try:
        picked = {p: canonical(cards) for p, cards in hands.items()}
    except ScorekeeperError as e:
        raise store.Refused(str(e)) from None
    kept = None
    if how != "stalemate" and variant != "conquian":
        kept = {p: picked.get(p, ()) for p in players if p in picked}
    kind = "rummy" if rummy else how
    return CountedRound(kind, player if how != "stalemate" else "", kept)


def preview(scored: Scored, round_no: int, rnd: CountedRound) -> Scored:
    """The game scored with this round recorded (or changed), nothing saved."""
    rounds = list(scored.game.rounds)
    if round_no == len(rounds) + 1:
        if scored.over:
            raise store.Refused(f"the game is over: {scored.result['status']}")
        rounds.append(rnd)
    elif 1 <= round_no <= len(rounds):
        rounds[round_no - 1] = replace(rnd, play_id=rounds[round_no - 1].play_id,
                                       revision=rounds[round_no - 1].revision)
    else:
        raise store.NotFound(f"round {round_no} is not in this game")
    return score(scored.game, rounds, changed=round_no)


# ---------------------------------------------------------------------------------------
# Changes: each one transaction, checked by scoring the changed game first.


def _insert_round(db: Database, game_id: int, round_no: int, rnd: CountedRound) -> None:
    stamp = store.now()
    db.conn.execute(
        "INSERT INTO plays (game, round_no, seq, type, player, cards, created) "
        "VALUES (?, ?, 1, ?, ?, '[]', ?)", [game_id, round_no, rnd.how, rnd.player, stamp])
    for player, cards in (rnd.hands or {}).items():
        db.conn.execute(
            "INSERT INTO hands (game, round_no, player, cards, confirmed, created) "
            "VALUES (?, ?, ?, ?, 1, ?)",
            [game_id, round_no, player, json.dumps(list(cards)), stamp])


def _save_cache(db: Database, scored: Scored, version: int) -> Scored:
    """Bump the version and refresh the history list's cache (status, round, totals)."""
    db.conn.execute(
        "UPDATE games SET updated = ?, version = ?, over = ?, status = ?, round_no = ?, "
        "totals = ? WHERE id = ?",
        [store.now(), version + 1, int(scored.over), scored.status(), scored.round_no,
         json.dumps(scored.totals), scored.game.id])
    return scored


def acted_on(db: Database, game_id: int, request_id: str | None) -> bool:
    """Whether this form was acted on already (a double tap, a resubmitted form)."""
    return bool(request_id) and db.conn.execute(
        "SELECT 1 FROM requests WHERE game = ? AND request_id = ?", [game_id, str(request_id)]
    ).fetchone() is not None


def record_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                 rnd: CountedRound) -> Scored:
    """Record the round that just ended. ``round_no``: the round the page was entering;
    if another phone recorded it meanwhile, this one is refused (Stale), not added twice."""
    with write(db):
        game = load(db, game_id)
        store._once(db, game_id, request_id)
        if round_no <= len(game.rounds):
            raise store.Stale(f"round {round_no} was recorded already (on another phone): "
                              "nothing was saved. Look at it on the game page")
        before = score(game)
        if before.over:
            raise store.Refused(f"the game is over: {before.result['status']}")
        if round_no != len(game.rounds) + 1:
            raise store.Refused(f"round {round_no} is not the round being played "
                                f"(round {len(game.rounds) + 1} is)")
        after = score(game, game.rounds + [rnd], changed=round_no)
        _insert_round(db, game_id, round_no, rnd)
        return _save_cache(db, after, game.version)


def _same_revision(game: CountedGame, round_no: int, revision: int | None) -> CountedRound:
    if not 1 <= round_no <= len(game.rounds):
        raise store.Stale(f"round {round_no} is not in the game any more (it was deleted on "
                          "another phone): nothing was changed")
    old = game.rounds[round_no - 1]
    if revision is not None and revision != old.revision:
        raise store.Stale(f"round {round_no} was changed on another phone meanwhile: nothing "
                          "was saved. Look at it again")
    return old


def edit_round(db: Database, game_id: int, request_id: str | None, round_no: int,
               rnd: CountedRound, revision: int | None = None) -> Scored:
    """Change a recorded round; every later round and total is recomputed."""
    with write(db):
        game = load(db, game_id)
        store._once(db, game_id, request_id)
        old = _same_revision(game, round_no, revision)
        rounds = list(game.rounds)
        rounds[round_no - 1] = rnd
        after = score(game, rounds, changed=round_no)
        db.conn.execute("DELETE FROM hands WHERE game = ? AND round_no = ?", [game_id, round_no])
        db.conn.execute("DELETE FROM plays WHERE id = ?", [old.play_id])
        _insert_round(db, game_id, round_no, rnd)
        db.conn.execute("UPDATE plays SET revision = ? WHERE game = ? AND round_no = ?",
                        [old.revision + 1, game_id, round_no])
        return _save_cache(db, after, game.version)


def delete_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                 revision: int | None = None) -> Scored:
    """Remove a recorded round; the rounds after it move up one and everything is recomputed."""
    with write(db):
        game = load(db, game_id)
        store._once(db, game_id, request_id)
        _same_revision(game, round_no, revision)
        rounds = game.rounds[:round_no - 1] + game.rounds[round_no:]
        after = score(game, rounds, changed=round_no)
        for table in ("plays", "hands"):
            db.conn.execute(f"DELETE FROM {table} WHERE game = ? AND round_no = ?", [game_id, round_no])
            # Two steps: the unique (game, round_no, …) indexes never see two rounds at once.
            db.conn.execute(f"UPDATE {table} SET round_no = -round_no WHERE game = ? AND round_no > ?",
                            [game_id, round_no])
            db.conn.execute(f"UPDATE {table} SET round_no = -round_no - 1 WHERE game = ? AND round_no < 0",
                            [game_id])
        return _save_cache(db, after, game.version)


# ---------------------------------------------------------------------------------------
# Game files in and out.


def export_document(db: Database, game_id: int) -> dict:
    """The game file: what ``scorekeeper score`` and an import read back."""
    return load(db, game_id).document()


def import_document(db: Database, doc: Mapping) -> int:
    """Add a hand-count game from a game file, checked in full first (store.Refused: why).

    The file does not say who dealt first: the first seat deals. An unfinished last round
    (no one out, no knock, no stalemate) records nothing yet and is left out.
    """
    try:
        score_document(doc)
    except ScorekeeperError as e:
        raise store.Refused(str(e)) from None
    game = CountedGame(None, doc["variant"], list(doc["players"]), dict(doc.get("rules") or {}), 0)
    game.rounds = [r for r in (CountedRound.from_data(d) for d in doc.get("rounds", [])) if r]
    scored = score(game)
    stamp = store.now()
    with write(db):
        game_id = db.conn.execute(
            "INSERT INTO games (variant, players, rules, first_dealer, created, updated, version, "
            "over, status, round_no, totals, edit_token, view_token) "
            "VALUES (?, ?, ?, 0, ?, ?, 0, 0, 'in progress', 1, '{}', ?, ?)",
            [game.variant, json.dumps(game.players, ensure_ascii=False), json.dumps(game.rules),
             stamp, stamp, new_secret(), new_secret()]).lastrowid
        store._seat_players(db.conn, game_id, game.players)
        for round_no, rnd in enumerate(game.rounds, 1):
            _insert_round(db, game_id, round_no, rnd)
        scored.game.id = game_id
        _save_cache(db, scored, 0)
    return game_id
