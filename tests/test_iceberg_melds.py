"""Iceberg melds and points (docs/rules/iceberg.md, "Melds" and "Points")."""
import pytest

from scorekeeper.games.cards import parse_cards
from scorekeeper.games.errors import IllegalPlay, ScorekeeperError
from scorekeeper.games.iceberg import resolve_rules
from scorekeeper.games.iceberg_melds import (
    PAIR,
    RUN,
    SET,
    SPECIAL,
    SPECIALS,
    find_special,
    fits,
    lay_off,
    lay_off_points,
    make_meld,
    meld_points,
    position_points,
)

ONE_DECK = resolve_rules({}, 3)
TWO_DECKS = resolve_rules({}, 4)
TWO_DECKS_NO_DUPLICATES = resolve_rules({"set_duplicates": False}, 4)


def cards(text):
    return parse_cards(text.split())


def meld(text, rules=ONE_DECK):
    return make_meld(cards(text), rules)


def rules(**overrides):
    return resolve_rules(overrides, 3)


def built_card_by_card(text, rules=ONE_DECK):
    """Points for laying these cards one play at a time: the first 2 (pair) or 3, then one by one."""
    laid = cards(text)
    start = 2 if len({c.rank for c in laid}) == 1 else 3
    table = make_meld(laid[:start], rules)
    points = table.value(rules)
    for card in laid[start:]:
        points += lay_off_points(table, 1)[0]
        table = lay_off(table, [card], rules)
    return points


# ---------------------------------------------------------------------------------------
# The point table.


@pytest.mark.parametrize(
    "size,points",
    [
        (2, 10),  # "a new pair 10"
        (3, 30),  # "the 3 cards of a new set or run 30"
        (4, 70),  # 30 + 40
        (5, 120),
        (6, 180),
        (7, 250),
        (8, 330),  # the 8th card of a two-deck set
        (9, 420),
        (10, 520),
        (11, 630),
        (12, 750),  # the longest run, 2…K
    ],
)
def test_meld_points(size, points):
    assert meld_points(size) == points


@pytest.mark.parametrize(
    "position,points",
    [
        (3, 20),  # "3rd card added to a pair 20"
        (4, 40),  # "the n-th card of a set or run, n = 4 … 12: 10 × n"; S6 as 4th = 40
        (5, 50),
        (6, 60),
        (7, 70),
        (8, 80),
        (9, 90),
        (10, 100),
        (11, 110),
        (12, 120),
    ],
)
def test_position_points(position, points):
    assert position_points(position) == points


@pytest.mark.parametrize("size", range(3, 13))
def test_new_meld_of_n_cards_is_30_plus_40_up_to_10n(size):
    # docs/rules/iceberg.md: A new meld of n ≥ 3 cards scores 30 + 40 + … + 10n
    assert meld_points(size) == 30 + sum(10 * n for n in range(4, size + 1))


@pytest.mark.parametrize(
    "size,added,points",
    [
        (2, 1, [20]),  # "(on a pair, position 3 is worth 20)"
        (2, 2, [20, 40]),
        (2, 6, [20, 40, 50, 60, 70, 80]),  # a pair to the 8-card two-deck set
        (3, 1, [40]),
        (3, 3, [40, 50, 60]),
        (4, 2, [50, 60]),
        (11, 1, [120]),
    ],
)
def test_lay_off_points_score_each_new_position_in_turn(size, added, points):
    laid = "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK".split()[:size] if size > 2 else ["H9", "D9"]
    assert lay_off_points(meld(" ".join(laid)), added) == points


# ---------------------------------------------------------------------------------------
# Legal melds.


@pytest.mark.parametrize(
    "text,kind,canonical,points,rules",
    [
        # "Pair: 2 cards of one rank, different suits."
        ("H9 D9", PAIR, "H9 D9", 10, ONE_DECK),
        ("9c 9s", PAIR, "S9 C9", 10, ONE_DECK),
        ("HK SK", PAIR, "SK HK", 10, ONE_DECK),
        # "Set: 3 or more cards of one rank."
        ("S9 H9 D9", SET, "S9 H9 D9", 30, ONE_DECK),
        ("C2 D2 H2 S2", SET, "S2 H2 D2 C2", 70, ONE_DECK),
        # two decks: a set may hold both copies of a card (set_duplicates true)
        ("S9 S9 H9", SET, "S9 S9 H9", 30, TWO_DECKS),
        ("S9 S9 H9 H9 D9 D9 C9 C9", SET, "S9 S9 H9 H9 D9 D9 C9 C9", 330, TWO_DECKS),
        # "Run: 3 or more cards of one suit in sequence"; listed in any order
        ("S7 S8 S9", RUN, "S7 S8 S9", 30, ONE_DECK),
        ("S9 S7 S8", RUN, "S7 S8 S9", 30, ONE_DECK),
        ("H2 H3 H4 H5", RUN, "H2 H3 H4 H5", 70, ONE_DECK),
        ("DJ DQ DK", RUN, "DJ DQ DK", 30, ONE_DECK),
        ("C8 C9 C10 CJ CQ CK", RUN, "C8 C9 C10 CJ CQ CK", 180, ONE_DECK),
        # "a run lies within 2…K and has at most 12 cards"
        ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", RUN, "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", 750, ONE_DECK),
    ],
)
def test_legal_melds(text, kind, canonical, points, rules):
    made = make_meld(cards(text), rules)
    assert made.kind == kind
    assert str(made) == canonical
    assert made.value(rules) == points


@pytest.mark.parametrize(
    "text",
    [
        "S7 S8 S9",
        "S5 S6 S7 S8 S9",
        "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK",
        "H9 D9 S9",
        "H9 D9 S9 C9",
    ],
)
def test_laying_a_meld_at_once_scores_the_same_as_building_it(text):
    # docs/rules/iceberg.md: A new meld of n ≥ 3 cards scores ... the same as building it card by card
    assert meld(text).value(ONE_DECK) == built_card_by_card(text)


def test_eight_card_set_at_once_scores_the_same_as_building_it():
    text = "H9 D9 S9 C9 H9 D9 S9 C9"
    assert meld(text, TWO_DECKS).value(TWO_DECKS) == built_card_by_card(text, TWO_DECKS) == 330


@pytest.mark.parametrize(
    "text,rules,message",
    [
        ("S9", ONE_DECK, "a meld needs at least two cards"),
        ("S9 H8", ONE_DECK, "two cards make a pair only if they are one rank"),
        ("S7 S8", ONE_DECK, "two cards make a pair only if they are one rank"),  # no 2-card runs
        # "Pair: 2 cards of one rank, different suits."
        ("S9 S9", TWO_DECKS, "a pair's two cards must be different suits"),
        ("S7 S8 H9", ONE_DECK, "is not a meld"),  # a run is one suit
        ("S7 S8 S10", ONE_DECK, "is not a meld"),  # in sequence
        ("S7 S9 SJ", ONE_DECK, "is not a meld"),
        ("S7 S8 S8 S9", TWO_DECKS, "is not a meld"),  # a run holds each rank once
        ("S9 H9 D8", ONE_DECK, "is not a meld"),
        ("S9 H9 D9 H8", ONE_DECK, "is not a meld"),
        ("S3 S5 S7 S9 SJ SQ", ONE_DECK, "the special melds are six cards"),
        ("S3 S5 S7 S9 SJ", ONE_DECK, "is not a meld"),  # a special is six cards
        ("S3 H5 S7 C9 SJ CK", ONE_DECK, "is not a meld"),  # not one colour
        # "Aces never take part in melds"
        ("SA HA", ONE_DECK, "aces never take part in melds"),
        ("SA HA DA", ONE_DECK, "aces never take part in melds"),
        ("SA S2 S3", ONE_DECK, "aces never take part in melds"),
        ("SQ SK SA", ONE_DECK, "aces never take part in melds"),
        ("SK SA S2", ONE_DECK, "aces never take part in melds"),
        # "set_duplicates false = suits in a set must differ"
        ("S9 S9 H9", TWO_DECKS_NO_DUPLICATES, "this game plays without duplicates in sets"),
        ("S9 H9 D9 C9 C9", TWO_DECKS_NO_DUPLICATES, "this game plays without duplicates in sets"),
    ],
)
def test_illegal_melds_are_refused(text, rules, message):
    with pytest.raises(IllegalPlay) as excinfo:
        make_meld(cards(text), rules)
    assert message in str(excinfo.value)


def test_illegal_play_is_a_scorekeeper_error():
    assert issubclass(IllegalPlay, ScorekeeperError)


def test_set_duplicates_false_still_allows_a_set_of_four_suits_in_two_decks():
    assert meld("S9 H9 D9 C9", TWO_DECKS_NO_DUPLICATES).kind == SET


# ---------------------------------------------------------------------------------------
# Lay-offs.


@pytest.mark.parametrize(
    "table,added,kind,after,rules",
    [
        # "a pair grows into a set only"
        ("H9 D9", "S9", SET, "S9 H9 D9", ONE_DECK),
        ("H9 D9", "S9 C9", SET, "S9 H9 D9 C9", ONE_DECK),
        ("H9 D9", "H9", SET, "H9 H9 D9", TWO_DECKS),
        # "a set by more of its rank"
        ("S9 H9 D9", "C9", SET, "S9 H9 D9 C9", ONE_DECK),
        ("S9 H9 D9 C9", "S9 H9 D9 C9", SET, "S9 S9 H9 H9 D9 D9 C9 C9", TWO_DECKS),
        # "a run at either end"
        ("S7 S8 S9", "S6", RUN, "S6 S7 S8 S9", ONE_DECK),
        ("S7 S8 S9", "S10", RUN, "S7 S8 S9 S10", ONE_DECK),
        ("S7 S8 S9", "S6 S10", RUN, "S6 S7 S8 S9 S10", ONE_DECK),  # both ends in one play
        ("S7 S8 S9", "SJ S10", RUN, "S7 S8 S9 S10 SJ", ONE_DECK),  # several cards, any order
        ("S7 S8 S9", "S4 S5 S6 S10 SJ", RUN, "S4 S5 S6 S7 S8 S9 S10 SJ", ONE_DECK),
        ("S3 S4 S5", "S2", RUN, "S2 S3 S4 S5", ONE_DECK),
        ("SJ SQ SK", "S10", RUN, "S10 SJ SQ SK", ONE_DECK),
        (
            "S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK",
            "S2",
            RUN,
            "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK",
            ONE_DECK,
        ),
    ],
)
def test_legal_lay_offs(table, added, kind, after, rules):
    grown = lay_off(meld(table, rules), cards(added), rules)
    assert grown.kind == kind
    assert str(grown) == after


@pytest.mark.parametrize(
    "table,added,rules,message",
    [
        # "a pair grows into a set only": never into a run
        ("S9 H9", "S10", ONE_DECK, "a pair of nines takes only nines"),
        ("S9 H9", "S8 S10", ONE_DECK, "a pair of nines takes only nines"),
        ("S9 H9 D9", "S10", ONE_DECK, "a set of nines takes only nines"),
        ("S9 H9 D9", "C9 C10", ONE_DECK, "a set of nines takes only nines"),
        # runs: one suit, at the ends, in sequence
        ("S7 S8 S9", "H10", ONE_DECK, "a run of spades takes only spades"),
        ("S7 S8 S9", "SJ", ONE_DECK, "grows only at its ends"),
        ("S7 S8 S9", "S5", ONE_DECK, "grows only at its ends"),
        ("S7 S8 S9", "S10 SQ", ONE_DECK, "grows only at its ends"),
        ("S7 S8 S9", "S8", TWO_DECKS, "grows only at its ends"),
        ("S7 S8 S9", "S10 S10", TWO_DECKS, "grows only at its ends"),
        # aces never meld: a run stops at 2 and at K
        ("S2 S3 S4", "SA", ONE_DECK, "aces never take part in melds"),
        ("SJ SQ SK", "SA", ONE_DECK, "aces never take part in melds"),
        ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", "SA", ONE_DECK, "aces never take part in melds"),
        ("H9 D9", "SA", ONE_DECK, "aces never take part in melds"),
        # set_duplicates false
        ("S9 H9", "S9", TWO_DECKS_NO_DUPLICATES, "this game plays without duplicates in sets"),
        ("S9 H9 D9", "C9 C9", TWO_DECKS_NO_DUPLICATES, "this game plays without duplicates in sets"),
    ],
)
def test_illegal_lay_offs_are_refused(table, added, rules, message):
    with pytest.raises(IllegalPlay) as excinfo:
        lay_off(meld(table, rules), cards(added), rules)
    assert message in str(excinfo.value)


@pytest.mark.parametrize(
    "table,card,fit",
    [
        ("S7 S8 S9", "S10", True),
        ("S7 S8 S9", "S6", True),
        ("S7 S8 S9", "S5", False),
        ("S7 S8 S9", "H10", False),
        ("H9 D9", "S9", True),
        ("H9 D9", "S8", False),
        ("H9 D9", "SA", False),
    ],
)
def test_fits(table, card, fit):
    assert fits(meld(table), parse_cards([card])[0], ONE_DECK) is fit


# ---------------------------------------------------------------------------------------
# Special melds: laid down whole, never extended.

SPECIAL_CASES = [
    # docs/rules/iceberg.md's table of special melds, at the default points
    ("S3 S5 S7 S9 SJ SK", "special_odds_suit", 700),  # bestfreenewgames
    ("DK DJ D9 D7 D5 D3", "special_odds_suit", 700),  # any order, any one suit
    ("H2 H4 H6 H8 H10 HQ", "special_evens_suit", 700),  # house value, by symmetry
    ("C2 C4 C6 C8 C10 CQ", "special_evens_suit", 700),
    ("S3 C5 S7 C9 SJ CK", "special_odds_colour", 350),  # house value
    ("H3 H5 H7 H9 HJ DK", "special_odds_colour", 350),
    ("H2 D4 H6 D8 D10 HQ", "special_evens_colour", 350),  # house value
    ("S2 S4 S6 S8 S10 CQ", "special_evens_colour", 350),
]


@pytest.mark.parametrize("text,name,points", SPECIAL_CASES)
def test_special_melds(text, name, points):
    made = meld(text)
    assert made.kind == SPECIAL
    assert made.special.name == name
    assert made.value(ONE_DECK) == points
    assert find_special(cards(text), ONE_DECK).name == name


@pytest.mark.parametrize("text,name,_points", SPECIAL_CASES)
def test_special_meld_scores_its_option_value(text, name, _points):
    table_rules = rules(**{name: 555})
    assert meld(text, table_rules).value(table_rules) == 555


@pytest.mark.parametrize("text,name,_points", SPECIAL_CASES)
def test_special_meld_worth_0_is_not_played(text, name, _points):
    # docs/rules/iceberg.md: 0 disables it -- the six cards are then no meld at all
    off = rules(**{name: 0})
    assert find_special(cards(text), off) is None
    with pytest.raises(IllegalPlay, match="is not a meld"):
        make_meld(cards(text), off)


@pytest.mark.parametrize(
    "text,off,name",
    [
        # one suit gives the suit special; turning it off never makes it a colour special
        ("S3 S5 S7 S9 SJ SK", "special_odds_suit", None),
        ("H2 H4 H6 H8 H10 HQ", "special_evens_suit", None),
        # a mixed-suit meld is only ever the colour special
        ("S3 C5 S7 C9 SJ CK", "special_odds_suit", "special_odds_colour"),
        ("S3 C5 S7 C9 SJ CK", "special_evens_colour", "special_odds_colour"),
        ("S3 S5 S7 S9 SJ SK", "special_odds_colour", "special_odds_suit"),
    ],
)
def test_one_suit_gives_the_suit_special_and_mixed_suits_the_colour_special(text, off, name):
    found = find_special(cards(text), rules(**{off: 0}))
    assert (found.name if found else None) == name


@pytest.mark.parametrize(
    "text",
    [
        "S3 H5 S7 C9 SJ CK",  # mixed colours
        "H2 S4 H6 D8 D10 HQ",
        "S3 S5 S7 S9 SJ SQ",  # not the odds
        "S2 S4 S6 S8 S10 SK",  # not the evens
        "S3 S5 S7 S9 SJ",  # five cards
    ],
)
def test_not_a_special_meld(text):
    assert find_special(cards(text), ONE_DECK) is None


@pytest.mark.parametrize("text,_name,_points", SPECIAL_CASES)
@pytest.mark.parametrize("added", ["S2", "H4", "C3", "SQ", "DK", "S10"])
def test_special_meld_is_never_extended(text, _name, _points, added):
    special = meld(text)
    with pytest.raises(IllegalPlay, match="never extended"):
        lay_off(special, cards(added), TWO_DECKS)


def test_specials_are_the_four_rule_options():
    assert [s.name for s in SPECIALS] == [
        "special_odds_suit",
        "special_evens_suit",
        "special_odds_colour",
        "special_evens_colour",
    ]
    assert all(s.name in ONE_DECK for s in SPECIALS)


@pytest.mark.parametrize(
    "text,description",
    [
        ("S7 S8 S9", "run of spades"),
        ("H9 D9", "pair of nines"),
        ("H9 D9 C9", "set of nines"),
        ("S3 S5 S7 S9 SJ SK", "special meld: odds in one suit (3-5-7-9-J-K)"),
        ("H2 D4 H6 D8 H10 DQ", "special meld: evens in one colour (2-4-6-8-10-Q, mixed suits) — house value"),
    ],
)
def test_meld_describes_itself_in_table_words(text, description):
    assert meld(text).describe() == description
