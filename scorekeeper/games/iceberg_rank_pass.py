"""The pass over the ranks: the exact best runs, sets and special melds of a hand.

This is the search behind ``best_last_turn`` (``iceberg_last_turn``, whose docstring
gives the rules and the overview) for hands too big to combine every suit's run plans,
and for every hand that could lay down a special meld. Pure library: no Flask, no I/O.

Cards, scores
-------------
A turn's value is ``score(points, cards)``: points × 256 + cards used, so the best turn
has the most points and, among those, the most cards. Aces never meld: the pass looks at
ranks 2 … K only. With two decks a card has at most two copies.

Positions
---------
Going up the ranks 2 … K, a *position* between two ranks holds, per suit, its *lanes*
(the runs still open: length so far, the table run grown if any, the longest it may
grow) and the runs already scored whose later cards are spoken for (``held``); and, per
colour, the state of its special melds (below). At each rank every suit's cards there
go to special melds, extend lanes, start lanes, or go to the rank's sets, which are
scored at once (``best_sets``: with duplicates a rank's sets depend only on how many
cards they get). Positions that are equal keep only the best score.

Special melds
-------------
A special is six cards, one at each rank of its parity: evens 2-4-6-8-10-Q, odds
3-5-7-9-J-K. What the rest of the hand can do depends only on how many cards of each
(rank, suit) the specials take:

- *suit specials* of suit s take one card of s at each rank of their parity: their
  number k_s (0 … 2) is chosen at the parity's first rank and fixed;
- *colour specials* of a colour (spades and clubs, or hearts and diamonds) take, at each
  rank of their parity, c cards of that colour: their number c (0 … 4) is fixed at the
  first rank, and at each rank only x, how many of the c come from the colour's first
  suit, is chosen (c − x from the other). The c specials can be laid down with mixed
  suits iff at least c cards come from each suit over the six ranks (c ≤ Σx ≤ 5c: if a
  special got no card of one suit, another got two, and one card moves between them,
  rank by rank, until none is single-suited; giving each rank's x cards to the specials
  with the fewest so far does it directly). So a colour's state is (k_a, k_b, c) and the
  two tallies min(c, Σx), min(c, Σ(c − x)); it must reach (c, c) at the last rank.

A special's points are credited when its number is chosen; the suit specials' cards
(and colour cards a rank's split makes certain) are taken before the lanes choose.

Rules that keep the positions few
---------------------------------
Each is an exchange that would otherwise score more, so some best turn obeys them all:

- *lock*: a card is never worth more to a set than 10 × the set's size (at most 80 with
  two decks, 40 with one or without duplicates), while the next card of a run of length
  L is worth 10 × (L + 1). So a lane at least that long always takes the next card of
  its suit that no special takes. When what the specials take from the suit at every
  later rank is known (its colour has no colour special left to place), the lane's whole
  future is known: it is scored at once and only which ranks' cards it holds stays in
  the position; otherwise it stays a lane that must take its next card;
- *break*: a lane stops below a card that goes to a set only if the set values that
  card at least as much as the lane would; a lane starting just above such a card may
  not grow past the length at which the card would be worth more at its bottom;
- a run never closes right below a new run of its suit (one longer run is worth more);
- *dominance*: of two positions with the same lanes and numbers of specials, one whose
  value, start caps and tallies are all at least the other's can finish every way the
  other can, for as much: the other is dropped.

Bounds and floors
-----------------
The pass drops every position that cannot beat a *floor*. Its bound is the score so far
plus, for each suit, a bound of its future scored alone (``bound``), a relaxation of the
pass suit by suit:

- its cards sent to a rank's sets are paid their share of what all that rank's cards
  would score there (the sets' score is convex in their size: Jensen's inequality);
- its suit specials, if not chosen yet, are chosen by the suit alone at the parity's
  first rank (exact: they concern that suit only); then they take k_s cards a rank;
- colour specials not chosen yet are paid a sixth of their score per card, for up to
  as many cards a rank as the colour could give, taken from the cards no lane takes
  (like set cards, so the lock is computed against that price too);
- once a colour's c specials are chosen, the cards a suit *must* give at a rank (those
  the other suit lacks) are taken from it; each suit may give up to the rest of the c
  at a Lagrange price μ per card, and c × μ less the forced cards is taken back once per
  colour and rank (``correction``): whatever split x, c − x the pass makes, it is counted
  at most once, so the sum stays a bound for any μ. μ is the average worth of a card in
  the hand's bound without specials (the tightest prices are near a card's worth).

That bound is loose where runs and sets compete (each suit is paid for its set cards as
if every other suit's went to the sets too) and where colour specials are worth about
what their cards earn elsewhere (μ then barely tells one split from another). So each
colour also has a *joint* bound (``joint``): the pass itself over the colour's two suits
alone, with the specials' moves exact (each rank's c cards split between the two suits),
start caps and the mixed rule left out, and the set cards paid their colour's share of
what all the rank's cards would score (Jensen's inequality again, over two colours
instead of four suits; without duplicates in sets, the first colour's cards are paid
what the sets score with them at most, less what the second colour's are paid). It is a
branch and bound: at each rank the ways are followed best first while what they score
there and the two suits' bounds after them beat the best found so far; memoised. Like
the pass's own pruning, that keeps it a bound of every turn the suits' bounds allow
(they also score long lanes at once, ``_cash``), among them a best turn. A position's
bound takes, per colour, the lower of the two.

Floors under the bound of the whole hand (its colours' joint bounds), lower and lower
(1.5 %, 3 %, 5 %, 8 % … of it), are tried until a pass finds a turn above its floor:
that turn is the best. A pass whose floor is above the best turn is cheap (few positions
beat it). After four floors a quick pass keeping twelve positions per rank finds a good
turn; lower floors are tried only while above it, and last the exact pass keeps what can
beat it. The exact pass returns, per rank, which cards went to sets and to specials;
each suit's runs are rebuilt from what is left by a small search of that suit alone
(``runs_for``).

Why the work is bounded, and what it costs
------------------------------------------
A suit holds at most two lanes (two copies of a card), each shorter than 13; a colour's
special state is at most 3 × 3 × 5 × 5 × 5 values per parity, fixed after rank 3. So the
positions per rank and the choices per position are bounded by constants that do not
depend on the number of cards: at most 12 ranks × (positions × choices) steps for any
hand; the joint bound's states are those of one colour, bounded alike. In practice the
floors keep them few (``explored`` counts the (position, choice) pairs looked at). The
slowest hands are gappy two-deck hands of 44–52 cards with specials worth about what
their cards earn in runs and sets (runs, sets and specials compete everywhere, and the
best turn lies a few per cent under the bound); ``benchmarks/last_turn_worst.py``
measures these hands.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from .cards import SUITS, Card
from .iceberg_melds import EVENS, ODDS, PAIR, RUN, SET, SPECIALS, Meld, Special, meld_points

LOW, HIGH = 2, 13  # aces never meld: runs and sets use 2 … K
CARDS_WEIGHT = 256  # score = points × 256 + cards used: most points, then most cards
PARITY_RANKS = (EVENS, ODDS)  # parity 0: evens 2 … Q, parity 1: odds 3 … K (rank % 2)
COLOUR_SUITS = ((SUITS.index("S"), SUITS.index("C")), (SUITS.index("H"), SUITS.index("D")))
COLOUR_OF = {s: ci for ci, pair in enumerate(COLOUR_SUITS) for s in pair}
NO_CAP = HIGH + 1  # a lane with no limit on its length
NONE = float("-inf")
_FLOOR_STEPS = (0.015, 0.03, 0.05, 0.08, 0.12, 0.17, 0.25, 0.35, 0.5, 0.7)  # floors: the bound less these shares
_QUICK_AFTER = 4  # the quick pass comes after this many floors
UNDECIDED = None  # a parity's specials not chosen yet (before its first rank)
FINISHED = ()  # no specials (left) in this parity for this colour
_NO_SPECIALS = (0, 0, 0, 0)  # a suit's spec for a parity with nothing taken (suit_spec)

# The shapes of the search's data (the docstrings below say what each part holds).
TableMeld = tuple[int, Meld]  # (number, meld): a meld on the table and its number there
TableMelds = tuple[TableMeld, ...]  # the table's pairs and sets of a rank (best_sets)
SetPlan = list[tuple[int | None, tuple[int, ...]]]  # (table meld number or None, cards per suit)
SuitChoices = list[tuple[str, tuple[int, ...], int]]  # per suit: (suit, table melds joined, cards left)
SetStates = dict[tuple[tuple[int, ...], int, int], tuple[int, SuitChoices]]  # _best_sets_without_duplicates
RunPlan = list[tuple[int | None, int, int]]  # (table run number, cards below, above) or (None, low, high)
Laid = list[tuple[Special, tuple[Card, ...]]]  # special melds: which, and their cards
Plan = tuple[float, Laid, dict[str, RunPlan], dict[int, SetPlan]]  # score, specials, runs, sets
Lane = tuple[int, int, int]  # (length, table run index or -1, cap: the longest it may grow)
Lanes = tuple[Lane, ...]
Held = tuple[tuple[int, int], ...]  # cashed lanes: (last rank, table run index)
LanesHeld = tuple[Lanes, Held]
OptionState = tuple[Lanes, Held, int]  # (lanes, held, start cap): options
SuitState = tuple[LanesHeld, int]  # a suit's (lanes, held) and its start cap: a position's
ParitySpecials = tuple[int, ...] | None  # UNDECIDED, FINISHED or (k_a, k_b, c, tally_a, tally_b)
ColourSpecials = tuple[ParitySpecials, ...]  # a colour's specials, per parity
Specials = tuple[ColourSpecials, ...]  # per colour
Position = tuple[tuple[SuitState, ...], Specials]
SuitSpec = tuple[tuple[int, int, int, int] | None, ...]  # per parity: suit_spec
Removal = tuple[int, ...] | None  # what the specials take from a suit per rank, if known: _removal
Option = tuple[LanesHeld, int, int, int]  # (lanes, held) after, cards to sets, closed, loss: options
Way = tuple[float, LanesHeld, int, int, int]  # bound, (lanes, held) after, to sets, closed, loss: _ways
Move = tuple[int, int, int, int]  # (k_a, k_b, c, x): what a colour's specials do at a rank
SpecialMove = tuple[ColourSpecials, int, int, int, Move | None]  # special_moves
ColourWay = tuple[float, float, int, ColourSpecials, Move | None, int, int, list[Way], list[Way]]
Pick = tuple[float, int, float, ColourSpecials, Move | None, tuple[int, int], tuple[Way, Way]]
Came = tuple[Position, tuple[int, ...], tuple[int, ...], tuple[Move | None, Move | None]]  # search's way back
Chosen = dict[tuple[int, int], tuple[int, int, int, dict[int, int]]]  # (colour, parity): (k_a, k_b, c, xs)
Found = tuple[float, dict[int, tuple[int, ...]], dict[int, tuple[int, ...]], Chosen]  # search


def score(points: int, cards: int) -> int:
    return points * CARDS_WEIGHT + cards


# ---------------------------------------------------------------------------------------
# Sets: the cards of one rank, onto table pairs and sets or into new pairs and sets.


def cards_of_rank(rank: int, counts: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit, n in zip(SUITS, counts) for _ in range(n))


def best_sets(rank: int, counts: tuple[int, ...], table: TableMelds, duplicates: bool) -> tuple[int, SetPlan]:
    """Best (score, plan) for hand cards of one rank; counts per suit in SUITS order.

    ``table`` holds (number, meld) for the table's pairs and sets of this rank. A plan is
    a list of (number or None, counts per suit) for the cards each meld gets.
    """
    n = sum(counts)
    if not n:
        return 0, []
    if duplicates:
        # Each added card is worth more on a bigger meld, and suits never clash, so the
        # best is every card on the biggest table meld, else one new meld of them all.
        if table:
            number, meld = max(table, key=lambda t: (t[1].size, -t[0]))
            points = meld_points(meld.size + n) - meld_points(meld.size)
            return score(points, n), [(number, counts)]
        if n >= 3 or (n == 2 and max(counts) == 1):
            return score(meld_points(n), n), [(None, counts)]
        return 0, []
    return _best_sets_without_duplicates(counts, table)


def _best_sets_without_duplicates(counts: tuple[int, ...], table: TableMelds) -> tuple[int, SetPlan]:
    """``set_duplicates`` false: every meld holds each suit at most once.

    Each suit's cards go to table melds that lack the suit (one card each) or to new melds.
    For the new melds only how many suits send one card and how many send two matters: the
    best is one meld of every suit left and a second of the suits left twice (a bigger
    meld is worth more per card). So the suits are decided one at a time, remembering only
    what each table meld has received and the two new melds' sizes.
    """
    targets = [(number, meld.size, {c.suit for c in meld.cards}) for number, meld in table]
    states: SetStates = {((0,) * len(targets), 0, 0): (0, [])}
    for suit, n in zip(SUITS, counts):
        if not n:
            continue
        open_ = [i for i, (_n, _s, suits) in enumerate(targets) if suit not in suits]
        nxt: SetStates = {}
        for (added, one, two), (_v, choice) in states.items():
            for k in range(min(n, len(open_)) + 1):
                for chosen in combinations(open_, k):
                    left = n - k
                    added2 = tuple(a + (i in chosen) for i, a in enumerate(added))
                    key = (added2, one + (left >= 1), two + (left >= 2))
                    if key not in nxt:
                        nxt[key] = (0, choice + [(suit, chosen, left)])
        states = nxt
    best = 0
    plan: SuitChoices = []
    for (added, one, two), (_v, choice) in states.items():
        points = cards = 0
        for (_number, size, _suits), a in zip(targets, added):
            points += meld_points(size + a) - meld_points(size)
            cards += a
        for size in (one, two):
            if size >= 2:
                points += meld_points(size)
                cards += size
        total = score(points, cards)
        if total > best:
            best, plan = total, choice
    melds: dict[int | str, list[int]] = {}  # a table meld's number, or "first", "second"
    for suit, chosen, left in plan:
        i = SUITS.index(suit)
        for t in chosen:
            melds.setdefault(targets[t][0], [0, 0, 0, 0])[i] += 1
        for group in ("first", "second")[:left]:
            melds.setdefault(group, [0, 0, 0, 0])[i] += 1
    result: SetPlan = []
    for where, suit_counts in melds.items():
        if isinstance(where, str):  # "first", "second"
            if sum(suit_counts) >= 2:
                result.append((None, tuple(suit_counts)))
        else:
            result.append((where, tuple(suit_counts)))
    return best, result


# ---------------------------------------------------------------------------------------
# Special melds: how many of each kind, and which suit gives each colour card.


def lay_out_colour_specials(c: int, ranks: Sequence[int], from_first: Sequence[int],
                            suits: tuple[str, str]) -> list[tuple[Card, ...]]:
    """The c colour specials when ``from_first[i]`` of rank ``ranks[i]``'s c cards are of
    the first suit: each rank's first-suit cards go to the specials with the fewest so
    far, so each gets between ⌊Σx / c⌋ and ⌈Σx / c⌉ of them: mixed when c ≤ Σx ≤ 5c."""
    taken = [0] * c
    specials: list[list[Card]] = [[] for _ in range(c)]
    for rank, x in zip(ranks, from_first):
        first = sorted(range(c), key=lambda i: (taken[i], i))[:x]
        for i in range(c):
            if i in first:
                taken[i] += 1
                specials[i].append(Card(rank, suits[0]))
            else:
                specials[i].append(Card(rank, suits[1]))
    return [tuple(cards) for cards in specials]


_RUN_VALUE = [None, None, None] + [score(meld_points(n), n) for n in range(3, 3 * (HIGH + 2))]


def _run_value(length: int) -> int | None:
    """A new run of this many hand cards, as a score; None if it is too short to be a run."""
    return _RUN_VALUE[length]


class RankPass:
    """The best runs, sets and special melds for a hand, by a search over the ranks.

    See the module docstring: positions, the exchange rules and the bound.
    """

    def __init__(self, hand: Counter[Card], table: Sequence[Meld], rules: Mapping[str, Any]) -> None:
        self.duplicates = bool(rules["set_duplicates"])
        self.count = [[0] * (HIGH + 2) for _ in SUITS]
        for card, n in hand.items():
            if LOW <= card.rank <= HIGH:
                self.count[SUITS.index(card.suit)][card.rank] += n
        self.table_runs: list[list[tuple[int, int, int]]] = [[] for _ in SUITS]  # (number, low, high)
        self.table_sets: dict[int, TableMelds] = {r: () for r in range(LOW, HIGH + 1)}
        for number, meld in enumerate(table, 1):
            if meld.kind == RUN:
                s = SUITS.index(meld.suit)
                if self.count[s][meld.low - 1] or (meld.high < HIGH and self.count[s][meld.high + 1]):
                    self.table_runs[s].append((number, meld.low, meld.high))
            elif meld.kind in (PAIR, SET):
                self.table_sets[meld.rank] += ((number, meld),)
        self.set_memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.option_memo: dict[tuple[int, int, OptionState, int, Removal, float], list[Option]] = {}
        self.bound_memo: dict[tuple[int, int, LanesHeld, SuitSpec], float] = {}
        self.cap_memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]], list[int] | None] = {}
        self.move_memo: dict[tuple[int, int, ColourSpecials], list[SpecialMove]] = {}
        self.sell_memo: dict[tuple[int, int, float, int], list[float]] = {}
        self.free_left: dict[tuple[int, int, int, int, int], list[float]] = {}
        self.removal_memo: dict[tuple[int, SuitSpec, bool], Removal] = {}
        self.ways_memo: dict[tuple[int, int, SuitState, int, SuitSpec], list[Way]] = {}
        self.colour_memo: dict[tuple[int, int, SuitState, SuitState, ColourSpecials], list[ColourWay]] = {}
        self.joint_memo: dict[tuple[int, int, LanesHeld, LanesHeld, ColourSpecials], tuple[float, float]] = {}
        self.first_colour_sell: dict[tuple[int, int, int], float] = {}
        self._slots = [(COLOUR_OF[s], COLOUR_SUITS[COLOUR_OF[s]].index(s)) for s in range(4)]
        self.explored = 0  # (position, choice) pairs looked at: the measure of work
        self.marginal = self._set_prices()
        self._locks(self.marginal)
        self.lock_memo: dict[tuple[int, float], int] = {}
        self._specials(rules)

    # -- what a card is worth to a rank's sets, and the lock ------------------------------

    def _set_prices(self) -> dict[int, int]:
        """``sell[r][s][y]``: what y cards of suit s sent to rank r's sets can be worth at
        most (what the bound pays for them). Returns the most one card adds to a set."""
        self.sell: dict[int, list[list[float]]] = {}
        self.set_values: dict[int, list[int]] = {}
        marginal: dict[int, int] = {}
        for r in range(LOW, HIGH + 1):
            n = sum(self.count[s][r] for s in range(4))
            biggest = max((m.size for _n, m in self.table_sets[r]), default=0)
            if self.duplicates:
                # The sets' score v(k) for k cards is convex in k, so v(y1 + … + y4) is at
                # most the sum over suits of (n_s / n) v(n y_s / n_s) (Jensen), n_s being
                # the suit's cards of this rank: each suit is paid for its own cards.
                values = [self._count_value(k, biggest) for k in range(n + 1)]
                self.set_values[r] = values

                def convex(x: float, values: list[int] = values, n: int = n) -> float:
                    k = min(int(x), n - 1)
                    return values[k] + (values[k + 1] - values[k]) * (x - k)

                self.sell[r] = [[(c / n) * convex(n * y / c) if y else 0 for y in range(c + 1)]
                                for c in (self.count[s][r] for s in range(4))]
                marginal[r] = values[n] - values[n - 1] if n else 0
            else:  # a card is at most the 4th of its meld
                marginal[r] = score(40, 1) if n else 0
                price: float = marginal[r]
                if not self.table_sets[r]:
                    # new melds only: one of ``first`` suits and one of ``second`` suits
                    # (_best_sets_without_duplicates); the best score per card among all
                    # the ways this rank's cards allow
                    have = [self.count[s][r] for s in range(4)]
                    once, twice = sum(1 for c in have if c), sum(1 for c in have if c >= 2)
                    price = max((sum(score(meld_points(k), k) for k in (a, b) if k >= 2) / (a + b)
                                 for a in range(1, once + 1) for b in range(min(a, twice) + 1)), default=0)
                self.sell[r] = [[price * y for y in range(self.count[s][r] + 1)] for s in range(4)]
        return marginal

    def _locks(self, marginal: dict[int, int]) -> None:
        """A lane this long goes on whenever it can: its next card earns more than any card
        adds to a set at any later rank (see the docstring). Per rank boundary r: the
        length, and for each suit whether a table run its cards could reach starts above
        r (a lane heading for it might want the card: no lock then)."""
        self.lock: dict[int, tuple[int, list[bool]]] = {}
        for r in range(LOW - 1, HIGH + 1):
            most = max((marginal[x] for x in range(r + 1, HIGH + 1)), default=0)
            length = 1
            while self._grow(length, -1) <= most:
                length += 1
            # a table run above r matters only if the suit's cards could reach it: a run
            # cannot pass a rank where the suit has no card
            later = [any(low > r and all(self.count[s][x] for x in range(r + 1, low)) for _n, low, _h in runs)
                     for s, runs in enumerate(self.table_runs)]
            self.lock[r] = (length, later)

    @staticmethod
    def _count_value(n: int, table_size: int) -> int:
        """Two-deck sets with duplicates: n cards of a rank, onto a table meld or alone."""
        if n <= 0:
            return 0
        if table_size:
            return score(meld_points(table_size + n) - meld_points(table_size), n)
        return score(meld_points(n), n) if n >= 2 else 0

    def sets(self, r: int, y: tuple[int, ...]) -> int:
        key = (r, y)
        value = self.set_memo.get(key)
        if value is None:
            value = self.set_memo[key] = best_sets(r, y, self.table_sets[r], self.duplicates)[0]
        return value

    # -- special melds ------------------------------------------------------------------

    def _specials(self, rules: Mapping[str, Any]) -> None:
        """Which numbers of specials each colour can choose per parity, and their prices.

        ``choices[ci][p]``: (k_a, k_b, c, credit) for every number the cards allow;
        ``reach[(ci, p, k_a, k_b, c)]``: per rank index, the most first-suit and second-suit
        cards the remaining ranks can still give (to drop tallies that cannot be met);
        ``k_most[p][s]``: the most suit specials of suit s; ``colour_most[p][ci]``: the
        most cards one suit may give colour ci's specials at a rank (0: none possible);
        ``colour_price[p]``: a sixth of a colour special's score, what the bound pays a card
        before the numbers are chosen; ``mu[p][ci][r]``: the Lagrange price of a colour
        special's card once they are (module docstring).
        """
        value = {(p, one_suit): 0 for p in (0, 1) for one_suit in (True, False)}
        self.special_of: dict[tuple[int, bool], Special] = {}
        for special in SPECIALS:
            p = PARITY_RANKS.index(special.ranks)
            value[(p, special.one_suit)] = int(rules[special.name])
            self.special_of[(p, special.one_suit)] = special
        self.choices = [[[(0, 0, 0, 0)], [(0, 0, 0, 0)]] for _ in COLOUR_SUITS]
        self.reach: dict[tuple[int, int, int, int, int], list[tuple[int, int]]] = {}
        self.k_most = [[0] * 4 for _ in (0, 1)]
        self.colour_most = [[0] * len(COLOUR_SUITS) for _ in (0, 1)]
        self.suit_credit = [score(value[(p, True)], 6) for p in (0, 1)]
        self.colour_price = [score(value[(p, False)], 6) / 6 for p in (0, 1)]
        for p, ranks in enumerate(PARITY_RANKS):
            for ci, (a, b) in enumerate(COLOUR_SUITS):
                ca = [self.count[a][r] for r in ranks]
                cb = [self.count[b][r] for r in ranks]
                k_most = [min(ca) if value[(p, True)] else 0, min(cb) if value[(p, True)] else 0]
                c_most = min(x + y for x, y in zip(ca, cb)) if value[(p, False)] else 0
                for ka in range(k_most[0] + 1):
                    for kb in range(k_most[1] + 1):
                        for c in range(c_most + 1):
                            if not (ka or kb or c):
                                continue
                            low = [max(0, c - (y - kb)) for y in cb]
                            high = [min(c, x - ka) for x in ca]
                            if any(lo > hi for lo, hi in zip(low, high)):
                                continue
                            if c and (sum(high) < c or sum(low) > 5 * c):
                                continue
                            credit = (ka + kb) * self.suit_credit[p] + c * score(value[(p, False)], 6)
                            self.choices[ci][p].append((ka, kb, c, credit))
                            self.reach[(ci, p, ka, kb, c)] = [
                                (sum(high[i:]), sum(c - lo for lo in low[i:])) for i in range(len(ranks) + 1)]
                self.k_most[p][a], self.k_most[p][b] = k_most
                self.colour_most[p][ci] = min(c_most, 2) if any(c for _a, _b, c, _v in self.choices[ci][p]) else 0
        # The Lagrange price of a colour special's card: any price gives a valid bound;
        # the tightest is near what the card is worth elsewhere, so it is the average
        # worth of a card in the hand's bound without specials.
        cards = sum(map(sum, self.count))
        none = (_NO_SPECIALS, _NO_SPECIALS)
        average = sum(self.bound(s, LOW, ((), ()), none) for s in range(4)) / cards if cards else 0.0
        self.mu = [[[0.0] * (HIGH + 2) for _ in COLOUR_SUITS] for _ in (0, 1)]
        self.mu_left = [[[0.0] * (HIGH + 3) for _ in COLOUR_SUITS] for _ in (0, 1)]
        for p, ranks in enumerate(PARITY_RANKS):
            for ci in range(len(COLOUR_SUITS)):
                for r in ranks:
                    self.mu[p][ci][r] = average
                for r in range(HIGH + 1, LOW - 1, -1):  # from rank r on
                    self.mu_left[p][ci][r] = self.mu_left[p][ci][r + 1] + self.mu[p][ci][r]
        self.start_specials: Specials = tuple(
            tuple(UNDECIDED if len(self.choices[ci][p]) > 1 else FINISHED for p in (0, 1))
            for ci in range(len(COLOUR_SUITS)))

    def special_moves(self, ci: int, r: int, state: ColourSpecials) -> list[SpecialMove]:
        """What colour ci's specials take at rank r from ``state`` (per parity: UNDECIDED,
        FINISHED or (k_a, k_b, c, tally_a, tally_b)). Returns a list of (state after, cards
        taken from the first suit, from the second, score credited, (k_a, k_b, c, x))."""
        key = (ci, r, state)
        found = self.move_memo.get(key)
        if found is not None:
            return found
        p = r % 2
        ranks = PARITY_RANKS[p]
        here = state[p]
        if here == FINISHED or r not in ranks:
            found = [(state, 0, 0, 0, None)]
        else:
            a, b = COLOUR_SUITS[ci]
            i = ranks.index(r)
            last = i == len(ranks) - 1
            options: list[tuple[int, ...]]  # (k_a, k_b, c, tally_a, tally_b, credit)
            if here is UNDECIDED:
                options = [(ka, kb, c, 0, 0, credit) for ka, kb, c, credit in self.choices[ci][p]]
            else:
                options = [here + (0,)]
            found = []
            for ka, kb, c, ta, tb, credit in options:
                after: ParitySpecials
                if not (ka or kb or c):
                    after = FINISHED
                    found.append((state[:p] + (after,) + state[p + 1:], 0, 0, credit, (0, 0, 0, 0)))
                    continue
                reach = self.reach[(ci, p, ka, kb, c)]
                low = max(0, c - (self.count[b][r] - kb))
                high = min(c, self.count[a][r] - ka)
                for x in range(low, high + 1):
                    ta2, tb2 = min(c, ta + x), min(c, tb + c - x)
                    if ta2 + reach[i + 1][0] < c or tb2 + reach[i + 1][1] < c:
                        continue  # the specials could no longer all be mixed
                    after = FINISHED if last else (ka, kb, c, ta2, tb2)
                    found.append((state[:p] + (after,) + state[p + 1:], ka + x, kb + c - x, credit,
                                  (ka, kb, c, x)))
        self.move_memo[key] = found
        return found

    @staticmethod
    def suit_spec(s: int, state: ColourSpecials) -> SuitSpec:
        """What the bound needs of a colour's special state for suit s, per parity:
        UNDECIDED, or (k: the cards its suit specials take per rank, c: the colour
        specials, the other suit's k, how its colour-special cards are paid: 0 there are
        none, 1 at a sixth of their score (c is then only the most it may give), 2 at the
        Lagrange price μ)."""
        first = COLOUR_SUITS[COLOUR_OF[s]][0] == s
        return tuple(
            here if here is UNDECIDED else
            _NO_SPECIALS if here == FINISHED else
            (here[0], here[2], here[1], 2) if first and here[2] else
            (here[1], here[2], here[0], 2) if here[2] else
            (here[0] if first else here[1], 0, 0, 0)
            for here in state)

    def _forced(self, s: int, r: int, c: int, k_other: int) -> int:
        """Cards suit s must give its colour's c specials at rank r: what the other suit,
        less its own suit specials' k_other, cannot."""
        other = COLOUR_SUITS[COLOUR_OF[s]][1 - COLOUR_SUITS[COLOUR_OF[s]].index(s)]
        return max(0, c + k_other - self.count[other][r])

    def correction(self, ci: int, state: ColourSpecials, r: int) -> float:
        """What the bound takes back for a colour's specials from rank r on: μ per card
        for the colour-special cards neither suit is forced to give (module docstring)."""
        total = 0.0
        for p, here in enumerate(state):
            if here and here[2]:
                key = (ci, p, here[0], here[1], here[2])
                free = self.free_left.get(key)
                if free is None:
                    free = self.free_left[key] = self._free_cards(ci, p, *key[2:])
                total += free[r]
        return total

    def _free_cards(self, ci: int, p: int, ka: int, kb: int, c: int) -> list[float]:
        a, b = COLOUR_SUITS[ci]
        left = [0.0] * (HIGH + 3)
        for r in range(HIGH, LOW - 1, -1):
            left[r] = left[r + 1]
            if r in PARITY_RANKS[p]:
                free = c - self._forced(a, r, c, kb) - self._forced(b, r, c, ka)
                left[r] += free * self.mu[p][ci][r]
        return left

    def _removal(self, s: int, spec: SuitSpec, colour_known: bool) -> Removal:
        """What the specials take from suit s at each rank, if known: None while a parity is
        undecided, or (unless ``colour_known``: the bound, where the colour specials' free
        cards come from what the lanes leave) while a colour special may take from it."""
        key = (s, spec, colour_known)
        if key in self.removal_memo:
            return self.removal_memo[key]
        found = None
        if not any(here is UNDECIDED or (here[1] and not colour_known) for here in spec):
            removal = [0] * (HIGH + 2)
            for p, here in enumerate(spec):
                assert here is not None  # none is UNDECIDED (just checked)
                k, c, k_other, how = here
                for r in PARITY_RANKS[p]:
                    removal[r] = k + (self._forced(s, r, c, k_other) if how == 2 else 0)
            found = tuple(removal)
        self.removal_memo[key] = found
        return found

    def _lock_length(self, r: int, price: float) -> int:
        """The lock length above rank r when a card may also be sold at ``price``."""
        key = (r, price)
        found = self.lock_memo.get(key)
        if found is None:
            most = max([self.marginal[x] for x in range(r + 1, HIGH + 1)] + [price])
            found = 1
            while self._grow(found, -1) <= most:
                found += 1
            self.lock_memo[key] = found
        return found

    # -- lanes --------------------------------------------------------------------------

    def _close(self, s: int, length: int, t: int) -> int | None:
        """What a lane scores when it closes at this length; None if it may not close."""
        if t < 0:
            return _run_value(length)
        _number, low, high = self.table_runs[s][t]
        size = high - low + 1
        return score(meld_points(length) - meld_points(size), length - size)

    @staticmethod
    def _grow(length: int, t: int) -> int:
        """What one more card adds to a lane of this length (a pure lane: from its score as
        it would close, so a 2-card lane's third card is worth the whole 30)."""
        if t < 0:
            before = _run_value(length) or 0
            return (_run_value(length + 1) or 0) - before
        return score(meld_points(length + 1) - meld_points(length), 1)

    def _cash(self, s: int, r: int, lanes: Lanes, held: Held, removal: tuple[int, ...],
              price: float) -> tuple[Lanes, Held, int] | None:
        """Lanes past the lock length go on as far as the suit's cards allow (less what the
        specials take, ``removal`` per rank): score them now and keep only which ranks'
        cards they hold. None: a lane may not be that long."""
        lock, later = self.lock[r]
        if price:
            lock = self._lock_length(r, price)
        if later[s] or not any(length >= lock for length, _t, _cap in lanes):
            return lanes, held, 0
        runs = self.table_runs[s]
        rest = tuple(lane for lane in lanes if lane[0] < lock)
        holds = list(held)
        value = 0
        for length, t, cap in sorted((lane for lane in lanes if lane[0] >= lock), reverse=True):
            x = r + 1
            while x <= HIGH:
                if t < 0 or runs[t][2] < x:  # needs a hand card here
                    taken = sum(1 for end, tt in holds if end >= x and (tt < 0 or runs[tt][2] < x))
                    if self.count[s][x] - removal[x] - taken < 1:
                        break
                x += 1
                length += 1
            closed = self._close(s, length, t)
            if length > cap or closed is None:
                return None
            value += closed
            holds.append((x - 1, t))
        return rest, tuple(sorted(holds)), value

    def options(self, s: int, r: int, state: OptionState, z: int, removal: Removal,
                price: float = 0) -> list[Option]:
        """What suit s can do at rank r from ``state`` = (lanes, held, start cap) when the
        specials take z of its cards there; ``removal`` (see ``_removal``) says whether long
        lanes can be scored at once; ``price``: what else a card may be sold at (the bound's
        colour specials: the lock must beat it).

        A lane is (length, table run index or -1, cap: the longest it may grow). ``held``
        lists the cashed lanes as (last rank, table run index). Returns a list of
        ((lanes, held) after rank r, cards sent to the sets, score of lanes closed, and
        what the longest closed lane would have gained from one more card, 0 if none).
        """
        key = (s, r, state, z, removal, price)
        found = self.option_memo.get(key)
        if found is not None:
            return found
        lanes, held, start_cap = state
        runs = self.table_runs[s]
        k = self.count[s][r] if r <= HIGH else 0
        k -= z + sum(1 for end, t in held if end >= r and (t < 0 or runs[t][2] < r))
        if k < 0:
            self.option_memo[key] = []
            return []
        held_after = tuple(h for h in held if h[0] > r)
        starting = [i for i, (_n, low, _h) in enumerate(runs) if low == r]
        lock, later = self.lock[r - 1]
        if price:
            lock = self._lock_length(r - 1, price)
        must_go_on = removal is None and not later[s]  # long lanes not scored at once
        best: dict[tuple[LanesHeld, int, int], int] = {}
        carried: list[Lane] = []
        free: list[Lane] = []
        for length, t, cap in lanes:
            if t >= 0 and runs[t][2] >= r:  # inside its table run: grows by itself
                if length + 1 > cap:
                    self.option_memo[key] = []
                    return []
                carried.append((length + 1, t, cap))
            else:
                free.append((length, t, cap))

        def finish(used: int, value: int, grown: list[Lane], merged: frozenset[int],
                   closed_new_run: bool, lost: int) -> None:
            base = carried + grown + [(1, j, NO_CAP) for j in starting if j not in merged]
            for new in range(k - used + 1):
                # a run closing just below a new one would rather be one longer run
                if new and (closed_new_run or start_cap < 1):
                    continue
                after = tuple(sorted(base + [(1, -1, start_cap)] * new, reverse=True))
                cashed: tuple[Lanes, Held, int] | None
                if r <= HIGH and removal is not None:
                    cashed = self._cash(s, r, after, held_after, removal, price)
                else:
                    cashed = (after, held_after, 0)
                if cashed is None:
                    continue
                after, held2, cash = cashed
                to_sets = k - used - new
                option = ((after, held2), to_sets, lost if to_sets else 0)
                if best.get(option, -1) < value + cash:
                    best[option] = value + cash

        def choose(i: int, used: int, value: int, grown: list[Lane], merged: frozenset[int],
                   closed_new_run: bool, lost: int) -> None:
            if i == len(free):
                finish(used, value, grown, merged, closed_new_run, lost)
                return
            length, t, cap = free[i]
            if used < k and length + 1 <= cap:
                choose(i + 1, used + 1, value, grown + [(length + 1, t, cap)], merged, closed_new_run, lost)
                if must_go_on and length >= lock:
                    return  # the lock: a long lane takes the next card when there is one
            closed = self._close(s, length, t)
            if closed is not None:
                choose(i + 1, used, value + closed, grown, merged, closed_new_run or t < 0,
                       max(lost, self._grow(length, t)))
            if t < 0:  # a new run may reach a table run starting here, and grow it below
                for j in starting:
                    if j not in merged and length + 1 <= cap:
                        choose(i + 1, used, value, grown + [(length + 1, j, cap)], merged | {j},
                               closed_new_run, lost)

        choose(0, 0, 0, [], frozenset(), False, 0)
        found = self.option_memo[key] = [(after, y, value, lost) for (after, y, lost), value in best.items()]
        return found

    # -- the bound ------------------------------------------------------------------------

    def _sell(self, r: int, s: int, price: float, most: int) -> list[float]:
        """What y cards of suit s that no lane takes at rank r can be worth at most: sent to
        the sets, or up to ``most`` of them to colour specials at ``price`` each."""
        key = (r, s, price, most)
        found = self.sell_memo.get(key)
        if found is None:
            sell = self.sell[r][s]
            found = self.sell_memo[key] = [
                max(sell[y - w] + w * price for w in range(min(most, y) + 1)) for y in range(len(sell))]
        return found

    def _price(self, p: int, s: int, r: int, how: int) -> float:
        return (0.0, self.colour_price[p], self.mu[p][COLOUR_OF[s]][r])[how]

    def _lock_price(self, s: int, r: int, spec: SuitSpec) -> float:
        """The most the bound may pay a card of suit s for a colour special above rank r
        (the lock must beat it)."""
        ci = COLOUR_OF[s]
        price = 0.0
        for p, here in enumerate(spec):
            if here is UNDECIDED or here[3] == 1:
                if self.colour_most[p][ci]:
                    price = max(price, self.colour_price[p])
            elif here[3] == 2:
                price = max([price] + [self.mu[p][ci][x] for x in PARITY_RANKS[p] if x > r])
        return price

    def bound(self, s: int, r: int, lanes_held: LanesHeld, spec: SuitSpec) -> float:
        """At least what suit s can still score from rank r on, with the specials as
        ``spec`` says (``suit_spec``); NONE if it cannot finish.

        A relaxation of the pass, suit by suit: its set cards are paid their share; its
        suit specials are chosen at the parity's first rank (and credited) if they are
        not yet, then take their k cards at each rank; colour specials are paid per card,
        from the cards the lanes leave, like set cards (so the lock is computed against
        their price too): at a sixth of their score while undecided, at μ once decided
        (the pass takes c × μ back per rank, ``correction``)."""
        key = (s, r, lanes_held, spec)
        value = self.bound_memo.get(key)
        if value is not None:
            return value
        lanes, held = lanes_held
        p = r % 2
        if r > HIGH:
            value = 0
            for length, t, _cap in lanes:
                closed = self._close(s, length, t)
                if closed is None:
                    value = NONE
                    break
                value += closed
        elif (here := spec[p]) is UNDECIDED:  # r is the parity's first rank: choose k_s
            most = self.colour_most[p][COLOUR_OF[s]]
            value = max(k * self.suit_credit[p] + self.bound(
                s, r, lanes_held, spec[:p] + ((k, most, 0, 1 if most else 0),) + spec[p + 1:])
                for k in range(self.k_most[p][s] + 1))
        else:
            k, c, k_other, how = here
            z, most = k, 0
            if how == 2:  # decided: the forced cards go, the free ones are paid μ
                forced = self._forced(s, r, c, k_other)
                z += forced
                most = min(c, self.count[s][r] - k) - forced
            elif how == 1:
                most = c
            sell = self._sell(r, s, self._price(p, s, r, how), most) if most > 0 else self.sell[r][s]
            after_spec = self._after_rank(r, spec)
            value = NONE
            for after, y, closed, _lost in self.options(s, r, (lanes, held, NO_CAP), z,
                                                         self._removal(s, spec, True), self._lock_price(s, r, spec)):
                v = closed + sell[y] + self.bound(s, r + 1, after, after_spec)
                if v > value:
                    value = v
        self.bound_memo[key] = value
        return value

    def colour_bound(self, ci: int, r: int, suits: tuple[SuitState, ...], state: ColourSpecials) -> float:
        """The bound of colour ci's two suits from rank r on (their lanes in ``suits``)."""
        total = -self.correction(ci, state, r)
        for s in COLOUR_SUITS[ci]:
            total += self.bound(s, r, suits[s][0], self.suit_spec(s, state))
        return total

    def colour_sell(self, r: int, ci: int, y_a: int, y_b: int) -> float:
        """What y_a + y_b cards of colour ci sent to rank r's sets can be worth at most: as
        ``sell`` does for one suit, the colour's share of what all the rank's cards would
        score there (Jensen's inequality over the two colours: tighter than per suit).

        Without duplicates a set's score is not one of its size, and there is no such
        share: the second colour's cards are paid ``sell`` (a price per card), and the
        first colour's what the sets score with them at most, less that price."""
        a, b = COLOUR_SUITS[ci]
        if not self.duplicates:
            if ci:
                return self.sell[r][a][y_a] + self.sell[r][b][y_b]
            key = (r, y_a, y_b)
            found = self.first_colour_sell.get(key)
            if found is None:
                c, d = COLOUR_SUITS[1]
                found = self.first_colour_sell[key] = max(
                    self.sets(r, tuple(y for _s, y in sorted(((a, y_a), (b, y_b), (c, y_c), (d, y_d)))))
                    - self.sell[r][c][y_c] - self.sell[r][d][y_d]
                    for y_c in range(self.count[c][r] + 1) for y_d in range(self.count[d][r] + 1))
            return found
        y = y_a + y_b
        if not y:
            return 0
        values = self.set_values[r]
        n = len(values) - 1
        m = self.count[a][r] + self.count[b][r]
        x = n * y / m
        k = min(int(x), n - 1)
        return (m / n) * (values[k] + (values[k + 1] - values[k]) * (x - k))

    @staticmethod
    def _untallied(state: ColourSpecials) -> ColourSpecials:
        """A colour's special state without the tallies of its mixed specials (as if both
        suits had already given c cards): the joint bound leaves that rule out."""
        return tuple(here[:3] + (here[2], here[2]) if here else here for here in state)

    def joint(self, ci: int, r: int, lanes_a: LanesHeld, lanes_b: LanesHeld, state: ColourSpecials,
              need: float = NONE) -> float:
        """A bound of what colour ci's two suits can still score from rank r on (``lanes_a``,
        ``lanes_b``: their (lanes, held); ``state``: their specials, ``_untallied``); NONE if
        they cannot finish.

        The pass itself over the two suits alone (module docstring): the specials' moves
        exact, no start cap, no mixed rule, the set cards paid their colour's share
        (``colour_sell``). A branch and bound: the ways at rank r, best first, are
        followed while what they score at rank r and the two suits' ``bound`` from r + 1
        on beat both the best found so far and ``need``, what the caller needs beaten.
        So the value returned is always a bound, and the exact best whenever it is above
        ``need`` (memoised with the ``need`` it answered).
        """
        key = (ci, r, lanes_a, lanes_b, state)
        found = self.joint_memo.get(key)
        if found is not None:
            value, asked = found
            if value > asked or value <= need:
                return value
        a, b = COLOUR_SUITS[ci]
        suit_a, suit_b = (lanes_a, NO_CAP), (lanes_b, NO_CAP)
        if r > HIGH:
            ways_a, ways_b = self._ways(a, r, suit_a, 0, ()), self._ways(b, r, suit_b, 0, ())
            value = ways_a[0][0] + ways_b[0][0] if ways_a and ways_b else NONE
            self.joint_memo[key] = (value, NONE)
            return value
        sell_a, sell_b = self.sell[r][a], self.sell[r][b]
        followed = []
        for _best, const, credit, move_state, _move, _za, _zb, ways_a, ways_b in self._colour_ways(
                ci, r, suit_a, suit_b, state):
            move_state = self._untallied(move_state)
            for gain_a, after_a, y_a, closed_a, _lost in ways_a:
                for gain_b, after_b, y_b, closed_b, _lost in ways_b:
                    paid = self.colour_sell(r, ci, y_a, y_b)
                    now = credit + closed_a + closed_b + paid
                    followed.append((const + gain_a + gain_b - sell_a[y_a] - sell_b[y_b] + paid,
                                     now, after_a, after_b, move_state))
        followed.sort(key=lambda way: way[0], reverse=True)
        # Each way followed scores now + its rest: exactly, or (its rest at most what it
        # needed) no more than what was to be beaten then; a way not followed scores at
        # most its bound, ``cut`` for the first.
        best = cut = NONE
        for bound, now, after_a, after_b, move_state in followed:
            beat = max(best, need)
            if bound <= beat:
                cut = bound
                break
            rest = self.joint(ci, r + 1, after_a, after_b, move_state, beat - now)
            if now + rest > best:
                best = now + rest
        value = max(best, cut)
        self.joint_memo[key] = (value, need)
        return value

    def top(self) -> float:
        """The bound of the whole hand: its colours' joint bounds (never above the suits'
        own bounds in practice, and each a bound by itself)."""
        start = ((), ())
        return sum(self.joint(ci, LOW, start, start, self._untallied(self.start_specials[ci]))
                   for ci in range(len(COLOUR_SUITS)))

    # -- the pass -----------------------------------------------------------------------

    def search(self, floor: float, beam: int | None = None) -> Found | None:
        """The best score above ``floor`` and the cards sent to sets and to specials per
        rank on its way.

        Positions whose bound is not above ``floor`` are dropped; with ``beam``, only that
        many positions (the highest bounds) are kept per rank: a quick good turn, not
        necessarily the best. Returns (score, {rank: cards per suit to sets}, {rank: cards
        per suit to specials}, {(colour, parity): (k_a, k_b, c, [x per rank])}) or None.
        """
        start = ((((), ()), NO_CAP),) * 4
        states: dict[Position, float] = {(start, self.start_specials): 0}
        back: list[dict[Position, Came]] = []
        for r in range(LOW, HIGH + 2):
            reached: dict[Position, float] = {}
            came: dict[Position, Came] = {}
            for position, value in states.items():
                self._step(r, position, value, floor, reached, came)
            if r <= HIGH:
                reached = self._undominated(reached)
            if beam and len(reached) > beam and r <= HIGH:
                def promise(p: Position, reached: dict[Position, float] = reached, r: int = r) -> float:
                    return reached[p] + sum(self.colour_bound(ci, r + 1, p[0], p[1][ci])
                                            for ci in range(len(COLOUR_SUITS)))
                ranked = sorted(reached, key=promise, reverse=True)
                reached = {p: reached[p] for p in ranked[:beam]}
            states = reached
            back.append(came)
            if not states:
                return None
        final = max(states, key=states.__getitem__)
        to_sets: dict[int, tuple[int, ...]] = {}
        to_specials: dict[int, tuple[int, ...]] = {}
        specials: Chosen = {}
        position = final
        for r in range(HIGH + 1, LOW - 1, -1):
            previous, ys, zs, moves = back[r - LOW][position]
            if r <= HIGH:
                to_sets[r], to_specials[r] = ys, zs
                for ci, move in enumerate(moves):
                    if move is not None:
                        ka, kb, c, x = move
                        specials.setdefault((ci, r % 2), (ka, kb, c, {}))[3][r] = x
            position = previous
        return states[final], to_sets, to_specials, specials

    @staticmethod
    def _undominated(reached: dict[Position, float]) -> dict[Position, float]:
        """The positions no other position dominates: one with the same lanes and numbers
        of specials, a value at least as high, and every start cap and special tally at
        least as high (a higher cap or tally only allows more, so it can finish every way
        the other can, for as much)."""
        groups: dict[tuple[LanesHeld, LanesHeld, LanesHeld, LanesHeld, Specials],
                     list[tuple[float, tuple[int, ...], Position]]] = {}
        split: dict[Specials, tuple[Specials, tuple[int, ...]]] = {}  # specials: (numbers, tallies)
        for position, value in reached.items():
            (s0, c0), (s1, c1), (s2, c2), (s3, c3) = position[0]
            specials = position[1]
            parts = split.get(specials)
            if parts is None:
                parts = split[specials] = (
                    tuple(tuple(here[:3] if here else here for here in colour) for colour in specials),
                    tuple(t for colour in specials for here in colour if here for t in here[3:]))
            groups.setdefault((s0, s1, s2, s3, parts[0]), []).append((value, (c0, c1, c2, c3) + parts[1], position))
        kept = {}
        for group in groups.values():
            if len(group) == 1:
                kept[group[0][2]] = group[0][0]
                continue
            group.sort(key=lambda item: item[0], reverse=True)
            best: list[tuple[int, ...]] = []
            for value, loose, position in group:
                if not any(all(x >= y for x, y in zip(other, loose)) for other in best):
                    best.append(loose)
                    kept[position] = value
        return kept

    def _step(self, r: int, position: Position, value: float, floor: float, reached: dict[Position, float],
              came: dict[Position, Came]) -> None:
        """Every way on from one position through rank r, kept in ``reached`` if its bound
        beats the floor (``came`` says how each position was reached, for the plan).

        Each colour's picks (``_picks``: a move of its specials and a way of each suit) come
        with their bounds, best first, so the loops over the two colours' picks stop at
        the first pair that cannot beat the floor."""
        suits, specials = position
        last = r > HIGH
        halves = [self._colour_ways(ci, r, suits[a], suits[b], specials[ci])
                  for ci, (a, b) in enumerate(COLOUR_SUITS)]
        if not all(halves):
            return
        second = self._picks(1, r, halves[1], value + halves[0][0][0], floor)
        if not second:
            return
        first = self._picks(0, r, halves[0], value + second[0][0], floor)
        slots = self._slots
        for pick_0 in first:
            self.explored += 1
            if value + pick_0[0] + second[0][0] <= floor:
                break
            for pick_1 in second:
                self.explored += 1
                if value + pick_0[0] + pick_1[0] <= floor:
                    break
                picks = (pick_0, pick_1)
                ways = [picks[ci][6][side] for ci, side in slots]
                to_sets = tuple(way[2] for way in ways)
                states = (pick_0[3], pick_1[3])
                v = value + pick_0[1] + pick_1[1]
                key: Position
                if last:
                    key = ((((), ()), NO_CAP),) * 4, states
                else:
                    in_sets = self.sets(r, to_sets)
                    v += in_sets
                    if v + pick_0[2] + pick_1[2] <= floor:  # the bound with the rank's sets as they are
                        continue
                    caps = self._caps(r, to_sets, in_sets, tuple(way[4] for way in ways))
                    if caps is None:
                        continue
                    key = tuple((way[1], cap) for way, cap in zip(ways, caps)), states
                if reached.get(key, NONE) < v:
                    reached[key] = v
                    came[key] = (position, to_sets, tuple(picks[ci][5][side] for ci, side in slots),
                                 (pick_0[4], pick_1[4]))

    def _picks(self, ci: int, r: int, moves: list[ColourWay], base: float, floor: float) -> list[Pick]:
        """Colour ci's picks at rank r that may beat the floor when the rest of the position
        (its value and the other colour) is worth at most ``base``: [(bound, what the pick
        scores at rank r but for its set cards, its bound after rank r, special state after,
        move, (cards to specials of a, of b), (way of a, way of b))], best bound first.

        ``moves`` is the colour's ``_colour_ways``, whose bounds (the two suits' own) prune
        first; a pick's bound then pays its set cards the colour's share (``colour_sell``)
        and takes the lower of the suits' bounds after rank r and the joint bound, asked
        to beat only what the floor needs (none without a floor)."""
        last = r > HIGH
        a, b = COLOUR_SUITS[ci]
        found: list[Pick] = []
        for best, const, credit, move_state, move, za, zb, ways_a, ways_b in moves:
            self.explored += 1
            if base + best <= floor:
                break
            best_b = ways_b[0][0]
            untallied = self._untallied(move_state)
            for way_a in ways_a:
                self.explored += 1
                if base + const + way_a[0] + best_b <= floor:
                    break
                for way_b in ways_b:
                    self.explored += 1
                    own = const + way_a[0] + way_b[0]
                    if base + own <= floor:
                        break
                    now = credit + way_a[3] + way_b[3]
                    if last:
                        paid = after = 0.0
                    else:
                        paid = self.colour_sell(r, ci, way_a[2], way_b[2])
                        after = own - now - self.sell[r][a][way_a[2]] - self.sell[r][b][way_b[2]]
                        if floor != NONE:
                            after = min(after, self.joint(ci, r + 1, way_a[1], way_b[1], untallied,
                                                          floor - base - now - paid))
                    if base + now + paid + after <= floor:
                        continue
                    found.append((now + paid + after, now, after, move_state, move, (za, zb), (way_a, way_b)))
        found.sort(key=lambda pick: pick[0], reverse=True)
        return found

    def _colour_ways(self, ci: int, r: int, suit_a: SuitState, suit_b: SuitState,
                     state: ColourSpecials) -> list[ColourWay]:
        """Everything colour ci can do at rank r: per move of its specials
        (``special_moves``), the ways of its two suits (``_ways``). Returns [(the best bound
        of the move, what it adds to every way's bound: its credit less what the bound takes
        back for the specials' later cards, its credit, the special state after, the move,
        cards to specials of a and of b, ways of a, ways of b)], best bound first; the bound of
        a way is what it scores at rank r and the bound of its suit from rank r + 1 on."""
        key = (ci, r, suit_a, suit_b, state)
        found = self.colour_memo.get(key)
        if found is not None:
            return found
        a, b = COLOUR_SUITS[ci]
        last = r > HIGH
        found = []
        for move_state, za, zb, credit, move in (
                [(state, 0, 0, 0, None)] if last else self.special_moves(ci, r, state)):
            ways_a = self._ways(a, r, suit_a, za, self.suit_spec(a, move_state))
            ways_b = self._ways(b, r, suit_b, zb, self.suit_spec(b, move_state))
            if ways_a and ways_b:
                const = credit - (0.0 if last else self.correction(ci, move_state, r + 1))
                found.append((const + ways_a[0][0] + ways_b[0][0], const, credit, move_state, move, za, zb,
                              ways_a, ways_b))
        found.sort(key=lambda way: way[0], reverse=True)
        self.colour_memo[key] = found
        return found

    def _ways(self, s: int, r: int, lanes_cap: SuitState, z: int, spec: SuitSpec) -> list[Way]:
        """What suit s can do at rank r (``options``) when the specials take z of its cards
        there and are as ``spec`` says, each with its bound: [(closed + what its set cards
        are paid + the suit's bound from rank r + 1 on, lanes after, cards to sets, score
        of lanes closed, loss)], best bound first; at the end of the ranks, only the ways
        that close every lane."""
        key = (s, r, lanes_cap, z, spec)
        found = self.ways_memo.get(key)
        if found is not None:
            return found
        (lanes, held), cap = lanes_cap
        found = []
        if r > HIGH:
            for after, y, closed, lost in self.options(s, r, (lanes, held, cap), z, None):
                if not after[0]:
                    found.append((closed, after, y, closed, lost))
        else:
            sell = self.sell[r][s]
            next_spec = self._after_rank(r, spec)
            for after, y, closed, lost in self.options(s, r, (lanes, held, cap), z, self._removal(s, spec, False)):
                f = self.bound(s, r + 1, after, next_spec)
                if f != NONE:
                    found.append((closed + sell[y] + f, after, y, closed, lost))
        found.sort(key=lambda way: way[0], reverse=True)
        self.ways_memo[key] = found
        return found

    @staticmethod
    def _after_rank(r: int, spec: SuitSpec) -> SuitSpec:
        """A suit's special spec for the ranks above r (a parity's last rank ends it)."""
        p = r % 2
        if r in PARITY_RANKS[p] and r == PARITY_RANKS[p][-1]:
            return spec[:p] + (_NO_SPECIALS,) + spec[p + 1:]
        return spec

    def _caps(self, r: int, to_sets: tuple[int, ...], in_sets: int,
              losses: tuple[int, ...]) -> list[int] | None:
        """The exchange rules at rank r, once its sets are known (module docstring): None if
        a lane closed below a card the sets value less than the lane would; else, per suit,
        how long a run starting just above may grow."""
        key = (r, to_sets, losses)
        if key not in self.cap_memo:
            self.cap_memo[key] = self._find_caps(r, to_sets, in_sets, losses)
        return self.cap_memo[key]

    def _find_caps(self, r: int, to_sets: tuple[int, ...], in_sets: int,
                   losses: tuple[int, ...]) -> list[int] | None:
        caps = []
        for s, y in enumerate(to_sets):
            if not y:
                caps.append(NO_CAP)
                continue
            one_less = list(to_sets)
            one_less[s] -= 1
            worth = in_sets - self.sets(r, tuple(one_less))
            if losses[s] > worth:
                return None
            fails = 1  # the first length at which the card below would gain more on the run
            while fails <= HIGH and self._grow(fails, -1) <= worth:
                fails += 1
            caps.append(fails - 1)
        return caps

    # -- the plan -----------------------------------------------------------------------

    def runs_for(self, s: int, to_sets: dict[int, tuple[int, ...]],
                 to_specials: dict[int, tuple[int, ...]]) -> tuple[int, RunPlan] | None:
        """The best runs of suit s with the cards ``to_sets`` and ``to_specials`` leave:
        (score, plan), plan as [(table run number or None, low, high)]: for a table run,
        how many cards it gains below and above; for a new run, its ranks."""
        runs = self.table_runs[s]
        memo: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[int, RunPlan] | None] = {}

        def best(r: int, lanes: tuple[tuple[int, int], ...]) -> tuple[int, RunPlan] | None:
            # lanes: (first rank, table run index or -1)
            if r > HIGH:
                total = 0
                plan: RunPlan = []
                for first, t in lanes:
                    closed = self._close(s, HIGH - first + 1, t)
                    if closed is None:
                        return None
                    total += closed
                    plan += self._planned(s, first, t, HIGH)
                return total, plan
            key = (r, lanes)
            if key in memo:
                return memo[key]
            k = self.count[s][r] - to_sets[r][s] - to_specials[r][s]
            starting = [j for j, (_n, low, _h) in enumerate(runs) if low == r]
            carried = [(f, t) for f, t in lanes if t >= 0 and runs[t][2] >= r]
            free = [(f, t) for f, t in lanes if not (t >= 0 and runs[t][2] >= r)]  # longest first
            lock, later = self.lock[r - 1]
            found: tuple[int, RunPlan] | None = None

            def choose(i: int, used: int, value: int, plan: RunPlan, after: list[tuple[int, int]],
                       merged: frozenset[int], closed_new_run: bool) -> None:
                nonlocal found
                if i == len(free):
                    new = k - used
                    if new < 0 or (new and closed_new_run):  # the same rules as the search
                        return
                    lanes2 = after + carried + [(r, j) for j in starting if j not in merged] + [(r, -1)] * new
                    rest = best(r + 1, tuple(sorted(lanes2)))
                    if rest is not None and (found is None or value + rest[0] > found[0]):
                        found = (value + rest[0], plan + rest[1])
                    return
                first, t = free[i]
                length = r - first
                if used < k:
                    choose(i + 1, used + 1, value, plan, after + [(first, t)], merged, closed_new_run)
                    if length >= lock and not later[s]:
                        return
                closed = self._close(s, length, t)
                if closed is not None:
                    choose(i + 1, used, value + closed, plan + self._planned(s, first, t, r - 1), after, merged,
                           closed_new_run or t < 0)
                if t < 0:
                    for j in starting:
                        if j not in merged:
                            choose(i + 1, used, value, plan, after + [(first, j)], merged | {j}, closed_new_run)

            choose(0, 0, 0, [], [], frozenset(), False)
            memo[key] = found
            return found

        return best(LOW, ())

    def _planned(self, s: int, first: int, t: int, last: int) -> RunPlan:
        """The plan entry for a closed lane: none for a table run that gained nothing."""
        if t < 0:
            return [(None, first, last)]
        number, low, high = self.table_runs[s][t]
        below, above = low - first, max(0, last - high)
        return [(number, below, above)] if below or above else []

    def lay_out_specials(self, chosen: Chosen) -> Laid:
        """The special melds of the plan, from the numbers chosen and each rank's x."""
        laid: Laid = []
        for (ci, p), (ka, kb, c, xs) in sorted(chosen.items()):
            a, b = COLOUR_SUITS[ci]
            ranks = PARITY_RANKS[p]
            for s, k in ((a, ka), (b, kb)):
                for _ in range(k):
                    laid.append((self.special_of[(p, True)], tuple(Card(r, SUITS[s]) for r in ranks)))
            if c:
                from_first = [xs[r] for r in ranks]
                for cards in lay_out_colour_specials(c, ranks, from_first, (SUITS[a], SUITS[b])):
                    laid.append((self.special_of[(p, False)], cards))
        return laid


def best_by_ranks(hand: Counter[Card], table: Sequence[Meld], rules: Mapping[str, Any],
                  search_info: dict[str, int] | None = None) -> Plan:
    """The best (score, specials, run plan per suit, set plan per rank) by the pass over
    the ranks (module docstring)."""
    search = RankPass(hand, table, rules)
    # The exact pass is cheapest when its floor is just below the best turn: floors a
    # little under the bound of the whole hand are tried first (a turn found above its
    # floor is the best; a pass whose floor is above the best turn is cheap, few
    # positions beat it); failing those, a quick pass keeping twelve positions per rank
    # finds a good turn; lower floors are tried while above it, then the exact pass keeps
    # what can beat it.
    top = search.top()
    floors = [top - abs(top) * step for step in _FLOOR_STEPS]
    found: Found | None = None
    quick: Found | None = None
    for i, floor in enumerate(floors):
        if i == _QUICK_AFTER:
            quick = search.search(NONE, beam=12)
        if quick is not None and floor <= quick[0]:
            break
        found = search.search(floor)
        if found and found[0] > floor:
            break
        found = None
    if found is None:
        found = search.search(quick[0] - 1 if quick else NONE)
    if search_info is not None:
        search_info["explored"] = search.explored
    assert found is not None  # the last pass keeps what can beat the quick turn, or everything
    total, to_sets, to_specials, chosen = found
    run_plan: dict[str, RunPlan] = {}
    for s, suit in enumerate(SUITS):
        runs = search.runs_for(s, to_sets, to_specials)
        assert runs is not None  # the cards the pass left to runs make runs
        _value, run_plan[suit] = runs
    set_plan: dict[int, SetPlan] = {}
    for r, counts in to_sets.items():
        if any(counts):
            set_plan[r] = best_sets(r, counts, search.table_sets[r], search.duplicates)[1]
    return total, search.lay_out_specials(chosen), run_plan, set_plan
