"""The best last turn: what the cards left in a hand would have scored in one more turn.

docs/rules/iceberg.md, "Cards left in hand", ``playable_penalty``:

- ``best_turn`` (default): the maximum total the player could score in one extra turn
  with only the cards in hand against the final table: lay-offs onto any meld, new
  pairs, sets, runs and special melds from hand cards, and chains (holding S10 and SJ
  with S7-8-9 on the table: S10 as 4th card 40, then SJ as 5th 50). Each card once.
- ``single_card``: each card alone, its best single lay-off onto the final table.

Where several turns reach the best total, the one that uses the most cards is chosen
(``card_penalty_applies_to: unplayable`` charges only the cards it leaves).

How the exact maximum is found
------------------------------
A meld's points depend only on its own final size, so one turn is a choice, for every
card, of *where it ends up*: in a run of its suit (a table run grown at either end, or a
new run), in a set of its rank (a table pair or set, or a new pair or set), in a special
meld, or nowhere. Special melds are tried first, every distinct set of cards they can
take (cards left the same way are searched once); the rest is runs and sets.

A hand of up to 16 cards (every hand of a real game) is solved as before: for each suit,
the run plans that differ in which *contested* cards (cards that fit a run and a set)
they use, combined across suits with a bound, each rank's sets taking what the runs
leave. That is quick for few cards but exponential in the contested cards (a 64-card
hand took 48 s), so bigger hands are solved by one pass up the ranks 2 … K
(``_RankSearch``), whose work does not grow with the number of cards. Between two
ranks, a position is the runs still open in each suit, *lanes*: a lane's length so far
(its points depend on its final length) and the table run it grows, if any; two decks
hold at most two copies of a card, so a suit has at most two lanes. At each rank, every
suit's cards there extend its lanes, start new ones, or go to that rank's sets, which
are scored at once (with duplicates a rank's sets depend only on how many cards they
get). Positions with the same lanes keep only the best score, so the work does not grow
with the number of cards but with the number of distinct lane positions, and these are
kept few by rules that every best turn obeys (each is an exchange that would otherwise
score more):

- *lock*: a card is never worth more to a set than 10 × the set's size (at most 80 with
  two decks, 40 with one or without duplicates), while the next card of a run of length
  L is worth 10 × (L + 1). So a lane at least that long always takes the next card of
  its suit when there is one: its whole future is known, it is scored at once, and only
  which ranks' cards it holds stays in the position (lengths stop at 8, or 4);
- *break*: a lane stops below a card that goes to a set only if the set values that card
  at least as much as the lane would; a lane starting just above such a card may not grow
  past the length at which the card would be worth more at its bottom;
- a run never closes right below a new run of its suit (one longer run is worth more).

The exact pass drops every position that cannot beat a *floor*: a bound for each suit's
future, scored alone (each suit paid for the cards it sends to a rank's sets its share of
what all that rank's cards would score there: the sets' score is convex in their size),
is added to the score so far. Floors a little under the bound of the whole hand are tried
first (a turn found above its floor is the best); failing those, a quick pass keeping
twelve positions per rank finds a good turn, and the exact pass keeps what can beat it.
The exact pass returns which cards went to sets at each rank; each suit's runs for those
cards are then rebuilt by a small search of that suit alone (``_RankSearch.runs_for``).

Why it is bounded, and what is left: a position is at most two lanes per suit, each
locked or shorter than the lock, so at most about 45 lane states per suit and a fixed
number of positions per rank whatever the hand's size; in practice the floors leave at
most about ten thousand (position, choice) pairs to look at per hand
(``benchmarks/last_turn_worst.py`` measures the worst hands of every size: the slowest
are dense two-deck hands of 70–90 cards with a few gaps in every suit, where runs and
sets compete at many ranks). Special melds are still
tried one combination after another: a huge hand rich in odd or even cards of both
colours has very many ways to lay them down, and that part is not yet bounded.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, product
from typing import Mapping, Sequence

from .cards import SUITS, Card, card_names, sort_key
from .iceberg_melds import (
    PAIR,
    RUN,
    SET,
    SPECIAL,
    SPECIALS,
    Meld,
    Special,
    fits,
    lay_off_points,
    meld_points,
    ordinal,
)

LOW, HIGH = 2, 13  # aces never meld: runs and sets use 2 … K
_CARDS_WEIGHT = 256  # score = points × 256 + cards used: most points, then most cards


@dataclass(frozen=True)
class PlannedPlay:
    """One play of the best last turn: cards laid on a table meld, or a new meld from hand."""

    cards: tuple[Card, ...]  # in the order they would be placed
    meld_number: int | None  # the table meld laid on; None for a new meld
    before: Meld | None  # that table meld as it lies on the final table
    after: Meld  # the meld made, or the table meld once grown
    card_points: tuple[int, ...]  # lay-offs: each card's points in order
    points: int

    def describe(self) -> str:
        if self.meld_number is None:
            return f"{card_names(self.cards)}: new {self.after.kind}" + (
                f" ({self.after.special.title})" if self.after.kind == SPECIAL else ""
            ) + f", {self.points}"
        parts = [
            f"{card} as {ordinal(self.before.size + i + 1)} card {pts}"
            for i, (card, pts) in enumerate(zip(self.cards, self.card_points))
        ]
        return f"on meld {self.meld_number} ({self.before}): " + ", then ".join(parts)

    def card_lines(self) -> list[tuple[tuple[Card, ...], str, int]]:
        """(cards, why, points) per card for lay-offs, or one line for a new meld."""
        if self.meld_number is None:
            what = self.after.special.title if self.after.kind == SPECIAL else self.after.kind
            return [(self.cards, f"new {what} from hand", self.points)]
        lines = []
        for i, (card, pts) in enumerate(zip(self.cards, self.card_points)):
            after = f", after {card_names(self.cards[:i])}" if i else ""
            why = f"{ordinal(self.before.size + i + 1)} card on meld {self.meld_number} ({self.before}){after}"
            lines.append(((card,), why, pts))
        return lines


@dataclass(frozen=True)
class LastTurn:
    """The plays that reach the maximum, their total, and the cards they use or leave."""

    plays: tuple[PlannedPlay, ...]
    points: int
    used: tuple[Card, ...]
    unused: tuple[Card, ...]


def _score(points: int, cards: int) -> int:
    return points * _CARDS_WEIGHT + cards


# ---------------------------------------------------------------------------------------
# Sets: the cards of one rank, onto table pairs and sets or into new pairs and sets.


def _cards_of_rank(rank: int, counts: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit, n in zip(SUITS, counts) for _ in range(n))


def _suit_counts(cards: list[Card]) -> tuple[int, ...]:
    return tuple(sum(1 for c in cards if c.suit == suit) for suit in SUITS)


def _best_sets(rank: int, counts: tuple[int, ...], table: tuple, duplicates: bool):
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
            return _score(points, n), [(number, counts)]
        if n >= 3 or (n == 2 and max(counts) == 1):
            return _score(meld_points(n), n), [(None, counts)]
        return 0, []
    return _best_sets_without_duplicates(counts, table)


def _best_sets_without_duplicates(counts: tuple[int, ...], table: tuple):
    """``set_duplicates`` false: every meld holds each suit at most once.

    Each suit's cards go to table melds that lack the suit (one card each) or to new melds.
    For the new melds only how many suits send one card and how many send two matters: the
    best is one meld of every suit left and a second of the suits left twice (a bigger
    meld is worth more per card). So the suits are decided one at a time, remembering only
    what each table meld has received and the two new melds' sizes.
    """
    targets = [(number, meld.size, {c.suit for c in meld.cards}) for number, meld in table]
    states: dict[tuple, tuple[int, list]] = {((0,) * len(targets), 0, 0): (0, [])}
    for suit, n in zip(SUITS, counts):
        if not n:
            continue
        open_ = [i for i, (_n, _s, suits) in enumerate(targets) if suit not in suits]
        nxt: dict[tuple, tuple[int, list]] = {}
        for (added, one, two), (_v, choice) in states.items():
            for k in range(min(n, len(open_)) + 1):
                for chosen in combinations(open_, k):
                    left = n - k
                    added2 = tuple(a + (i in chosen) for i, a in enumerate(added))
                    key = (added2, one + (left >= 1), two + (left >= 2))
                    if key not in nxt:
                        nxt[key] = (0, choice + [(suit, chosen, left)])
        states = nxt
    best, plan = 0, []
    for (added, one, two), (_v, choice) in states.items():
        points = cards = 0
        for (_number, size, _suits), a in zip(targets, added):
            points += meld_points(size + a) - meld_points(size)
            cards += a
        for size in (one, two):
            if size >= 2:
                points += meld_points(size)
                cards += size
        score = _score(points, cards)
        if score > best:
            best, plan = score, choice
    melds: dict = {}
    for suit, chosen, left in plan:
        i = SUITS.index(suit)
        for t in chosen:
            melds.setdefault(targets[t][0], [0, 0, 0, 0])[i] += 1
        for group in ("first", "second")[:left]:
            melds.setdefault(group, [0, 0, 0, 0])[i] += 1
    result = []
    for key, suit_counts in melds.items():
        if key in ("first", "second"):
            if sum(suit_counts) >= 2:
                result.append((None, tuple(suit_counts)))
        else:
            result.append((key, tuple(suit_counts)))
    return best, result


# ---------------------------------------------------------------------------------------
# Runs and sets together: one pass over the ranks.


_RUN_VALUE = [None, None, None] + [_score(meld_points(n), n) for n in range(3, 3 * (HIGH + 2))]


def _run_value(length: int) -> int | None:
    """A new run of this many hand cards, as a score; None if it is too short to be a run."""
    return _RUN_VALUE[length]


class _RankSearch:
    """The best runs and sets for a hand (no special melds), by a search over the ranks.

    Going up the ranks 2 … K, a *lane* is a run still open in one suit: its length so far
    and, if it grows a table run, which one. At each rank every suit's cards there either
    extend its lanes, start new ones, or go to the rank's sets (scored at once by
    ``_best_sets``). Lanes are scored when they close. A position between two ranks is the
    lanes of the four suits; positions reached with the same lanes keep only the best.
    See the module docstring for the rules that keep the positions few.
    """

    def __init__(self, hand: Counter, table: Sequence[Meld], rules: Mapping) -> None:
        self.duplicates = bool(rules["set_duplicates"])
        self.count = [[0] * (HIGH + 2) for _ in SUITS]
        for card, n in hand.items():
            self.count[SUITS.index(card.suit)][card.rank] += n
        self.table_runs: list[list[tuple[int, int, int]]] = [[] for _ in SUITS]  # (number, low, high)
        self.table_sets: dict[int, tuple] = {r: () for r in range(LOW, HIGH + 1)}
        for number, meld in enumerate(table, 1):
            if meld.kind == RUN:
                s = SUITS.index(meld.suit)
                if self.count[s][meld.low - 1] or (meld.high < HIGH and self.count[s][meld.high + 1]):
                    self.table_runs[s].append((number, meld.low, meld.high))
            elif meld.kind in (PAIR, SET):
                self.table_sets[meld.rank] += ((number, meld),)
        self.set_memo: dict = {}
        self.option_memo: dict = {}
        self.bound_memo: dict = {}
        self.cap_memo: dict = {}
        self.explored = 0  # (position, choice) pairs looked at: the measure of work
        # What a suit's cards sent to a rank's sets can be worth at most (what the bound
        # pays for them), and the most one card adds to a set (the marginal).
        self.sell: dict[int, list[list[float]]] = {}
        marginal: dict[int, int] = {}
        for r in range(LOW, HIGH + 1):
            n = sum(self.count[s][r] for s in range(4))
            biggest = max((m.size for _n, m in self.table_sets[r]), default=0)
            if self.duplicates:
                # The sets' score c(k) for k cards is convex in k, so c(y1 + … + y4) is at
                # most the sum over suits of (n_s / n) c(n y_s / n_s) (Jensen), n_s being
                # the suit's cards of this rank: each suit is paid for its own cards.
                values = [self._count_value(k, biggest) for k in range(n + 1)]

                def convex(x: float) -> float:
                    k = min(int(x), n - 1)
                    return values[k] + (values[k + 1] - values[k]) * (x - k)

                self.sell[r] = [[(c / n) * convex(n * y / c) if y else 0 for y in range(c + 1)]
                                for c in (self.count[s][r] for s in range(4))]
                marginal[r] = values[n] - values[n - 1] if n else 0
            else:  # a card is at most the 4th of its meld
                marginal[r] = _score(40, 1) if n else 0
                price = marginal[r]
                if not self.table_sets[r]:
                    # new melds only: one of ``first`` suits and one of ``second`` suits
                    # (module docstring of _best_sets_without_duplicates); the best score
                    # per card among all the ways this rank's cards allow
                    have = [self.count[s][r] for s in range(4)]
                    once, twice = sum(1 for c in have if c), sum(1 for c in have if c >= 2)
                    price = max((sum(_score(meld_points(k), k) for k in (a, b) if k >= 2) / (a + b)
                                 for a in range(1, once + 1) for b in range(min(a, twice) + 1)), default=0)
                self.sell[r] = [[price * y for y in range(self.count[s][r] + 1)] for s in range(4)]
        # A lane this long goes on whenever it can: its next card earns more than any card
        # adds to a set at any later rank (see the docstring). Per rank boundary r: the
        # length, and for each suit whether a table run its cards could reach starts above
        # r (a lane heading for it might want the card: no lock then).
        self.lock: dict[int, tuple[int, list[bool]]] = {}
        for r in range(LOW - 1, HIGH + 1):
            most = max((marginal[x] for x in range(r + 1, HIGH + 1)), default=0)
            length = 1
            while self._grow(length, -1, 0) <= most:
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
            return _score(meld_points(table_size + n) - meld_points(table_size), n)
        return _score(meld_points(n), n) if n >= 2 else 0

    def sets(self, r: int, y: tuple[int, ...]) -> int:
        key = (r, y)
        value = self.set_memo.get(key)
        if value is None:
            value = self.set_memo[key] = _best_sets(r, y, self.table_sets[r], self.duplicates)[0]
        return value

    def _close(self, s: int, length: int, t: int):
        """What a lane scores when it closes at this length; None if it may not close."""
        if t < 0:
            return _run_value(length)
        _number, low, high = self.table_runs[s][t]
        size = high - low + 1
        return _score(meld_points(length) - meld_points(size), length - size)

    def _grow(self, length: int, t: int, s: int) -> int:
        """What one more card adds to a lane of this length (a pure lane: from its score as
        it would close, so a 2-card lane's third card is worth the whole 30)."""
        if t < 0:
            before = _run_value(length) or 0
            return (_run_value(length + 1) or 0) - before
        return _score(meld_points(length + 1) - meld_points(length), 1)

    def _cash(self, s: int, r: int, lanes: tuple, held: tuple):
        """Lanes past the lock length go on as far as the suit's cards allow: score them
        now and keep only which ranks' cards they hold. None: a lane may not be that long."""
        lock, later = self.lock[r]
        if later[s] or not any(length >= lock for length, _t, _cap in lanes):
            return lanes, held, 0
        runs = self.table_runs[s]
        rest = tuple(lane for lane in lanes if lane[0] < lock)
        held = list(held)
        value = 0
        for length, t, cap in sorted((lane for lane in lanes if lane[0] >= lock), reverse=True):
            x = r + 1
            while x <= HIGH:
                if t < 0 or runs[t][2] < x:  # needs a hand card here
                    taken = sum(1 for end, tt in held if end >= x and (tt < 0 or runs[tt][2] < x))
                    if self.count[s][x] - taken < 1:
                        break
                x += 1
                length += 1
            closed = self._close(s, length, t)
            if length > cap or closed is None:
                return None
            value += closed
            held.append((x - 1, t))
        return rest, tuple(sorted(held)), value

    def options(self, s: int, r: int, state: tuple) -> list:
        """What suit s can do at rank r from ``state`` = (lanes, held, start cap).

        A lane is (length, table run index or -1, cap: the longest it may grow). ``held``
        lists the cashed lanes as (last rank, table run index). Returns a list of
        ((lanes, held) after rank r, cards sent to the sets, score of lanes closed, and
        what the longest closed lane would have gained from one more card, 0 if none).
        """
        key = (s, r, state)
        found = self.option_memo.get(key)
        if found is not None:
            return found
        lanes, held, start_cap = state
        runs = self.table_runs[s]
        k = self.count[s][r] if r <= HIGH else 0
        k -= sum(1 for end, t in held if end >= r and (t < 0 or runs[t][2] < r))
        held_after = tuple(h for h in held if h[0] > r)
        starting = [i for i, (_n, low, _h) in enumerate(runs) if low == r]
        best: dict = {}
        carried, free = [], []
        for length, t, cap in lanes:
            if t >= 0 and runs[t][2] >= r:  # inside its table run: grows by itself
                if length + 1 > cap:
                    self.option_memo[key] = []
                    return []
                carried.append((length + 1, t, cap))
            else:
                free.append((length, t, cap))

        def finish(used, score, grown, merged, closed_new_run, lost):
            base = carried + grown + [(1, j, _NO_CAP) for j in starting if j not in merged]
            for new in range(k - used + 1):
                # a run closing just below a new one would rather be one longer run
                if new and (closed_new_run or start_cap < 1):
                    continue
                after = tuple(sorted(base + [(1, -1, start_cap)] * new, reverse=True))
                cashed = self._cash(s, r, after, held_after) if r <= HIGH else (after, held_after, 0)
                if cashed is None:
                    continue
                after, held2, value = cashed
                to_sets = k - used - new
                option = ((after, held2), to_sets, lost if to_sets else 0)
                if best.get(option, -1) < score + value:
                    best[option] = score + value

        def choose(i, used, score, grown, merged, closed_new_run, lost):
            if i == len(free):
                finish(used, score, grown, merged, closed_new_run, lost)
                return
            length, t, cap = free[i]
            if used < k and length + 1 <= cap:
                choose(i + 1, used + 1, score, grown + [(length + 1, t, cap)], merged, closed_new_run, lost)
            closed = self._close(s, length, t)
            if closed is not None:
                choose(i + 1, used, score + closed, grown, merged, closed_new_run or t < 0,
                       max(lost, self._grow(length, t, s)))
            if t < 0:  # a new run may reach a table run starting here, and grow it below
                for j in starting:
                    if j not in merged and length + 1 <= cap:
                        choose(i + 1, used, score, grown + [(length + 1, j, cap)], merged | {j},
                               closed_new_run, lost)

        choose(0, 0, 0, [], frozenset(), False, 0)
        found = self.option_memo[key] = [(after, y, score, lost) for (after, y, lost), score in best.items()]
        return found

    def bound(self, s: int, r: int, lanes_held: tuple) -> float:
        """At least what suit s can still score from rank r on, its set cards at the price."""
        key = (s, r, lanes_held)
        value = self.bound_memo.get(key)
        if value is not None:
            return value
        lanes, held = lanes_held
        if r > HIGH:
            value = 0
            for length, t, _cap in lanes:
                closed = self._close(s, length, t)
                if closed is None:
                    value = _NONE
                    break
                value += closed
        else:
            value = _NONE
            sell = self.sell[r][s]
            for after, y, score, _lost in self.options(s, r, (lanes, held, _NO_CAP)):
                v = score + sell[y] + self.bound(s, r + 1, after)
                if v > value:
                    value = v
        self.bound_memo[key] = value
        return value

    def search(self, floor: float, beam: int | None = None):
        """The best score above ``floor`` and the cards sent to sets per rank on its way.

        Positions whose bound is not above ``floor`` are dropped; with ``beam``, only that
        many positions (the highest bounds) are kept per rank: a quick good turn, not
        necessarily the best. Returns (score, {rank: cards per suit to sets}) or None.
        """
        start = ((((), ()), _NO_CAP),) * 4
        states = {start: 0}
        back: list[dict] = []
        for r in range(LOW, HIGH + 2):
            last = r > HIGH
            reached: dict = {}
            came: dict = {}
            for position, score in states.items():
                partial = [((), 0, (), (), 0, 0)]
                for s in range(4):
                    rest = 0 if last else sum(self.bound(x, r, position[x][0]) for x in range(s + 1, 4))
                    here = (position[s][0][0], position[s][0][1], position[s][1])
                    grown = []
                    sell = None if last else self.sell[r][s]
                    for after, gained, to_sets, losses, future, sold in partial:
                        for lanes_held, y, value, lost in self.options(s, r, here):
                            self.explored += 1
                            if last:
                                if lanes_held[0]:
                                    continue
                                f = paid = 0
                            else:
                                f = self.bound(s, r + 1, lanes_held)
                                if f == _NONE:
                                    continue
                                paid = sell[y]
                                if score + gained + value + sold + paid + future + f + rest <= floor:
                                    continue
                            grown.append((after + (lanes_held,), gained + value, to_sets + (y,),
                                          losses + (lost,), future + f, sold + paid))
                    partial = grown
                for after, gained, to_sets, losses, future, _sold in partial:
                    if last:
                        key, value = after, score + gained
                    else:
                        in_sets = self.sets(r, to_sets)
                        value = score + gained + in_sets
                        if value + future <= floor:
                            continue
                        caps = self._caps(r, to_sets, in_sets, losses)
                        if caps is None:
                            continue
                        key = tuple(zip(after, caps))
                    if reached.get(key, _NONE) < value:
                        reached[key] = value
                        came[key] = (position, to_sets)
            if beam and len(reached) > beam and not last:
                ranked = sorted(reached, key=lambda p: -(reached[p] + sum(self.bound(x, r + 1, p[x][0]) for x in range(4))))
                reached = {p: reached[p] for p in ranked[:beam]}
            states = reached
            back.append(came)
            if not states:
                return None
        final = max(states, key=states.get)
        plan: dict[int, tuple[int, ...]] = {}
        position = final
        for r in range(HIGH + 1, LOW - 1, -1):
            previous, to_sets = back[r - LOW][position]
            if r <= HIGH:
                plan[r] = to_sets
            position = previous
        return states[final], plan

    def _caps(self, r: int, to_sets: tuple, in_sets: int, losses: tuple):
        """The exchange rules at rank r, once its sets are known (module docstring): None if
        a lane closed below a card the sets value less than the lane would; else, per suit,
        how long a run starting just above may grow."""
        key = (r, to_sets, losses)
        if key not in self.cap_memo:
            self.cap_memo[key] = self._find_caps(r, to_sets, in_sets, losses)
        return self.cap_memo[key]

    def _find_caps(self, r: int, to_sets: tuple, in_sets: int, losses: tuple):
        caps = []
        for s, y in enumerate(to_sets):
            if not y:
                caps.append(_NO_CAP)
                continue
            one_less = list(to_sets)
            one_less[s] -= 1
            worth = in_sets - self.sets(r, tuple(one_less))
            if losses[s] > worth:
                return None
            fails = 1  # the first length at which the card below would gain more on the run
            while fails <= HIGH and self._grow(fails, -1, s) <= worth:
                fails += 1
            caps.append(fails - 1)
        return caps

    def runs_for(self, s: int, to_sets: dict[int, tuple[int, ...]]):
        """The best runs of suit s when ``to_sets`` says which of its cards went to sets:
        (score, plan), plan as [(table run number or None, low, high)]: for a table run,
        how many cards it gains below and above; for a new run, its ranks."""
        runs = self.table_runs[s]
        memo: dict = {}

        def best(r: int, lanes: tuple):  # lanes: (first rank, table run index or -1)
            if r > HIGH:
                total, plan = 0, []
                for first, t in lanes:
                    closed = self._close(s, self._length(s, first, t, HIGH), t)
                    if closed is None:
                        return None
                    total += closed
                    plan += self._planned(s, first, t, HIGH)
                return total, plan
            key = (r, lanes)
            if key in memo:
                return memo[key]
            k = self.count[s][r] - to_sets[r][s]
            starting = [j for j, (_n, low, _h) in enumerate(runs) if low == r]
            carried = [(f, t) for f, t in lanes if t >= 0 and runs[t][2] >= r]
            free = [(f, t) for f, t in lanes if not (t >= 0 and runs[t][2] >= r)]  # longest first
            lock, later = self.lock[r - 1]
            found = None

            def choose(i, used, score, plan, after, merged, closed_new_run):
                nonlocal found
                if i == len(free):
                    new = k - used
                    if new < 0 or (new and closed_new_run):  # the same rules as the search
                        return
                    lanes2 = after + carried + [(r, j) for j in starting if j not in merged] + [(r, -1)] * new
                    rest = best(r + 1, tuple(sorted(lanes2)))
                    if rest is not None and (found is None or score + rest[0] > found[0]):
                        found = (score + rest[0], plan + rest[1])
                    return
                first, t = free[i]
                length = self._length(s, first, t, r - 1)
                if used < k:
                    choose(i + 1, used + 1, score, plan, after + [(first, t)], merged, closed_new_run)
                    if length >= lock and not later[s]:
                        return
                closed = self._close(s, length, t)
                if closed is not None:
                    choose(i + 1, used, score + closed, plan + self._planned(s, first, t, r - 1), after, merged,
                           closed_new_run or t < 0)
                if t < 0:
                    for j in starting:
                        if j not in merged:
                            choose(i + 1, used, score, plan, after + [(first, j)], merged | {j}, closed_new_run)

            choose(0, 0, 0, [], [], frozenset(), False)
            memo[key] = found
            return found

        return best(LOW, ())

    def _length(self, s: int, first: int, t: int, last: int) -> int:
        """Cards in a lane from rank ``first`` to ``last``, its table run's cards included."""
        return last - first + 1

    def _planned(self, s: int, first: int, t: int, last: int) -> list:
        """The plan entry for a closed lane: none for a table run that gained nothing."""
        if t < 0:
            return [(None, first, last)]
        number, low, high = self.table_runs[s][t]
        below, above = low - first, max(0, last - high)
        return [(number, below, above)] if below or above else []


_NO_CAP = HIGH + 1  # a lane with no limit on its length
_SMALL_HAND = 16  # up to this many cards, combining the suits' run plans is quicker
_NONE = float("-inf")


def _best_runs_and_sets(hand: Counter, table: Sequence[Meld], rules: Mapping, search_info: dict | None = None):
    """Best (score, run plans per suit, set plans per rank) with no special melds."""
    if sum(hand.values()) <= _SMALL_HAND:
        return _runs_and_sets_by_suit_plans(hand, table, rules)
    search = _RankSearch(hand, table, rules)
    # The exact pass is cheapest when its floor is just below the best turn: floors a
    # little under the bound are tried first (a turn found above its floor is the
    # best); failing those, a quick pass keeping twelve positions per rank finds a good
    # turn, and the best turn lies above it.
    top = sum(search.bound(s, LOW, ((), ())) for s in range(4))
    found = None
    for step in (0.03, 0.08):
        floor = top * (1 - step)
        found = search.search(floor)
        if found and found[0] > floor:
            break
        found = None
    if found is None:
        quick = search.search(_NONE, beam=12)
        found = search.search(quick[0] - 1 if quick else _NONE)
    if search_info is not None:
        search_info["explored"] = search.explored
    runs_of = {s: [] for s in SUITS}
    sets_of: dict[int, list] = {r: [] for r in range(LOW, HIGH + 1)}
    for number, meld in enumerate(table, 1):
        if meld.kind == RUN:
            runs_of[meld.suit].append((number, meld))
        elif meld.kind in (PAIR, SET):
            sets_of[meld.rank].append((number, meld))
    total, to_sets = found
    run_plan = {}
    for s, suit in enumerate(SUITS):
        _score_runs, run_plan[suit] = search.runs_for(s, to_sets)
    set_plan = {}
    for r, counts in to_sets.items():
        if any(counts):
            set_plan[r] = _best_sets(r, counts, search.table_sets[r], search.duplicates)[1]
    return total, run_plan, set_plan, runs_of, sets_of


# ---------------------------------------------------------------------------------------
# Small hands (up to 16 cards): every suit's run plans, combined.


def _run_plans(suit: str, counts: list[int], table: Sequence, contested: list[int]):
    """Every way to use this suit's cards in runs, kept best per use of contested ranks.

    ``counts[r]`` is how many copies of rank r are free for runs; ``table`` holds
    (number, meld) for the table runs of this suit; ``contested`` lists the ranks whose
    cards could also go to a set. Returns [(score, key, plan)] where key counts the
    copies of each contested rank used, and plan is [(number or None, low, high)]:
    for a table run, how many cards it gains below and above; for a new run, its ranks.
    """
    start = list(counts)
    best: dict[tuple, tuple[int, list]] = {}
    # Only table runs with a card of the hand at one of their ends can grow at all.
    table = [
        (number, meld) for number, meld in table
        if counts[meld.low - 1] or (meld.high < HIGH and counts[meld.high + 1])
    ]

    def record(score: int, plan: list) -> None:
        key = tuple(start[r] - counts[r] for r in contested)
        if key not in best or score > best[key][0]:
            best[key] = (score, list(plan))

    def new_runs(first: tuple[int, int], score: int, plan: list) -> None:
        record(score, plan)
        for low in range(first[0], HIGH - 1):
            if not counts[low]:
                continue
            high = low
            while high + 1 <= HIGH and counts[high + 1]:
                high += 1
            for end in range(max(low + 2, first[1] if low == first[0] else 0), high + 1):
                for r in range(low, end + 1):
                    counts[r] -= 1
                plan.append((None, low, end))
                length = end - low + 1
                new_runs((low, end), score + _score(meld_points(length), length), plan)
                plan.pop()
                for r in range(low, end + 1):
                    counts[r] += 1

    def grow(i: int, score: int, plan: list) -> None:
        if i == len(table):
            new_runs((LOW, 0), score, plan)
            return
        number, meld = table[i]
        below = 0
        while meld.low - below - 1 >= LOW and counts[meld.low - below - 1]:
            below += 1
        above = 0
        while meld.high + above + 1 <= HIGH and counts[meld.high + above + 1]:
            above += 1
        for lo in range(below + 1):
            for hi in range(above + 1):
                ranks = list(range(meld.low - lo, meld.low)) + list(range(meld.high + 1, meld.high + hi + 1))
                for r in ranks:
                    counts[r] -= 1
                if ranks:
                    plan.append((number, lo, hi))
                gain = meld_points(meld.size + lo + hi) - meld_points(meld.size)
                grow(i + 1, score + _score(gain, lo + hi), plan)
                if ranks:
                    plan.pop()
                for r in ranks:
                    counts[r] += 1

    grow(0, 0, [])
    plans = sorted(((score, key, plan) for key, (score, plan) in best.items()), key=lambda p: -p[0])
    kept: list = []
    for plan in plans:  # drop a plan when one as good uses no more contested cards
        if not any(all(a <= b for a, b in zip(k[1], plan[1])) for k in kept):
            kept.append(plan)
    return kept


def _run_usable(counts: list[int], table: Sequence) -> list[bool]:
    """Which ranks of a suit could be in some run: in 3+ in a row, or a chain to a table run."""
    usable = [False] * (HIGH + 2)
    r = LOW
    while r <= HIGH:
        if counts[r]:
            end = r
            while end + 1 <= HIGH and counts[end + 1]:
                end += 1
            if end - r >= 2:
                for x in range(r, end + 1):
                    usable[x] = True
            r = end + 1
        else:
            r += 1
    for _number, meld in table:
        x = meld.low - 1
        while x >= LOW and counts[x]:
            usable[x] = True
            x -= 1
        x = meld.high + 1
        while x <= HIGH and counts[x]:
            usable[x] = True
            x += 1
    return usable


def _set_usable(card: Card, suits_in_hand: set[str], table: Sequence, duplicates: bool) -> bool:
    """Whether a card could be in some set: a partner of another suit, or a table set it fits."""
    if len(suits_in_hand) > 1:
        return True
    return any(duplicates or card.suit not in {c.suit for c in meld.cards} for _n, meld in table)


def _runs_and_sets_by_suit_plans(hand: Counter, table: Sequence[Meld], rules: Mapping):
    """Best (score, run plans per suit, set plans per rank) with no special melds, for a small
    hand: each suit's run plans that differ in the contested cards they use, combined
    with a bound (quick on the hands of a real game, but exponential in the contested
    cards: huge hands go to the pass over the ranks)."""
    duplicates = bool(rules["set_duplicates"])
    runs_of = {s: [] for s in SUITS}
    sets_of: dict[int, list] = {r: [] for r in range(LOW, HIGH + 1)}
    for number, meld in enumerate(table, 1):
        if meld.kind == RUN:
            runs_of[meld.suit].append((number, meld))
        elif meld.kind in (PAIR, SET):
            sets_of[meld.rank].append((number, meld))

    run_counts = {s: [0] * (HIGH + 2) for s in SUITS}
    set_counts = {c.rank: [0] * 4 for c in hand}
    contested: dict[str, list[int]] = {s: [] for s in SUITS}
    suit_counts = {s: [0] * (HIGH + 2) for s in SUITS}
    suits_of_rank: dict[int, set[str]] = {}
    for card, n in hand.items():
        suit_counts[card.suit][card.rank] = n
        suits_of_rank.setdefault(card.rank, set()).add(card.suit)
    usable = {s: _run_usable(suit_counts[s], runs_of[s]) for s in SUITS if any(suit_counts[s])}
    for card, n in sorted(hand.items(), key=lambda item: item[0].rank):
        suit, rank = card.suit, card.rank
        in_run = usable[suit][rank]
        in_set = _set_usable(card, suits_of_rank[rank], sets_of[rank], duplicates)
        if in_run:
            run_counts[suit][rank] = n
        if in_set:
            set_counts[rank][SUITS.index(suit)] = n
        if in_run and in_set:
            contested[suit].append(rank)

    set_memo: dict = {}

    def sets(rank: int, counts: tuple[int, ...]):
        key = (rank, counts)
        if key not in set_memo:
            set_memo[key] = _best_sets(rank, counts, tuple(sets_of[rank]), duplicates)
        return set_memo[key]

    nothing = [(0, (), [])]
    plans = {
        s: _run_plans(s, run_counts[s], runs_of[s], contested[s]) if any(run_counts[s]) else nothing
        for s in SUITS
    }
    open_suits = [s for s in SUITS if contested[s]]
    open_ranks = sorted({r for s in open_suits for r in contested[s]})

    # For each rank with contested cards: its set-side counts, and which suits the runs
    # may take copies from.
    open_by_rank = {
        rank: (set_counts[rank], [(SUITS.index(s), s) for s in open_suits if rank in contested[s]])
        for rank in open_ranks
    }

    def sets_total(taken: dict[tuple[str, int], int], ranks) -> int:
        total = 0
        for rank in ranks:
            base, suits = open_by_rank[rank]
            counts = list(base)
            for i, suit in suits:
                counts[i] -= taken.get((suit, rank), 0)
            total += sets(rank, tuple(counts))[0]
        return total

    # A suit with no contested card simply takes its best run plan. The contested suits'
    # plans are searched together, bounded by the remaining suits at their best and
    # every rank's sets with all the contested cards not yet given to a run.
    chosen = {s: plans[s][0] for s in SUITS if not contested[s]}
    best: list = [-1, None]

    def search(i: int, runs: int, taken: dict, choice: list) -> None:
        if i == len(open_suits):
            total = runs + sets_total(taken, open_ranks)
            if total > best[0]:
                best[:] = [total, list(choice)]
            return
        if best[0] >= 0:
            bound = runs + sum(plans[s][0][0] for s in open_suits[i:]) + sets_total(taken, open_ranks)
            if bound <= best[0]:
                return
        suit = open_suits[i]
        for plan in plans[suit]:
            for rank, n in zip(contested[suit], plan[1]):
                taken[(suit, rank)] = n
            choice.append(plan)
            search(i + 1, runs + plan[0], taken, choice)
            choice.pop()
        for rank in contested[suit]:
            taken.pop((suit, rank), None)

    search(0, 0, {}, [])
    chosen.update(zip(open_suits, best[1]))
    taken = {(s, r): n for s in open_suits for r, n in zip(contested[s], chosen[s][1])}
    run_plan = {s: chosen[s][2] for s in SUITS}
    set_plan = {}
    total = sum(chosen[s][0] for s in SUITS)
    for rank, counts in sorted(set_counts.items()):
        if any(counts):
            left = tuple(n - taken.get((s, rank), 0) for s, n in zip(SUITS, counts))
            score, set_plan[rank] = sets(rank, left)
            total += score
    return total, run_plan, set_plan, runs_of, sets_of


# ---------------------------------------------------------------------------------------
# Special melds: six named cards, laid down whole.


def _special_options(hand: Counter, rules: Mapping) -> list[tuple[Special, tuple[Card, ...]]]:
    """Every distinct special meld the hand can lay down (cards chosen per rank)."""
    options = []
    ranks = {c.rank for c in hand}
    for special in SPECIALS:
        if not rules[special.name] or not ranks.issuperset(special.ranks):
            continue
        if special.one_suit:
            for suit in SUITS:
                cards = tuple(Card(r, suit) for r in special.ranks)
                if all(hand[c] for c in cards):
                    options.append((special, cards))
            continue
        for colour_suits in ("SC", "HD"):
            choices = [[Card(r, s) for s in colour_suits if hand[Card(r, s)]] for r in special.ranks]
            for cards in product(*choices):
                if len({c.suit for c in cards}) > 1:
                    options.append((special, cards))
    return options


def best_last_turn(hand: Sequence[Card], table: Sequence[Meld], rules: Mapping) -> LastTurn:
    """The exact best extra turn for these cards on this table (see the module docstring)."""
    usable = Counter(c for c in hand if LOW <= c.rank <= HIGH)
    options = _special_options(usable, rules)
    best: list = [-1, None]
    seen: set = set()

    def consider(left: Counter, specials: list, start: int) -> None:
        special_score = sum(
            _score(rules[s.name], len(cards)) for s, cards in specials
        )
        # Different choices of special melds can leave the same cards (and score the same):
        # each set of cards left is searched once.
        key = (tuple(sorted((+left).items())), special_score)
        if key in seen:
            return
        seen.add(key)
        result = _best_runs_and_sets(left, table, rules)
        if special_score + result[0] > best[0]:
            best[:] = [special_score + result[0], (list(specials), result)]
        for i in range(start, len(options)):
            special, cards = options[i]
            need = Counter(cards)
            if all(left[c] >= n for c, n in need.items()):
                specials.append((special, cards))
                consider(left - need, specials, i)
                specials.pop()

    consider(usable, [], 0)
    specials, (_score_total, run_plan, set_plan, runs_of, sets_of) = best[1]
    plays: list[PlannedPlay] = []
    for special, cards in specials:
        meld = Meld(SPECIAL, tuple(sorted(cards, key=lambda c: c.rank)), special)
        plays.append(PlannedPlay(cards, None, None, meld, (), rules[special.name]))
    table_plays: dict[int, list[Card]] = {}
    for suit in SUITS:
        for number, low, high in run_plan[suit]:
            if number is None:
                cards = tuple(Card(r, suit) for r in range(low, high + 1))
                meld = Meld(RUN, cards)
                plays.append(PlannedPlay(cards, None, None, meld, (), meld_points(len(cards))))
            else:
                meld = table[number - 1]
                below = [Card(meld.low - i, suit) for i in range(1, low + 1)]
                above = [Card(meld.high + i, suit) for i in range(1, high + 1)]
                table_plays[number] = below + above
    for rank, plan in set_plan.items():
        for number, counts in plan:
            cards = _cards_of_rank(rank, counts)
            if number is None:
                kind = PAIR if len(cards) == 2 else SET
                meld = Meld(kind, tuple(sorted(cards, key=sort_key)))
                plays.append(PlannedPlay(tuple(cards), None, None, meld, (), meld_points(len(cards))))
            else:
                table_plays[number] = list(cards)
    for number in sorted(table_plays):
        before = table[number - 1]
        cards = tuple(table_plays[number])
        kind = RUN if before.kind == RUN else SET
        after = Meld(kind, tuple(sorted(before.cards + cards, key=lambda c: (c.rank, sort_key(c)))))
        points = tuple(lay_off_points(before, len(cards)))
        plays.insert(0, PlannedPlay(cards, number, before, after, points, sum(points)))
    plays.sort(key=lambda p: (p.meld_number is None, p.meld_number or 0))
    used = Counter(c for p in plays for c in p.cards)
    unused = list((Counter(hand) - used).elements())
    return LastTurn(
        tuple(plays),
        sum(p.points for p in plays),
        tuple(c for p in plays for c in p.cards),
        tuple(sorted(unused, key=sort_key)),
    )


def single_card_turn(hand: Sequence[Card], table: Sequence[Meld], rules: Mapping) -> LastTurn:
    """``single_card``: each card alone, its best single lay-off on the final table."""
    plays = []
    unused = []
    for card in hand:
        options = [
            (lay_off_points(meld, 1)[0], number, meld)
            for number, meld in enumerate(table, 1)
            if meld.kind != SPECIAL and fits(meld, card, rules)
        ]
        if not options:
            unused.append(card)
            continue
        points, number, meld = max(options, key=lambda o: (o[0], -o[1]))
        after = Meld(RUN if meld.kind == RUN else SET, tuple(sorted(meld.cards + (card,), key=lambda c: (c.rank, sort_key(c)))))
        plays.append(PlannedPlay((card,), number, meld, after, (points,), points))
    return LastTurn(
        tuple(plays),
        sum(p.points for p in plays),
        tuple(p.cards[0] for p in plays),
        tuple(sorted(unused, key=sort_key)),
    )
