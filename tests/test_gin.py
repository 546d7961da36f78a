"""Gin Rummy (docs/rules/gin.md): least deadwood, knocks, lay-offs, undercuts,
gin, presets, the game's bonuses; and a brute-force oracle for the least deadwood."""
import functools
import json
import random

import pytest

from scorekeeper import gamefile
from scorekeeper.games import gin
from scorekeeper.games.cards import Card, parse_cards
from scorekeeper.games.errors import GameFileError, IllegalPlay
from scorekeeper.games.handcount import HandRound
from tests.conftest import EXAMPLES

# Hands used again and again. Deadwood after the best melds is in the comment.
KNOCK_1 = "S2 S3 S4 H7 H8 H9 DK CK SK DA"  # S2-S4, H7-H9, three kings; DA = 1
KNOCK_7 = "S2 S3 S4 H7 H8 H9 DK CK SK D7"  # D7 = 7
KNOCK_10 = "S2 S3 S4 H7 H8 H9 DK CK SK D10"  # D10 = 10: the most the default limit allows
KNOCK_11 = "S2 S3 S4 S5 H7 H8 H9 H10 DA D10"  # DA D10 = 11
GIN_KINGS = "S2 S3 S4 H7 H8 H9 DK CK SK HK"  # gin: no deadwood
EXAMPLE_DEFENDER = "C5 C6 C7 HJ DJ CJ S5 H10 D2 D3"  # examples/gin-knock.json: S5, H10 lay off; 5 left
GIN_HAND = "S2 S3 S4 H5 H6 H7 D2 D3 D4 D5"
JUNK_98 = "S10 H10 DJ CJ SQ HQ DK CK D9 C9"  # no meld at all: 8 × 10 + 9 + 9


def cards(text):
    return tuple(parse_cards(text.split())) if text else ()


def names(cs):
    return [str(c) for c in cs]


def rules(**overrides):
    return gin.resolve_rules(overrides, 2)


def knock(knocker_hand, defender_hand, **overrides):
    return gin.score_hand("A", "B", cards(knocker_hand), cards(defender_hand), rules(**overrides))


def game(*rounds, rules=None, players=("A", "B")):
    return {
        "format": "scorekeeper/1",
        "variant": "gin",
        "rules": rules or {},
        "players": list(players),
        "teams": None,
        "rounds": list(rounds),
    }


def knocks(knocker, knocker_hand, defender_hand):
    defender = "B" if knocker == "A" else "A"
    return {"knocker": knocker, "hands": {knocker: knocker_hand.split(), defender: defender_hand.split()}}


STALEMATE = {"stalemate": True}
A_GINS_118 = knocks("A", GIN_HAND, JUNK_98)  # 98 + gin bonus 20
A_KNOCKS_4 = knocks("A", KNOCK_1, EXAMPLE_DEFENDER)
B_KNOCKS_4 = knocks("B", KNOCK_1, EXAMPLE_DEFENDER)


def score(*rounds, **fields):
    return gamefile.score_document(game(*rounds, **fields))


# ---------------------------------------------------------------------------------------
# Deadwood: "ace 1, pips face value, J Q K 10"; ace low only.


@pytest.mark.parametrize(
    "card,value", [("SA", 1), ("S2", 2), ("S9", 9), ("S10", 10), ("SJ", 10), ("SQ", 10), ("SK", 10)]
)
def test_deadwood_values(card, value):
    assert gin.deadwood_value(cards(card)[0]) == value


@pytest.mark.parametrize(
    "hand,deadwood",
    [
        (KNOCK_1, 1),
        (KNOCK_11, 11),
        (GIN_KINGS, 0),
        (JUNK_98, 98),
        (EXAMPLE_DEFENDER, 20),  # before lay-offs: S5 H10 D2 D3
        ("SA S2 S3 H4 H5 H6 D7 D8 D9 C2", 2),  # A-2-3 is a run
        ("SQ SK SA H4 H5 H6 D7 D8 D9 C2", 23),  # "ace low only": Q-K-A is no run
        ("SK SA S2 H4 H5 H6 D7 D8 D9 C2", 15),  # nor K-A-2: SK SA S2 C2 left
        ("S7 H7 D7 C7 S8 S9 H2 H3 H4 DA", 1),  # the 4th seven goes on the spade run S7-S9
        ("S5 S6 S7 S8 S9 H7 D7 H2 H3 H4", 14),  # S7 cannot be in the run and the set: H7 D7 left
    ],
)
def test_least_deadwood_examples(hand, deadwood):
    assert gin.least_deadwood(cards(hand)) == deadwood


def test_queen_king_ace_is_not_a_meld():
    hand = cards("SQ SK SA")
    assert gin.possible_melds(hand) == []


# ---------------------------------------------------------------------------------------
# One hand: knock, undercut, gin, lay-offs. Rows: knocker's hand, defender's hand, rule
# overrides, (winner, points, gin?, undercut?, knocker's deadwood, defender's deadwood left).

HANDS = [
    # The public example: S5 and H10 go on A's runs; "the knocker ... scores the difference": 5 − 1
    ("example-knock", KNOCK_1, EXAMPLE_DEFENDER, {}, ("A", 4, False, False, 1, 5)),
    ("knock-no-lay-offs", KNOCK_1, "C5 C6 C7 HJ DJ CJ SQ D10 D2 D3", {}, ("A", 24, False, False, 1, 25)),
    ("knock-lay-off-on-a-set", KNOCK_1, "C5 C6 C7 HJ DJ CJ HK D2 D4 D6", {}, ("A", 11, False, False, 1, 12)),
    ("knock-at-the-limit", KNOCK_10, "C5 C6 C7 HJ DJ CJ SQ HQ D2 D3", {}, ("A", 15, False, False, 10, 25)),
    # Undercut: "the opponent scores the difference between the two hands and a bonus of ten"
    ("undercut-lower", KNOCK_10, "C5 C6 C7 HJ DJ CJ D2 D3 CA HA", {}, ("B", 13, False, True, 10, 7)),
    ("undercut-equal", KNOCK_7, "C5 C6 C7 HJ DJ CJ D2 D3 CA HA", {}, ("B", 10, False, True, 7, 7)),
    ("undercut-by-lay-offs", KNOCK_1, "C5 C6 C7 HJ DJ CJ S5 S6 H10 HK", {}, ("B", 11, False, True, 1, 0)),
    ("undercut-modern", KNOCK_10, "C5 C6 C7 HJ DJ CJ D2 D3 CA HA", {"preset": "modern"}, ("B", 28, False, True, 10, 7)),
    ("undercut-bonus-option", KNOCK_7, "C5 C6 C7 HJ DJ CJ D2 D3 CA HA", {"undercut_bonus": 5},
     ("B", 5, False, True, 7, 7)),
    # Gin: "deadwood of defender + gin_bonus"; "may not play any deadwood cards on your melds"
    ("gin-no-lay-offs", GIN_KINGS, EXAMPLE_DEFENDER, {}, ("A", 40, True, False, 0, 20)),
    ("gin-never-undercut", GIN_KINGS, "C5 C6 C7 HJ DJ CJ D2 D3 D4 D5", {}, ("A", 20, True, False, 0, 0)),
    ("gin-modern", GIN_KINGS, EXAMPLE_DEFENDER, {"preset": "modern"}, ("A", 45, True, False, 0, 20)),
    ("gin-bonus-option", GIN_KINGS, EXAMPLE_DEFENDER, {"gin_bonus": 0}, ("A", 20, True, False, 0, 20)),
    ("gin-big", GIN_HAND, JUNK_98, {}, ("A", 118, True, False, 0, 98)),
    # A chain: H8 fits both A's eights and A's heart run; on the run it lets H9 follow.
    ("chain-up-a-run", "H5 H6 H7 S8 D8 C8 S2 S3 S4 DA", "H8 H9 CK DK SK C2 C3 C4 D5 D6", {},
     ("A", 10, False, False, 1, 11)),
    ("chain-down-a-run", "H5 H6 H7 S8 D8 C8 S2 S3 S4 DA", "H4 H3 CK DK SK C9 C10 CJ D5 D6", {},
     ("A", 10, False, False, 1, 11)),
    # SA below and S5 S6 above A's spades, H6 below and H10 HJ above A's hearts, HK on the kings
    ("chain-both-ends", KNOCK_1, "SA S5 S6 H6 H10 HJ CQ HK CA D2", {}, ("A", 12, False, False, 1, 13)),
    # The defender's own melds come first where that leaves less: S5 on A's run would
    # strand H5 D5; the set of fives takes all three.
    ("defender-set-beats-a-lay-off", KNOCK_1, "S5 H5 D5 C8 C9 C10 HJ DJ CJ D2", {}, ("A", 1, False, False, 1, 2)),
]


@pytest.mark.parametrize("knocker,defender,overrides,expected", [h[1:] for h in HANDS], ids=[h[0] for h in HANDS])
def test_hand_scores(knocker, defender, overrides, expected):
    result = knock(knocker, defender, **overrides)
    assert (result.winner, result.points, result.gin, result.undercut,
            result.knock.points, result.defence.points) == expected


@pytest.mark.parametrize("knocker,defender,overrides,expected", [h[1:] for h in HANDS], ids=[h[0] for h in HANDS])
def test_hand_scores_through_the_game_file(knocker, defender, overrides, expected):
    winner, points = expected[:2]
    rnd = score(knocks("A", knocker, defender), rules=overrides)["rounds"][0]
    assert rnd["scores"] == {"A": 0, "B": 0} | {winner: points}
    assert rnd["detail"]["A"]["deadwood_points"] == expected[4]
    assert rnd["detail"]["B"]["deadwood_points"] == expected[5]


def test_example_lay_offs_in_the_detail():
    detail = score(A_KNOCKS_4)["rounds"][0]["detail"]
    assert detail["A"]["role"] == "knocker"
    assert detail["A"]["deadwood"] == ["DA"]
    assert detail["B"]["layoffs"] == [
        {"card": "S5", "onto": ["S2", "S3", "S4"]},
        {"card": "H10", "onto": ["H7", "H8", "H9"]},
    ]
    assert detail["B"]["deadwood"] == ["D2", "D3"]
    assert "knock: 5 − 1 = 4 to A" in detail["A"]["story"]


def test_chain_goes_on_the_run_not_the_set():
    result = knock("H5 H6 H7 S8 D8 C8 S2 S3 S4 DA", "H8 H9 CK DK SK C2 C3 C4 D5 D6")
    onto = {str(card): names(result.knock.melds[i]) for card, i in result.defence.layoffs}
    assert onto == {"H8": ["H5", "H6", "H7"], "H9": ["H5", "H6", "H7"]}


def test_gin_allows_the_defender_no_lay_offs():
    result = knock(GIN_KINGS, EXAMPLE_DEFENDER)
    assert result.defence.layoffs == ()
    assert names(result.defence.deadwood) == ["S5", "H10", "D2", "D3"]


def test_knocker_never_lays_off():
    # docs/rules/gin.md: the knocker never lays off. B melds D2 D3 D4; A's DA would fit it.
    result = knock(KNOCK_1, "C8 C9 C10 S10 H10 D10 D2 D3 D4 HA")
    assert result.knock.points == 1
    assert names(result.knock.deadwood) == ["DA"]
    assert (result.winner, result.points) == ("B", 10)  # undercut with equal counts: 1 − 1 + 10


def test_knockers_tied_arrangements_pick_the_one_leaving_fewest_lay_offs():
    # A's S3 makes S2-S3-S4 or S3 H3 D3: 6 in deadwood either way. With the run, B would
    # lay off SA S5 S6; with the set, nothing. docs/rules/gin.md: the knocker's melds are the ones
    # that leave the defender the most deadwood after lay-offs.
    result = knock("S2 S3 S4 H3 D3 C7 C8 C9 C10 CJ", "SA S5 S6 HK DK SK HQ DQ SQ D2")
    assert sorted(names(result.knock.deadwood)) == ["S2", "S4"]
    assert result.defence.layoffs == ()
    assert (result.winner, result.points) == ("A", 8)


# ---------------------------------------------------------------------------------------
# Knock limit and hand size.


@pytest.mark.parametrize(
    "hand,overrides,allowed",
    [
        (KNOCK_10, {}, True),  # "Knock with deadwood ≤ knock_limit (default 10)"
        (KNOCK_11, {}, False),
        (KNOCK_11, {"knock_limit": 11}, True),
        (KNOCK_10, {"knock_limit": 9}, False),
        (KNOCK_1, {"knock_limit": 0}, False),
        (GIN_KINGS, {"knock_limit": 0}, True),
        ("SQ SK SA H4 H5 H6 D7 D8 D9 C2", {}, False),  # 23: Q-K-A does not count
    ],
)
def test_knock_limit(hand, overrides, allowed):
    defender = "C5 C6 C7 HJ DJ CJ D3 HQ CQ C4"
    if allowed:
        knock(hand, defender, **overrides)
    else:
        with pytest.raises(IllegalPlay, match="cannot knock with"):
            knock(hand, defender, **overrides)


ILLEGAL = [
    ("knock-over-the-limit", [knocks("A", KNOCK_11, "C5 C6 C7 HJ DJ CJ D3 HQ CQ C4")], {},
     r"^round 1: A cannot knock with 11 in deadwood \(DA D10\): the knock limit is 10"),
    ("knock-over-a-lower-limit", [A_KNOCKS_4], {"knock_limit": 0}, r"^round 1: A cannot knock with 1"),
    ("second-round-over-the-limit", [A_KNOCKS_4, knocks("B", KNOCK_11, "C5 C6 C7 HJ DJ CJ S6 H6 C2 C3")], {},
     r"^round 2: B cannot knock with 11"),
    ("defender-nine-cards", [knocks("A", KNOCK_1, "C5 C6 C7 HJ DJ CJ S5 H10 D2")], {},
     r"^round 1: B's hand has 9 cards; a Gin hand has 10"),
    ("knocker-eleven-cards", [knocks("A", KNOCK_1 + " D5", EXAMPLE_DEFENDER)], {},
     r"^round 1: A's hand has 11 cards"),
    ("defender-missing", [{"knocker": "A", "hands": {"A": KNOCK_1.split()}}], {}, r"^round 1: B's hand has 0 cards"),
    ("same-card-twice", [knocks("A", KNOCK_1, EXAMPLE_DEFENDER.replace("D2", "S2"))], {},
     r"^round 1, hands of B: S2 appears 2 times in this round, but one deck holds only one"),
    ("joker", [knocks("A", KNOCK_1, EXAMPLE_DEFENDER.replace("D2", "JK"))], {}, r"^round 1, hands of B: JK"),
    ("out-instead-of-knock", [{"out": "A", "hands": {"B": ["S2"]}}], {}, r"^round 1: a Gin hand ends with a knock"),
    ("stalemate-with-knock", [{"stalemate": True, "knocker": "A"}], {}, r"^round 1: a stalemate hand has no knock"),
    ("unknown-knocker", [{"knocker": "Z", "hands": {}}], {}, r"^round 1: knocker: unknown player 'Z'"),
    ("unknown-rule", [], {"big_gin": 31}, r"^rules: unknown rule 'big_gin' for gin"),
    ("bad-preset", [], {"preset": "vintage"}, r"^rules: rule 'preset' cannot be 'vintage'"),
    ("bad-shutout", [], {"shutout": "triple"}, r"^rules: rule 'shutout'"),
    ("round-after-game-over", [A_GINS_118, A_KNOCKS_4], {}, r"^round 2: the game was already over"),
]


@pytest.mark.parametrize("rounds,overrides,message", [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_illegal_rounds_are_refused_naming_the_round(rounds, overrides, message):
    with pytest.raises(GameFileError, match=message):
        score(*rounds, rules=overrides)


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C"]])
def test_two_players_only(players):
    with pytest.raises(GameFileError, match=f"not {len(players)}"):
        score(players=players)


# ---------------------------------------------------------------------------------------
# Presets and options.


def bonuses(gin_bonus, undercut_bonus, line_bonus, shutout):
    return {"gin_bonus": gin_bonus, "undercut_bonus": undercut_bonus, "line_bonus": line_bonus, "shutout": shutout}


@pytest.mark.parametrize(
    "overrides,expected",
    [
        # docs/rules/gin.md: classic (default, the classic numbers): gin 20, undercut 10, line 20,
        # shutout flat 100. modern: gin 25, undercut 25, line 25, shutout double.
        ({}, bonuses(20, 10, 20, "flat")),
        ({"preset": "classic"}, bonuses(20, 10, 20, "flat")),
        ({"preset": "modern"}, bonuses(25, 25, 25, "double")),
        # The option help: "Single options override it."
        ({"preset": "modern", "gin_bonus": 30}, bonuses(30, 25, 25, "double")),
        ({"preset": "modern", "shutout": "flat"}, bonuses(25, 25, 25, "flat")),
        ({"preset": "classic", "line_bonus": 0}, bonuses(20, 10, 0, "flat")),
        ({"undercut_bonus": 25}, bonuses(20, 25, 20, "flat")),
    ],
)
def test_presets_and_single_options_overriding_them(overrides, expected):
    resolved = rules(**overrides)
    assert {name: resolved[name] for name in expected} == expected
    assert (resolved["knock_limit"], resolved["game_bonus"], resolved["target"]) == (10, 100, 100)


# ---------------------------------------------------------------------------------------
# The game: target, game bonus, shutout, line bonuses.


@pytest.mark.parametrize(
    "rounds,overrides,totals",
    [
        # A shutout: 118 + line 20 + game 100 + "another bonus of 100 points"
        ([A_GINS_118], {}, {"A": 338, "B": 0}),
        ([A_GINS_118], {"preset": "modern"}, {"A": (123 + 25 + 100) * 2, "B": 0}),  # shutout double
        ([A_GINS_118], {"shutout": "double"}, {"A": (118 + 20 + 100) * 2, "B": 0}),
        ([A_GINS_118], {"preset": "modern", "shutout": "flat"}, {"A": 123 + 25 + 100 + 100, "B": 0}),
        ([A_GINS_118], {"game_bonus": 50}, {"A": 118 + 20 + 50 + 50, "B": 0}),
        ([A_GINS_118], {"line_bonus": 0}, {"A": 318, "B": 0}),
        # Not a shutout: B won a hand. Each hand won adds its line bonus.
        ([B_KNOCKS_4, A_GINS_118], {}, {"A": 118 + 20 + 100, "B": 4 + 20}),
        ([B_KNOCKS_4, A_GINS_118], {"preset": "modern"}, {"A": 123 + 25 + 100, "B": 4 + 25}),
        ([A_KNOCKS_4, A_KNOCKS_4, B_KNOCKS_4, A_GINS_118], {}, {"A": 126 + 60 + 100, "B": 4 + 20}),
        # Stalemate hands score nothing and win no line bonus.
        ([STALEMATE, A_GINS_118], {}, {"A": 338, "B": 0}),
        # A lower target: three knocks of 4 reach 10.
        ([A_KNOCKS_4] * 3, {"target": 10}, {"A": 12 + 60 + 100 + 100, "B": 0}),
    ],
)
def test_game_totals_with_bonuses(rounds, overrides, totals):
    result = score(*rounds, rules=overrides)
    assert result["totals"] == totals
    assert result["winners"] == ["A"]
    assert result["status"] == "A wins"


def test_line_bonuses_are_not_counted_toward_the_target():
    # docs/rules/gin.md: line bonuses are not counted toward the target. B's six hands of 4 with
    # their line bonuses would be 24 + 120 = 144.
    result = score(*[B_KNOCKS_4] * 6)
    assert result["totals"] == {"A": 0, "B": 24}
    assert result["winners"] == []
    assert result["status"] == "in progress"


def test_totals_before_the_end_are_hand_points_only():
    result = score(A_KNOCKS_4, B_KNOCKS_4, STALEMATE, A_KNOCKS_4)
    assert [r["scores"] for r in result["rounds"]] == [
        {"A": 4, "B": 0}, {"A": 0, "B": 4}, {"A": 0, "B": 0}, {"A": 4, "B": 0}]
    assert result["totals"] == {"A": 8, "B": 4}
    assert result["winners"] == []


def test_a_stalemate_hand_scores_zero():
    # docs/rules/gin.md: a hand with no knock before the stock is down to two cards is a stalemate and scores 0.
    rnd = score(STALEMATE)["rounds"][0]
    assert rnd["scores"] == {"A": 0, "B": 0}
    assert rnd["finished"] is True
    assert rnd["ended"] == "stalemate"


def test_an_unfinished_last_hand_is_in_progress():
    result = score(A_KNOCKS_4, {})
    assert result["rounds"][1]["finished"] is False
    assert result["rounds"][1]["scores"] == {"A": 0, "B": 0}
    assert result["totals"] == {"A": 4, "B": 0}


def test_shutout_means_the_loser_scored_nothing():
    # docs/rules/gin.md: shutout (loser scored nothing). B undercuts with equal counts and no
    # undercut bonus: B wins a hand but scores 0, so A's win is still a shutout.
    # (The shutout option's help says "The loser won no hand", which would say otherwise.)
    result = score(knocks("A", KNOCK_7, "C5 C6 C7 HJ DJ CJ D2 D3 CA HA"), A_GINS_118, rules={"undercut_bonus": 0})
    assert result["rounds"][0]["scores"] == {"A": 0, "B": 0}
    assert result["totals"] == {"A": 118 + 20 + 100 + 100, "B": 20}


def test_winners_are_whoever_has_most_points_after_the_bonuses():
    # Nikki Katz's guide: "The player with the most points wins". B's ten hands of 4 and ten line
    # bonuses (240) beat A's gin, line and game bonus (238), though A reached 100.
    result = score(*[B_KNOCKS_4] * 10, A_GINS_118)
    assert result["totals"] == {"A": 238, "B": 240}
    assert result["winners"] == ["B"]


def test_public_example_gin_knock():
    doc = json.loads((EXAMPLES / "gin-knock.json").read_text())
    expected = json.loads((EXAMPLES / "gin-knock.expected.json").read_text())
    result = gamefile.score_document(doc)
    assert [r["scores"] for r in result["rounds"]] == [r["scores"] for r in expected["rounds"]]
    assert result["totals"] == expected["totals"] == {"A": 4, "B": 0}
    assert result["winners"] == expected["winners"] == []


def test_library_game_matches_the_file():
    game_ = gin.Game(["A", "B"], rules())
    rnd = HandRound(knocker="A", hands={"A": cards(KNOCK_1), "B": cards(EXAMPLE_DEFENDER)}, has_hands=True)
    assert game_.play(rnd).scores == {"A": 4, "B": 0}
    assert game_.hands_won == {"A": 1, "B": 0}
    with pytest.raises(IllegalPlay, match="ends with a knock"):
        game_.play(HandRound(out="A"))


# ---------------------------------------------------------------------------------------
# The oracle: least deadwood by brute force over every partition into melds.

DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def is_meld(group):
    """Written from docs/rules/gin.md alone: 3+ of a rank, or 3+ in one suit in a row, ace low only."""
    if len(group) < 3:
        return False
    if len({c.rank for c in group}) == 1:
        return True
    if len({c.suit for c in group}) != 1:
        return False
    ranks = sorted(c.rank for c in group)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


@functools.cache
def _oracle(hand):
    return oracle_deadwood(hand)


def oracle_deadwood(hand):
    """Try every subset that splits into melds; the rest is deadwood. No shared code."""
    if not isinstance(hand, tuple):
        return _oracle(tuple(hand))
    n = len(hand)
    value = [min(c.rank, 10) for c in hand]
    melds = [m for m in range(1, 1 << n) if is_meld([hand[i] for i in range(n) if m >> i & 1])]
    splits = [False] * (1 << n)  # can this subset be split entirely into melds?
    splits[0] = True
    for mask in range(1, 1 << n):
        low = mask & -mask
        splits[mask] = any(m & low and m & mask == m and splits[mask ^ m] for m in melds)
    return min(
        sum(value[i] for i in range(n) if not mask >> i & 1) for mask in range(1 << n) if splits[mask]
    )


def random_hands(count, seed):
    rng = random.Random(seed)
    hands = []
    for k in range(count):
        # Most hands come from a crowded corner of the deck, where melds overlap a lot; one
        # corner straddles the ace, so a wrapped Q-K-A or K-A-2 would show.
        pool = [
            DECK,
            [c for c in DECK if c.rank <= 5],
            [c for c in DECK if c.suit != "C" and c.rank <= 7],
            [c for c in DECK if c.rank in (1, 2, 3, 11, 12, 13)],
        ][k % 4]
        hands.append(tuple(rng.sample(pool, 10)))
    return hands


ORACLE_HANDS = random_hands(240, seed=20240601)


def test_oracle_agrees_on_hand_examples():
    assert oracle_deadwood(cards("SQ SK SA H4 H5 H6 D7 D8 D9 C2")) == 23
    assert oracle_deadwood(cards(KNOCK_1)) == 1
    assert oracle_deadwood(cards(JUNK_98)) == 98


@pytest.mark.parametrize("chunk", range(8))
def test_least_deadwood_matches_brute_force(chunk):
    for hand in ORACLE_HANDS[chunk::8]:
        assert gin.least_deadwood(hand) == oracle_deadwood(hand), [str(c) for c in hand]


def test_the_random_hands_are_not_all_meld_free():
    # The oracle test means little on hands without melds: most of these have some, and
    # a fair number could knock.
    melded = sum(oracle_deadwood(h) < sum(min(c.rank, 10) for c in h) for h in ORACLE_HANDS)
    could_knock = sum(oracle_deadwood(h) <= 10 for h in ORACLE_HANDS)
    assert melded > len(ORACLE_HANDS) // 2
    assert could_knock >= 10


@pytest.mark.parametrize("chunk", range(4))
def test_best_arrangements_are_real_melds_covering_the_hand(chunk):
    for hand in ORACLE_HANDS[chunk::4]:
        least = oracle_deadwood(hand)
        for arrangement in gin.best_arrangements(hand):
            assert all(is_meld(m) for m in arrangement.melds)
            used = [c for m in arrangement.melds for c in m] + list(arrangement.deadwood)
            assert sorted(used) == sorted(hand)
            assert arrangement.points == least
