"""Robber Rummy (Howard Fosdick, 2023): melds that change hands.

docs/rules/robber.md: two decks, no jokers. Sets of 3+ of a rank (up to 8, repeated
cards allowed); sequences of 3+ in one suit over A-2-…-K-A, the ace low or high but
never around the corner (K-A-2). An ace keeps the end it was placed at: A-2-3 grown up
to K keeps its ace low (and may still take a second ace high); only a new meld laid as
A through K at once reads its ace high. Every meld belongs to whoever made it; adding cards to
a meld another player (or team) owns steals it. When the hand ends, each side scores
the melds it owns at chart value (cards in sequences double) less the cards left in
hand at chart value (never doubled; an ace in hand is always 15). A player who reneges
scores exactly −``renege_penalty`` for the hand; in partnership play the melds belong to
the partnership, so the team scores its melds less the other partner's hand less the
penalty (the reneger's own hand is not counted). Partners add their scores. First to
``target`` wins; a tie at the top plays on.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, TypeVar

from .cards import ACE, SUITS, Card, Supply, card_names, parse_card, sort_key
from .errors import IllegalPlay
from .iceberg_melds import rank_plural
from .options import LARGEST, Option, RuleBook, Rules
from .standings import highest_wins
from .variant import LogVariant
from .words import Cards, Say, joined
from .worth import Worth, by_card

NAME = Say("Robber Rummy")
MIN_PLAYERS, MAX_PLAYERS = 2, 5
DECKS = 2
FOSDICK = Say("Howard Fosdick's rules")

RULES = RuleBook(
    "robber",
    [
        Option("ace_low", 5, Say("What an ace played low (A-2-3…) is worth in a sequence, before doubling."),
               Say("the chart lost it; 500 Rum values it 5, some tables 1"), minimum=0, maximum=LARGEST,
               house_value=True, label=Say("An ace played low")),
        Option("renege_penalty", 100,
               Say("The score of a player who looks at or takes the discard pile without first "
                   "melding its top card; in partnership play the team keeps its melds and loses this "
                   "(the reneger's own hand is not counted)."), FOSDICK, minimum=0, maximum=LARGEST,
               label=Say("Renege penalty")),
        Option("target", 400, Say("The game ends when someone reaches this total."), FOSDICK, minimum=1,
               maximum=LARGEST, label=Say("Target")),
    ],
)

SET, SEQUENCE = "set", "sequence"
LOW_ACE, HIGH_ACE = 1, 14  # an ace's place in a sequence: before the 2, or after the K


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def chart_value(card: Card, position: int | None, rules: Mapping[str, Any]) -> int:
    """The chart (docs/rules/robber.md): ace high 15, K Q J 10 → 10, 9 … 2 → 5, ace low ``ace_low``."""
    if card.rank == ACE:
        return rules["ace_low"] if position == LOW_ACE else 15
    return 10 if card.rank >= 10 else 5


def hand_value(card: Card) -> int:
    """Cards left in hand: chart value, never doubled; an ace in hand is always high."""
    return 15 if card.rank == ACE else chart_value(card, None, {})


@dataclass(frozen=True)
class Meld:
    """A set or a sequence; a sequence knows where each ace lies (low or high)."""

    kind: str
    cards: tuple[Card, ...]  # sets: sorted; sequences: low to high
    positions: tuple[int, ...] = ()  # sequences: 1 (low ace) … 13 (K), 14 (high ace)

    def __str__(self) -> str:
        return card_names(self.cards)

    def value(self, rules: Mapping[str, Any]) -> int:
        return sum(self.card_points(rules))

    def card_points(self, rules: Mapping[str, Any]) -> tuple[int, ...]:
        """What each card is worth here, in the meld's order: its chart value, doubled in
        a sequence."""
        if self.kind == SET:
            return tuple(chart_value(c, None, rules) for c in self.cards)
        return tuple(2 * chart_value(c, p, rules) for c, p in zip(self.cards, self.positions))

    def describe(self) -> Say:
        if self.kind == SET:
            return Say("set of %(ranks)s", ranks=rank_plural(self.cards[0].rank))
        return Say("sequence")

    @property
    def locked(self) -> bool:
        """No card could ever be added: a set of all 8, or a sequence A to A."""
        if self.kind == SET:
            return len(self.cards) >= 4 * DECKS
        return self.positions[0] == LOW_ACE and self.positions[-1] == HIGH_ACE


def _sequence(cards: Sequence[Card], placed: Sequence[int] = ()) -> Meld | None:
    """These cards as one sequence, if they make one, around the places already
    ``placed`` (a lay-off: the meld's cards keep theirs). A new ace goes high where both
    ends fit: A through K laid at once reads its ace high (docs/rules/robber.md)."""
    if len({c.suit for c in cards}) != 1:
        return None
    others = sorted(c.rank for c in cards if c.rank != ACE)
    aces = len(cards) - len(others)
    by_aces: dict[int, list[tuple[int, ...]]] = {0: [()], 1: [(HIGH_ACE,), (LOW_ACE,)],
                                                 2: [(LOW_ACE, HIGH_ACE)]}
    options = by_aces.get(aces, [])
    for ace_places in options:
        places = sorted([*placed, *others, *ace_places])
        if places and all(b == a + 1 for a, b in zip(places, places[1:])):
            suit = cards[0].suit
            ordered = tuple(Card(ACE if p in (LOW_ACE, HIGH_ACE) else p, suit) for p in places)
            return Meld(SEQUENCE, ordered, tuple(places))
    return None


def make_meld(cards: Sequence[Card]) -> Meld:
    names = Cards(cards)
    if len(cards) < 3:
        raise IllegalPlay(Say("%(cards)s is not a meld: a meld needs at least three cards", cards=names))
    if len({c.rank for c in cards}) == 1:
        return Meld(SET, tuple(sorted(cards, key=sort_key)))
    meld = _sequence(cards)
    if meld is None:
        raise IllegalPlay(Say("%(cards)s is not a meld: a set is one rank, a sequence one suit in order "
                              "(ace low or high, never K-A-2)", cards=names))
    return meld


def lay_off(meld: Meld, cards: Sequence[Card]) -> Meld:
    names = Cards(cards)
    if meld.kind == SET:
        if any(c.rank != meld.cards[0].rank for c in cards):
            raise IllegalPlay(Say("%(cards)s does not fit %(meld)s: a set takes only its own rank",
                                  cards=names, meld=Cards(meld.cards)))
        return Meld(SET, tuple(sorted(meld.cards + tuple(cards), key=sort_key)))
    # An ace already in the sequence keeps the end it was placed at: A-2-3 grown up to
    # K keeps its ace low and may still take a second ace high (docs/rules/robber.md).
    # The new cards take the places left at the ends; a place taken twice breaks the run.
    in_suit = all(c.suit == meld.cards[0].suit for c in cards)
    grown = _sequence(cards, meld.positions) if in_suit else None
    if grown is None:
        raise IllegalPlay(Say("%(cards)s does not fit %(meld)s: a sequence grows only at its ends, in its "
                              "suit, never around the corner", cards=names, meld=Cards(meld.cards)))
    return grown


def _at(place: int, suit: str) -> Card:
    return Card(ACE if place in (LOW_ACE, HIGH_ACE) else place, suit)


def runs_through(card: Card) -> list[tuple[Card, ...]]:
    """The sequences of three that hold ``card`` (an ace low with the 2 and 3, or high
    with the Q and K), and for an ace the whole suit, A to K, laid at once."""
    places = (LOW_ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)
    runs = [tuple(_at(p, card.suit) for p in range(start, start + 3))
            for place in places for start in range(place - 2, place + 1) if LOW_ACE <= start <= HIGH_ACE - 2]
    if card.rank == ACE:
        runs.append(tuple(_at(p, card.suit) for p in range(LOW_ACE, HIGH_ACE)))
    return runs


def ends(meld: Meld) -> list[tuple[Card, ...]]:
    """The most cards that could be laid off on ``meld`` at once at each of its ends,
    nearest first: a set's rank in every suit; a sequence's suit below its low end (down
    to a low ace) and above its high end (up to a high ace). A card needs the ones before
    it in its end's list laid with it."""
    if meld.kind == SET:
        return [tuple(Card(meld.cards[0].rank, s) for s in SUITS)]
    suit, low, high = meld.cards[0].suit, meld.positions[0], meld.positions[-1]
    return [way for way in (tuple(_at(p, suit) for p in range(low - 1, LOW_ACE - 1, -1)),
                            tuple(_at(p, suit) for p in range(high + 1, HIGH_ACE + 1))) if way]


PointsOf = Callable[[Sequence[Card]], Mapping[Card, int]]  # cards laid → what each scores


def new_meld_worth(points_of: PointsOf) -> Worth:
    """What each card scores in a new meld (games/worth.py), for a game whose melds are
    these (Robber, Rummy 500): ``points_of`` tried on a set of its rank and on each
    sequence of three that holds it. An ace may lie low or high: two copies of it in one
    meld are not known."""
    found: list[tuple[Card, Sequence[Card], int]] = []
    for card in (Card(rank, suit) for suit in SUITS for rank in range(1, 14)):
        same_rank = [card, *(Card(card.rank, s) for s in SUITS if s != card.suit)][:3]
        found.append((card, (), points_of(same_rank)[card]))
        found += [(card, [c for c in run if c != card], points_of(run)[card]) for run in runs_through(card)]
    return Worth(cards=by_card(found), once=tuple(str(Card(ACE, s)) for s in SUITS))


def lay_off_worth(meld: Meld, points_of: PointsOf) -> Worth:
    """What each card scores laid off on ``meld`` (games/worth.py): ``points_of`` tried on
    all an end could take at once (a card scores its place, whatever else is laid), each
    card needing the ones between it and the meld (a set's, none). An ace either end could
    take: two copies of it are not known."""
    found: list[tuple[Card, Sequence[Card], int]] = []
    ways = ends(meld)
    for way in ways:
        points = points_of(way)
        found += [(card, way[:i] if meld.kind != SET else (), points[card]) for i, card in enumerate(way)]
    both = len(ways) == 2 and all(way[-1].rank == ACE for way in ways)
    if both:  # one ace, both ends filled: the rules choose
        beside = ways[0][:-1] + ways[1][:-1]
        found.append((ways[1][-1], beside, points_of((*beside, ways[1][-1]))[ways[1][-1]]))
    return Worth(cards=by_card(found), once=(str(ways[1][-1]),) if both else ())


# ---------------------------------------------------------------------------------------
# A hand: the log of plays, with ownership.


@dataclass
class TableMeld:
    number: int
    meld: Meld
    owner: str  # the player who holds it now (for teams, the team is the owner's team)
    history: list[Say]  # who made it, added to it and stole it, in order

    def side(self, teams: Mapping[str, str]) -> str:
        return teams.get(self.owner, self.owner)


@dataclass(frozen=True)
class Play:
    player: str
    kind: str  # "meld", "layoff" or "out"
    cards: tuple[Card, ...] = ()
    meld_number: int | None = None
    stolen_from: str | None = None

    def describe(self) -> Say:
        if self.kind == "out":
            return Say("went out")
        if self.kind == "meld":
            return Say("melds %(cards)s (meld %(number)s)", cards=Cards(self.cards), number=self.meld_number)
        if self.stolen_from:
            return Say("steals meld %(number)s from %(player)s with %(cards)s", number=self.meld_number,
                       player=self.stolen_from, cards=Cards(self.cards))
        return Say("adds %(cards)s to meld %(number)s", cards=Cards(self.cards), number=self.meld_number)


class Round:
    """One hand of Robber Rummy as its log builds it; a refused play changes nothing."""

    def __init__(self, players: Sequence[str], rules: Mapping[str, Any],
                 teams: Mapping[str, str] | None = None) -> None:
        self.players = list(players)
        self.rules = rules
        self.teams = dict(teams or {})  # player → team name
        self.supply = Supply(DECKS, hand=True)  # its rounds are hands
        self.melds: list[TableMeld] = []
        self.plays: list[Play] = []
        self.out: str | None = None

    def side(self, player: str) -> str:
        return self.teams.get(player, player)

    def end_reason(self) -> Say | None:
        return Say("%(player)s went out", player=self.out) if self.out else None

    @property
    def ended(self) -> bool:
        """Someone went out: the hand is over (it also ends when the stock runs out, which
        the table logs and the game file does not)."""
        return self.out is not None

    finishing = False  # no last turn after the end, as Iceberg's last ace has

    def _check(self, player: str) -> None:
        if player not in self.players:
            raise IllegalPlay(Say("'%(player)s' is not playing in this game", player=player))
        if self.out:
            raise IllegalPlay(Say("the hand is over: %(player)s went out", player=self.out))

    def meld(self, player: str, cards: Sequence[Card]) -> Play:
        self._check(player)
        meld = make_meld(cards)
        self.supply.take(cards)
        number = len(self.melds) + 1
        self.melds.append(TableMeld(number, meld, player, [Say("made by %(player)s", player=player)]))
        play = Play(player, "meld", tuple(cards), number)
        self.plays.append(play)
        return play

    def lay_off(self, player: str, number: int, cards: Sequence[Card]) -> Play:
        """Adding to a meld another player (or team) owns steals it (docs/rules/robber.md)."""
        self._check(player)
        if not isinstance(number, int) or not 1 <= number <= len(self.melds):
            if self.melds:
                raise IllegalPlay(Say("there is no meld %(number)s on the table (it has melds 1 to %(last)s)",
                                      number=str(number), last=len(self.melds)))
            raise IllegalPlay(Say("there is no meld %(number)s on the table (it has no melds yet)",
                                  number=str(number)))
        target = self.melds[number - 1]
        grown = lay_off(target.meld, cards)
        self.supply.take(cards)
        stolen_from = target.owner if self.side(target.owner) != self.side(player) else None
        target.meld = grown
        if stolen_from:
            target.owner = player
            target.history.append(Say("stolen by %(player)s from %(owner)s with %(cards)s", player=player,
                                      owner=stolen_from, cards=Cards(cards)))
        else:
            target.history.append(Say("%(player)s added %(cards)s", player=player, cards=Cards(cards)))
        play = Play(player, "layoff", tuple(cards), number, stolen_from)
        self.plays.append(play)
        return play

    def extenders(self, number: int) -> tuple[Card, ...]:
        """The cards that could still be added to meld ``number``: its rank for a set, the
        card just below and just above a sequence (an ace past a 2 or a K)."""
        meld = self.melds[number - 1].meld
        if meld.kind == SET:
            rank = meld.cards[0].rank
            return tuple(Card(rank, suit) for suit in SUITS) if len(meld.cards) < 4 * DECKS else ()
        suit, ends = meld.cards[0].suit, (meld.positions[0] - 1, meld.positions[-1] + 1)
        return tuple(Card(ACE if p in (LOW_ACE, HIGH_ACE) else p, suit)
                     for p in ends if LOW_ACE <= p <= HIGH_ACE)

    def locked(self, number: int) -> bool:
        """No one can steal (or add to) meld ``number`` any more: every copy of every card
        that could extend it is already on the table."""
        return all(self.supply.remaining(card) == 0 for card in self.extenders(number))

    def go_out(self, player: str) -> Play:
        self._check(player)
        self.out = player
        play = Play(player, "out")
        self.plays.append(play)
        return play


# ---------------------------------------------------------------------------------------
# Scoring the hand.


@dataclass(frozen=True)
class PlayerHand:
    player: str
    melds: tuple[TableMeld, ...]  # the melds this player holds at the end
    meld_points: int
    hand: tuple[Card, ...] | None
    hand_points: int
    reneged: bool
    score: int  # the player's own score (before partners are added)
    team: str | None = None  # the partnership's name ("A & C"); None without partnerships

    def story(self, rules: Mapping[str, Any]) -> list[Say]:
        """The player's hand, line by line: each meld held, each card left, the score."""
        penalty = rules["renege_penalty"]
        if self.reneged and self.team is None:
            return [Say("reneged: scores exactly −%(penalty)s for the hand", penalty=penalty)]
        lines = [
            Say("meld %(number)s %(cards)s (%(meld)s, %(history)s): +%(points)s", number=m.number,
                cards=Cards(m.meld.cards), meld=m.meld.describe(), history=joined(m.history),
                points=m.meld.value(rules))
            for m in self.melds
        ]
        if self.reneged and self.hand:
            lines.append(Say("reneged: −%(penalty)s for the hand; the cards left in %(player)s's hand "
                             "(%(cards)s) are not counted, but in partnership play the melds %(player)s "
                             "holds still count for %(team)s", penalty=penalty, player=self.player,
                             cards=Cards(self.hand), team=self.team))
        elif self.reneged:
            lines.append(Say("reneged: −%(penalty)s for the hand; the cards left in %(player)s's hand are "
                             "not counted, but in partnership play the melds %(player)s holds still count "
                             "for %(team)s", penalty=penalty, player=self.player, team=self.team))
        elif self.hand:
            lines += [Say("%(card)s: left in hand −%(points)s", card=c, points=hand_value(c)) for c in self.hand]
        lines.append(Say("score %(points)s", points=self.score))
        if self.team is not None:
            lines.append(Say("partners add their scores: %(team)s together", team=self.team))
        return lines


def score_player(round_: Round, player: str, hand: Sequence[Card] | None, reneged: bool) -> PlayerHand:
    """One player's own part of the hand's score (docs/rules/robber.md).

    A renege scores exactly −``renege_penalty`` for the hand; in partnership play the
    melds belong to the partnership, so those the reneger holds still count for it and
    only the reneger's own hand is left out: the team scores its melds, less the other
    partner's hand, less the penalty.
    """
    rules = round_.rules
    team = round_.teams.get(player)
    held = tuple(m for m in round_.melds if m.owner == player)
    meld_points = sum(m.meld.value(rules) for m in held)
    cards = tuple(sorted(hand, key=sort_key)) if hand is not None else None
    hand_points = -sum(hand_value(c) for c in cards) if cards else 0
    if reneged:
        score = (meld_points if team is not None else 0) - rules["renege_penalty"]
    else:
        score = meld_points + (hand_points if cards is not None else 0)
    return PlayerHand(player, held, meld_points, cards, hand_points, reneged, score, team)


def side_scores(players: Sequence[str], own: Mapping[str, int], teams: Mapping[str, str]) -> dict[str, int]:
    """Partners add their scores; each member shows the team's score."""
    team_total: dict[str, int] = {}
    for p in players:
        side = teams.get(p, p)
        team_total[side] = team_total.get(side, 0) + own[p]
    return {p: team_total[teams.get(p, p)] for p in players}


@dataclass
class RoundResult:
    """A hand scored: each player's melds and hand (``players``), each side's score."""

    round: Round
    players: dict[str, PlayerHand]
    scores: dict[str, int]  # the side's score, repeated for each member
    finished: bool

    @property
    def ended(self) -> Say:
        """How the hand ended, as the game file's score says it."""
        return self.round.end_reason() or (Say("hands counted") if self.finished else Say("in progress"))

    @property
    def words(self) -> Say:
        """How the hand ended, as the table says it: a hand counted with no one out is one
        whose stock ran out (the game file does not say so)."""
        if self.finished and not self.round.out:
            return Say("the stock ran out")
        return self.ended

    def as_json(self) -> dict[str, Any]:
        rules = self.round.rules
        return {
            "scores": self.scores,
            "finished": self.finished,
            "ended": str(self.ended),
            "detail": {
                p: {
                    "melds": [
                        {"meld": m.number, "cards": [str(c) for c in m.meld.cards],
                         "value": m.meld.value(rules), "history": [str(h) for h in m.history],
                         "locked": m.meld.locked}
                        for m in r.melds
                    ],
                    "meld_points": r.meld_points,
                    "hand": [str(c) for c in r.hand] if r.hand is not None else None,
                    "hand_points": r.hand_points,
                    "reneged": r.reneged,
                    "own_score": r.score,
                    "story": [str(line) for line in r.story(rules)],
                }
                for p, r in self.players.items()
            },
        }


def score_round(round_: Round, hands: Mapping[str, Sequence[Card]] | None,
                lists: Mapping[str, Sequence[str]]) -> RoundResult:
    """Score a hand: with ``hands`` it is over (a player left out of them held nothing);
    without, what each side would score if it ended now. ``lists["renege"]``: who reneged."""
    finished = hands is not None
    if hands is not None and round_.out and hands.get(round_.out):
        raise IllegalPlay(Say("%(player)s went out, so holds no cards", player=round_.out), place="hands")
    renege = lists.get("renege", ())
    own = {p: score_player(round_, p, hands.get(p, []) if hands is not None else None, p in renege)
           for p in round_.players}
    scores = side_scores(round_.players, {p: r.score for p, r in own.items()}, round_.teams)
    return RoundResult(round_, own, scores, finished)


# ---------------------------------------------------------------------------------------
# The table's order of play, which the game file does not record.


class TableRow(Protocol):
    """A play as the table logs it (storage/plays.py PlayRow): its type, player and the
    names of its cards."""

    @property
    def type(self) -> str: ...

    @property
    def player(self) -> str: ...

    @property
    def cards(self) -> Sequence[str]: ...


Row = TypeVar("Row", bound=TableRow)


def settles(take: TableRow, row: TableRow) -> bool:
    """``row`` settles the discard pile ``take``: its taker puts the top card into a meld or
    lay-off, or reneges. (Plays here are a table's rows: ``type``, ``player``, ``cards``.)"""
    return row.player == take.player and (
        row.type == "renege" or (row.type in ("meld", "layoff") and take.cards[0] in row.cards))


def pending_take(rows: Sequence[Row]) -> Row | None:
    """The discard pile taken in ``rows`` (a hand's plays so far, in order) that no play
    has settled yet (:func:`settles`): its taker still owes its top card; None if none."""
    pending: Row | None = None
    for row in rows:
        if row.type == "take":
            pending = row
        elif pending is not None and settles(pending, row):
            pending = None
    return pending


def check_order(rows: Sequence[TableRow], rules: Mapping[str, Any]) -> None:
    """The discard pile's top card goes at once into a meld or lay-off by whoever took it
    (or that player reneges); a renege is once a hand, and whoever reneged is out of the
    hand: the last row (the play being logged) is no meld, lay-off, pile taken or going out
    of theirs (a hand logged before this was checked stays playable and editable).
    ``rows``: a hand's plays in order, as the table logs them ("take": the pile taken, its
    top card the one card)."""
    pending: TableRow | None = None
    reneged: set[str] = set()
    for row in rows:
        if row.type == "take" and len(row.cards) != 1:
            raise IllegalPlay(Say("pick the one card on top of the discard pile"))
        if row is rows[-1] and row.player in reneged and row.type in ("meld", "layoff", "take", "out"):
            raise IllegalPlay(Say("%(player)s reneged this hand and is out of it: %(player)s plays "
                                  "again next hand", player=row.player))
        if row.type == "renege":
            if row.player in reneged:
                raise IllegalPlay(Say("%(player)s has reneged this hand already: the hand scores "
                                      "−%(penalty)s once", player=row.player, penalty=rules["renege_penalty"]))
            reneged.add(row.player)
        if pending is not None and not (row.type == "renege" and row.player != pending.player):
            top = pending.cards[0]
            mine = row.player == pending.player
            if not settles(pending, row):
                if mine and row.type in ("meld", "layoff"):
                    raise IllegalPlay(Say("%(player)s took the discard pile: its top card %(card)s must go "
                                          "into a meld or lay-off by %(player)s first (or %(player)s "
                                          "reneges): %(cards)s does not include %(card)s",
                                          player=pending.player, card=parse_card(top),
                                          cards=Cards(parse_card(c) for c in row.cards)))
                raise IllegalPlay(Say("%(player)s took the discard pile: its top card %(card)s must go into "
                                      "a meld or lay-off by %(player)s first (or %(player)s reneges)",
                                      player=pending.player, card=parse_card(top)))
            pending = None
        if row.type == "take":
            pending = row


def _points(meld: Meld, rules: Mapping[str, Any]) -> dict[Card, int]:
    return dict(zip(meld.cards, meld.card_points(rules)))


def _laid(meld: Meld, cards: Sequence[Card], rules: Mapping[str, Any]) -> dict[Card, int]:
    """What each card laid off on ``meld`` is worth there (a second ace in a sequence: the
    one at the end that was empty)."""
    grown = lay_off(meld, cards)
    if grown.kind == SET:
        return _points(grown, rules)
    return {c: v for c, p, v in zip(grown.cards, grown.positions, grown.card_points(rules)) if p not in meld.positions}


def _sides(round_: Round) -> dict[str, tuple[str, ...]]:
    """Whose columns of the score strip show a player's score: their side's."""
    return {p: tuple(q for q in round_.players if round_.side(q) == round_.side(p)) for p in round_.players}


def _shared(sides: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Where a play's points go, as games/worth.py says it: partners' (the player alone
    is not said)."""
    return {p: side for p, side in sides.items() if side != (p,)}


def worth_new(round_: Round) -> Worth:
    """A new meld, as a phone offline adds it up (games/worth.py): card by card, doubled
    where it makes a sequence; partners share what it scores."""
    return replace(new_meld_worth(lambda cards: _points(make_meld(cards), round_.rules)), to=_shared(_sides(round_)))


def worth_melds(round_: Round, lists: Mapping[str, Sequence[str]]) -> list[Worth]:
    """Cards laid off on each meld of the hand, as a phone offline adds them up: each
    card's worth there, to the side that then holds the meld; and a lay-off by another
    side takes the meld, its worth counted for the taker's side and no longer for the
    side that held it (the scores as the hand stands: a reneger's stay as they are)."""
    renege = lists.get("renege", ())
    own = {p: score_player(round_, p, None, p in renege).score for p in round_.players}
    now = side_scores(round_.players, own, round_.teams)
    sides = _sides(round_)
    worth = []
    for table in round_.melds:
        moved = copy(round_)  # the meld held by no one (score_player reads the melds, rules, teams)
        moved.melds = [replace(m, owner="") if m is table else m for m in round_.melds]
        lost = side_scores(round_.players, {**own, table.owner: score_player(moved, table.owner, None,
                                                                              table.owner in renege).score},
                           round_.teams)
        taken = {p: lost[p] - now[p] for p in round_.players if lost[p] != now[p]}
        value = table.meld.value(round_.rules)
        moves = {player: {**taken, **{p: taken.get(p, 0) + value for p in sides[player]}}
                 for player in round_.players if round_.side(player) != round_.side(table.owner)}
        worth.append(replace(lay_off_worth(table.meld, partial(_laid, table.meld, rules=round_.rules)),
                             moves=moves, to=_shared(sides)))
    return worth


def round_facts(result: RoundResult) -> dict[str, dict[str, Any]]:
    """A counted hand's card-level records: the melds each player held at its end (their
    value then) and the melds each stole."""
    rules = result.round.rules
    facts: dict[str, dict[str, Any]] = {
        p: {"melds": [(m.meld.value(rules), tuple(str(c) for c in m.meld.cards), None) for m in hand.melds],
            "steals": 0}
        for p, hand in result.players.items()}
    for play in result.round.plays:
        if play.kind == "layoff" and play.stolen_from:
            facts[play.player]["steals"] += 1
    return facts


VARIANT = LogVariant(
    key="robber",
    name=NAME,
    blurb=Say("Two decks; lay off on someone else's meld and it is yours."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="steals",
    round_word="hand",
    partnerships=True,
    card_stats=("melds", "steals"),
    round_facts=round_facts,
    new_round=Round,
    score_round=score_round,
    standing=lambda players, rules, totals, teams: highest_wins(players, totals, rules["target"], teams),
    events=("meld", "layoff", "out"),
    round_lists=("renege",),
    table_plays=("meld", "layoff", "out", "pass", "take", "renege", "stock"),
    round_enders=("stock",),
    edits=True,
    check_plays=check_order,
    sits_out=("renege",),
    how_rounds_end=Say("someone goes out, or the stock runs out"),
    worth_new=worth_new,
    worth_melds=worth_melds,
)
