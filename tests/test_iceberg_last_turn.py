"""The best last turn: what the cards left in a hand would have scored in one more turn.

docs/rules/iceberg.md, "Cards left in hand", ``playable_penalty``. Every expected total
below is worked out by hand in the row's comment.
"""
import functools
from collections import Counter

import pytest

from scorekeeper.games.cards import parse_cards
from scorekeeper.games.iceberg import resolve_rules
from scorekeeper.games.iceberg_last_turn import best_last_turn, single_card_turn
from scorekeeper.games.iceberg_melds import SPECIAL, lay_off, lay_off_points, make_meld


def cards(text):
    return parse_cards(text.split()) if text else []


def rules(decks=1, **overrides):
    return resolve_rules({"decks": decks, **overrides}, 3)


def make_table(melds, table_rules):
    return [make_meld(cards(text), table_rules) for text in melds]


def assert_legal(turn, hand, table, table_rules):
    """Replay the turn on the table: every play legal, each card once, points add up."""
    melds = list(table)
    total = 0
    for p in turn.plays:
        if p.meld_number is None:
            made = make_meld(list(p.cards), table_rules)
            assert made.kind == p.after.kind
            assert made.value(table_rules) == p.points
            melds.append(made)
        else:
            current = melds[p.meld_number - 1]
            assert p.before == current
            assert p.card_points == tuple(lay_off_points(current, len(p.cards)))
            for card in p.cards:  # in the order given, each card fits as it is placed
                current = lay_off(current, [card], table_rules)
            assert current == p.after
            assert sum(p.card_points) == p.points
            melds[p.meld_number - 1] = current
        total += p.points
    assert total == turn.points
    assert Counter(turn.used) + Counter(turn.unused) == Counter(hand)
    assert Counter(turn.used) == Counter(c for p in turn.plays for c in p.cards)


def best(hand, melds=(), **overrides):
    table_rules = rules(**overrides)
    table = make_table(melds, table_rules)
    turn = best_last_turn(cards(hand), table, table_rules)
    assert_legal(turn, cards(hand), table, table_rules)
    return turn


def single(hand, melds=(), **overrides):
    """single_card: every card is judged alone against the final table, not in turn."""
    table_rules = rules(**overrides)
    table = make_table(melds, table_rules)
    turn = single_card_turn(cards(hand), table, table_rules)
    for p in turn.plays:
        (card,) = p.cards
        assert p.before == table[p.meld_number - 1]
        assert p.after == lay_off(p.before, [card], table_rules)
        assert p.card_points == (p.points,) == tuple(lay_off_points(p.before, 1))
    assert sum(p.points for p in turn.plays) == turn.points
    assert Counter(turn.used) + Counter(turn.unused) == Counter(cards(hand))
    return turn


def unused(turn):
    return " ".join(sorted(str(c) for c in turn.unused))


def sorted_names(text):
    return " ".join(sorted(text.split()))


CASES = [
    # (hand, table melds, rules, points, cards left unused)
    # -- nothing to play
    ("", [], {}, 0, ""),
    ("S2 H5 D9 CK", [], {}, 0, "CK D9 H5 S2"),
    ("S2 H5 D9 CK", ["S7 S8 S9"], {}, 0, "CK D9 H5 S2"),
    # -- single lay-offs
    ("C9", ["H9 D9"], {}, 20, ""),  # 3rd card on a pair
    ("C9", ["S9 H9 D9"], {}, 40, ""),  # 4th card of a set
    ("S10", ["S7 S8 S9"], {}, 40, ""),
    ("S6", ["S7 S8 S9"], {}, 40, ""),
    ("C9 S9", ["H9 D9"], {}, 60, ""),  # 3rd 20, 4th 40
    ("SQ", ["H9 D9", "S7 S8 S9"], {}, 0, "SQ"),
    # -- chains (docs/rules/iceberg.md: S10 as 4th card 40, then SJ as 5th 50, penalty 90)
    ("S10 SJ", ["S7 S8 S9"], {}, 90, ""),
    ("SJ S10", ["S7 S8 S9"], {}, 90, ""),
    ("S10 SJ SQ SK", ["S7 S8 S9"], {}, 40 + 50 + 60 + 70, ""),
    ("S5 S6 S10 SJ", ["S7 S8 S9"], {}, 40 + 50 + 60 + 70, ""),  # both ends
    ("S10 SQ", ["S7 S8 S9"], {}, 40, "SQ"),  # the chain stops at the gap
    ("S3 S4 S5", ["S6 S7 S8"], {}, 40 + 50 + 60, ""),  # better on the table than a new run (30)
    ("S2 S3 SA", ["S4 S5 S6"], {}, 40 + 50, "SA"),
    # -- new melds from hand
    ("H4 D4", [], {}, 10, ""),  # pair
    ("H4 D4 C4", [], {}, 30, ""),  # set
    ("H4 D4 C4 S4", [], {}, 70, ""),
    ("H4 H5 H6", [], {}, 30, ""),  # run
    ("H4 H5 H6 H7", [], {}, 70, ""),
    ("H4 H5 H6 H8 H9 H10", [], {}, 60, ""),  # two runs
    ("H4 H5 H6 D9 C9", [], {}, 40, ""),  # a run and a pair
    ("H4 H5 D7", [], {}, 0, "D7 H4 H5"),  # two cards are no run
    ("H4 H5", ["H6 H7 H8"], {}, 50 + 40, ""),
    ("H2 H3 H4 S2 S3 S4 D2 D3 D4", [], {}, 90, ""),  # three runs (30 each) ...
    # ... but with D4 missing, sets of twos and threes and a pair of fours (30 + 30 + 10)
    # beat the two runs (30 + 30) or a run and two pairs (30 + 10 + 10)
    ("H2 H3 H4 S2 S3 S4 D2 D3", [], {}, 70, ""),
    # -- contested cards: a card that fits a run or a set
    ("S8 S9 S10 H10 D10", [], {}, 30 + 10, ""),  # run S8-10 + pair H10 D10 beats set of tens (30)
    ("S5 S6 S7 H7 D7 C7", [], {}, 70, "S5 S6"),  # set of four 7s (70) beats run + set (30 + 30)
    ("S10", ["S3 S4 S5 S6 S7 S8 S9", "H10 D10"], {}, 80, ""),  # 8th card of the run, not 3rd of the pair
    ("S10 SJ C10", ["S7 S8 S9", "H10 D10"], {}, 40 + 50 + 20, ""),  # S10 to the run frees SJ
    ("S10 C10", ["S7 S8 S9", "H10 D10"], {}, 60, ""),  # 40 + 20, or 20 + 40: either way 60
    ("S7 H7", ["S4 S5 S6", "D7 C7"], {}, 20 + 40, ""),  # both on the pair: 20 + 40 (run: 40 + 20)
    ("S7 S8 H7", ["S4 S5 S6", "D7 C7"], {}, 40 + 50 + 20, ""),
    # -- aces in hand are never playable
    ("SA", ["SJ SQ SK"], {}, 0, "SA"),
    ("SA HA DA", [], {}, 0, "DA HA SA"),
    ("SA S2", ["S3 S4 S5"], {}, 40, "SA"),
    # -- special melds from hand
    ("S3 S5 S7 S9 SJ SK", [], {}, 700, ""),
    ("H2 H4 H6 H8 H10 HQ", [], {}, 700, ""),
    ("S3 C5 S7 C9 SJ CK", [], {}, 350, ""),
    ("H2 D4 H6 D8 H10 DQ", [], {}, 350, ""),
    ("S3 S5 S7 S9 SJ SK", ["H9 D9", "HK DK"], {}, 700, ""),  # beats S9 and SK on the pairs (40)
    ("S3 S5 S7 S9 SJ SK", ["H9 D9", "HK DK"], {"special_odds_suit": 0}, 40, "S3 S5 S7 SJ"),
    ("S3 S5 S7 S9 SJ SK", ["H9 D9", "HK DK"], {"special_odds_suit": 30}, 40, "S3 S5 S7 SJ"),
    ("S3 S5 S7 S9 SJ SK S8", [], {}, 700, "S8"),  # not S7 S8 S9 (30)
    ("S3 S5 S7 S9 SJ SK S8", [], {"special_odds_suit": 20}, 30, "S3 S5 SJ SK"),
    ("S3 S5 S7 S9 SJ SK C3 C5 C7 C9 CJ CK", [], {}, 1400, ""),  # two suit specials, not two colour (700)
    ("S3 S5 S7 S9 SJ SK C3 C5 C7 C9 CJ CK", [], {"special_odds_suit": 0}, 700, ""),  # two colour specials
    ("S3 S5 S7 S9 SJ SK", [], {"special_odds_suit": 0}, 0, "S3 S5 S7 S9 SJ SK"),  # one suit is not a colour special
    ("H2 D4 H6 D8 H10 DQ", [], {"special_evens_colour": 0}, 0, "D4 D8 DQ H10 H2 H6"),
    # -- two decks: duplicates
    ("S9 S9", ["H9 D9"], {"decks": 2}, 60, ""),
    ("S9 S9", ["H9 D9"], {"decks": 2, "set_duplicates": False}, 20, "S9"),
    ("H9 D9", ["H9 D9"], {"decks": 2}, 60, ""),  # both copies onto the pair
    ("H9 D9", ["H9 D9"], {"decks": 2, "set_duplicates": False}, 10, ""),  # only a new pair
    ("H4 H4", [], {"decks": 2}, 0, "H4 H4"),  # a pair needs two suits
    ("H4 H4 D4", [], {"decks": 2}, 30, ""),  # a set may repeat a card
    ("H4 H4 D4", [], {"decks": 2, "set_duplicates": False}, 10, "H4"),
    ("S9 S9 H9 H9 D9 D9 C9 C9", [], {"decks": 2}, 330, ""),  # the 8-card set
    ("S9 S9 H9 H9 D9 D9 C9 C9", [], {"decks": 2, "set_duplicates": False}, 140, ""),  # two sets of four
    ("S5 S5 S6 S6 S7 S7", [], {"decks": 2}, 60, ""),  # two runs S5-7
    ("S5 S5 S6 S6 S7 S7", ["S8 S9 S10"], {"decks": 2}, 40 + 50 + 60 + 30, ""),
    ("S10", ["S7 S8 S9", "H10 D10 C10 H10 D10"], {"decks": 2}, 60, ""),  # 6th of the set beats 4th of the run
    ("S3 S5 S7 S9 SJ SK S3 S5 S7 S9 SJ SK", [], {"decks": 2}, 1400, ""),
    # -- equal totals: the turn that uses the most cards
    # S10 on the 8-card run is 90 alone; S10 then S9 below SJ-SQ-SK is 40 + 50 = 90
    ("S10 S9", ["S2 S3 S4 S5 S6 S7 S8 S9", "SJ SQ SK"], {"decks": 2}, 90, ""),
    # the special (20, six cards) against S3 as 3rd card on the pair (20, one card)
    ("S3 S5 S7 S9 SJ SK", ["H3 D3"], {"special_odds_suit": 20}, 20, ""),
]


@pytest.mark.parametrize("hand,melds,overrides,points,left", CASES)
def test_best_last_turn(hand, melds, overrides, points, left):
    turn = best(hand, melds, **overrides)
    assert turn.points == points
    assert unused(turn) == sorted_names(left)


@pytest.mark.parametrize(
    "hand,melds,overrides,plays",
    [
        # docs/rules/iceberg.md's chain: the explanation shows each card and what it is worth
        ("S10 SJ", ["S7 S8 S9"], {}, [(1, "S10 SJ", (40, 50))]),
        ("S6 S10", ["S7 S8 S9"], {}, [(1, "S6 S10", (40, 50))]),
        ("S10 SJ C10", ["S7 S8 S9", "H10 D10"], {}, [(1, "S10 SJ", (40, 50)), (2, "C10", (20,))]),
        ("S10", ["S3 S4 S5 S6 S7 S8 S9", "H10 D10"], {}, [(1, "S10", (80,))]),
        ("S10", ["S7 S8 S9", "H10 D10 C10 H10 D10"], {"decks": 2}, [(2, "S10", (60,))]),
        ("S10 S9", ["S2 S3 S4 S5 S6 S7 S8 S9", "SJ SQ SK"], {"decks": 2}, [(2, "S10 S9", (40, 50))]),
        ("H4 H5 H6 D9 C9", [], {}, [(None, "H4 H5 H6", ()), (None, "D9 C9", ())]),
        ("S3 C5 S7 C9 SJ CK", [], {}, [(None, "S3 C5 S7 C9 SJ CK", ())]),
    ],
)
def test_best_last_turn_plays(hand, melds, overrides, plays):
    turn = best(hand, melds, **overrides)
    got = sorted(
        ((p.meld_number, " ".join(str(c) for c in p.cards), p.card_points) for p in turn.plays),
        key=lambda p: (p[0] is None, p[0] or 0, p[1]),
    )
    assert got == sorted(plays, key=lambda p: (p[0] is None, p[0] or 0, p[1]))


def test_special_meld_from_hand_is_a_special_play():
    turn = best("S3 C5 S7 C9 SJ CK")
    (only,) = turn.plays
    assert only.after.kind == SPECIAL
    assert only.after.special.name == "special_odds_colour"
    assert only.points == 350
    # Its points are a house value: the line that charges them says so.
    assert [str(why) for _c, why, _p in only.card_lines()] == [
        "new odds in one colour (3-5-7-9-J-K, mixed suits) from hand — house value"]
    (suit,) = best("S3 S5 S7 S9 SJ SK").plays  # a source's value: said as it is
    assert [str(why) for _c, why, _p in suit.card_lines()] == ["new odds in one suit (3-5-7-9-J-K) from hand"]


def test_chain_explanation_names_each_card():
    (chain,) = best("S10 SJ", ["S7 S8 S9"]).plays
    assert chain.describe() == "on meld 1 (S7 S8 S9): S10 as 4th card 40, then SJ as 5th card 50"
    assert [(" ".join(map(str, c)), pts) for c, _why, pts in chain.card_lines()] == [("S10", 40), ("SJ", 50)]


def test_special_melds_on_the_table_take_nothing():
    table_rules = rules()
    table = make_table(["S3 S5 S7 S9 SJ SK"], table_rules)
    for hand in ("S2", "S4 S6", "H3 D3"):
        turn = best_last_turn(cards(hand), table, table_rules)
        assert all(p.meld_number is None for p in turn.plays)
    assert best_last_turn(cards("S2"), table, table_rules).points == 0
    assert single_card_turn(cards("S2 S4"), table, table_rules).points == 0


def test_long_hand_is_solved_exactly():
    # Every spade 2..K but the table's S7-S8-S9 lay off in one chain: 4th … 12th card.
    turn = best("S2 S3 S4 S5 S6 S10 SJ SQ SK", ["S7 S8 S9"])
    assert turn.points == sum(10 * n for n in range(4, 13))
    assert turn.unused == ()


# ---------------------------------------------------------------------------------------
# single_card: "each card alone, its best single lay-off onto the final table; no
# chains, no new melds".


@pytest.mark.parametrize(
    "hand,melds,overrides,points,left",
    [
        ("S10 SJ", ["S7 S8 S9"], {}, 40, "SJ"),  # docs/rules/iceberg.md's chain: 40, not 90
        ("S6 S10", ["S7 S8 S9"], {}, 80, ""),  # each alone is a 4th card
        ("C9 S9", ["H9 D9"], {}, 40, ""),  # each alone is a 3rd card
        ("H4 H5 H6", [], {}, 0, "H4 H5 H6"),  # no new melds
        ("H4 D4", [], {}, 0, "D4 H4"),
        ("S10", ["S3 S4 S5 S6 S7 S8 S9", "H10 D10"], {}, 80, ""),  # its best lay-off
        ("S10", ["H10 D10", "S3 S4 S5 S6 S7 S8 S9"], {}, 80, ""),
        ("SA S2", ["S3 S4 S5"], {}, 40, "SA"),
        ("S9", ["H9 D9"], {"decks": 2, "set_duplicates": False}, 20, ""),
        ("H9", ["H9 D9"], {"decks": 2, "set_duplicates": False}, 0, "H9"),
        ("H9", ["H9 D9"], {"decks": 2}, 20, ""),
    ],
)
def test_single_card_turn(hand, melds, overrides, points, left):
    turn = single(hand, melds, **overrides)
    assert turn.points == points
    assert unused(turn) == sorted_names(left)
    assert all(len(p.cards) == 1 and p.meld_number is not None for p in turn.plays)


# ---------------------------------------------------------------------------------------
# Against a slow, obviously right search: every legal play, one card or meld at a time.


def slow_best(hand, table, table_rules):
    """(points, cards used) of the best turn, by trying every sequence of legal plays."""
    from itertools import combinations

    from scorekeeper.games.errors import IllegalPlay

    @functools.cache
    def search(melds, held):
        found = (0, 0)
        for i, card in enumerate(held):
            rest = held[:i] + held[i + 1:]
            for j, meld in enumerate(melds):
                try:
                    grown = lay_off(meld, [card], table_rules)
                except IllegalPlay:
                    continue
                points, used = search(melds[:j] + (grown,) + melds[j + 1:], rest)
                found = max(found, (points + lay_off_points(meld, 1)[0], used + 1))
        for size in range(2, len(held) + 1):
            for chosen in combinations(range(len(held)), size):
                try:
                    made = make_meld([held[i] for i in chosen], table_rules)
                except IllegalPlay:
                    continue
                rest = tuple(c for i, c in enumerate(held) if i not in chosen)
                points, used = search(melds + (made,), rest)
                found = max(found, (points + made.value(table_rules), used + size))
        return found

    return search(tuple(table), tuple(sorted(hand)))


def random_deal(seed):
    """A small table of legal melds and a hand of up to six cards near them."""
    import random

    from scorekeeper.games.cards import Card, full_deck

    rng = random.Random(seed)
    decks = rng.choice([1, 2])
    table_rules = rules(decks=decks, set_duplicates=rng.random() < 0.6)
    pool = Counter(full_deck(decks))
    table = []
    for _ in range(rng.randint(0, 4)):
        size = rng.choice([2, 3, 3, 4])
        if rng.random() < 0.5:
            rank = rng.randint(2, 13)
            meld_cards = [Card(rank, s) for s in rng.sample("SHDC", 4)][:size]
        else:
            suit, low = rng.choice("SHDC"), rng.randint(2, 14 - max(size, 3))
            meld_cards = [Card(r, suit) for r in range(low, low + max(size, 3))]
        if any(pool[c] < 1 for c in meld_cards):
            continue
        table.append(make_meld(meld_cards, table_rules))
        pool.subtract(meld_cards)
    suits, low = rng.sample("SHDC", 2), rng.randint(2, 8)
    ranks = {m.cards[0].rank for m in table} | {m.cards[0].rank - 1 for m in table}
    near = [
        c
        for c in pool.elements()
        if c.rank == 1 or c.rank in ranks or (c.suit in suits and low <= c.rank <= low + 6)
    ]
    return rng.sample(near, rng.randint(1, 6)), table, table_rules


@pytest.mark.parametrize("seed", range(120))
def test_best_last_turn_matches_a_slow_search(seed):
    hand, table, table_rules = random_deal(seed)
    turn = best_last_turn(hand, table, table_rules)
    assert_legal(turn, hand, table, table_rules)
    assert (turn.points, len(turn.used)) == slow_best(hand, table, table_rules)


# ---------------------------------------------------------------------------------------
# Huge hands (issue 14, item 1): solved exactly, with a bounded search. No timings here:
# benchmarks/last_turn_worst.py measures the speed; these check the answers and the work.


NO_SPECIALS = {"special_odds_suit": 0, "special_evens_suit": 0,
               "special_odds_colour": 0, "special_evens_colour": 0}


def two_of_each(suits, ranks):
    """Both decks' copies of these cards: two_of_each("SH", "3 4") is S3 S3 S4 S4 H3 …"""
    return " ".join(f"{s}{r} {s}{r}" for s in suits for r in ranks.split())


def test_the_issues_64_card_hand_is_solved_exactly():
    # Ranks 3..10 of every suit twice beside A's SJ SQ SK. Every card fits a run and a set.
    # All in runs: one spade run 3..10 laid under SJ-SQ-SK (the 4th to the 11th card:
    # 630 − 30 = 600), the other seven 3..10 runs of 8 (330 each): 600 + 7 × 330 = 2910.
    # All in sets: eight sets of 8 (330 each) = 2640. Any mix breaks an 8-card run into
    # shorter ones (a run of 8 is worth more than two of 4 and a card to spare) for sets
    # that are then smaller than 8: so runs throughout, every card used.
    turn = best(two_of_each("SHDC", "3 4 5 6 7 8 9 10"), ["SJ SQ SK"], decks=2)
    assert turn.points == 600 + 7 * 330
    assert turn.unused == ()


@pytest.mark.parametrize("top, points", [
    (8, 6 * 330),  # ranks 3..8: six sets of 8 (1980) beat eight runs of 6 (1440)
    (9, 7 * 330),  # ranks 3..9: seven sets of 8 (2310) beat eight runs of 7 (2000)
])
def test_shorter_versions_of_the_issues_hand_go_to_sets(top, points):
    ranks = " ".join(["3", "4", "5", "6", "7", "8", "9"][: top - 2])
    turn = best(two_of_each("SHDC", ranks), ["SJ SQ SK"], decks=2)
    assert turn.points == points
    assert turn.unused == ()


def test_the_biggest_legal_hand_is_solved_exactly():
    # Every non-ace card of two decks but A's SJ SQ SK: 93 cards (special melds off: their
    # choices are not part of this search). Runs of 12 throughout: one spade run 2..10
    # under SJ-SQ-SK (the table run grows from 3 to 12 cards: 750 − 30), the other spades
    # 2..K (750), and two runs of 12 in each other suit (6 × 750).
    table_rules = rules(decks=2, **NO_SPECIALS)
    table = make_table(["SJ SQ SK"], table_rules)
    hand = cards(two_of_each("SHDC", "2 3 4 5 6 7 8 9 10 J Q K"))
    for card in cards("SJ SQ SK"):
        hand.remove(card)
    turn = best_last_turn(hand, table, table_rules)
    assert_legal(turn, hand, table, table_rules)
    assert turn.points == (750 - 30) + 750 + 6 * 750
    assert turn.unused == ()


def test_the_search_stays_small_on_huge_hands():
    # A deterministic measure of work instead of a timing: how many (position, choice)
    # pairs the pass over the ranks looks at (the old search combined every suit's run
    # plans: millions of combinations for the issue's hand).
    from scorekeeper.games.iceberg_last_turn import _best_plan

    table_rules = rules(decks=2)
    table = make_table(["SJ SQ SK"], table_rules)
    for ranks in ("3 4 5 6 7 8", "3 4 5 6 7 8 9", "3 4 5 6 7 8 9 10", "2 3 4 5 6 7 8 9 10 J Q K"):
        hand = Counter(cards(two_of_each("SHDC", ranks))) - Counter(cards("SJ SQ SK"))
        info = {}
        _best_plan(hand, table, table_rules, info)
        assert info["explored"] < 3_000, (ranks, info)


# ---------------------------------------------------------------------------------------
# Huge hands rich in special melds (issue 14, item 1): the specials are decided in the
# pass over the ranks by how many of each kind, so there is no combination of specials
# to try one after another. Each total below is reasoned from the cards alone; the work
# (position, choice) pairs looked at) is bounded too.

ODD_RANKS, EVEN_RANKS = "3 5 7 9 J K", "2 4 6 8 10 Q"


def special_rules(odds_suit, evens_suit, odds_colour, evens_colour, **more):
    return rules(decks=2, special_odds_suit=odds_suit, special_evens_suit=evens_suit,
                 special_odds_colour=odds_colour, special_evens_colour=evens_colour, **more)


def best_huge(hand_text, table_rules, melds=()):
    from scorekeeper.games.iceberg_last_turn import _best_plan

    table = make_table(melds, table_rules)
    hand = cards(hand_text)
    for meld in table:
        for card in meld.cards:
            hand.remove(card)
    turn = best_last_turn(hand, table, table_rules)
    assert_legal(turn, hand, table, table_rules)
    info = {}
    _best_plan(Counter(hand), table, table_rules, info)
    return turn, info["explored"]


@pytest.mark.parametrize("ranks", [ODD_RANKS, EVEN_RANKS])
@pytest.mark.parametrize("values, points, specials", [
    # 48 cards, both copies of six ranks of one parity in every suit: no two ranks are
    # adjacent, so no runs. A card is worth at most a sixth of a suit special (700 / 6)
    # in a special, at most 330 / 8 in a set: 8 suit specials (2 per suit) use every card,
    # 5600, the most 48 cards can score.
    ((700, 700, 350, 350), 8 * 700, 8),
    # suit specials not played: a card in a colour special is worth 350 / 6 ≈ 58 (> 330 /
    # 8), and each colour's 24 cards make 4 mixed colour specials (two of each suit per
    # rank): 8 × 350 = 2800
    ((0, 0, 350, 350), 8 * 350, 8),
    # specials worth 30: a card in one is worth 5, in a set of 8 over 41; any special
    # takes one card of each of its six ranks out of their sets of 8 (6 × 80 lost for
    # 30): six sets of 8, 1980
    ((30, 30, 30, 30), 6 * 330, 0),
])
def test_huge_hands_of_one_parity(ranks, values, points, specials):
    table_rules = special_rules(*values)
    turn, explored = best_huge(two_of_each("SHDC", ranks), table_rules)
    assert turn.points == points
    assert turn.unused == ()
    assert sum(1 for p in turn.plays if p.after.kind == SPECIAL) == specials
    assert explored < 2_000


@pytest.mark.parametrize("values, points, specials", [
    # all 96 non-ace cards: a card is worth at most 700 / 6 ≈ 117 in a suit special and
    # at most 750 / 12 = 62.5 in a run (sets: 330 / 8): 16 suit specials (2 per suit and
    # parity) use every card, 11200
    ((700, 700, 350, 350), 16 * 700, 16),
    # specials worth 30 each: runs of 12 (62.5 a card) beat any special or set; eight runs
    # of 12, 6000
    ((30, 30, 30, 30), 8 * 750, 0),
])
def test_the_whole_supply_with_specials(values, points, specials):
    table_rules = special_rules(*values)
    turn, explored = best_huge(two_of_each("SHDC", "2 3 4 5 6 7 8 9 10 J Q K"), table_rules)
    assert turn.points == points
    assert turn.unused == ()
    assert sum(1 for p in turn.plays if p.after.kind == SPECIAL) == specials
    assert explored < 2_000


def test_odd_specials_beside_runs():
    # Spades and hearts 2..K twice (48 cards), and the odd cards of diamonds and clubs
    # twice (24), odds in one suit worth 700, the other specials not played. Diamonds and
    # clubs: 4 suit specials (2800), nothing else uses them. Spades (and hearts alike):
    # (a) 2 odd specials (1400), the 12 even cards left have gaps between them, no runs;
    # (b) 2 runs of 12 (1500); (c) one run of 12 and one special (1450) leaving 6 even
    # cards. The even cards left go to sets with the other suit's: 4 a rank with (a) in
    # both suits (6 sets of 4: 420), 2 with (c) in both (6 pairs: 60), none otherwise
    # (one suit's two copies make no pair). Best: (a) in both, 2800 + 2800 + 420 = 6020
    # (both (b): 5800; (a) and (b): 5700; both (c): 5760).
    table_rules = special_rules(700, 0, 0, 0)
    hand = two_of_each("SH", "2 3 4 5 6 7 8 9 10 J Q K") + " " + two_of_each("DC", ODD_RANKS)
    turn, explored = best_huge(hand, table_rules)
    assert turn.points == 4 * 700 + 4 * 700 + 6 * 70
    assert turn.unused == ()
    assert explored < 2_000


# Two decks with a few cards missing in every suit: runs break at different ranks, so
# runs, sets and specials compete everywhere. The bound of each suit alone is 25–35 %
# above the best turn on this hand with these values; the joint bound of each colour
# keeps the work small. (Exactness: tests/test_last_turn_oracle.py.)
GAPPY_48 = ("S2 S2 S3 S3 S4 S5 S6 S6 S8 S8 SJ SQ SK H2 H4 H5 H6 H6 H7 H8 H9 H9 H10 H10 HQ HQ HK "
            "D3 D4 D4 D6 D7 D8 D9 D10 DJ DQ DK C3 C4 C5 C6 C6 C7 C9 C10 CJ CK")


@pytest.mark.parametrize("values", [(250, 250, 200, 200), (0, 0, 300, 300), (30, 30, 30, 30)])
def test_gappy_special_rich_hand_stays_small(values):
    _turn, explored = best_huge(GAPPY_48, special_rules(*values))
    assert explored < 5_000
