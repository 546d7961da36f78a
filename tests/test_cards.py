"""Cards: forgiving input, canonical output, colours and the supply check (docs/game-file.md, "Cards")."""
import pytest

from scorekeeper.games.cards import (
    JOKER,
    Card,
    CardError,
    Supply,
    card_names,
    full_deck,
    parse_card,
    parse_cards,
)
from scorekeeper.games.errors import ScorekeeperError


def names(texts):
    return [str(c) for c in parse_cards(texts.split())]


@pytest.mark.parametrize(
    "text,canonical",
    [
        # docs/game-file.md: canonical form is suit letter then rank
        ("S9", "S9"),
        ("HQ", "HQ"),
        ("D10", "D10"),
        ("CA", "CA"),
        ("SK", "SK"),
        ("HJ", "HJ"),
        ("C2", "C2"),
        # "lower case (s9)"
        ("s9", "S9"),
        ("hq", "HQ"),
        ("d10", "D10"),
        ("ca", "CA"),
        ("sJ", "SJ"),
        # "rank first (9S, 10d)"
        ("9S", "S9"),
        ("10d", "D10"),
        ("QH", "HQ"),
        ("AC", "CA"),
        ("jd", "DJ"),
        ("KS", "SK"),
        ("2c", "C2"),
        # "T for ten (ST, TS)"
        ("ST", "S10"),
        ("TS", "S10"),
        ("td", "D10"),
        ("hT", "H10"),
        # "the suit symbols ♠ ♥ ♦ ♣ on either side (9♠, ♥Q)"
        ("9♠", "S9"),
        ("♠9", "S9"),
        ("♥Q", "HQ"),
        ("Q♥", "HQ"),
        ("♦10", "D10"),
        ("10♦", "D10"),
        ("A♣", "CA"),
        ("♣a", "CA"),
        ("T♠", "S10"),
        ("♥t", "H10"),
        ("j♦", "DJ"),
        # "a joker is JK"
        ("JK", "JK"),
        ("jk", "JK"),
    ],
)
def test_parse_card_accepts_every_contract_spelling(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text,rank,suit",
    [
        ("S9", 9, "S"),
        ("10d", 10, "D"),
        ("TS", 10, "S"),
        ("♥Q", 12, "H"),
        ("CA", 1, "C"),
        ("jh", 11, "H"),
        ("K♣", 13, "C"),
        ("JK", 0, ""),
    ],
)
def test_parse_card_reads_rank_and_suit(text, rank, suit):
    assert parse_card(text) == Card(rank, suit)


def test_joker_is_its_own_card():
    card = parse_card("JK")
    assert card == JOKER
    assert card.is_joker
    assert not card.is_ace
    assert card.rank_label == "JK"
    assert card.colour == ""


@pytest.mark.parametrize(
    "card,text",
    [
        (Card(9, "S"), "S9"),
        (Card(10, "D"), "D10"),
        (Card(1, "C"), "CA"),
        (Card(11, "H"), "HJ"),
        (Card(12, "S"), "SQ"),
        (Card(13, "D"), "DK"),
        (Card(2, "H"), "H2"),
        (JOKER, "JK"),
    ],
)
def test_canonical_output_is_suit_then_rank(card, text):
    assert str(card) == text


def test_card_names_joins_canonical_names():
    assert card_names(parse_cards(["9s", "TH", "♦q"])) == "S9 H10 DQ"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "S",
        "9",
        "10",
        "S1",  # ace is A, not 1
        "1S",
        "S0",
        "S11",
        "S01",
        "X9",
        "9X",
        "SS9",
        "S9S",
        "S9H",
        "S 9",
        "♠S9",
        "S♠",
        "♠♥",
        "1♠",
        "KJ",  # two ranks
        "J",
        "joker",
        "SQQ",
        "s10d",
        "ace of spades",
        "S-9",
    ],
)
def test_parse_card_rejects_anything_else_naming_the_text(text):
    with pytest.raises(CardError) as excinfo:
        parse_card(text)
    assert f"'{text}'" in str(excinfo.value)


@pytest.mark.parametrize("value", [9, None, ["S9"], 9.0])
def test_parse_card_rejects_non_text_naming_the_value(value):
    with pytest.raises(CardError) as excinfo:
        parse_card(value)
    assert repr(value) in str(excinfo.value)


def test_card_error_is_a_scorekeeper_error():
    assert issubclass(CardError, ScorekeeperError)


def test_parse_cards_reads_a_list_in_any_spelling():
    assert names("s9 10d TS ♥Q A♣ JK") == ["S9", "D10", "S10", "HQ", "CA", "JK"]


def test_parse_cards_names_the_bad_card_in_a_list():
    with pytest.raises(CardError, match="'Z9' is not a card"):
        parse_cards(["S9", "Z9", "HQ"])


@pytest.mark.parametrize("value", [[], "S9", None, {"S9": 1}, ("S9",)])
def test_parse_cards_needs_a_non_empty_list(value):
    with pytest.raises(CardError, match="^hand must be a non-empty list of cards$"):
        parse_cards(value, what="hand")


@pytest.mark.parametrize(
    "text,colour",
    [
        ("S9", "black"),
        ("C9", "black"),
        ("H9", "red"),
        ("D9", "red"),
        ("9♠", "black"),
        ("9♣", "black"),
        ("9♥", "red"),
        ("9♦", "red"),
    ],
)
def test_colours(text, colour):
    assert parse_card(text).colour == colour


@pytest.mark.parametrize("text,is_ace", [("SA", True), ("a♥", True), ("S2", False), ("SK", False)])
def test_is_ace(text, is_ace):
    assert parse_card(text).is_ace is is_ace


# ---------------------------------------------------------------------------------------
# The supply: no card more times than the decks hold (docs/game-file.md, "Cards").


@pytest.mark.parametrize("decks,size", [(1, 52), (2, 104)])
def test_full_deck_sizes(decks, size):
    deck = full_deck(decks)
    assert sum(deck.values()) == size
    assert deck[Card(9, "S")] == decks
    assert deck[JOKER] == 0


def test_full_deck_with_jokers():
    assert full_deck(2, jokers=4)[JOKER] == 4


@pytest.mark.parametrize("decks", [1, 2])
def test_supply_accepts_every_copy_the_decks_hold(decks):
    supply = Supply(decks)
    for _ in range(decks):
        supply.take(parse_cards(["S9"]))
    assert supply.remaining(Card(9, "S")) == 0


@pytest.mark.parametrize(
    "decks,message",
    [
        # docs/game-file.md: a second S9 in a one-deck game is an error
        (1, "S9 appears 2 times in this round, but one deck holds only one"),
        # ... and a third in a two-deck game
        (2, "S9 appears 3 times in this round, but 2 decks hold only 2"),
    ],
)
def test_supply_refuses_one_copy_too_many(decks, message):
    supply = Supply(decks)
    for _ in range(decks):
        supply.take([Card(9, "S")])
    with pytest.raises(CardError) as excinfo:
        supply.take([Card(9, "S")])
    assert str(excinfo.value) == message


@pytest.mark.parametrize("decks", [1, 2])
def test_supply_refuses_too_many_copies_in_one_take(decks):
    with pytest.raises(CardError, match="S9 appears"):
        Supply(decks).take([Card(9, "S")] * (decks + 1))


def test_supply_counts_cards_one_by_one():
    supply = Supply(1)
    supply.take(parse_cards(["S9", "H9", "SA"]))
    assert supply.remaining(Card(9, "S")) == 0
    assert supply.remaining(Card(9, "H")) == 0
    assert supply.remaining(Card(9, "D")) == 1
    with pytest.raises(CardError, match="^SA appears 2 times"):
        supply.take(parse_cards(["AS"]))


def test_refused_take_records_nothing():
    supply = Supply(1)
    supply.take([Card(9, "S")])
    with pytest.raises(CardError):
        supply.take(parse_cards(["H2", "S9"]))
    assert supply.remaining(Card(2, "H")) == 1
    supply.take(parse_cards(["H2"]))  # still there to take
    assert supply.remaining(Card(2, "H")) == 0


def test_supply_refuses_a_joker_in_a_game_without_jokers():
    with pytest.raises(CardError) as excinfo:
        Supply(1).take([JOKER])
    assert str(excinfo.value) == "JK: this game is played without jokers"


def test_supply_with_jokers_counts_them():
    supply = Supply(2, jokers=4)
    supply.take([JOKER] * 4)
    with pytest.raises(CardError, match="JK appears 5 times"):
        supply.take([JOKER])


@pytest.mark.parametrize("given, shown", [
    ("X" * 5000, "'XXXXXXXXXXXXXXXXXXXXXXX…' is not a card"),
    ([[[["S9"]]]] * 300, "[[[['S9']]], [[['S9']]]… is not a card"),
])
def test_a_long_or_nested_non_card_is_quoted_cut_short(given, shown):
    with pytest.raises(CardError) as refused:
        parse_card(given)
    assert str(refused.value).startswith(shown) and len(str(refused.value)) < 100


def test_a_table_whose_rounds_are_hands_says_hand():
    """Robber Rummy calls its rounds hands (its Round's supply is told so)."""
    from scorekeeper.games import robber

    supply = robber.Round(["Ann", "Bob"], {}).supply
    supply.take([Card(9, "S")] * 2)
    with pytest.raises(CardError) as refused:
        supply.take([Card(9, "S")])
    assert str(refused.value) == "S9 appears 3 times in this hand, but 2 decks hold only 2"
