"""best_last_turn against the plain exhaustive search (benchmarks/exhaustive.py).

docs/rules/iceberg.md, ``playable_penalty: best_turn``: the most the cards in hand could
score in one more turn on the final table, chains and new melds included; among equal
totals, the turn that uses the most cards. The fast optimizer must agree with a search
that simply tries every play, on many small random positions: one deck and two, with
and without duplicates in sets, special melds within reach. And the plays it reports
must be real: replayed with make_meld and lay_off, card by card, they score its total.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from benchmarks.exhaustive import exhaustive_best
from scorekeeper.games import iceberg_last_turn
from scorekeeper.games.cards import SUITS, Card, parse_card
from scorekeeper.games.errors import IllegalPlay
from scorekeeper.games.iceberg import resolve_rules
from scorekeeper.games.iceberg_last_turn import best_last_turn
from scorekeeper.games.iceberg_melds import EVENS, ODDS, fits, lay_off, lay_off_points, make_meld
from tests.conftest import examples

RULE_SETS = {
    "one deck": ({}, 3),
    "two decks": ({}, 4),
    "two decks, no duplicates in sets": ({"set_duplicates": False}, 4),
    "two decks, colour specials not played": ({"special_odds_colour": 0, "special_evens_colour": 0}, 4),
}
HAND_KINDS = ("random", "near the table", "clustered", "special")
# Positions a case draws: as the property tests, half of these in the suite, all of them
# under HYPOTHESIS_PROFILE=thorough (tests/conftest.py's examples()).
POSITIONS_PER_CASE = examples(150)
BIGGER_POSITIONS = examples(60)
SPECIAL_POSITIONS = examples(40)


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


# ---------------------------------------------------------------------------------------
# Random small positions.


def _take(pool: Counter, wanted: list[Card]) -> bool:
    need = Counter(wanted)
    if any(pool[c] < n for c, n in need.items()):
        return False
    pool.subtract(need)
    return True


def random_table(rng: random.Random, pool: Counter, rules) -> list:
    """Up to ten melds: pairs, sets (repeated cards when the rules allow), runs, a special."""
    table = []
    for _ in range(rng.randint(0, 10)):
        for _attempt in range(20):
            rank, suit = rng.randint(2, 13), rng.choice(SUITS)
            kind = rng.choices(["run", "pair", "set", "special"], [45, 25, 25, 5])[0]
            if kind == "run":
                length = rng.choice([3, 3, 3, 4, 4, 5, 6, 8])
                low = max(2, min(rank, 14 - length))
                wanted = [Card(r, suit) for r in range(low, low + length)]
            elif kind == "special":
                ranks = ODDS if rank % 2 else EVENS
                colour = "SC" if suit in "SC" else "HD"
                wanted = [Card(r, suit if rng.random() < 0.5 else rng.choice(colour)) for r in ranks]
            else:
                size = 2 if kind == "pair" else rng.choice([3, 3, 4, 5])
                wanted = [Card(rank, rng.choice(SUITS)) for _ in range(size)]
            try:
                meld = make_meld(wanted, rules)
            except IllegalPlay:
                continue
            if _take(pool, wanted):
                table.append(meld)
                break
    return table


def random_hand(rng: random.Random, pool: Counter, table: list, kind: str, rules) -> list[Card]:
    """Up to seven cards from what is left, biased so that plays are likely."""
    size = rng.choices(range(1, 8), weights=[1, 1, 2, 2, 3, 3, 4])[0]
    left = list(pool.elements())  # aces included: a hand may hold one never put face up
    if kind == "near the table" and table:
        near = [c for c in left if any(fits(m, c, rules) for m in table)]
        chosen = rng.sample(near, min(len(near), rng.randint(1, size)))
    elif kind == "clustered":  # two suits, a window of ranks: runs, sets and contested cards
        suits = rng.sample(SUITS, 2)
        low = rng.randint(2, 10)
        chosen = [c for c in left if c.suit in suits and low <= c.rank <= low + 3]
        rng.shuffle(chosen)
        chosen = chosen[:size]
    elif kind == "special":  # odds or evens of one suit or one colour: often all six
        ranks = rng.choice([ODDS, EVENS])
        suits = rng.choice(["S", "H", "D", "C", "SC", "HD"])
        chosen = []
        for rank in rng.sample(ranks, rng.choice([5, 6, 6, 6])):
            options = [c for c in left if c.rank == rank and c.suit in suits]
            chosen += rng.sample(options, min(len(options), rng.choice([1, 1, 1, 2])))
        chosen = chosen[:7]
    else:
        chosen = []
    _take(pool, chosen)
    chosen += rng.sample(list(pool.elements()), max(0, min(size - len(chosen), sum(pool.values()))))
    return chosen


def random_position(seed: int, rules, kind: str):
    rng = random.Random(seed)
    pool = Counter({Card(rank, suit): rules["decks"] for suit in SUITS for rank in range(1, 14)})
    aces = Counter({c: n for c, n in pool.items() if c.is_ace})
    pool -= aces
    table = random_table(rng, pool, rules)
    if rng.random() < 0.1:
        pool += aces
    hand = random_hand(rng, pool, table, kind, rules)
    return hand, table


# ---------------------------------------------------------------------------------------
# Checks.


def check_plays_replay(turn, hand, table, rules) -> None:
    """Every reported play is legal on a copy of the table, card by card, and scores as said."""
    table = list(table)
    total = 0
    for play in turn.plays:
        if play.meld_number is None:
            meld = make_meld(list(play.cards), rules)  # raises IllegalPlay if not a meld
            assert meld.value(rules) == play.points, play.describe()
            table.append(meld)
        else:
            before = table[play.meld_number - 1]
            assert before == play.before, play.describe()
            grown = lay_off(before, list(play.cards), rules)
            assert sum(lay_off_points(before, len(play.cards))) == play.points, play.describe()
            # the explanation places the cards one at a time, in this order
            step = before
            for card, points in zip(play.cards, play.card_points, strict=True):
                assert lay_off_points(step, 1) == [points], play.describe()
                step = lay_off(step, [card], rules)
            assert step == grown
            table[play.meld_number - 1] = grown
        total += play.points
    assert total == turn.points
    used = Counter(c for play in turn.plays for c in play.cards)
    assert used == Counter(turn.used)
    assert used + Counter(turn.unused) == Counter(hand)


def check_against_oracle(hand, table, rules) -> None:
    turn = best_last_turn(hand, table, rules)
    expected = exhaustive_best(hand, table, rules)
    position = f"hand {' '.join(map(str, hand))}; table {[str(m) for m in table]}"
    assert (turn.points, len(turn.used)) == expected, position
    check_plays_replay(turn, hand, table, rules)


@pytest.mark.parametrize("kind", HAND_KINDS)
@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_best_last_turn_matches_exhaustive_search(rule_set, kind):
    overrides, players = RULE_SETS[rule_set]
    rules = resolve_rules(overrides, players)
    base = 1000 * list(RULE_SETS).index(rule_set) + 100_000 * HAND_KINDS.index(kind)
    for seed in range(base, base + POSITIONS_PER_CASE):
        hand, table = random_position(seed, rules, kind)
        check_against_oracle(hand, table, rules)


# ---------------------------------------------------------------------------------------
# Positions worked by hand from docs/rules/iceberg.md: both searches must give these numbers.

SEED_TABLE = ["S6 S7 S8 S9", "DJ CJ HJ", "H3 C3", "DQ SQ"]  # docs/rules/iceberg.md, the seed example


@pytest.mark.parametrize(
    "players, overrides, table, hand, points, used",
    [
        # docs/rules/iceberg.md seed example: B's SJ (4th jack 40), HQ (3rd queen 20), S3 (3rd three 20)
        (3, {}, SEED_TABLE, "SK SJ S3 HQ C6", 80, 3),
        # C's CQ, the 3rd queen
        (3, {}, SEED_TABLE, "D10 D9 D4 CK CQ", 20, 1),
        # docs/rules/iceberg.md chain: S10 as 4th card 40, then SJ as 5th 50
        (3, {}, ["S7 S8 S9"], "S10 SJ", 90, 2),
        # a special meld from hand: odds in one suit, 700
        (3, {}, [], "H3 H5 H7 H9 HJ HK", 700, 6),
        # odds in one colour, mixed suits: 350 (house value)
        (4, {}, [], "S3 C5 S7 S9 CJ SK", 350, 6),
        # not played (0): the same cards make nothing
        (4, {"special_odds_colour": 0}, [], "S3 C5 S7 S9 CJ SK", 0, 0),
        # S9 S9 is no pair (a pair's suits differ), but S9 S9 H9 is a set (two decks)
        (4, {}, [], "S9 S9", 0, 0),
        (4, {}, [], "S9 S9 H9", 30, 3),
        (4, {"set_duplicates": False}, [], "S9 S9 H9", 10, 2),
        # a contested card: H8 to the hearts (4th card 40) beats H8 to the eights (3rd, 20)
        (3, {}, ["H5 H6 H7", "S8 C8"], "H8", 40, 1),
        # ... but with S8 H8 H8 all three go on the set of eights: 40 + 50 + 60
        (4, {}, ["H5 H6 H7", "S8 C8", "D8 D8 C8"], "H8 H8 S8", 150, 3),
        # both copies of S9, one on each spade run: 40 + 40
        (4, {}, ["S6 S7 S8", "S10 SJ SQ"], "S9 S9", 80, 2),
        # no duplicates: C9 on the full set (4th, 40), D9 then C9 on the pair (20 + 40)
        (4, {"set_duplicates": False}, ["S9 H9 D9", "S9 H9"], "D9 C9 C9", 100, 3),
        # a colour special (350) and SJ as the 10th card of the spade run (100)
        (4, {}, ["S2 S3 S4 S5 S6 S7 S8 S9 S10", "C6 C7 C8 C9 C10"], "S3 C5 S7 S9 CJ SK SJ", 450, 7),
        # aces never meld
        (4, {}, ["H2 H3 H4"], "HA SA", 0, 0),
    ],
)
def test_worked_positions(players, overrides, table, hand, points, used):
    rules = resolve_rules(overrides, players)
    table = [make_meld(cards(m), rules) for m in table]
    hand = cards(hand)
    assert exhaustive_best(hand, table, rules) == (points, used)
    turn = best_last_turn(hand, table, rules)
    assert (turn.points, len(turn.used)) == (points, used)
    check_plays_replay(turn, hand, table, rules)


# ---------------------------------------------------------------------------------------
# Bigger hands (issue 14, item 1): 10 to 14 cards, as many as the exhaustive search still
# finishes quickly, two decks, clustered so that runs and sets compete for the cards.


def bigger_position(seed: int, rules):
    rng = random.Random(seed)
    pool = Counter({Card(rank, suit): rules["decks"] for suit in SUITS for rank in range(2, 14)})
    table = random_table(rng, pool, rules)[:4]
    suits = rng.sample(SUITS, rng.choice([2, 3]))
    low = rng.randint(2, 9)
    near = [c for c in pool.elements() if c.suit in suits and low <= c.rank <= low + 4]
    hand = rng.sample(near, min(len(near), rng.randint(10, 14)))
    return hand, table


@pytest.mark.parametrize("strategy", ["as chosen", "pass over the ranks"])
@pytest.mark.parametrize("rule_set", ["two decks", "two decks, no duplicates in sets"])
def test_bigger_hands_match_exhaustive_search(rule_set, strategy, monkeypatch):
    if strategy == "pass over the ranks":  # what huge hands get, on hands the oracle can do
        monkeypatch.setattr(iceberg_last_turn, "_SMALL_HAND", 0)
    overrides, players = RULE_SETS[rule_set]
    rules = resolve_rules(overrides, players)
    for seed in range(500_000, 500_000 + BIGGER_POSITIONS):
        hand, table = bigger_position(seed, rules)
        check_against_oracle(hand, table, rules)


@pytest.mark.parametrize("kind", HAND_KINDS)
@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_the_pass_over_the_ranks_matches_exhaustive_search(rule_set, kind, monkeypatch):
    # Hands of up to 16 cards are solved by combining the suits' run plans; bigger ones by
    # the pass over the ranks. Here that pass solves the small random positions too.
    monkeypatch.setattr(iceberg_last_turn, "_SMALL_HAND", 0)
    overrides, players = RULE_SETS[rule_set]
    rules = resolve_rules(overrides, players)
    base = 7_000_000 + 1000 * list(RULE_SETS).index(rule_set) + 100_000 * HAND_KINDS.index(kind)
    for seed in range(base, base + POSITIONS_PER_CASE // 2):
        hand, table = random_position(seed, rules, kind)
        check_against_oracle(hand, table, rules)


# ---------------------------------------------------------------------------------------
# Special melds (issue 14, item 1): hands of 8 to 14 cards built around one or two
# specials (odds or evens, of one suit or one colour), so that two specials, a special
# and runs or sets, or none, compete; special values that make them the best play (700),
# about what their cards earn elsewhere (30), nearly nothing (1) or not played (0), in
# every mix of the four rules. These hands all go to the pass over the ranks.

SPECIAL_VALUES = {
    "700 and 350": (700, 700, 350, 350),
    "all 30": (30, 30, 30, 30),
    "all 1": (1, 1, 1, 1),
    "suits only": (700, 30, 0, 0),
    "colours only": (0, 0, 30, 700),
    "mixed": (1, 700, 30, 0),
}


def special_rich_position(seed: int, rules):
    rng = random.Random(seed)
    pool = Counter({Card(rank, suit): rules["decks"] for suit in SUITS for rank in range(2, 14)})
    table = random_table(rng, pool, rules)[:rng.randint(0, 5)]
    hand = []
    for _ in range(2):
        ranks = rng.choice([ODDS, EVENS])
        suits = rng.choice(["S", "H", "D", "C", "SC", "HD", "SC", "HD"])
        for rank in ranks:
            options = [c for c in pool.elements() if c.rank == rank and c.suit in suits]
            if options:
                card = rng.choice(options)
                hand.append(card)
                pool[card] -= 1
    rng.shuffle(hand)
    hand = hand[:rng.randint(8, 12)]
    hand += rng.sample(list(pool.elements()), rng.randint(0, 2))
    return hand, table


@pytest.mark.parametrize("decks, duplicates", [(1, True), (2, True), (2, False)])
@pytest.mark.parametrize("values", list(SPECIAL_VALUES))
def test_special_melds_match_exhaustive_search(values, decks, duplicates):
    odds_suit, evens_suit, odds_colour, evens_colour = SPECIAL_VALUES[values]
    rules = resolve_rules({"decks": decks, "set_duplicates": duplicates,
                           "special_odds_suit": odds_suit, "special_evens_suit": evens_suit,
                           "special_odds_colour": odds_colour, "special_evens_colour": evens_colour},
                          4 if decks == 2 else 3)
    base = 9_000_000 + 10_000 * list(SPECIAL_VALUES).index(values) + 1000 * decks + 100 * duplicates
    for seed in range(base, base + SPECIAL_POSITIONS):
        hand, table = special_rich_position(seed, rules)
        check_against_oracle(hand, table, rules)
