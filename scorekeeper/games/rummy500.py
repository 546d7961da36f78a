"""Rummy 500 (500 Rum): every card laid scores for whoever lays it, as docs/rules/rummy500.md gives it.

Hoyle's 500 Rum (Bicycle's rules) and Pagat's Rummy 500 page: 2 to 8 players, one deck
for 2–4 and two for 5 or more; 7 cards each, 13 with two players. Melds are sets of 3 or
4 of a rank (3 or more with two decks) and runs of 3 or more in one suit, the ace low
(A-2-3) or high (Q-K-A), never around the corner; anyone may lay off onto any meld on
the table, onto cards others laid off too. A card laid scores its value for the player
who laid it: an ace 15, but 1 as the low end of a run; K, Q, J, 10 → 10; 2 to 9 their
number. When someone goes out, each player scores what they laid less what is left in
their hand (an ace in hand 15, or 1 where the table says so: a house value). The game
ends after the round in which someone reaches ``target``; the highest total wins, and
players tied on it all win.

Logged live like Iceberg Rummy: a round is the same log (``meld``, ``layoff`` by the
meld's number in the round, ``out``) and the same table (:class:`iceberg.MeldRound`), with
its own melds and points. Runs read their aces as Robber Rummy's sequences do (the same
rule, robber.py): an ace keeps the end it was placed at, and a lay-off that takes a run
down to an ace makes it the low end. Where a new ace fits either end (A through K at
once, or an ace laid off on 2 to K) it lies low, beside the 2 and 3 of its suit, as the
sources count it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import robber
from .cards import ACE, Card, card_names, sort_key
from .errors import IllegalPlay, RuleError
from .iceberg import CardCost, MeldRound, Play, RoundResult, plays_detail, score_hands
from .iceberg_melds import rank_plural
from .options import LARGEST, Option, RuleBook, Rules, decks_option
from .standings import highest_wins
from .variant import LogVariant
from .words import SUIT_PLURALS, Cards, Joined, Say, SayN, Signed, joined
from .worth import Worth

NAME = Say("Rummy 500")
MIN_PLAYERS, MAX_PLAYERS = 2, 8
HOYLE = Say("Hoyle's 500 Rum (Bicycle's rules)")
SET, RUN = "set", "run"
LOW_ACE = robber.LOW_ACE  # an ace's place at the low end of a run (A-2-3): it counts 1


def dealt(players: int) -> int:
    """Cards dealt to each player: 7, or 13 when two play (Hoyle)."""
    return 13 if players == 2 else 7


class _RuleBook(RuleBook):
    """The options, and one check across them: the decks must deal every hand."""

    def resolve(self, overrides: object, players: int) -> Rules:
        rules = super().resolve(overrides, players)
        if dealt(players) * players + 1 > 52 * rules["decks"]:  # the hands and the upcard
            raise RuleError(Say("one deck cannot deal %(dealt)s cards to each of %(players)s players: "
                                "play with two decks", dealt=dealt(players), players=players))
        return rules


RULES = _RuleBook(
    "rummy500",
    [
        decks_option(4, Say("Decks shuffled together: one for 2–4 players, two for 5 or more."),
                     Say("1 for 2–4 players, 2 for 5 or more"), HOYLE),
        Option(
            "ace_in_hand", 15,
            Say("What an ace left in hand costs: 15, as the sources count it, or 1 (a house "
                "value: no source gives it)."),
            Say("Hoyle's 500 Rum and Pagat's Rummy 500 (15); no source gives 1"), kind="choice", choices=(15, 1),
            label=Say("An ace left in hand"),
            choice_labels=(Say("15 points"), Say("1 point (a house value)")),  # the default is the sources
        ),
        Option("target", 500, Say("The game ends after the round in which someone reaches this total."),
               HOYLE, minimum=1, maximum=LARGEST, label=Say("Target")),
    ],
)


def most_in_hand(players: int, rules: Mapping[str, Any]) -> int:
    """The most cards a hand can hold when the round ends: the cards the player was dealt
    and every card not dealt (the stock and the upcard). A player may take many cards of
    the discard pile at once, so a hand is not bounded by its share of the stock (as
    Iceberg's is); but every turn draws at least the one card it discards, so the others
    never hand on more than they drew, and the cards dealt to them stay theirs or go on
    the table. Two players: 39; three: 38; eight with two decks: 55."""
    decks: int = rules["decks"]
    return 52 * decks - dealt(players) * (players - 1)


# ---------------------------------------------------------------------------------------
# Melds and what they score.


def card_value(card: Card, place: int | None = None) -> int:
    """A card's value (docs/rules/rummy500.md): an ace 15, but 1 at the low end of a run
    (``place`` 1); K, Q, J, 10 → 10; 2 to 9 their number."""
    if card.rank == ACE:
        return 1 if place == LOW_ACE else 15
    return min(card.rank, 10)


def hand_value(card: Card, rules: Mapping[str, Any]) -> int:
    """What a card left in hand costs: its value; an ace ``ace_in_hand`` (15, or 1)."""
    return rules["ace_in_hand"] if card.rank == ACE else card_value(card)


@dataclass(frozen=True)
class Meld:
    """A set or a run on the table; a run knows each card's place (1 for a low ace … 13
    for the K, 14 for a high ace), so an ace keeps the end it was placed at."""

    kind: str
    cards: tuple[Card, ...]  # a set sorted; a run low to high
    places: tuple[int, ...] = ()  # a run's

    @property
    def size(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return card_names(self.cards)

    def describe(self) -> Say:
        if self.kind == RUN:
            return Say("run of %(suits)s", suits=SUIT_PLURALS[self.cards[0].suit])
        return Say("set of %(ranks)s", ranks=rank_plural(self.cards[0].rank))

    def laid(self) -> list[tuple[Card, int]]:
        """Each card with its place (a set's cards have none)."""
        return list(zip(self.cards, self.places)) if self.kind == RUN else [(c, 0) for c in self.cards]


def _ours(meld: robber.Meld, placed: tuple[int, ...] = ()) -> Meld:
    """A meld as the shared rule reads it (robber.py: sets of a rank, sequences with the
    ace low or high, never around the corner), in this game's words. A new ace that fits
    either end of a run (A through K at once, or an ace laid off on 2 to K) lies beside
    the 2: the sources count an ace with the 2 and 3 of its suit 1 point. An ace already
    ``placed`` keeps its end."""
    if meld.kind != robber.SEQUENCE:
        return Meld(SET, meld.cards)
    places = meld.positions
    if places == tuple(range(2, robber.HIGH_ACE + 1)) and robber.HIGH_ACE not in placed:
        return Meld(RUN, meld.cards[-1:] + meld.cards[:-1], (LOW_ACE, *places[:-1]))
    return Meld(RUN, meld.cards, places)


def step(card: Card, place: int, points: int) -> Say:
    """One card laid, and what it scores: "HA low 1", "C7 7" (a play's steps: "C7 7 + C8 8")."""
    if card.rank == ACE and place == LOW_ACE:
        return Say("%(card)s low %(points)s", card=card, points=points)
    return Say("%(card)s %(points)s", card=card, points=points)


def make_meld(cards: Sequence[Card]) -> tuple[Meld, tuple[int, ...]]:
    """The meld these cards make when laid down together, and what each card scores (in
    the meld's order); or IllegalPlay saying why not."""
    try:
        meld = _ours(robber.make_meld(cards))
    except IllegalPlay:
        if len(cards) < 3:  # "a meld needs at least three cards"
            raise
        raise IllegalPlay(Say("%(cards)s is not a meld: a set is 3 or more cards of one rank, a run 3 or "
                              "more of one suit in sequence (the ace low or high, never K-A-2)",
                              cards=Cards(cards))) from None
    return meld, tuple(card_value(c, p) for c, p in meld.laid())


def _robbers(meld: Meld) -> robber.Meld:
    """A meld as the shared rule (robber.py) holds it."""
    return robber.Meld(robber.SEQUENCE if meld.kind == RUN else robber.SET, meld.cards, meld.places)


def grow(meld: Meld, cards: Sequence[Card]) -> tuple[Meld, tuple[Card, ...], tuple[int, ...]]:
    """The meld with these cards laid off on it, the cards in the order they attach (a
    run's: down from its low end, then up from its high end) and what each scores; or
    IllegalPlay saying why they do not fit."""
    grown = _ours(robber.lay_off(_robbers(meld), cards), meld.places)
    if grown.kind == SET:
        return grown, tuple(cards), tuple(card_value(c) for c in cards)
    new = [(p, c) for c, p in grown.laid() if p not in meld.places]
    low = meld.places[0]
    new.sort(key=lambda pc: (pc[0] > low, -pc[0] if pc[0] < low else pc[0]))
    return grown, tuple(c for _p, c in new), tuple(card_value(c, p) for p, c in new)


# ---------------------------------------------------------------------------------------
# A round: Iceberg's log, with these melds.


@dataclass(frozen=True)
class Rummy500Play(Play[Meld]):
    """A logged play and what it scored, in this game's words: each card and its points."""

    def steps(self) -> Joined:
        assert self.after is not None  # a meld's or lay-off's play holds the meld as it left it
        if self.kind == "meld":
            laid = self.after.laid()
        else:
            assert self.before is not None  # a lay-off's, the meld it grew
            places = dict((c, p) for c, p in self.after.laid() if p not in self.before.places)
            laid = [(c, places.get(c, 0)) for c in self.cards]
        return joined((step(c, p, pts) for (c, p), pts in zip(laid, self.card_points)), " + ")

    def describe(self, points: bool = True) -> Say:
        """The play in words, each card with its points; their sum follows unless
        ``points`` is false (the table then says the points itself)."""
        if self.kind not in ("meld", "layoff"):
            return super().describe(points)
        if self.kind == "meld":
            assert self.after is not None  # a new meld's play holds it
            values = dict(meld=self.after.describe(), cards=Cards(self.after.cards), number=self.meld_number,
                          steps=self.steps())
            if points:
                return Say("new %(meld)s: %(cards)s (meld %(number)s): %(steps)s = %(points)s",
                           points=self.points, **values)
            return Say("new %(meld)s: %(cards)s (meld %(number)s): %(steps)s", **values)
        assert self.before is not None  # a lay-off's play holds the meld it grew
        values = dict(number=self.meld_number, meld=Cards(self.before.cards), steps=self.steps())
        if points:
            return Say("on meld %(number)s (%(meld)s): %(steps)s = %(points)s", points=self.points, **values)
        return Say("on meld %(number)s (%(meld)s): %(steps)s", **values)


class Round(MeldRound[Meld]):
    """One round as its log builds it: Iceberg's table (meld numbers, lay-offs onto any
    meld, going out), with sets and runs that score each card's value. A refused play
    raises IllegalPlay and changes nothing."""

    play_class = Rummy500Play

    def new_meld(self, cards: Sequence[Card]) -> tuple[Meld, tuple[int, ...], int]:
        meld, points = make_meld(list(cards))
        return meld, points, sum(points)

    def grow(self, meld: Meld, cards: Sequence[Card]) -> tuple[Meld, tuple[Card, ...], tuple[int, ...]]:
        return grow(meld, list(cards))


# ---------------------------------------------------------------------------------------
# The end of a round: what each player laid, less what is left in hand.


@dataclass(frozen=True)
class PlayerRound:
    """One player's round: what they laid (earned), each card left in hand and its cost."""

    player: str
    plays: tuple[Play[Meld], ...]
    earned: int
    hand: tuple[Card, ...] | None  # None: the round is not over yet
    card_costs: tuple[CardCost, ...]
    score: int

    @property
    def card_penalty(self) -> int:
        return sum(c.points for c in self.card_costs)

    def story(self) -> list[Say]:
        """The round for this player, line by line: each play, each card left, the score."""
        lines = [p.describe() for p in self.plays if p.kind in ("meld", "layoff")]
        lines.append(Say("earned %(points)s", points=Signed(self.earned)))
        if self.hand is None:
            return lines
        if not self.hand:
            lines.append(Say("no cards left in hand"))
        lines += [cost.line() for cost in self.card_costs]
        if self.hand:
            lines.append(Say("%(earned)s earned %(cards)s for cards in hand = %(total)s",
                             earned=Signed(self.earned), cards=Signed(self.card_penalty),
                             total=Signed(self.score)))
        lines.append(Say("round score %(points)s", points=Signed(self.score)))
        return lines

    def as_detail(self) -> dict[str, Any]:
        detail: dict[str, Any] = {"earned": self.earned, "plays": plays_detail(self.plays)}
        if self.hand is not None:
            detail.update(
                hand=[str(c) for c in self.hand],
                card_penalty=self.card_penalty,
                cards_left=[{"cards": [str(c) for c in cost.cards], "points": cost.points, "why": str(cost.why)}
                            for cost in self.card_costs],
                score=self.score,
            )
        detail["story"] = [str(line) for line in self.story()]
        return detail


def card_cost(card: Card, rules: Mapping[str, Any]) -> CardCost:
    """A card left in hand: what it costs, and why (an ace by the table's rule)."""
    value = hand_value(card, rules)
    why: Say
    if card.rank == ACE:
        why = SayN("an ace left in hand counts %(num)s point", "an ace left in hand counts %(num)s points", value)
    else:
        why = Say("left in hand")
    return CardCost((card,), -value, why)


def score_player(round_: Round, player: str, hand: Sequence[Card] | None) -> PlayerRound:
    """One player's round score; ``hand`` None while the round is still being played."""
    plays = tuple(p for p in round_.plays if p.player == player)
    earned = sum(p.points for p in plays)
    if hand is None:
        return PlayerRound(player, plays, earned, None, (), earned)
    held = tuple(sorted(hand, key=sort_key))
    costs = tuple(card_cost(c, round_.rules) for c in held)
    return PlayerRound(player, plays, earned, held, costs, earned + sum(c.points for c in costs))


def score_round(round_: Round, hands: Mapping[str, Sequence[Card]] | None,
                _lists: Mapping[str, Sequence[str]] | None = None) -> RoundResult[Round, PlayerRound]:
    """Score a round: with ``hands`` (even empty) it is over; without, what each player
    has laid so far. A hand holds no more than the deal allows (:func:`most_in_hand`)."""
    players = len(round_.players)
    most = most_in_hand(players, round_.rules)

    def too_many(player: str, count: int) -> Say | None:
        if count <= most:
            return None
        return Say("%(player)s's hand has %(count)s cards, but a hand can hold at most %(most)s here (the "
                   "%(dealt)s dealt and the %(rest)s that were not dealt)", player=player, count=count,
                   most=most, dealt=dealt(players), rest=most - dealt(players))

    return score_hands(round_, hands, score_player, too_many)


# ---------------------------------------------------------------------------------------
# The game.


def game_state(players: Sequence[str], rules: Mapping[str, Any],
               totals: Mapping[str, int]) -> tuple[bool, list[str], bool]:
    """(over, winners, tied): over after the round in which someone reaches ``target``; the
    highest total wins, and players tied on it all win (no round is played to split them)."""
    over, winners, tied = highest_wins(players, totals, rules["target"])
    if tied:
        top = max(totals.values())
        return True, [p for p in players if totals[p] == top], False
    return over, winners, tied


def round_facts(result: RoundResult[Round, PlayerRound]) -> dict[str, dict[str, Any]]:
    """A counted round's card-level records: each new meld, its points and cards."""
    return {player: {"melds": [(play.points, tuple(str(c) for c in play.cards), None)
                               for play in pr.plays if play.kind == "meld"]}
            for player, pr in result.players.items()}


def round_figures(result: RoundResult[Round, PlayerRound]) -> dict[str, dict[str, int]]:
    """What the game page adds up of a counted round, per player: earned, and what the
    cards left in hand cost."""
    return {p: {"earned": pr.earned, "card_penalty": pr.card_penalty} for p, pr in result.players.items()}


def worth_new(_round: Round) -> Worth:
    """A new meld, as a phone offline adds it up (games/worth.py): card by card, an ace
    low beside the 2 and 3 of its suit."""
    return robber.new_meld_worth(lambda cards: dict(zip(*_made(cards))))


def _made(cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    meld, points = make_meld(cards)
    return meld.cards, points


def worth_on(meld: Meld) -> Worth:
    """Cards laid off on this meld, as a phone offline adds them up: each card's value in
    the place it would take."""
    return robber.lay_off_worth(_robbers(meld), lambda cards: dict(zip(*grow(meld, cards)[1:])))


def worth_melds(round_: Round, _lists: Mapping[str, Sequence[str]]) -> list[Worth]:
    """Cards laid off on each meld of the round, as a phone offline adds them up."""
    return [worth_on(m.meld) for m in round_.melds]


VARIANT = LogVariant(
    key="rummy500",
    name=NAME,
    blurb=Say("Every card you lay scores for you, on anyone's meld; cards left in hand count against you."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="table",
    defaults_from=Say("Hoyle's 500 Rum"),
    card_stats=("melds",),
    round_facts=round_facts,
    round_figures=round_figures,
    new_round=lambda players, rules, _teams: Round(players, rules),
    score_round=score_round,
    standing=lambda players, rules, totals, _teams: game_state(players, rules, totals),
    events=("meld", "layoff", "out"),
    table_plays=("meld", "layoff", "out", "pass"),
    how_rounds_end=Say("someone goes out"),
    edits=True,
    worth_new=worth_new,
    worth_melds=worth_melds,
)
