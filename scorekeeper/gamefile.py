"""The game file (docs/game-file.md): read it, check it, replay it, and score it.

One JSON document describes a whole game: seating, rules and every round. The app
exports and imports it, ``scorekeeper score`` recomputes every score from it, the web
pages and the statistics are drawn from its replay: :func:`replay` is the one place a
game is scored. It is a public format: anything not understood is refused with one
sentence naming the round, the event and what is wrong.

What a game's rounds hold is said by the game (its ``VARIANT``, games/variant.py): a
log of plays (:func:`replay_log`) or hands counted at the end (:func:`replay_counted`).
This module knows those two shapes, never a game by name. It is pure: no Flask, no
database.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from .games import registry
from .games.cards import Card, CardError, Supply, parse_cards
from .games.errors import GameFileError, ScorekeeperError
from .games.handcount import RUMMY, HandRound
from .games.variant import COUNT, LOG, CountVariant, LogVariant, Variant

FORMAT = "scorekeeper/1"
TOP_KEYS = {"format", "variant", "rules", "players", "teams", "rounds"}
HAND_ROUND_KEYS = {"out", RUMMY, "hands", "stalemate", "knocker"}
ROUNDS_KEPT = 4096  # a game being played has some ten rounds, and one more per play


# What the JSON reader stopped at, in the app's words (not the reader's own).
JSON_FAULTS = {
    "Expecting value": "a value was expected (a number, text in double quotes, true, false, "
                       "null, a list or an object)",
    "Expecting property name enclosed in double quotes": "a name in double quotes was expected",
    "Expecting ',' delimiter": "a comma was expected",
    "Expecting ':' delimiter": "a colon was expected",
    "Extra data": "more follows the end of the document",
    "Unterminated string starting at": "a text is not closed by a double quote",
    "Invalid control character at": "a text holds a line break or a tab (write \\n or \\t)",
    "Invalid \\escape": "a backslash escape that JSON does not have",
    "Invalid \\uXXXX escape": "a backslash escape that JSON does not have",
}


def parse_json(text: str) -> Any:
    if not text.strip():
        raise GameFileError("not a game file: it is empty (a game file is a JSON document)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fault = JSON_FAULTS.get(e.msg, "not JSON")
        raise GameFileError(f"not a game file: invalid JSON at line {e.lineno}, column {e.colno}: {fault}") from None
    except RecursionError:
        raise GameFileError("not a game file: the JSON is nested too deeply") from None
    except ValueError:  # an integer of thousands of digits
        raise GameFileError("not a game file: it holds a number too long to read") from None


def read_header(doc: Any) -> tuple[Variant, list]:
    """The checks every game file gets, whatever its variant: (its variant, its rounds)."""
    if not isinstance(doc, dict):
        raise GameFileError("not a game file: the document must be a JSON object")
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise GameFileError(f"unknown field '{unknown[0]}' in the game file")
    if doc.get("format", FORMAT) != FORMAT:
        raise GameFileError(f"format {doc.get('format')!r} is not supported (expected '{FORMAT}')")
    variant = doc.get("variant")
    if variant is None:
        raise GameFileError(f"the game file names no variant (\"variant\": one of "
                            f"{', '.join(registry.VARIANTS)})")
    if not isinstance(variant, str) or registry.get(variant) is None:
        known = ", ".join(registry.VARIANTS)
        raise GameFileError(f"unknown variant {variant!r} (expected one of: {known})")
    rounds = doc.get("rounds", [])
    if not isinstance(rounds, list):
        raise GameFileError("rounds must be a list")
    return registry.get(variant), rounds


def replay(doc: Any):
    """The whole game a document describes, replayed and scored (or GameFileError).

    A log game (:class:`LogGame`) or a counted one (:class:`CountGame`): each has the
    players, rules, rounds (``scores``, ``finished``, ``ended``), totals, winners and
    ``as_json()``, the output of ``scorekeeper score``.
    """
    variant, _rounds = read_header(doc)
    return REPLAYS[variant.recording](variant, doc)


def score_document(doc: Any) -> dict:
    """The ``scorekeeper score`` output for a parsed game document."""
    return replay(doc).as_json()


def score_text(text: str) -> dict:
    return score_document(parse_json(text))


# ---------------------------------------------------------------------------------------
# What every game file is checked for.


def _where(round_no: int, event_no: int | None = None) -> str:
    return f"round {round_no}" + (f", event {event_no}" if event_no else "")


def located(error: ScorekeeperError | str, round_no: int, event_no: int | None = None,
            place: str = "") -> GameFileError:
    """The error with its place in the file; ``.reason`` keeps the plain sentence.

    ``place`` names a part of the round more closely ("hands of Bob").
    """
    where = _where(round_no, event_no) + (f", {place}" if place else "")
    found = GameFileError(f"{where}: {error}")
    found.reason, found.round_no, found.event_no = str(error), round_no, event_no
    return found


def check_players(doc: Mapping, variant: Variant) -> list[str]:
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise GameFileError("players must be a list of names")
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise GameFileError(f"players: '{twice}' is listed twice; names must be unique")
    low, high = variant.min_players, variant.max_players
    if not low <= len(players) <= high:
        raise GameFileError(f"{variant.name} is played by {low} to {high} players, not {len(players)}")
    return players


def check_teams(doc: Mapping, players: list[str], variant: Variant) -> dict[str, str]:
    """Partnerships, where the game has them: 4 players in two teams of two (docs/rules/);
    player → team name ("Ann & Cy"). Empty without partnerships."""
    teams = doc.get("teams")
    if teams is None:
        return {}
    if not variant.partnerships:
        raise GameFileError(f"teams: {variant.name} is played without partnerships (teams must be null)")
    if (
        not isinstance(teams, list)
        or not all(isinstance(t, list) and t and all(isinstance(p, str) for p in t) for t in teams)
    ):
        raise GameFileError("teams must be null or a list of lists of player names")
    named = [p for t in teams for p in t]
    for p in named:
        if p not in players:
            raise GameFileError(f"teams: unknown player {p!r}")
    if sorted(named) != sorted(players):
        raise GameFileError("teams: every player must be in exactly one team")
    if len(players) != 4 or len(teams) != 2 or any(len(t) != 2 for t in teams):
        raise GameFileError("teams: partnership play is 4 players in two teams of two")
    return {p: " & ".join(t) for t in teams for p in t}


def resolve_rules(doc: Mapping, variant: Variant, players: list[str]):
    try:
        return variant.rules.resolve(doc.get("rules"), len(players))
    except ScorekeeperError as e:
        raise GameFileError(f"rules: {e}") from None


def _check_not_over(round_no: int, over: bool) -> None:
    if over:
        raise located(f"the game was already over after round {round_no - 1}", round_no)


def _check_finished(round_no: int, rounds: list, finished: bool) -> None:
    if not finished and round_no < len(rounds):
        raise located("has no hands, but only the last round may be unfinished", round_no)


def _check_hand(supply: Supply, player: str, cards: Any, round_no: int) -> list[Card]:
    """One player's cards left in hand, counted against the decks like the table's."""
    if not isinstance(cards, list):
        raise located("must be a list of cards", round_no, place=f"hands of {player}")
    try:
        parsed = parse_cards(cards, "cards") if cards else []
        supply.take(parsed)
    except CardError as e:
        raise located(e, round_no, place=f"hands of {player}") from None
    return parsed


# ---------------------------------------------------------------------------------------
# A log of plays: Iceberg, Robber Rummy.


def apply_event(round_: Any, event: Any, types: tuple[str, ...]) -> None:
    """Apply one logged event to the round; a bad event raises and changes nothing."""
    if not isinstance(event, dict):
        raise GameFileError("an event must be an object with a type and a player")
    kind = event.get("type")
    if kind not in types:
        raise GameFileError(f"unknown event type {kind!r} (expected {', '.join(types)})")
    allowed = {"type", "player"} | ({"cards"} if kind != "out" else set()) | (
        {"meld"} if kind == "layoff" else set()
    )
    extra = sorted(set(event) - allowed)
    if extra:
        raise GameFileError(f"unknown field '{extra[0]}' in a {kind} event")
    player = event.get("player")
    if player not in round_.players:
        raise GameFileError(f"unknown player {player!r}")
    if kind == "out":
        round_.go_out(player)
        return
    cards = parse_cards(event.get("cards"), f"the {kind}'s cards")
    if kind == "ace":
        round_.ace(player, cards)
    elif kind == "meld":
        round_.meld(player, cards)
    else:
        number = event.get("meld")
        if not isinstance(number, int) or isinstance(number, bool):
            raise GameFileError("a layoff names the meld it goes on by number (\"meld\": 2)")
        round_.lay_off(player, number, cards)


def _round_lists(variant: LogVariant, data: Any, players: list[str], round_no: int) -> dict:
    """The round's lists of players (Robber Rummy: who reneged), each checked."""
    lists = {}
    for key in variant.round_lists:
        names = data.get(key, []) if isinstance(data, dict) else []
        if not isinstance(names, list) or any(p not in players for p in names):
            raise located(f"{key} must be a list of player names", round_no)
        lists[key] = names
    return lists


def replay_round(variant: LogVariant, round_: Any, data: Any, round_no: int):
    """Replay one round's log onto ``round_``; (round, hands or None)."""
    if not isinstance(data, dict):
        raise located("a round must be an object with events (and hands)", round_no)
    extra = sorted(set(data) - {"events", "hands", *variant.round_lists})
    if extra:
        raise located(f"unknown field '{extra[0]}' in a round", round_no)
    events = data.get("events", [])
    if not isinstance(events, list):
        raise located("events must be a list", round_no)
    for event_no, event in enumerate(events, 1):
        try:
            apply_event(round_, event, variant.events)
        except ScorekeeperError as e:
            raise located(e, round_no, event_no) from None
    if "hands" not in data:
        return round_, None
    hands_data = data["hands"]
    if not isinstance(hands_data, dict):
        raise located("hands must be an object of player names and cards", round_no)
    hands = {}
    for player, cards in hands_data.items():
        if player not in round_.players:
            raise located(f"unknown player {player!r}", round_no, place="hands")
        hands[player] = _check_hand(round_.supply, player, cards, round_no)
    return round_, hands


@dataclass
class LogGame:
    """A game of logged rounds, replayed: each round's table, plays and scores."""

    variant: LogVariant
    players: list[str]
    rules: Mapping
    teams: dict[str, str]  # player → team name (empty without partnerships)
    teams_listed: Any  # the game file's ``teams``, as it was
    rounds: list  # the variant's round results: scores, finished, ended, round, as_json()
    totals: dict[str, int]
    winners: list[str]
    over: bool
    tied_at_target: bool = False

    def status(self) -> str:
        if self.winners:
            return " & ".join(self.winners) + (" wins" if len(self.winners) == 1 else " win")
        if self.tied_at_target:
            return (f"tie at the top at {self.rules['target']} or more: play another "
                    f"{self.variant.round_word}")
        return "in progress"

    def as_json(self) -> dict:
        out = {"variant": self.variant.key, "rules": dict(self.rules)}
        if self.variant.partnerships:
            out["teams"] = self.teams_listed
        out.update(rounds=[r.as_json() for r in self.rounds], totals=self.totals,
                   winners=self.winners, status=self.status())
        return out


def replay_log(variant: LogVariant, doc: Mapping) -> LogGame:
    players = check_players(doc, variant)
    teams = check_teams(doc, players, variant)
    rules = resolve_rules(doc, variant, players)
    rounds = doc.get("rounds", [])
    results = []
    totals = {p: 0 for p in players}
    over, winners, tied = False, [], False
    for round_no, data in enumerate(rounds, 1):
        _check_not_over(round_no, over)
        result = kept_round(canonical_text((variant.key, players, dict(rules), teams, data, round_no)))
        _check_finished(round_no, rounds, result.finished)
        results.append(result)
        if result.finished:
            totals = {p: totals[p] + result.scores[p] for p in players}
            over, winners, tied = variant.standing(players, rules, totals, teams)
    return LogGame(variant, players, rules, teams, doc.get("teams"), results, totals, winners,
                   over, tied)


def logged_round(variant: LogVariant, players: list[str], rules: Mapping, teams: Mapping,
                 data: Any, round_no: int):
    """One round of a log game, replayed and scored (the variant's round result)."""
    lists = _round_lists(variant, data, players, round_no)
    round_, hands = replay_round(variant, variant.new_round(players, rules, teams), data, round_no)
    try:
        return variant.score_round(round_, hands, lists)
    except ScorekeeperError as e:
        raise located(e, round_no, place=e.place) from None


def canonical_text(value: Any) -> str:
    """JSON data as one text: the same data, whatever its keys' order, the same text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@lru_cache(maxsize=ROUNDS_KEPT)
def kept_round(key: str):
    """:func:`logged_round`, kept by everything a round is made from (the variant, the
    players, the rules, the teams, the round's data and its number, as JSON text): the
    same round gives the same result every time it is replayed. A game is replayed by
    every page, live update and play, and all but its last round are as they were; the
    last one too, but for the play just logged (at full load a third of the CPU a play
    costs: benchmarks/README.md). A refusal is not kept. The results are shared between
    requests: read only."""
    key_, players, rules, teams, data, round_no = json.loads(key)
    variant = registry.get(key_)
    return logged_round(variant, players, variant.rules.resolve(rules, len(players)), teams,
                        data, round_no)


# ---------------------------------------------------------------------------------------
# Hand-count rummies: a round says how it ended and what was left in hands.


def read_hand_round(variant: CountVariant, data: Any, players: list[str], round_no: int) -> HandRound:
    """One hand-count round, checked: who ended it and how, and the cards left in hands."""
    if not isinstance(data, dict):
        raise located("a round must be an object (out/knocker/stalemate and hands)", round_no)
    extra = sorted(set(data) - HAND_ROUND_KEYS)
    if extra:
        raise located(f"unknown field '{extra[0]}' in a round", round_no)
    for key in ("out", "knocker"):
        if key in data and data[key] is not None and data[key] not in players:
            raise located(f"{key}: unknown player {data[key]!r}", round_no)
    for key in ("stalemate", RUMMY):
        if key in data and not isinstance(data[key], bool):
            raise located(f"{key} must be true or false", round_no)
    if data.get(RUMMY) and not data.get("out"):
        raise located("rummy is true but no one went out", round_no)
    hands_data = data.get("hands", {})
    if not isinstance(hands_data, dict):
        raise located("hands must be an object of player names and cards", round_no)
    supply = Supply(variant.decks, variant.jokers, variant.without_ranks)
    hands = {}
    for player, cards in hands_data.items():
        if player not in players:
            raise located(f"unknown player {player!r}", round_no, place="hands")
        hands[player] = tuple(_check_hand(supply, player, cards, round_no))
    return HandRound(
        out=data.get("out"), knocker=data.get("knocker"), stalemate=data.get("stalemate", False),
        rummy=data.get(RUMMY, False), hands=hands, has_hands="hands" in data,
    )


@dataclass(frozen=True)
class CountedRound:
    """One hand-count round as scored: ``ended`` in the game file's words ("Ann knocked"),
    ``words`` as the table says it ("Ann went gin", "tableau")."""

    scores: dict[str, int]
    detail: dict[str, dict]
    finished: bool
    ended: str
    words: str
    how: str = ""  # what came of it, where the game says ("gin", "undercut", "knock")

    def as_json(self) -> dict:
        return {"scores": self.scores, "finished": self.finished, "ended": self.ended,
                "detail": self.detail}


@dataclass
class CountGame:
    """A hand-count game, replayed: each round's scores and why, the totals, the winner."""

    variant: CountVariant
    players: list[str]
    rules: Mapping
    rounds: list[CountedRound]
    totals: dict[str, int]
    winners: list[str]
    bonuses: dict[str, list[tuple[str, int]]]  # bonuses the totals add to the rounds (Gin)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def status(self) -> str:
        if not self.winners:
            return "in progress"
        return " and ".join(self.winners) + (" win" if len(self.winners) > 1 else " wins")

    def as_json(self) -> dict:
        return {"variant": self.variant.key, "rules": dict(self.rules),
                "rounds": [r.as_json() for r in self.rounds], "totals": self.totals,
                "winners": self.winners, "status": self.status()}


def replay_counted(variant: CountVariant, doc: Mapping) -> CountGame:
    players = check_players(doc, variant)
    check_teams(doc, players, variant)
    rules = resolve_rules(doc, variant, players)
    rounds = doc.get("rounds", [])
    game = variant.new_game(players, rules)
    results = []
    for round_no, data in enumerate(rounds, 1):
        _check_not_over(round_no, game.over)
        rnd = read_hand_round(variant, data, players, round_no)
        _check_finished(round_no, rounds, rnd.finished)
        try:
            result = game.play(rnd)
        except ScorekeeperError as e:
            raise located(e, round_no) from None
        results.append(CountedRound(result.scores, result.detail, rnd.finished, rnd.ended(),
                                    result.words or rnd.ended(), result.how))
    return CountGame(variant, players, rules, results, game.final_totals(), list(game.winners),
                     game.bonuses())


REPLAYS = {LOG: replay_log, COUNT: replay_counted}
