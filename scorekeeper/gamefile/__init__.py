"""The game file (docs/game-file.md): read it, check it, replay it, and score it.

One JSON document describes a whole game: seating, rules and every round. The app
exports and imports it, ``scorekeeper score`` recomputes every score from it, the web
pages and the statistics are drawn from its replay: :func:`replay` is the one place a
game is scored. It is a public format: anything not understood is refused with one
sentence naming the round, the event and what is wrong.

What a game's rounds hold is said by the game (its ``VARIANT``, games/variant.py): a
log of plays (:func:`logged_round`) or hands counted at the end (:func:`read_hand_round`).
This package knows those two shapes, never a game by name; what every file is checked for
before its rounds is its ``document`` module's. It is pure: no Flask, no database.

A game is replayed a round at a time: :func:`replay_round` replays one round from the
game as it stood before it (a :class:`Standing`: the totals, whether it is over, and a
counted game's own state), and :func:`replay` is every round of a file in turn. The app
keeps each finished round's standing beside its log (storage/results.py), so that a page
replays the round being played, not the game; what it keeps is what these functions
return, and one command rebuilds it from the log.

What it says to people is sentences (games/words.py): a refusal's message, a round's
``said_ended``, a game's ``said_status()``. The score (``as_json()``), ``status()`` and
a refusal's ``reason`` are the same in the game file's English, as plain text.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games.cards import Card, Supply, parse_card, parse_cards
from ..games.contract import LogRound, RoundResult
from ..games.errors import GameFileError, ScorekeeperError
from ..games.handcount import RUMMY, CountedGame, HandRound
from ..games.variant import CountVariant, LogVariant, Variant
from ..games.words import Say, SayN, from_data, joined, to_data
from . import changes
from .document import (
    FORMAT,
    HANDS,
    MAX_ROUNDS,
    Header,
    canonical_text,
    check_hand,
    located,
    parse_json,
    read_game,
    read_header,
)

# What the rest of the app asks of the game file (those from .document too).
__all__ = [
    "FORMAT", "MAX_ROUNDS", "CountedRound", "CountGame", "GameFileError", "Header", "LogGame", "RoundRecord",
    "Standing", "after_round", "apply_event", "canonical_text", "game_of", "located", "parse_json", "read_game",
    "read_header", "record_of", "replay", "replay_round", "score_document", "score_text", "start",
]


def replay(doc: Any) -> LogGame | CountGame:
    """The whole game a document describes, replayed and scored (or GameFileError): each
    round in turn (:func:`replay_round`).

    A log game (:class:`LogGame`) or a counted one (:class:`CountGame`): each has the
    players, rules, rounds (``scores``, ``finished``, ``ended``), totals, winners and
    ``as_json()``, the output of ``scorekeeper score``.
    """
    header = read_game(doc)
    changes.check(doc.get("changes"))  # the record of changes: checked, never replayed
    rounds = doc.get("rounds", [])
    standing, results = start(header), []
    for round_no, data in enumerate(rounds, 1):
        result, standing = replay_round(header, standing, data, round_no, last=round_no == len(rounds))
        results.append(result)
    return game_of(header, standing, results)


def score_document(doc: Any) -> dict[str, Any]:
    """The ``scorekeeper score`` output for a parsed game document."""
    return replay(doc).as_json()


def score_text(text: str) -> dict[str, Any]:
    return score_document(parse_json(text))


@dataclass(frozen=True)
class Standing:
    """A game between two rounds: what the next round is played from.

    ``rounds`` finished so far, their scores added up (``totals``), whether the game is
    over and who won, a tie at the top at the target (games of logged rounds), a counted
    game's own state (``carry``: the variant's ``CountedGame.carry()``, such as who is
    eliminated), and the rounds' figures added up per player (``figures``: what a game
    page sums, such as Iceberg's earned points). Stored after every finished round
    (``as_data``), so a round is replayed, and a game summed up, without those before it.
    """

    rounds: int
    totals: Mapping[str, int]
    over: bool = False
    winners: tuple[str, ...] = ()
    tied: bool = False
    carry: Mapping[str, Any] = field(default_factory=dict)
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # the rounds' figures added up

    def as_data(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "totals": dict(self.totals), "over": self.over,
                "winners": list(self.winners), "tied": self.tied, "carry": dict(self.carry),
                "figures": {p: dict(f) for p, f in self.figures.items()}}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Standing:
        return cls(data["rounds"], dict(data["totals"]), data["over"], tuple(data["winners"]),
                   data["tied"], dict(data["carry"]), data["figures"])


def start(header: Header) -> Standing:
    """The game before its first round."""
    if isinstance(header.variant, CountVariant):
        game = header.variant.new_game(header.players, header.rules)
        return Standing(0, dict(game.totals), carry=game.carry())
    return Standing(0, {p: 0 for p in header.players})


def replay_round(header: Header, before: Standing, data: Any, round_no: int, *,
                 last: bool = True) -> tuple[Any, Standing]:
    """One round (its data as the game file has it), replayed from the game as it stood
    before it: (the round's result, the game after it), or GameFileError. ``last``: no
    round follows it (only the last round may be unfinished). The result is the variant's
    (a logged round's: its ``score_round``'s, a contract.RoundResult; a counted round's: a
    :class:`CountedRound`): each caller knows which kind of game it replays."""
    _check_not_over(round_no, before.over)
    if isinstance(header.variant, CountVariant):
        return _counted_round(header, before, data, round_no, last)
    result = logged_round(header.variant, header.players, header.rules, header.teams, data, round_no)
    _check_finished(round_no, last, result.finished)
    if not result.finished:
        return result, before
    return result, after_round(header, before, result.scores, _figures(header.variant, result))


def after_round(header: Header, before: Standing, scores: Mapping[str, int],
                figures: Mapping[str, Mapping[str, int]]) -> Standing:
    """A game of logged rounds after a round that scored ``scores`` (and ``figures``). Its
    rounds do not depend on one another: only the totals (and the figures) carry on."""
    assert isinstance(header.variant, LogVariant)  # a game of logged rounds
    totals = {p: before.totals[p] + scores[p] for p in header.players}
    over, winners, tied = header.variant.standing(header.players, header.rules, totals, header.teams)
    return Standing(before.rounds + 1, totals, over, tuple(winners), tied,
                    figures=added(before.figures, figures))


def _figures(variant: Variant, result: Any) -> Mapping[str, Mapping[str, int]]:
    return variant.round_figures(result) if variant.round_figures else {}


def added(so_far: Mapping[str, Mapping[str, int]],
          more: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Figures by player and name, added up."""
    total = {p: dict(f) for p, f in so_far.items()}
    for player, figures in more.items():
        mine = total.setdefault(player, {})
        for name, value in figures.items():
            mine[name] = mine.get(name, 0) + value
    return total


def resumed(header: Header, standing: Standing) -> CountedGame:
    """A counted game's own record of the game (its ``CountedGame``), as ``standing`` has it."""
    assert isinstance(header.variant, CountVariant)  # a counted game
    return header.variant.new_game.resume(header.players, header.rules, standing.totals, standing.over,
                                          standing.winners, standing.carry)


def game_of(header: Header, standing: Standing, results: list[Any]) -> LogGame | CountGame:
    """The game of these rounds' results, ending at ``standing``: a LogGame or a CountGame."""
    if isinstance(header.variant, CountVariant):
        game = resumed(header, standing)
        return CountGame(header.variant, header.players, header.rules, results, game.final_totals(),
                         list(game.winners), game.bonuses())
    return LogGame(header.variant, header.players, header.rules, dict(header.teams), header.teams_listed,
                   results, dict(standing.totals), list(standing.winners), standing.over, standing.tied)


@dataclass(frozen=True)
class RoundRecord:
    """A finished round as the app keeps it beside its log (storage/results.py): its
    scores, how it ended in words (``said``: a sentence), what the game page shows of each
    player (``figures``: the variant's ``round_figures``) and the card-level records of
    the statistics (``facts``: its ``round_facts``). Everything in it is derived from the
    round's replay (:func:`record_of`)."""

    scores: Mapping[str, int]
    said: Any
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    facts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    finished = True  # only finished rounds are kept

    @property
    def said_words(self) -> Any:  # as a counted round's result names it
        return self.said

    @property
    def words(self) -> str:
        return str(self.said)

    def as_data(self) -> dict[str, Any]:
        """Plain JSON data (sentences and titles as words.to_data has them)."""
        facts = {p: {k: ([[m[0], list(m[1]), to_data(m[2])] for m in v] if k == "melds" else v)
                     for k, v in of.items()} for p, of in self.facts.items()}
        return {"scores": dict(self.scores), "said": to_data(self.said), "figures": dict(self.figures),
                "facts": facts}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RoundRecord:
        facts = {p: {k: ([(m[0], tuple(m[1]), from_data(m[2], parse_card)) for m in v] if k == "melds" else v)
                     for k, v in of.items()} for p, of in data["facts"].items()}
        return cls(data["scores"], from_data(data["said"], parse_card), data["figures"], facts)


def record_of(variant: Variant, result: Any, said: Any = None) -> RoundRecord:
    """The record of a finished round from its result (``said``: how it ended, where the
    table knows it better than the game file, e.g. who drew the last card)."""
    if said is None:
        said = getattr(result, "said_words", None) or result.words
    return RoundRecord(dict(result.scores), said, _figures(variant, result),
                       variant.round_facts(result) if variant.round_facts else {})


def _check_not_over(round_no: int, over: bool) -> None:
    if over:
        raise located(Say("the game was already over after round %(round)s", round=round_no - 1), round_no)


def _check_finished(round_no: int, last: bool, finished: bool) -> None:
    if not finished and not last:
        raise located(Say("has no hands, but only the last round may be unfinished"), round_no)


# ---------------------------------------------------------------------------------------
# A log of plays: Iceberg, Robber Rummy.


# What an event's cards are called, by the event's type (a refusal: "the meld's cards
# must be a non-empty list of cards").
EVENT_CARDS = {"meld": Say("the meld's cards"), "layoff": Say("the layoff's cards"),
               "ace": Say("the ace's cards")}


def apply_event(round_: Any, event: Any, types: tuple[str, ...]) -> None:
    """Apply one logged event to the round; a bad event raises and changes nothing."""
    if not isinstance(event, dict):
        raise GameFileError(Say("an event must be an object with a type and a player"))
    kind = event.get("type")
    if kind not in types:
        raise GameFileError(Say("unknown event type %(given)s (expected %(types)s)", given=repr(kind),
                                types=joined(types, ", ")))
    allowed = {"type", "player"} | ({"cards"} if kind != "out" else set()) | (
        {"meld"} if kind == "layoff" else set()
    )
    extra = sorted(set(event) - allowed)
    if extra:
        raise GameFileError(Say("unknown field '%(field)s' in a %(type)s event", field=extra[0], type=kind))
    player = event.get("player")
    if player not in round_.players:
        raise GameFileError(Say("unknown player %(given)s", given=repr(player)))
    if kind == "out":
        round_.go_out(player)
        return
    cards = parse_cards(event.get("cards"), EVENT_CARDS[kind])
    if kind == "ace":
        round_.ace(player, cards)
    elif kind == "meld":
        round_.meld(player, cards)
    else:
        number = event.get("meld")
        if not isinstance(number, int) or isinstance(number, bool):
            raise GameFileError(Say("a layoff names the meld it goes on by number (\"meld\": 2)"))
        round_.lay_off(player, number, cards)


def _round_lists(variant: LogVariant, data: Any, players: list[str], round_no: int) -> dict[str, list[str]]:
    """The round's lists of players (Robber Rummy: who reneged), each checked."""
    lists: dict[str, list[str]] = {}
    for key in variant.round_lists:
        names = data.get(key, []) if isinstance(data, dict) else []
        if not isinstance(names, list) or any(p not in players for p in names):
            raise located(Say("%(field)s must be a list of player names", field=key), round_no)
        lists[key] = names
    return lists


def most_events(round_: LogRound) -> int:
    """The most events a round can hold: every event but going out puts a card or more on
    the table, so one more than the decks' cards."""
    return sum(round_.supply.limit.values()) + 1


def replay_events(variant: LogVariant, round_: LogRound, data: Any,
                  round_no: int) -> tuple[LogRound, dict[str, list[Card]] | None]:
    """Replay one round's log onto ``round_``; (round, hands or None)."""
    if not isinstance(data, dict):
        raise located(Say("a round must be an object with events (and hands)"), round_no)
    extra = sorted(set(data) - {"events", "hands", *variant.round_lists})
    if extra:
        raise located(Say("unknown field '%(field)s' in a round", field=extra[0]), round_no)
    events = data.get("events", [])
    if not isinstance(events, list):
        raise located(Say("events must be a list"), round_no)
    if len(events) > most_events(round_):
        raise located(Say("a round holds at most %(most)s events (every event but going out puts "
                          "a card on the table, and the decks hold %(cards)s), and this one has "
                          "%(count)s", most=most_events(round_), cards=most_events(round_) - 1,
                          count=len(events)), round_no)
    for event_no, event in enumerate(events, 1):
        try:
            apply_event(round_, event, variant.events)
        except ScorekeeperError as e:
            raise located(e, round_no, event_no) from None
    if "hands" not in data:
        return round_, None
    hands_data = data["hands"]
    if not isinstance(hands_data, dict):
        raise located(Say("hands must be an object of player names and cards"), round_no)
    hands = {}
    for player, cards in hands_data.items():
        if player not in round_.players:
            raise located(Say("unknown player %(given)s", given=repr(player)), round_no, place=HANDS)
        hands[player] = check_hand(round_.supply, player, cards, round_no)
    return round_, hands


@dataclass
class LogGame:
    """A game of logged rounds, replayed: each round's table, plays and scores."""

    variant: LogVariant
    players: list[str]
    rules: Mapping[str, Any]
    teams: dict[str, str]  # player → team name (empty without partnerships)
    teams_listed: Any  # the game file's ``teams``, as it was
    # The variant's round results (scores, finished, ended, round, as_json()); a game built
    # from the kept results (storage/results.py) holds their RoundRecords instead.
    rounds: list[Any]
    totals: dict[str, int]
    winners: list[str]
    over: bool
    tied_at_target: bool = False

    def said_status(self) -> Say:
        """The game in a few words: who won, a tie at the top, or in progress."""
        if self.winners:  # partners: "Ann & Cy win"
            return SayN("%(players)s wins", "%(players)s win", len(self.winners),
                        players=joined(self.winners, " & "))
        if self.tied_at_target and self.variant.round_word == "hand":
            return Say("tie at the top at %(target)s or more: play another hand", target=self.rules["target"])
        if self.tied_at_target:
            return Say("tie at the top at %(target)s or more: play another round", target=self.rules["target"])
        return Say("in progress")

    def status(self) -> str:
        """:meth:`said_status` in the game file's English: the score's ``status``, and
        what the history list keeps."""
        return str(self.said_status())

    def as_json(self) -> dict[str, Any]:
        out = {"variant": self.variant.key, "rules": dict(self.rules)}
        if self.variant.partnerships:
            out["teams"] = self.teams_listed
        out.update(rounds=[r.as_json() for r in self.rounds], totals=self.totals,
                   winners=self.winners, status=self.status())
        return out


def logged_round(variant: LogVariant, players: list[str], rules: Mapping[str, Any], teams: Mapping[str, str],
                 data: Any, round_no: int) -> RoundResult:
    """One round of a log game, replayed and scored (the variant's round result)."""
    lists = _round_lists(variant, data, players, round_no)
    round_, hands = replay_events(variant, variant.new_round(players, rules, teams), data, round_no)
    try:
        return variant.score_round(round_, hands, lists)
    except ScorekeeperError as e:
        raise located(e, round_no, place=e.place) from None


# ---------------------------------------------------------------------------------------
# Hand-count rummies: a round says how it ended and what was left in hands.


HAND_ROUND_KEYS = {"out", RUMMY, "hands", "stalemate", "knocker"}  # the fields of a counted round


def read_hand_round(variant: CountVariant, data: Any, players: list[str], round_no: int) -> HandRound:
    """One hand-count round, checked: who ended it and how, and the cards left in hands."""
    if not isinstance(data, dict):
        raise located(Say("a round must be an object (out/knocker/stalemate and hands)"), round_no)
    extra = sorted(set(data) - HAND_ROUND_KEYS)
    if extra:
        raise located(Say("unknown field '%(field)s' in a round", field=extra[0]), round_no)
    for key in ("out", "knocker"):
        if key in data and data[key] is not None and data[key] not in players:
            raise located(Say("%(field)s: unknown player %(given)s", field=key, given=repr(data[key])), round_no)
    for key in ("stalemate", RUMMY):
        if key in data and not isinstance(data[key], bool):
            raise located(Say("%(field)s must be true or false", field=key), round_no)
    if data.get(RUMMY) and not data.get("out"):
        raise located(Say("rummy is true but no one went out"), round_no)
    hands_data = data.get("hands", {})
    if not isinstance(hands_data, dict):
        raise located(Say("hands must be an object of player names and cards"), round_no)
    supply = Supply(variant.decks, variant.jokers, variant.without_ranks)
    hands = {}
    for player, cards in hands_data.items():
        if player not in players:
            raise located(Say("unknown player %(given)s", given=repr(player)), round_no, place=HANDS)
        hands[player] = tuple(check_hand(supply, player, cards, round_no))
    return HandRound(
        out=data.get("out"), knocker=data.get("knocker"), stalemate=data.get("stalemate", False),
        rummy=data.get(RUMMY, False), hands=hands, has_hands="hands" in data,
    )


@dataclass(frozen=True)
class CountedRound:
    """One hand-count round as scored: how it ended as the game file says it
    (``said_ended``: "Ann knocked") and as the table says it (``said_words``: "Ann went
    gin", "tableau"), sentences (words.Say); ``ended`` and ``words`` are the same in the
    game file's English. ``detail`` is the game file's, its lines in its English;
    ``stories`` has each player's lines as sentences."""

    scores: dict[str, int]
    detail: dict[str, dict[str, Any]]
    finished: bool
    said_ended: Say
    said_words: Say
    how: str = ""  # what came of it, where the game says: "gin", "undercut", "knock" (a code)
    stories: Mapping[str, list[Say]] = field(default_factory=dict)

    @property
    def ended(self) -> str:
        return str(self.said_ended)

    @property
    def words(self) -> str:
        return str(self.said_words)

    def as_json(self) -> dict[str, Any]:
        return {"scores": self.scores, "finished": self.finished, "ended": self.ended,
                "detail": self.detail}


@dataclass
class CountGame:
    """A hand-count game, replayed: each round's scores and why, the totals, the winner."""

    variant: CountVariant
    players: list[str]
    rules: Mapping[str, Any]
    # Each round as replayed; a game built from the kept results (storage/results.py) holds
    # their RoundRecords instead, which keep no detail: as_json() is a replay's.
    rounds: list[Any]
    totals: dict[str, int]
    winners: list[str]
    bonuses: dict[str, list[tuple[str, int]]]  # bonuses the totals add to the rounds (Gin)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def said_status(self) -> Say:
        """The game in a few words: who won, or in progress."""
        if not self.winners:
            return Say("in progress")
        return SayN("%(players)s wins", "%(players)s win", len(self.winners), players=_and(self.winners))

    def status(self) -> str:
        """:meth:`said_status` in the game file's English: the score's ``status``, and
        what the history list keeps."""
        return str(self.said_status())

    def as_json(self) -> dict[str, Any]:
        return {"variant": self.variant.key, "rules": dict(self.rules),
                "rounds": [r.as_json() for r in self.rounds], "totals": self.totals,
                "winners": self.winners, "status": self.status()}


def _counted_round(header: Header, before: Standing, data: Any, round_no: int,
                   last: bool) -> tuple[CountedRound, Standing]:
    """One hand-count round, scored by the game as it stood before it."""
    assert isinstance(header.variant, CountVariant)  # replay_round's counted rounds
    rnd = read_hand_round(header.variant, data, header.players, round_no)
    _check_finished(round_no, last, rnd.finished)
    game = resumed(header, before)
    try:
        result = game.play(rnd)
    except ScorekeeperError as e:
        raise located(e, round_no) from None
    scored = CountedRound(result.scores, result.detail, rnd.finished, rnd.ended(),
                          result.words or rnd.ended(), result.how, result.stories)
    after = Standing(before.rounds + (1 if rnd.finished else 0), dict(game.totals), game.over,
                     tuple(game.winners), carry=game.carry(),
                     figures=added(before.figures, _figures(header.variant, scored)) if rnd.finished
                     else before.figures)
    return scored, after


def _and(names: list[str]) -> Say | str:
    """Names one after another: "Ann", "Ann and Bob", "Ann and Bob and Cy"."""
    if len(names) == 1:
        return names[0]
    return Say("%(first)s and %(rest)s", first=names[0], rest=_and(names[1:]))

