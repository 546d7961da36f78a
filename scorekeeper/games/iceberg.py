"""Iceberg Rummy (Gordon Bower, 1997): the whole scoring, as docs/rules/iceberg.md gives it.

A round is a log of plays. Points are scored the moment cards are placed (a new pair 10,
the 3rd card on a pair 20, a new 3-card set or run 30, the n-th card 10 × n, special
melds whole); aces go face up and multiply the round score; when someone goes out, or
the last ace of the decks is exposed, every card left in a hand costs ``card_penalty``
plus whatever it could have scored in one more turn (the "playable" penalty).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from . import contract, iceberg_melds
from .cards import ACE, Card, Supply, sort_key
from .errors import IllegalPlay
from .iceberg_last_turn import LastTurn, best_last_turn, single_card_turn
from .iceberg_melds import SPECIAL_BY_NAME, Meld, lay_off, lay_off_points, make_meld, ordinal
from .options import LARGEST, Option, RuleBook, Rules, decks_option
from .standings import highest_wins
from .variant import LogVariant
from .words import THEN, Cards, Say, SayN, Signed, joined
from .worth import Worth

NAME = Say("Iceberg Rummy")
MIN_PLAYERS, MAX_PLAYERS = 2, 6

BOWER = Say("Gordon Bower's rules")
SITE = Say("bestfreenewgames.com rules page")

RULES = RuleBook(
    "iceberg",
    [
        decks_option(3, Say("Decks shuffled together: one for 2–3 players, two for 4 or more."),
                     Say("1 for 2–3 players, 2 for 4 or more"), BOWER),
        Option(
            "set_duplicates", True,
            Say("With two decks, may a set hold both copies of a card? (The point table runs to "
                "the 8th card of a set.) No: the suits in a set must differ."),
            Say("the sources' point table (it runs to an 8th card in a set)"), kind="bool",
            label=Say("Both copies of a card in one set"),
        ),
        Option("special_odds_suit", 700, Say("The special meld 3-5-7-9-J-K all in one suit (0: not played)."),
               SITE, minimum=0, maximum=LARGEST, house_value=SPECIAL_BY_NAME["special_odds_suit"].house,
               label=Say("Odds in one suit")),
        Option("special_evens_suit", 700, Say("The special meld 2-4-6-8-10-Q all in one suit (0: not played)."),
               Say("by symmetry with the odds"), minimum=0, maximum=LARGEST,
               house_value=SPECIAL_BY_NAME["special_evens_suit"].house, label=Say("Evens in one suit")),
        Option("special_odds_colour", 350,
               Say("The special meld 3-5-7-9-J-K in one colour, mixed suits (0: not played)."),
               Say("no source gives it"), minimum=0, maximum=LARGEST,
               house_value=SPECIAL_BY_NAME["special_odds_colour"].house, label=Say("Odds in one colour")),
        Option("special_evens_colour", 350,
               Say("The special meld 2-4-6-8-10-Q in one colour, mixed suits (0: not played)."),
               Say("no source gives it"), minimum=0, maximum=LARGEST,
               house_value=SPECIAL_BY_NAME["special_evens_colour"].house, label=Say("Evens in one colour")),
        Option(
            "aces", "multiplier",
            Say("What the aces a player put face up do: multiply the round score by one more "
                "than the aces; add the ace bonus for each; or add the ace bonus for the first "
                "and double it for each next one."),
            Say("Bower and the rules site (multiplier); the rules site's variations"),
            kind="choice", choices=("multiplier", "bonus", "doubling_bonus"), label=Say("Aces"),
            choice_labels=(Say("Multiply the round score"), Say("A bonus for each ace"),
                           Say("A bonus, doubled for each next ace")),
        ),
        Option("ace_bonus", 20, Say("Points for each ace when the aces give a bonus (for the first "
                   "ace when it doubles)."), Say("the rules site suggests 20 or 50"), minimum=0,
               maximum=LARGEST, label=Say("Ace bonus")),
        Option("card_penalty", 10, Say("What every card left in hand costs."), BOWER, minimum=0,
               maximum=LARGEST, label=Say("A card left in hand")),
        Option(
            "card_penalty_applies_to", "all",
            Say("Which cards left in hand cost the card penalty: every one, or only those the "
                "best last turn does not use."), Say("Bower and both examples (all); the rules site's wording"),
            kind="choice", choices=("all", "unplayable"), label=Say("Cards that cost the penalty"),
            choice_labels=(Say("Every card left in hand"), Say("Only the cards that could not be played")),
        ),
        Option(
            "playable_penalty", "best_turn",
            Say("What the cards that could have been played cost: the most the hand could score "
                "in one more turn (chains and new melds included), or each card's best lay-off "
                "on its own."), Say("Bower: 'however much they would have counted for you'"),
            kind="choice", choices=("best_turn", "single_card"), label=Say("Playable cards cost"),
            choice_labels=(Say("The best last turn"), Say("Each card's best single lay-off")),
        ),
        Option("target", 5000, Say("The game ends when someone reaches this total."),
               Say("Bower, for two players"), minimum=1, maximum=LARGEST, label=Say("Target")),
    ],
)


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def aces_in_decks(rules: Mapping[str, Any]) -> int:
    decks: int = rules["decks"]
    return 4 * decks


DEALT = 7  # cards dealt to each player


def most_in_hand(players: int, rules: Mapping[str, Any]) -> int:
    """The most cards a hand can hold at the end of a round: the 7 dealt and one more
    for each of the player's turns that drew from the stock (a turn takes the card passed
    in, draws one and passes one on; the first takes none in), so 7 + the player's share
    of the stock, rounded up. Two players with two decks: 52; four with two decks: 26."""
    decks: int = rules["decks"]
    stock = 52 * decks - DEALT * players
    return DEALT + max(0, -(-stock // players))


# ---------------------------------------------------------------------------------------
# A round: the log of plays.


class LaidMeld(Protocol):
    """What a play says of the meld it made or grew (iceberg_melds.Meld; Rummy 500's)."""

    @property
    def cards(self) -> tuple[Card, ...]: ...

    @property
    def size(self) -> int: ...

    def describe(self) -> Say: ...


M = TypeVar("M", bound=LaidMeld)  # the melds of a game logged like this one


@dataclass(frozen=True)
class Play(Generic[M]):
    """One logged play and what it scored."""

    player: str
    kind: str  # "ace", "meld", "layoff" or "out"
    cards: tuple[Card, ...] = ()
    meld_number: int | None = None
    before: M | None = None
    after: M | None = None
    card_points: tuple[int, ...] = ()
    points: int = 0

    def describe(self, points: bool = True) -> Say:
        """The play in words; a new meld's points follow unless ``points`` is false."""
        if self.kind == "ace":
            return Say("%(cards)s face up", cards=Cards(self.cards))
        if self.kind == "out":
            return Say("went out")
        if self.kind == "meld":
            assert self.after is not None  # a new meld's play holds it
            values = dict(meld=self.after.describe(), cards=Cards(self.after.cards), number=self.meld_number)
            if points:
                return Say("new %(meld)s: %(cards)s (meld %(number)s), %(points)s", points=self.points, **values)
            return Say("new %(meld)s: %(cards)s (meld %(number)s)", **values)
        assert self.before is not None  # a lay-off's play holds the meld it grew
        steps = joined((Say("%(card)s as %(nth)s card %(points)s", card=card,
                            nth=ordinal(self.before.size + i + 1), points=pts)
                        for i, (card, pts) in enumerate(zip(self.cards, self.card_points))), THEN)
        return Say("on meld %(number)s (%(meld)s): %(steps)s", number=self.meld_number,
                   meld=Cards(self.before.cards), steps=steps)


@dataclass
class TableMeld(Generic[M]):
    number: int
    meld: M
    started_by: str


class MeldRound(Generic[M]):
    """The table as the log of one round builds it; every play is checked before it counts.

    A refused play raises IllegalPlay and leaves the round exactly as it was. A game
    logged the same way (meld numbers, lay-offs onto anyone's meld, going out) with melds
    and points of its own says them in ``new_meld``, ``grow`` and ``play_class`` (Rummy 500).
    """

    play_class: type[Play[M]] = Play  # a play's record and its words

    def __init__(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        self.players = list(players)
        self.rules = rules
        self.supply = Supply(rules["decks"])
        self.melds: list[TableMeld[M]] = []
        self.plays: list[Play[M]] = []
        self.aces: dict[str, list[Card]] = {p: [] for p in players}
        self.out: str | None = None
        self.last_ace_by: str | None = None

    # -- what the table knows -----------------------------------------------------------
    @property
    def table(self) -> list[M]:
        return [m.meld for m in self.melds]

    @property
    def aces_exposed(self) -> int:
        return sum(len(a) for a in self.aces.values())

    @property
    def over(self) -> bool:
        """No more plays: someone went out (the last ace still lets its player finish)."""
        return self.out is not None

    @property
    def ended(self) -> bool:
        """The round is over but for the last ace's turn: someone went out, or the last
        ace of the decks is face up."""
        return self.out is not None or self.last_ace_by is not None

    @property
    def finishing(self) -> bool:
        """The last ace is face up: its player finishes the turn, then the round ends."""
        return self.out is None and self.last_ace_by is not None

    def earned(self, player: str) -> int:
        return sum(p.points for p in self.plays if p.player == player)

    def end_reason(self) -> Say | None:
        if self.out:
            return Say("%(player)s went out", player=self.out)
        if self.last_ace_by:
            return Say("%(player)s exposed the last ace; the round ends after that turn",
                       player=self.last_ace_by)
        return None

    # -- plays --------------------------------------------------------------------------
    def _check_turn(self, player: str) -> None:
        if player not in self.aces:
            raise IllegalPlay(Say("'%(player)s' is not playing in this game", player=player))
        if self.out:
            raise IllegalPlay(Say("the round is over: %(player)s went out", player=self.out))
        if self.last_ace_by and player != self.last_ace_by:
            raise IllegalPlay(Say("%(player)s exposed the last ace: only %(player)s plays on, to finish "
                                  "that turn, then the round ends", player=self.last_ace_by))

    def _record(self, play: Play[M]) -> Play[M]:
        self.plays.append(play)
        return play

    def ace(self, player: str, cards: Sequence[Card]) -> Play[M]:
        """Aces go face up at once (docs/rules/iceberg.md: they are never melded)."""
        self._check_turn(player)
        others = [c for c in cards if c.rank != ACE]
        if others:
            raise IllegalPlay(Say("%(cards)s is not an ace", cards=Cards(others)))
        self.supply.take(cards)
        self.aces[player].extend(cards)
        if self.aces_exposed >= aces_in_decks(self.rules) and self.last_ace_by is None:
            self.last_ace_by = player
        return self._record(Play(player, "ace", tuple(cards)))

    def meld(self, player: str, cards: Sequence[Card]) -> Play[M]:
        """A new meld from hand: a pair, set, run or special meld, scored whole."""
        self._check_turn(player)
        meld, card_points, points = self.new_meld(cards)
        self.supply.take(cards)
        number = len(self.melds) + 1
        self.melds.append(TableMeld(number, meld, player))
        return self._record(
            self.play_class(player, "meld", tuple(cards), number, None, meld, card_points, points))

    def new_meld(self, cards: Sequence[Card]) -> tuple[M, tuple[int, ...], int]:
        """The meld these cards make, what each of its cards scores where a game scores
        them one by one and what it scores; or IllegalPlay saying why not."""
        raise NotImplementedError(f"{type(self).__name__} makes no melds")

    def grow(self, meld: M, cards: Sequence[Card]) -> tuple[M, tuple[Card, ...], tuple[int, ...]]:
        """The meld with these cards laid off on it, the cards in the order they attach and
        what each scores; or IllegalPlay saying why they do not fit."""
        raise NotImplementedError(f"{type(self).__name__} grows no melds")

    def lay_off(self, player: str, number: int, cards: Sequence[Card]) -> Play[M]:
        """Cards added to any meld on the table; each scores its new position."""
        self._check_turn(player)
        if not isinstance(number, int) or not 1 <= number <= len(self.melds):
            if self.melds:
                raise IllegalPlay(Say("there is no meld %(number)s on the table (it has melds 1 to %(last)s)",
                                      number=str(number), last=len(self.melds)))
            raise IllegalPlay(Say("there is no meld %(number)s on the table (it has no melds yet)",
                                  number=str(number)))
        target = self.melds[number - 1]
        grown, ordered, points = self.grow(target.meld, cards)
        self.supply.take(cards)
        play = self.play_class(player, "layoff", ordered, number, target.meld, grown, points, sum(points))
        target.meld = grown
        return self._record(play)

    def go_out(self, player: str) -> Play[M]:
        self._check_turn(player)
        self.out = player
        return self._record(Play(player, "out"))


class Round(MeldRound[Meld]):
    """An Iceberg round: its melds (iceberg_melds.py) score whole when laid down, and
    each card laid off scores its new position."""

    def new_meld(self, cards: Sequence[Card]) -> tuple[Meld, tuple[int, ...], int]:
        """The meld these cards make, what each of its cards scores where a game scores
        them one by one (here none: a meld scores whole) and what it scores; or
        IllegalPlay saying why not."""
        meld = make_meld(list(cards), self.rules)
        return meld, (), meld.value(self.rules)

    def grow(self, meld: Meld, cards: Sequence[Card]) -> tuple[Meld, tuple[Card, ...], tuple[int, ...]]:
        """The meld with these cards laid off on it, the cards in the order they attach and
        what each scores; or IllegalPlay saying why they do not fit."""
        grown = lay_off(meld, list(cards), self.rules)
        return grown, _placing_order(meld, cards), tuple(lay_off_points(meld, len(cards)))


def _placing_order(meld: Meld, cards: Sequence[Card]) -> tuple[Card, ...]:
    """Lay-off cards in the order they attach: nearest the meld first."""
    if meld.kind != "run":
        return tuple(cards)
    def distance(c: Card) -> tuple[bool, int]:  # above the run after below it, nearest first
        return c.rank > meld.high, abs(c.rank - (meld.low if c.rank < meld.low else meld.high))
    return tuple(sorted(cards, key=distance))


# ---------------------------------------------------------------------------------------
# The end of a round: cards left in hand, aces, the round score.


@dataclass(frozen=True)
class CardCost:
    cards: tuple[Card, ...]
    points: int  # what it costs (negative)
    why: Say

    def line(self) -> Say:
        return Say("%(cards)s: %(why)s → %(points)s", cards=Cards(self.cards), why=self.why,
                   points=Signed(self.points))


@dataclass(frozen=True)
class PlayerRound:
    """One player's round: earned, what the hand cost and why, aces, the score."""

    player: str
    plays: tuple[Play[Meld], ...]
    earned: int
    hand: tuple[Card, ...] | None  # None: the round is not over yet
    last_turn: LastTurn | None
    card_costs: tuple[CardCost, ...]
    playable_costs: tuple[CardCost, ...]
    aces: tuple[Card, ...]
    before_aces: int
    score: int
    aces_text: Say

    @property
    def card_penalty(self) -> int:
        return sum(c.points for c in self.card_costs)

    @property
    def playable_penalty(self) -> int:
        return sum(c.points for c in self.playable_costs)

    def story(self) -> list[Say]:
        """The whole round for this player, line by line, as a person would check it.

        Every card left in hand gets its own line: what it costs as a card in hand and,
        if it was playable, exactly how it would have been played and for how much.
        """
        lines = [p.describe() for p in self.plays if p.kind in ("meld", "layoff")]
        lines.append(Say("earned %(points)s", points=Signed(self.earned)))
        if self.hand is None:
            if self.aces:
                lines.append(Say("aces so far: %(cards)s (they count when the round ends)",
                                 cards=Cards(self.aces)))
            return lines
        if not self.hand:
            lines.append(Say("no cards left in hand"))
        in_hand = list(self.card_costs)
        singles = [c for c in self.playable_costs if len(c.cards) == 1]
        groups = [c for c in self.playable_costs if len(c.cards) > 1]
        for card in self.hand:
            parts = []
            for pool, playable in ((in_hand, False), (singles, True)):
                cost = next((c for c in pool if c.cards == (card,)), None)
                if cost:
                    pool.remove(cost)
                    values = dict(why=cost.why, points=Signed(cost.points))
                    parts.append(Say("playable: %(why)s %(points)s", **values) if playable
                                 else Say("%(why)s %(points)s", **values))
            if any(card in g.cards for g in groups):
                parts.append(Say("playable in a new meld (below)"))
            lines.append(Say("%(card)s: %(costs)s", card=card,
                             costs=joined(parts) if parts else Say("costs nothing")))
        lines.extend(Say("%(cards)s: playable: %(why)s %(points)s", cards=Cards(g.cards), why=g.why,
                         points=Signed(g.points)) for g in groups)
        if self.hand:
            lines.append(Say("%(earned)s earned %(cards)s for cards in hand %(playable)s playable = %(total)s",
                             earned=Signed(self.earned), cards=Signed(self.card_penalty),
                             playable=Signed(self.playable_penalty), total=Signed(self.before_aces)))
        lines.append(self.aces_text)
        lines.append(Say("round score %(points)s", points=Signed(self.score)))
        return lines

    def as_detail(self) -> dict[str, Any]:
        detail: dict[str, Any] = {"earned": self.earned, "plays": plays_detail(self.plays),
                                  "aces": [str(c) for c in self.aces]}
        if self.hand is not None:
            detail.update(
                hand=[str(c) for c in self.hand],
                card_penalty=self.card_penalty,
                playable_penalty=self.playable_penalty,
                cards_left=[
                    {"cards": [str(c) for c in cost.cards], "points": cost.points, "why": str(cost.why)}
                    for cost in self.card_costs + self.playable_costs
                ],
                best_last_turn=[str(p.describe()) for p in (self.last_turn.plays if self.last_turn else ())],
                before_aces=self.before_aces,
                score=self.score,
            )
        detail["aces_rule"] = str(self.aces_text)
        detail["story"] = [str(line) for line in self.story()]
        return detail


def plays_detail(plays: Sequence[Play[Any]]) -> list[dict[str, Any]]:
    """A player's melds and lay-offs as the game file's detail lists them."""
    return [{"cards": [str(c) for c in p.cards], "meld": p.meld_number, "play": str(p.describe()),
             "points": p.points} for p in plays if p.kind in ("meld", "layoff")]


def apply_aces(score: int, aces: int, rules: Mapping[str, Any]) -> tuple[int, Say]:
    """docs/rules/iceberg.md, "Aces": what the round's aces do to the score, and the words for it."""
    if rules["aces"] == "multiplier":
        if not aces:
            return score, Say("no aces: score as earned")
        total = score * (1 + aces)
        return total, SayN("%(num)s ace: × %(times)s → %(total)s", "%(num)s aces: × %(times)s → %(total)s",
                           aces, times=1 + aces, total=Signed(total))
    bonus = rules["ace_bonus"] * (aces if rules["aces"] == "bonus" else (2 ** aces - 1))
    if not aces:
        return score, Say("no aces: no bonus")
    if rules["aces"] == "bonus":
        return score + bonus, SayN("%(num)s ace (each): + %(bonus)s → %(total)s",
                                   "%(num)s aces (each): + %(bonus)s → %(total)s",
                                   aces, bonus=bonus, total=Signed(score + bonus))
    return score + bonus, SayN("%(num)s ace (doubling): + %(bonus)s → %(total)s",
                               "%(num)s aces (doubling): + %(bonus)s → %(total)s",
                               aces, bonus=bonus, total=Signed(score + bonus))


def score_player(round_: Round, player: str, hand: Sequence[Card] | None) -> PlayerRound:
    """One player's round score; ``hand`` None while the round is still being played."""
    rules = round_.rules
    plays = tuple(p for p in round_.plays if p.player == player)
    earned = sum(p.points for p in plays)
    aces = tuple(round_.aces[player])
    if hand is None:
        return PlayerRound(player, plays, earned, None, None, (), (), aces, earned, earned,
                           Say("aces count at the end of the round"))
    hand = tuple(sorted(hand, key=sort_key))
    last_turn = None
    playable: tuple[CardCost, ...] = ()
    card_costs: list[CardCost] = []
    if hand:
        if rules["playable_penalty"] == "best_turn":
            last_turn = best_last_turn(hand, round_.table, rules)
        else:
            last_turn = single_card_turn(hand, round_.table, rules)
        playable = tuple(
            CardCost(cards, -points, why)
            for play in last_turn.plays
            for cards, why, points in play.card_lines()
        )
        charged = hand if rules["card_penalty_applies_to"] == "all" else last_turn.unused
        penalty = rules["card_penalty"]
        for card in charged:
            why = Say("an ace never put face up") if card.rank == ACE else Say("left in hand")
            card_costs.append(CardCost((card,), -penalty, why))
    before = earned + sum(c.points for c in card_costs) + sum(c.points for c in playable)
    score, aces_text = apply_aces(before, len(aces), rules)
    return PlayerRound(player, plays, earned, hand, last_turn, tuple(card_costs), playable,
                       aces, before, score, aces_text)


class ScoredPlayer(Protocol):
    """One player's part of a scored round (PlayerRound; Rummy 500's)."""

    @property
    def score(self) -> int: ...

    def as_detail(self) -> dict[str, Any]: ...


R = TypeVar("R", bound="MeldRound[Any]")  # a round of a game logged like this one
P = TypeVar("P", bound=ScoredPlayer)  # a player's part of it, as that game scores it


@dataclass
class RoundResult(Generic[R, P]):
    round: R
    players: dict[str, P]
    finished: bool

    @property
    def scores(self) -> dict[str, int]:
        return {p: r.score for p, r in self.players.items()}

    @property
    def ended(self) -> Say:
        """How the round ended, as the game file's score says it."""
        return self.round.end_reason() or (Say("hands counted") if self.finished else Say("in progress"))

    words = ended  # as the table says it: the same

    def as_json(self) -> dict[str, Any]:
        return {"scores": self.scores, "finished": self.finished, "ended": str(self.ended),
                "detail": {p: r.as_detail() for p, r in self.players.items()}}


def score_round(round_: Round, hands: Mapping[str, Sequence[Card]] | None,
                _lists: Mapping[str, Sequence[str]] | None = None) -> RoundResult[Round, PlayerRound]:
    """Score a round: with ``hands`` (even empty) it is over; without, it is still going."""
    most = most_in_hand(len(round_.players), round_.rules)

    def too_many(player: str, count: int) -> Say | None:
        if count <= most:
            return None
        return Say("%(player)s's hand has %(count)s cards, but a hand can hold at most %(most)s here "
                   "(the 7 dealt and one for each draw from the stock)", player=player, count=count, most=most)

    return score_hands(round_, hands, score_player, too_many)


def score_hands(round_: R, hands: Mapping[str, Sequence[Card]] | None,
                score: Callable[[R, str, Sequence[Card] | None], P],
                too_many: Callable[[str, int], Say | None]) -> RoundResult[R, P]:
    """A round of a game logged like this one, scored: each player by ``score(round, player,
    hand)``, the hand None while the round is still going. Who went out holds nothing, and
    a hand that holds more than the deal allows is refused (``too_many(player, count)``:
    why, or None)."""
    if hands is None:
        return RoundResult(round_, {p: score(round_, p, None) for p in round_.players}, False)
    for player, cards in hands.items():
        if player == round_.out and cards:
            raise IllegalPlay(Say("%(player)s went out, so cannot hold %(cards)s", player=player,
                                  cards=Cards(cards)))
        refusal = too_many(player, len(cards))
        if refusal is not None:
            raise IllegalPlay(refusal)
    return RoundResult(round_, {p: score(round_, p, hands.get(p, ())) for p in round_.players}, True)


# ---------------------------------------------------------------------------------------
# The game: rounds until someone reaches the target; a tie at the top plays on.


def game_state(players: Sequence[str], rules: Mapping[str, Any],
               totals: Mapping[str, int]) -> tuple[bool, list[str], bool]:
    """(over, winners, tied): rounds until someone reaches ``target``; a tie at the top plays on."""
    return highest_wins(players, totals, rules["target"])


def total_scores(players: Sequence[str], results: Sequence[contract.RoundResult]) -> dict[str, int]:
    totals = Counter({p: 0 for p in players})
    for result in results:
        if result.finished:
            totals.update(result.scores)
    return {p: totals[p] for p in players}


def round_facts(result: RoundResult[Round, PlayerRound]) -> dict[str, dict[str, Any]]:
    """A counted round's card-level records: each new meld (its points and cards, a special
    meld's title), the penalty paid for playable cards, the aces."""
    facts: dict[str, dict[str, Any]] = {}
    for player, pr in result.players.items():
        melds = [(play.points, tuple(str(c) for c in play.cards),
                  play.after.special.title if play.after is not None and play.after.special else None)
                 for play in pr.plays if play.kind == "meld"]
        facts[player] = {"melds": melds, "playable_penalty": -pr.playable_penalty, "aces": len(pr.aces)}
    return facts


def round_figures(result: RoundResult[Round, PlayerRound]) -> dict[str, dict[str, int]]:
    """What the game page adds up of a counted round, per player: earned, the penalties
    for cards in hand and for playable ones, the aces and what they did to the score."""
    return {p: {"earned": pr.earned, "card_penalty": pr.card_penalty, "playable_penalty": pr.playable_penalty,
                "aces": len(pr.aces), "aces_effect": pr.score - pr.before_aces}
            for p, pr in result.players.items()}


def worth_new(round_: Round) -> Worth:
    """A new meld, as a phone offline adds it up (games/worth.py)."""
    return iceberg_melds.worth_new(round_.rules)


def worth_melds(round_: Round, _lists: Mapping[str, Sequence[str]]) -> list[Worth]:
    """Cards laid off on each meld of the round, as a phone offline adds them up."""
    return [iceberg_melds.worth_on(m.meld, round_.rules) for m in round_.melds]


VARIANT = LogVariant(
    key="iceberg",
    name=NAME,
    blurb=Say("Melds grow in points; aces multiply; playable cards left in hand cost extra."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="table",
    defaults_from=Say("the inventor's rules (Gordon Bower)"),
    card_stats=("melds", "specials", "playable_penalty", "aces"),
    round_facts=round_facts,
    round_figures=round_figures,
    new_round=lambda players, rules, _teams: Round(players, rules),
    score_round=score_round,
    standing=lambda players, rules, totals, _teams: game_state(players, rules, totals),
    events=("ace", "meld", "layoff", "out"),
    table_plays=("ace", "meld", "layoff", "out", "pass"),
    how_rounds_end=Say("someone goes out, or the last ace is exposed"),
    edits=True,
    playable_penalty=True,
    worth_new=worth_new,
    worth_melds=worth_melds,
)
