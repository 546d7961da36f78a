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
meld, or nowhere. Two searches find the best such choice:

- a hand of up to 16 cards with no special meld in reach (every hand of a real game,
  nearly) combines each suit's *run plans* (``_run_plans``: the ways its cards can go
  to runs that differ in which *contested* cards, cards that fit a run and a set, they
  use) across suits with a bound, each rank's sets taking what the runs leave. Quick on
  few cards; at most 16 contested cards, so at most 2^16 combinations of plans;
- every other hand, whatever its size, takes one pass up the ranks 2 … K
  (``iceberg_rank_pass``), which decides runs, sets and special melds together: at
  each rank, what each suit's cards do (go to specials, extend the runs still open,
  start runs, go to the rank's sets). The specials enter by *how many* of each kind:
  suit specials take one card of their suit a rank, colour specials c cards of the
  colour a rank, split between its two suits rank by rank (mixed suits iff each suit
  gives at least c in all); their numbers are chosen at the parity's first rank (2 for
  the evens, 3 for the odds). Exchange rules that every best turn obeys (a long run
  takes its next card; a run stops below a set card only if the set values it more; a
  run never closes right below a new one) keep the positions few.

Why it is bounded
-----------------
Everything the second search keeps between two ranks is bounded by constants, not by
the number of cards: per suit at most two open runs (two decks), each shorter than 13
cards; per colour and parity at most 3 × 3 × 5 numbers of specials and 5 × 5 tallies.
So its work is at most (positions × choices per position) × 12 ranks for any hand, and
a floor (just under a bound of the best turn) drops most positions: see the docstring of
``iceberg_rank_pass`` for the bound. The first search sees at most 16 cards.

What it costs (``benchmarks/last_turn_worst.py``, ``benchmarks/README.md``): a few
milliseconds for hands of a real game, tens of milliseconds at most for the largest
legal hands; the slowest are gappy two-deck hands of 44–52 cards with specials worth
about what their cards earn in runs and sets, where runs, sets and specials compete
everywhere.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUITS, Card, sort_key
from .iceberg_melds import (
    KIND_WORDS,
    PAIR,
    RUN,
    SET,
    SPECIAL,
    SPECIALS,
    Meld,
    fits,
    lay_off_points,
    meld_points,
    ordinal,
)
from .iceberg_rank_pass import HIGH, LOW, Plan, RunPlan, SetPlan, TableMeld, best_by_ranks, best_sets, cards_of_rank
from .iceberg_rank_pass import score as _score
from .words import THEN, Cards, Say, joined

_SMALL_HAND = 16  # up to this many cards (and no special meld in reach), combining the suits' run plans

SuitPlan = tuple[int, tuple[int, ...], RunPlan]  # a suit's runs: (score, contested copies used, plan)


@dataclass(frozen=True)
class PlannedPlay:
    """One play of the best last turn: cards laid on a table meld, or a new meld from hand."""

    cards: tuple[Card, ...]  # in the order they would be placed
    meld_number: int | None  # the table meld laid on; None for a new meld
    before: Meld | None  # that table meld as it lies on the final table
    after: Meld  # the meld made, or the table meld once grown
    card_points: tuple[int, ...]  # lay-offs: each card's points in order
    points: int

    def describe(self) -> Say:
        """The play in words: ``S5 S6 S7: new run, 30``, or each card laid on a table meld
        (``on meld 1 (S7 S8 S9): S10 as 4th card 40, then SJ as 5th card 50``)."""
        if self.meld_number is None:
            return Say("%(cards)s: new %(meld)s, %(points)s", cards=Cards(self.cards),
                       meld=self._new_meld(), points=self.points)
        assert self.before is not None  # a lay-off: its table meld is known
        steps = joined((Say("%(card)s as %(nth)s card %(points)s", card=card,
                            nth=ordinal(self.before.size + i + 1), points=pts)
                        for i, (card, pts) in enumerate(zip(self.cards, self.card_points))), THEN)
        return Say("on meld %(number)s (%(meld)s): %(steps)s", number=self.meld_number,
                   meld=Cards(self.before.cards), steps=steps)

    def card_lines(self) -> list[tuple[tuple[Card, ...], Say, int]]:
        """(cards, why, points) per card for lay-offs, or one line for a new meld."""
        if self.meld_number is None:
            special = self.after.special if self.after.kind == SPECIAL else None
            if special is not None and special.house:
                return [(self.cards, Say("new %(meld)s from hand — house value", meld=special.title), self.points)]
            return [(self.cards, Say("new %(meld)s from hand", meld=self._new_meld()), self.points)]
        assert self.before is not None  # a lay-off: its table meld is known
        lines: list[tuple[tuple[Card, ...], Say, int]] = []
        for i, (card, pts) in enumerate(zip(self.cards, self.card_points)):
            values = dict(nth=ordinal(self.before.size + i + 1), number=self.meld_number,
                          meld=Cards(self.before.cards))
            why = (Say("%(nth)s card on meld %(number)s (%(meld)s), after %(cards)s",
                       cards=Cards(self.cards[:i]), **values) if i
                   else Say("%(nth)s card on meld %(number)s (%(meld)s)", **values))
            lines.append(((card,), why, pts))
        return lines

    def _new_meld(self) -> Say:
        """A new meld's kind ("run"), or a special meld's name."""
        if self.after.kind == SPECIAL:
            assert self.after.special is not None  # a special meld always has its Special
            return self.after.special.title
        return KIND_WORDS[self.after.kind]


@dataclass(frozen=True)
class LastTurn:
    """The plays that reach the maximum, their total, and the cards they use or leave."""

    plays: tuple[PlannedPlay, ...]
    points: int
    used: tuple[Card, ...]
    unused: tuple[Card, ...]


# ---------------------------------------------------------------------------------------
# Small hands (up to 16 cards): every suit's run plans, combined.


def _run_plans(suit: str, counts: list[int], table: Sequence[TableMeld],
               contested: list[int]) -> list[SuitPlan]:
    """Every way to use this suit's cards in runs, kept best per use of contested ranks.

    ``counts[r]`` is how many copies of rank r are free for runs; ``table`` holds
    (number, meld) for the table runs of this suit; ``contested`` lists the ranks whose
    cards could also go to a set. Returns [(score, key, plan)] where key counts the
    copies of each contested rank used, and plan is [(number or None, low, high)]:
    for a table run, how many cards it gains below and above; for a new run, its ranks.
    """
    start = list(counts)
    best: dict[tuple[int, ...], tuple[int, RunPlan]] = {}
    # Only table runs with a card of the hand at one of their ends can grow at all.
    table = [
        (number, meld) for number, meld in table
        if counts[meld.low - 1] or (meld.high < HIGH and counts[meld.high + 1])
    ]

    def record(score: int, plan: RunPlan) -> None:
        key = tuple(start[r] - counts[r] for r in contested)
        if key not in best or score > best[key][0]:
            best[key] = (score, list(plan))

    def new_runs(first: tuple[int, int], score: int, plan: RunPlan) -> None:
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

    def grow(i: int, score: int, plan: RunPlan) -> None:
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
    kept: list[SuitPlan] = []
    for plan in plans:  # drop a plan when one as good uses no more contested cards
        if not any(all(a <= b for a, b in zip(k[1], plan[1])) for k in kept):
            kept.append(plan)
    return kept


def _run_usable(counts: list[int], table: Sequence[TableMeld]) -> list[bool]:
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


def _set_usable(card: Card, suits_in_hand: set[str], table: Sequence[TableMeld], duplicates: bool) -> bool:
    """Whether a card could be in some set: a partner of another suit, or a table set it fits."""
    if len(suits_in_hand) > 1:
        return True
    return any(duplicates or card.suit not in {c.suit for c in meld.cards} for _n, meld in table)


def _runs_and_sets_by_suit_plans(
    hand: Counter[Card], table: Sequence[Meld], rules: Mapping[str, Any]
) -> tuple[int, dict[str, RunPlan], dict[int, SetPlan]]:
    """Best (score, run plans per suit, set plans per rank) with no special melds, for a small
    hand: each suit's run plans that differ in the contested cards they use, combined
    with a bound (quick on the hands of a real game, but exponential in the contested
    cards: huge hands go to the pass over the ranks)."""
    duplicates = bool(rules["set_duplicates"])
    runs_of: dict[str, list[TableMeld]] = {s: [] for s in SUITS}
    sets_of: dict[int, list[TableMeld]] = {r: [] for r in range(LOW, HIGH + 1)}
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

    set_memo: dict[tuple[int, tuple[int, ...]], tuple[int, SetPlan]] = {}

    def sets(rank: int, counts: tuple[int, ...]) -> tuple[int, SetPlan]:
        key = (rank, counts)
        if key not in set_memo:
            set_memo[key] = best_sets(rank, counts, tuple(sets_of[rank]), duplicates)
        return set_memo[key]

    nothing: list[SuitPlan] = [(0, (), [])]
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

    def sets_total(taken: dict[tuple[str, int], int], ranks: Iterable[int]) -> int:
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
    best = -1
    best_choice: list[SuitPlan] = []

    def search(i: int, runs: int, taken: dict[tuple[str, int], int], choice: list[SuitPlan]) -> None:
        nonlocal best, best_choice
        if i == len(open_suits):
            total = runs + sets_total(taken, open_ranks)
            if total > best:
                best, best_choice = total, list(choice)
            return
        if best >= 0:
            bound = runs + sum(plans[s][0][0] for s in open_suits[i:]) + sets_total(taken, open_ranks)
            if bound <= best:
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
    chosen.update(zip(open_suits, best_choice))
    taken = {(s, r): n for s in open_suits for r, n in zip(contested[s], chosen[s][1])}
    run_plan = {s: chosen[s][2] for s in SUITS}
    set_plan: dict[int, SetPlan] = {}
    total = sum(chosen[s][0] for s in SUITS)
    for rank, counts in sorted(set_counts.items()):
        if any(counts):
            left = tuple(n - taken.get((s, rank), 0) for s, n in zip(SUITS, counts))
            score, set_plan[rank] = sets(rank, left)
            total += score
    return total, run_plan, set_plan


# ---------------------------------------------------------------------------------------
# The best turn: special melds, runs and sets.


def _can_lay_special(hand: Counter[Card], rules: Mapping[str, Any]) -> bool:
    """Whether some special meld the table plays has all six ranks in one colour of the hand."""
    for special in SPECIALS:
        if rules[special.name]:
            for colour in ("SC", "HD"):
                if all(any(hand[Card(r, s)] for s in colour) for r in special.ranks):
                    return True
    return False


def _best_plan(hand: Counter[Card], table: Sequence[Meld], rules: Mapping[str, Any],
               search_info: dict[str, int] | None = None) -> Plan:
    """(score, special melds, run plan per suit, set plan per rank) of the best turn."""
    if sum(hand.values()) <= _SMALL_HAND and not _can_lay_special(hand, rules):
        total, run_plan, set_plan = _runs_and_sets_by_suit_plans(hand, table, rules)
        return total, [], run_plan, set_plan
    return best_by_ranks(hand, table, rules, search_info)


def best_last_turn(hand: Sequence[Card], table: Sequence[Meld], rules: Mapping[str, Any]) -> LastTurn:
    """The exact best extra turn for these cards on this table (see the module docstring)."""
    usable = Counter(c for c in hand if LOW <= c.rank <= HIGH)
    _total, specials, run_plan, set_plan = _best_plan(usable, table, rules)
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
            cards = cards_of_rank(rank, counts)
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


def single_card_turn(hand: Sequence[Card], table: Sequence[Meld], rules: Mapping[str, Any]) -> LastTurn:
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
        grown = tuple(sorted(meld.cards + (card,), key=lambda c: (c.rank, sort_key(c))))
        after = Meld(RUN if meld.kind == RUN else SET, grown)
        plays.append(PlannedPlay((card,), number, meld, after, (points,), points))
    return LastTurn(
        tuple(plays),
        sum(p.points for p in plays),
        tuple(p.cards[0] for p in plays),
        tuple(sorted(unused, key=sort_key)),
    )
