"""The game file (CONTRACT.md): read it, check it, replay it, and score it.

One JSON document describes a whole game: seating, rules and every round. The app
exports and imports it, and ``scorekeeper score`` recomputes every score from it. It
is a public format: anything not understood is refused with one sentence naming the
round, the event and what is wrong. This module is pure (no Flask, no database).
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from .games import conquian, gin, iceberg, kalooki, manipulation, robber, rummy
from .games.cards import Supply
from .games.handcount import HandRound
from .games.standings import highest_wins
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


def _located(error: ScorekeeperError | str, round_no: int, event_no: int | None = None,
             place: str = "") -> GameFileError:
    """The error with its place in the file; ``.reason`` keeps the plain sentence.

    ``place`` names a part of the round more closely ("hands of Bob").
    """
    where = _where(round_no, event_no) + (f", {place}" if place else "")
    located = GameFileError(f"{where}: {error}")
    located.reason, located.round_no, located.event_no = str(error), round_no, event_no
    return located


def _cards(value: Any, what: str) -> list[Card]:
    return parse_cards(value, what)


def apply_event(round_: Any, event: Any, types: tuple[str, ...] = EVENT_TYPES) -> None:
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


def read_hands(round_: Any, hands: Any, round_no: int) -> dict[str, list[Card]]:
    """The cards left in each hand; they count against the decks like the table's."""
    if not isinstance(hands, dict):
        raise _located("hands must be an object of player names and cards", round_no)
    result = {}
    for player, cards in hands.items():
        if player not in round_.players:
            raise _located(f"unknown player {player!r}", round_no, place="hands")
        if not isinstance(cards, list):
            raise _located("must be a list of cards", round_no, place=f"hands of {player}")
        try:
            parsed = [c for c in (parse_cards(cards, "cards") if cards else [])]
            round_.supply.take(parsed)
        except CardError as e:
            raise _located(e, round_no, place=f"hands of {player}") from None
        result[player] = parsed
    return result


def replay_round(round_: Any, data: Any, round_no: int, types: tuple[str, ...] = EVENT_TYPES,
                 extra_keys: tuple[str, ...] = ()):
    """Replay one round's log of plays onto ``round_``; returns (round, hands or None)."""
    if not isinstance(data, dict):
        raise _located("a round must be an object with events (and hands)", round_no)
    extra = sorted(set(data) - {"events", "hands", *extra_keys})
    if extra:
        raise _located(f"unknown field '{extra[0]}' in a round", round_no)
    events = data.get("events", [])
    if not isinstance(events, list):
        raise _located("events must be a list", round_no)
    for event_no, event in enumerate(events, 1):
        try:
            apply_event(round_, event, types)
        except ScorekeeperError as e:
            raise _located(e, round_no, event_no) from None
    hands = read_hands(round_, data["hands"], round_no) if "hands" in data else None
    return round_, hands


def _rules(module: Any, doc: Mapping, players: list[str]):
    try:
        return module.resolve_rules(doc.get("rules"), len(players))
    except ScorekeeperError as e:
        raise GameFileError(f"rules: {e}") from None


def _no_teams(doc: Mapping, game: str) -> None:
    if doc.get("teams") is not None:
        raise GameFileError(f"teams: {game} is played without partnerships (teams must be null)")


def _rounds(doc: Mapping) -> list:
    return doc.get("rounds", [])


def _check_not_over(round_no: int, over: bool) -> None:
    if over:
        raise _located(f"the game was already over after round {round_no - 1}", round_no)


def _check_finished(round_no: int, rounds: list, finished: bool) -> None:
    if not finished and round_no < len(rounds):
        raise _located("has no hands, but only the last round may be unfinished", round_no)


def replay_iceberg(doc: Mapping) -> iceberg.GameResult:
    """Replay a whole Iceberg game file: every round's table, plays and scores."""
    players = _check_players(doc, iceberg.MIN_PLAYERS, iceberg.MAX_PLAYERS, iceberg.NAME)
    _no_teams(doc, iceberg.NAME)
    rules = _rules(iceberg, doc, players)
    rounds = _rounds(doc)
    results = []
    over = False
    for round_no, data in enumerate(rounds, 1):
        _check_not_over(round_no, over)
        round_, hands = replay_round(iceberg.Round(players, rules), data, round_no)
        _check_finished(round_no, rounds, hands is not None)
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


# ---------------------------------------------------------------------------------------
# Robber Rummy: rounds are logs of plays too, and melds change hands.

ROBBER_EVENTS = ("meld", "layoff", "out")


def _check_teams(doc: Mapping, players: list[str]) -> dict[str, str]:
    """Partnerships: 4 players in two teams of two (RULES.md); player → team name."""
    teams = doc.get("teams")
    if teams is None:
        return {}
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


def _renege(data: Any, players: list[str], round_no: int) -> list[str]:
    renege = data.get("renege", []) if isinstance(data, dict) else []
    if not isinstance(renege, list) or any(p not in players for p in renege):
        raise _located("renege must be a list of player names", round_no)
    return renege


def score_robber(doc: Mapping) -> dict:
    players = _check_players(doc, robber.MIN_PLAYERS, robber.MAX_PLAYERS, robber.NAME)
    teams = _check_teams(doc, players)
    rules = _rules(robber, doc, players)
    rounds = _rounds(doc)
    out_rounds = []
    totals = {p: 0 for p in players}
    over = False
    winners: list[str] = []
    tied = False
    for round_no, data in enumerate(rounds, 1):
        _check_not_over(round_no, over)
        renege = _renege(data, players, round_no)
        round_, hands = replay_round(
            robber.Round(players, rules, teams), data, round_no, ROBBER_EVENTS, ("renege",)
        )
        finished = hands is not None
        _check_finished(round_no, rounds, finished)
        if finished and round_.out and hands.get(round_.out):
            raise _located(f"{round_.out} went out, so holds no cards", round_no, place="hands")
        own = {
            p: robber.score_player(round_, p, hands.get(p, []) if finished else None, p in renege)
            for p in players
        }
        scores = robber.side_scores(players, {p: r.score for p, r in own.items()}, teams)
        if finished:
            totals = {p: totals[p] + scores[p] for p in players}
            over, winners, tied = highest_wins(players, totals, rules["target"], teams)
        out_rounds.append({
            "scores": scores,
            "finished": finished,
            "ended": round_.end_reason() or ("hands counted" if finished else "in progress"),
            "detail": {
                p: {
                    "melds": [
                        {"meld": m.number, "cards": [str(c) for c in m.meld.cards],
                         "value": m.meld.value(rules), "history": m.history,
                         "locked": m.meld.locked}
                        for m in r.melds
                    ],
                    "meld_points": r.meld_points,
                    "hand": [str(c) for c in r.hand] if r.hand is not None else None,
                    "hand_points": r.hand_points,
                    "reneged": r.reneged,
                    "own_score": r.score,
                    "story": r.story(rules),
                }
                for p, r in own.items()
            },
        })
    return {
        "variant": "robber",
        "rules": dict(rules),
        "teams": doc.get("teams"),
        "rounds": out_rounds,
        "totals": totals,
        "winners": winners,
        "status": f"{' & '.join(winners)} win{'s' if len(winners) == 1 else ''}" if winners else (
            f"tie at the top at {rules['target']} or more: play another hand" if tied else "in progress"),
    }


# ---------------------------------------------------------------------------------------
# Hand-count rummies: a round says how it ended and what was left in hands.

HAND_COUNT = {"rummy": rummy, "gin": gin, "kalooki": kalooki, "conquian": conquian,
              "manipulation": manipulation}
HAND_ROUND_KEYS = {"out", "rummy", "hands", "stalemate", "knocker"}


def read_hand_round(module: Any, data: Any, players: list[str], round_no: int) -> HandRound:
    """One hand-count round, checked: who ended it and how, and the cards left in hands."""
    if not isinstance(data, dict):
        raise _located("a round must be an object (out/knocker/stalemate and hands)", round_no)
    extra = sorted(set(data) - HAND_ROUND_KEYS)
    if extra:
        raise _located(f"unknown field '{extra[0]}' in a round", round_no)
    for key in ("out", "knocker"):
        if key in data and data[key] is not None and data[key] not in players:
            raise _located(f"{key}: unknown player {data[key]!r}", round_no)
    for key in ("stalemate", "rummy"):
        if key in data and not isinstance(data[key], bool):
            raise _located(f"{key} must be true or false", round_no)
    if data.get("rummy") and not data.get("out"):
        raise _located("rummy is true but no one went out", round_no)
    hands_data = data.get("hands", {})
    if not isinstance(hands_data, dict):
        raise _located("hands must be an object of player names and cards", round_no)
    supply = Supply(module.DECKS, module.JOKERS, getattr(module, "WITHOUT_RANKS", ()))
    hands = {}
    for player, cards in hands_data.items():
        if player not in players:
            raise _located(f"unknown player {player!r}", round_no, place="hands")
        if not isinstance(cards, list):
            raise _located("must be a list of cards", round_no, place=f"hands of {player}")
        try:
            parsed = tuple(parse_cards(cards, "cards")) if cards else ()
            supply.take(parsed)
        except CardError as e:
            raise _located(f"{e}", round_no, place=f"hands of {player}") from None
        hands[player] = parsed
    return HandRound(
        out=data.get("out"), knocker=data.get("knocker"), stalemate=data.get("stalemate", False),
        rummy=data.get("rummy", False), hands=hands, has_hands="hands" in data,
    )


def score_hand_count(doc: Mapping) -> dict:
    variant = doc["variant"]
    module = HAND_COUNT[variant]
    players = _check_players(doc, module.MIN_PLAYERS, module.MAX_PLAYERS, module.NAME)
    _no_teams(doc, module.NAME)
    rules = _rules(module, doc, players)
    rounds = _rounds(doc)
    game = module.Game(players, rules)
    out_rounds = []
    for round_no, data in enumerate(rounds, 1):
        _check_not_over(round_no, game.over)
        rnd = read_hand_round(module, data, players, round_no)
        _check_finished(round_no, rounds, rnd.finished)
        try:
            result = game.play(rnd)
        except ScorekeeperError as e:
            raise _located(e, round_no) from None
        out_rounds.append({"scores": result.scores, "finished": rnd.finished, "ended": rnd.ended(),
                           "detail": result.detail})
    return {
        "variant": variant,
        "rules": dict(rules),
        "rounds": out_rounds,
        "totals": game.final_totals(),
        "winners": list(game.winners),
        "status": (" and ".join(game.winners) + (" win" if len(game.winners) > 1 else " wins"))
        if game.winners else "in progress",
    }


SCORERS = {"iceberg": score_iceberg, "robber": score_robber, **{v: score_hand_count for v in HAND_COUNT}}
REPLAYERS = {"iceberg": replay_iceberg}
