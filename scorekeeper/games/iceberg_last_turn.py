"""The best last turn: what the cards left in a hand would have scored in one more turn.

docs/rules/iceberg.md, "Cards left in hand", ``playable_penalty``:

- ``best_turn`` (default): the maximum total the player could score in one extra turn
  with only the cards in hand against the final table: lay-offs onto any meld, new
  pairs, sets, runs and special melds from hand cards, and chains (holding S10 and SJ
  with S7-8-9 on the table: S10 as 4th card 40, then SJ as 5th 50). Each card once.
- ``single_card``: each card alone, its best single lay-off onto the final table.

Where several turns reach the best total, the one that uses the most cards is chosen
(``card_penalty_applies_to: unplayable`` charges only the cards it leaves).

How the exact maximum is found quickly
--------------------------------------
A meld's points depend only on its own final size, so one turn is a choice, for every
card, of *where it ends up*: in a run of its suit (a table run grown at either end, or
a new run), in a set of its rank (a table pair or set, or a new pair or set), in a
special meld, or nowhere. Once each card is given a side, the runs of every suit and
the sets of every rank are independent small problems. Most cards can only go one way;
the few that fit both a run and a set ("contested" cards) are the only real choice.
For each suit we list the run plans that differ in which contested cards they use
(keeping only plans no other plan beats with fewer of them), and then search the
combinations of those plans across suits with a simple bound, asking each rank for
its best sets given the contested cards the runs left it. Special melds are tried
first, as every way the hand can make them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
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
    cards = list(_cards_of_rank(rank, counts))
    # Without duplicates a meld holds each suit once: try every placement of the cards.
    targets = [[meld.size, {c.suit for c in meld.cards}, number, []] for number, meld in table]
    groups: list[list] = []
    best = [0, []]

    def value() -> tuple[int, list]:
        points = used = 0
        plan = []
        for size, _suits, number, added in targets:
            if added:
                points += meld_points(size + len(added)) - meld_points(size)
                used += len(added)
                plan.append((number, _suit_counts(added)))
        for group in groups:
            if len(group) < 2:
                return -1, []
            points += meld_points(len(group))
            used += len(group)
            plan.append((None, _suit_counts(group)))
        return _score(points, used), plan

    def place(i: int) -> None:
        if i == len(cards):
            score, plan = value()
            if score > best[0]:
                best[:] = [score, plan]
            return
        card = cards[i]
        place(i + 1)  # left in hand
        for target in targets:
            if card.suit not in target[1]:
                target[1].add(card.suit)
                target[3].append(card)
                place(i + 1)
                target[3].pop()
                target[1].discard(card.suit)
        for group in groups:
            if all(c.suit != card.suit for c in group):
                group.append(card)
                place(i + 1)
                group.pop()
        groups.append([card])
        place(i + 1)
        groups.pop()

    place(0)
    return best[0], best[1]


# ---------------------------------------------------------------------------------------
# Runs: the cards of one suit, onto the ends of table runs or into new runs.


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


def _best_runs_and_sets(hand: Counter, table: Sequence[Meld], rules: Mapping):
    """Best (score, run plans per suit, set plans per rank) with no special melds."""
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

    def consider(left: Counter, specials: list, start: int) -> None:
        special_score = sum(
            _score(rules[s.name], len(cards)) for s, cards in specials
        )
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
