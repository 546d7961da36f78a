"""The game file (CONTRACT.md): read it, check it, replay it, and score it.

One JSON document describes a whole game: seating, rules and every round. The app
exports and imports it, and ``scorekeeper score`` recomputes every score from it. It
is a public format: anything not understood is refused with one sentence naming the
round, the event and what is wrong. This module is pure (no Flask, no database).
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from .games import iceberg
from .games.cards import Card, CardError, parse_cards
from .games.errors import GameFileError, ScorekeeperError

FORMAT = "scorekeeper/1"
VARIANTS = ("iceberg", "robber", "rummy", "gin", "kalooki", "conquian", "manipulation")
TOP_KEYS = {"format", "variant", "rules", "players", "teams", "rounds"}
EVENT_TYPES = ("ace", "meld", "layoff", "out")


def parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise GameFileError(f"not a game file: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise GameFileError("not a game file: the JSON is nested too deeply") from None


def _check_players(doc: Mapping, low: int, high: int, game: str) -> list[str]:
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise GameFileError("players must be a list of names")
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise GameFileError(f"players: '{twice}' is listed twice; names must be unique")
    if not low <= len(players) <= high:
        raise GameFileError(f"{game} is played by {low} to {high} players, not {len(players)}")
    return players


def read_header(doc: Any) -> tuple[str, list]:
    """The checks every game file gets, whatever its variant."""
    if not isinstance(doc, dict):
        raise GameFileError("not a game file: the document must be a JSON object")
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise GameFileError(f"unknown field '{unknown[0]}' in the game file")
    if doc.get("format", FORMAT) != FORMAT:
        raise GameFileError(f"format {doc.get('format')!r} is not supported (expected '{FORMAT}')")
    variant = doc.get("variant")
    if variant not in VARIANTS:
        raise GameFileError(f"unknown variant {variant!r} (expected one of: {', '.join(VARIANTS)})")
    rounds = doc.get("rounds", [])
    if not isinstance(rounds, list):
        raise GameFileError("rounds must be a list")
    return variant, rounds


def score_document(doc: Any) -> dict:
    """The ``scorekeeper score`` output for a parsed game document."""
    variant, _rounds = read_header(doc)
    if variant not in SCORERS:
        raise GameFileError(f"variant {variant} is not supported yet")
    return SCORERS[variant](doc)


def score_text(text: str) -> dict:
    return score_document(parse_json(text))


# ---------------------------------------------------------------------------------------
# Iceberg: rounds are logs of plays.


def _where(round_no: int, event_no: int | None = None) -> str:
    return f"round {round_no}" + (f", event {event_no}" if event_no else "")


def _located(error: ScorekeeperError, round_no: int, event_no: int | None = None) -> GameFileError:
    """The error with its place in the file; ``.reason`` keeps the plain sentence."""
    located = GameFileError(f"{_where(round_no, event_no)}: {error}")
    located.reason, located.round_no, located.event_no = str(error), round_no, event_no
    return located


def _cards(value: Any, what: str) -> list[Card]:
    return parse_cards(value, what)


def apply_event(round_: iceberg.Round, event: Any) -> None:
    """Apply one logged event to the round; a bad event raises and changes nothing."""
    if not isinstance(event, dict):
        raise GameFileError("an event must be an object with a type and a player")
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise GameFileError(f"unknown event type {kind!r} (expected {', '.join(EVENT_TYPES)})")
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
    cards = _cards(event.get("cards"), f"the {kind}'s cards")
    if kind == "ace":
        round_.ace(player, cards)
    elif kind == "meld":
        round_.meld(player, cards)
    else:
        number = event.get("meld")
        if not isinstance(number, int) or isinstance(number, bool):
            raise GameFileError("a layoff names the meld it goes on by number (\"meld\": 2)")
        round_.lay_off(player, number, cards)


def read_hands(round_: iceberg.Round, hands: Any, round_no: int) -> dict[str, list[Card]]:
    """The cards left in each hand; they count against the decks like the table's."""
    if not isinstance(hands, dict):
        raise GameFileError(f"{_where(round_no)}: hands must be an object of player names and cards")
    result = {}
    for player, cards in hands.items():
        if player not in round_.players:
            raise GameFileError(f"{_where(round_no)}, hands: unknown player {player!r}")
        if not isinstance(cards, list):
            raise GameFileError(f"{_where(round_no)}, hands of {player}: must be a list of cards")
        try:
            parsed = [c for c in (parse_cards(cards, "cards") if cards else [])]
            round_.supply.take(parsed)
        except CardError as e:
            error = _located(e, round_no)
            error.message = f"{_where(round_no)}, hands of {player}: {e}"
            raise error from None
        result[player] = parsed
    return result


def replay_round(players: list[str], rules: Mapping, data: Any, round_no: int):
    """Replay one Iceberg round from the file; returns (round, hands or None)."""
    if not isinstance(data, dict):
        raise GameFileError(f"{_where(round_no)}: a round must be an object with events (and hands)")
    extra = sorted(set(data) - {"events", "hands"})
    if extra:
        raise GameFileError(f"{_where(round_no)}: unknown field '{extra[0]}' in an iceberg round")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise GameFileError(f"{_where(round_no)}: events must be a list")
    round_ = iceberg.Round(players, rules)
    for event_no, event in enumerate(events, 1):
        try:
            apply_event(round_, event)
        except ScorekeeperError as e:
            raise _located(e, round_no, event_no) from None
    hands = read_hands(round_, data["hands"], round_no) if "hands" in data else None
    return round_, hands


def replay_iceberg(doc: Mapping) -> iceberg.GameResult:
    """Replay a whole Iceberg game file: every round's table, plays and scores."""
    players = _check_players(doc, iceberg.MIN_PLAYERS, iceberg.MAX_PLAYERS, iceberg.NAME)
    if doc.get("teams") is not None:
        raise GameFileError("teams: Iceberg Rummy is played without partnerships (teams must be null)")
    try:
        rules = iceberg.resolve_rules(doc.get("rules"), len(players))
    except ScorekeeperError as e:
        raise GameFileError(f"rules: {e}") from None
    rounds = doc.get("rounds", [])
    results = []
    over = False
    for round_no, data in enumerate(rounds, 1):
        if over:
            raise GameFileError(
                f"{_where(round_no)}: the game was already over after round {round_no - 1}"
            )
        round_, hands = replay_round(players, rules, data, round_no)
        if hands is None and round_no < len(rounds):
            raise GameFileError(f"{_where(round_no)}: has no hands, but only the last round may be unfinished")
        try:
            result = iceberg.score_round(round_, hands)
        except ScorekeeperError as e:
            raise _located(e, round_no) from None
        results.append(result)
        if result.finished:
            over = iceberg.game_state(players, rules, iceberg.total_scores(players, results))[0]
    totals = iceberg.total_scores(players, results)
    over, winners, tied = iceberg.game_state(players, rules, totals)
    return iceberg.GameResult(players, rules, results, totals, winners, over, tied)


def score_iceberg(doc: Mapping) -> dict:
    game = replay_iceberg(doc)
    return {
        "variant": "iceberg",
        "rules": dict(game.rules),
        "rounds": [
            {
                "scores": result.scores,
                "finished": result.finished,
                "ended": result.round.end_reason() or ("hands counted" if result.finished else "in progress"),
                "detail": {p: r.as_detail() for p, r in result.players.items()},
            }
            for result in game.rounds
        ],
        "totals": game.totals,
        "winners": game.winners,
        "status": game.status(),
    }


SCORERS = {"iceberg": score_iceberg}
REPLAYERS = {"iceberg": replay_iceberg}
