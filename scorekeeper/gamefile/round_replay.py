"""A round of a game file replayed: from the game as it stood before it (a
:class:`Standing`) to the round's result and the game after it, each refusal placed in
the file (the round, the event or the hands: :func:`located`).

What a round holds is said by the game (its ``VARIANT``, games/variant.py): a log of plays
(:func:`logged_round`: Iceberg, Robber Rummy, Rummy 500) or hands counted at the end
(:func:`read_hand_round`: Rummy, Gin, Kalooki, Conquian, Manipulation). The whole game is
the package's (scorekeeper/gamefile/__init__.py: :func:`replay`, every round in turn);
the app keeps each finished round's standing beside its log (storage/results.py) and
replays only the round being played.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games.cards import Card, CardError, Supply, parse_cards
from ..games.contract import LogRound, RoundResult
from ..games.errors import GameFileError, ScorekeeperError
from ..games.handcount import RUMMY, CountedGame, HandRound
from ..games.variant import CountVariant, LogVariant, Variant
from ..games.words import Say, joined
from .document import Header

HANDS = "hands"  # a place in a round (ScorekeeperError.place): its hands


def _placed(reason: Say | str, round_no: int, event_no: int | None, place: str, player: str | None) -> Say:
    """The reason after its place in the file: "round 2, event 3: …", "round 2, hands of Bob: …"."""
    if event_no:
        return Say("round %(round)s, event %(event)s: %(reason)s", round=round_no, event=event_no,
                   reason=reason)
    if place == HANDS and player is not None:
        return Say("round %(round)s, hands of %(player)s: %(reason)s", round=round_no, player=player,
                   reason=reason)
    if place == HANDS:
        return Say("round %(round)s, hands: %(reason)s", round=round_no, reason=reason)
    return Say("round %(round)s: %(reason)s", round=round_no, reason=reason)


def _within(reason: Say | str, event_no: int | None, place: str, player: str | None) -> Say | None:
    """The reason after its place within the round, for a page of that round: "event 3:
    …", "hands of Bob: …"; None where the place is the round itself."""
    if event_no:
        return Say("event %(event)s: %(reason)s", event=event_no, reason=reason)
    if place == HANDS and player is not None:
        return Say("hands of %(player)s: %(reason)s", player=player, reason=reason)
    if place == HANDS:
        return Say("hands: %(reason)s", reason=reason)
    return None


def located(error: ScorekeeperError | Say, round_no: int, event_no: int | None = None,
            place: str = "", player: str | None = None) -> GameFileError:
    """The error with its place in the file; ``.said_reason`` keeps the sentence without
    the place (``.reason``: in the game file's English).

    ``place`` names a part of the round more closely: ``"hands"``, the hands of ``player``
    if one is named. An event is never placed more closely than its number.
    """
    reason = error.message if isinstance(error, ScorekeeperError) else error
    found = GameFileError(_placed(reason, round_no, event_no, place, player))
    found.said_reason, found.reason = reason, str(reason)
    found.said_within = _within(reason, event_no, place, player)
    found.round_no, found.event_no = round_no, event_no
    return found


def check_hand(supply: Supply, player: str, cards: Any, round_no: int,
               held: dict[Card, list[str]]) -> list[Card]:
    """One player's cards left in hand, counted against the decks like the table's;
    ``held``: who holds each card of the hands checked before this one (this hand's are
    added), so a card one too many names the other hands that hold it."""
    if not isinstance(cards, list):
        raise located(Say("must be a list of cards"), round_no, place=HANDS, player=player)
    parsed: list[Card] = []
    try:
        parsed = parse_cards(cards) if cards else []
        supply.take(parsed)
    except CardError as e:
        raise located(_held_too(e, supply, parsed, held),
                      round_no, place=HANDS, player=player) from None
    for card in parsed:
        held.setdefault(card, []).append(player)
    return parsed


def _held_too(error: CardError, supply: Supply, parsed: list[Card],
              held: Mapping[Card, list[str]]) -> CardError | Say:
    """``error`` (a card one too many), with the other hands that hold that card: a card
    entered in two hands by mistake is found in either."""
    # The card the error names: the first one too many, as Supply.take checks them.
    card = next((c for c, n in Counter(parsed).items() if n > supply.remaining(c)), None)
    if card is None:  # not a card one too many (a card no deck of the game has)
        return error
    others = sorted(set(held.get(card, ())))
    if len(others) == 1:
        return Say("%(reason)s; %(player)s's hand has it too", reason=error.message, player=others[0])
    if others:
        return Say("%(reason)s; the hands of %(players)s have it too", reason=error.message,
                   players=joined(others, ", "))
    if supply.seen[card] > 0:  # a log round's table (the hands before hold none of it)
        return Say("%(reason)s; the table has it", reason=error.message)
    return error


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
    round follows it (only the last round may be unfinished). The result is the variant's:
    a logged round's (:func:`replay_logged_round`) or a counted round's (a
    :class:`CountedRound`); a caller that knows the kind of its game asks that kind's."""
    if isinstance(header.variant, CountVariant):
        _check_not_over(round_no, before.over)
        return _counted_round(header, before, data, round_no, last)
    return replay_logged_round(header, before, data, round_no, last=last)


def replay_logged_round(header: Header, before: Standing, data: Any, round_no: int, *,
                        last: bool = True) -> tuple[RoundResult, Standing]:
    """A round of a game of logged rounds (Iceberg, Robber Rummy, Rummy 500), as
    :func:`replay_round`: its ``score_round``'s result (a contract.RoundResult) and the game
    after it."""
    _check_not_over(round_no, before.over)
    variant = header.variant
    assert isinstance(variant, LogVariant)  # a game of logged rounds
    result = logged_round(variant, header.players, header.rules, header.teams, data, round_no)
    _check_finished(round_no, last, result.finished)
    if not result.finished:
        return result, before
    return result, after_round(header, before, result.scores, figures_of(variant, result))


def after_round(header: Header, before: Standing, scores: Mapping[str, int],
                figures: Mapping[str, Mapping[str, int]]) -> Standing:
    """A game of logged rounds after a round that scored ``scores`` (and ``figures``). Its
    rounds do not depend on one another: only the totals (and the figures) carry on."""
    assert isinstance(header.variant, LogVariant)  # a game of logged rounds
    totals = {p: before.totals[p] + scores[p] for p in header.players}
    over, winners, tied = header.variant.standing(header.players, header.rules, totals, header.teams)
    return Standing(before.rounds + 1, totals, over, tuple(winners), tied,
                    figures=added(before.figures, figures))


def figures_of(variant: Variant, result: Any) -> Mapping[str, Mapping[str, int]]:
    """What the game page shows of each player for a round (the variant's ``round_figures``)."""
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


def replay_one_more(variant: LogVariant, round_: LogRound, event: Any, lists: dict[str, list[str]],
                    round_no: int, event_no: int) -> RoundResult:
    """``round_`` (replayed up to its last event) with one more event, event ``event_no``,
    applied onto it and scored again: the round is not replayed from its start. A refusal
    is placed in the file as the whole round's replay would place it."""
    try:
        apply_event(round_, event, variant.events)
        return variant.score_round(round_, None, lists)
    except ScorekeeperError as e:
        raise located(e, round_no, event_no) from None


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
    hands: dict[str, list[Card]] = {}
    held: dict[Card, list[str]] = {}
    for player, cards in hands_data.items():
        if player not in round_.players:
            raise located(Say("unknown player %(given)s", given=repr(player)), round_no, place=HANDS)
        hands[player] = check_hand(round_.supply, player, cards, round_no, held)
    return round_, hands


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
    held: dict[Card, list[str]] = {}
    for player, cards in hands_data.items():
        if player not in players:
            raise located(Say("unknown player %(given)s", given=repr(player)), round_no, place=HANDS)
        hands[player] = tuple(check_hand(supply, player, cards, round_no, held))
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
    stalemate: bool = False  # no one ended it: no hand was counted

    @property
    def ended(self) -> str:
        return str(self.said_ended)

    @property
    def words(self) -> str:
        return str(self.said_words)

    def as_json(self) -> dict[str, Any]:
        return {"scores": self.scores, "finished": self.finished, "ended": self.ended,
                "detail": self.detail}


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
                          result.words or rnd.ended(), result.how, result.stories, rnd.stalemate)
    after = Standing(before.rounds + (1 if rnd.finished else 0), dict(game.totals), game.over,
                     tuple(game.winners), carry=game.carry(),
                     figures=added(before.figures, figures_of(header.variant, scored)) if rnd.finished
                     else before.figures)
    return scored, after
