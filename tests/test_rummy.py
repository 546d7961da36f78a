"""Basic Rummy and its variations (docs/rules/rummy.md; cardgames.io and Nikki Katz's guide): winner takes
all or penalty scoring, the rummy bonus, targets by player count, stalemates, the game end."""
import json

import pytest

from scorekeeper import gamefile
from scorekeeper.games import rummy
from scorekeeper.games.cards import parse_cards
from scorekeeper.games.errors import GameFileError, IllegalPlay
from scorekeeper.games.handcount import HandRound
from tests.conftest import EXAMPLES

# Hands worth a known amount (one deck: no card twice in a round).
COURT_100 = "SK HK DK CK SQ HQ DQ CQ SJ HJ"  # 10 × 10
COURT_50 = "DJ CJ S10 H10 D10"  # 5 × 10
COURT_70 = "SK HK DK CK SQ HQ DQ"  # 7 × 10: the most a hand of 3 or 4 players can hold
PIPS_19 = "D9 CJ"  # the public example's B


def cards(text):
    return tuple(parse_cards(text.split())) if text else ()


def hand_round(out=None, rummy_=False, stalemate=False, **hands):
    return HandRound(out=out, stalemate=stalemate, rummy=rummy_,
                     hands={p: cards(t) for p, t in hands.items()}, has_hands=True)


def new_game(players="A B C", **rules):
    names = players.split()
    return rummy.Game(names, rummy.resolve_rules(rules, len(names)))


def game(*rounds, players=("A", "B", "C"), rules=None):
    return {
        "format": "scorekeeper/1",
        "variant": "rummy",
        "rules": rules or {},
        "players": list(players),
        "teams": None,
        "rounds": list(rounds),
    }


def out(player, rummy_=None, **hands):
    data = {"out": player, "hands": {p: t.split() for p, t in hands.items()}}
    if rummy_ is not None:
        data["rummy"] = rummy_
    return data


STALEMATE = {"stalemate": True}


def score(*rounds, **fields):
    return gamefile.score_document(game(*rounds, **fields))


# ---------------------------------------------------------------------------------------
# Hand values: "ace 1, pips face value, J Q K 10".


@pytest.mark.parametrize(
    "card,value",
    [("SA", 1), ("S2", 2), ("H7", 7), ("D9", 9), ("C10", 10), ("SJ", 10), ("HQ", 10), ("DK", 10)],
)
def test_card_values(card, value):
    assert rummy.card_value(cards(card)[0]) == value


# ---------------------------------------------------------------------------------------
# One round's scores.


@pytest.mark.parametrize(
    "rules,rummy_,scores",
    [
        # winner_takes_all: "whoever goes out scores the sum of all the others' hands" (19 + 2)
        ({}, False, {"A": 21, "B": 0, "C": 0}),
        ({}, True, {"A": 42, "B": 0, "C": 0}),  # rummy_bonus double (default)
        ({"rummy_bonus": "double"}, True, {"A": 42, "B": 0, "C": 0}),
        ({"rummy_bonus": "plus10"}, True, {"A": 31, "B": 0, "C": 0}),  # Nikki Katz's guide "a bonus of ten points"
        ({"rummy_bonus": "none"}, True, {"A": 21, "B": 0, "C": 0}),
        ({"rummy_bonus": "plus10"}, False, {"A": 21, "B": 0, "C": 0}),  # no rummy, no bonus
        # penalty: "each player scores their own hand's value as penalty points"
        ({"scoring": "penalty"}, False, {"A": 0, "B": 19, "C": 2}),
        # With penalty scoring (option help): "double doubles the others' penalties and
        # plus10 takes 10 off the winner's"
        ({"scoring": "penalty"}, True, {"A": 0, "B": 38, "C": 4}),
        ({"scoring": "penalty", "rummy_bonus": "plus10"}, True, {"A": -10, "B": 19, "C": 2}),
        ({"scoring": "penalty", "rummy_bonus": "none"}, True, {"A": 0, "B": 19, "C": 2}),
        ({"scoring": "penalty", "rummy_bonus": "plus10"}, False, {"A": 0, "B": 19, "C": 2}),
    ],
)
def test_round_scores(rules, rummy_, scores):
    hands = {"B": PIPS_19, "C": "H2"}
    assert new_game(**rules).play(hand_round("A", rummy_, **hands)).scores == scores
    assert score(out("A", rummy_, **hands), rules=rules)["rounds"][0]["scores"] == scores


def test_a_player_left_out_of_hands_held_nothing():
    assert score(out("A", B="S5"))["rounds"][0]["scores"] == {"A": 5, "B": 0, "C": 0}


@pytest.mark.parametrize("rules", [{}, {"scoring": "penalty"}])
def test_a_stalemate_scores_zero_for_all(rules):
    # docs/rules/rummy.md: A stalemate round (stock run out twice, or nobody can finish) scores 0 for all.
    result = score(out("A", B="S5"), STALEMATE, rules=rules)
    assert result["rounds"][1]["scores"] == {"A": 0, "B": 0, "C": 0}
    assert result["rounds"][1]["finished"] is True
    assert result["rounds"][1]["ended"] == "stalemate"
    assert result["totals"] == score(out("A", B="S5"), rules=rules)["totals"]


def test_the_detail_lists_each_card_and_its_value():
    detail = score(out("A", B=PIPS_19, C="H2"))["rounds"][0]["detail"]
    assert detail["B"]["cards"] == [{"card": "D9", "points": 9}, {"card": "CJ", "points": 10}]
    assert detail["B"]["hand_value"] == 19
    assert detail["A"]["score"] == 21


def test_public_example_rummy_basic():
    doc = json.loads((EXAMPLES / "rummy-basic.json").read_text())
    expected = json.loads((EXAMPLES / "rummy-basic.expected.json").read_text())
    result = gamefile.score_document(doc)
    assert [r["scores"] for r in result["rounds"]] == [r["scores"] for r in expected["rounds"]]
    assert result["totals"] == expected["totals"] == {"A": 21, "B": 0, "C": 0}
    assert result["winners"] == expected["winners"] == []


# ---------------------------------------------------------------------------------------
# Targets and the end of the game.


@pytest.mark.parametrize(
    "players,rules,target",
    [
        (2, {}, 100),  # "default 100 for 2 players, 150 for 3, 200 for 4 (winner_takes_all)"
        (3, {}, 150),
        (4, {}, 200),
        (2, {"scoring": "penalty"}, 100),  # "100 for penalty"
        (3, {"scoring": "penalty"}, 100),
        (4, {"scoring": "penalty"}, 100),
        (4, {"scoring": "winner_takes_all"}, 200),
        (2, {"target": 250}, 250),
        (4, {"scoring": "penalty", "target": 50}, 50),
    ],
)
def test_target_by_player_count_and_scoring(players, rules, target):
    assert rummy.resolve_rules(rules, players)["target"] == target


@pytest.mark.parametrize(
    "players,rounds,winners",
    [
        ("A B", [out("A", B=COURT_100)], ["A"]),  # 100 reaches the 2-player target
        ("A B", [out("A", B=COURT_100.rsplit(" ", 1)[0] + " H9")], []),  # 99 does not
        # 3 or 4 players hold 7 cards at most: the target takes two rounds.
        ("A B C", [out("A", B=COURT_70, C=COURT_50), out("A", B="S10 H10 D10")], ["A"]),  # 150 for 3 players
        ("A B C", [out("A", B=COURT_70, C=COURT_50), out("A", B="S10 H10 D9")], []),  # 149
        ("A B C D", [out("A", B=COURT_70, C=COURT_50), out("A", B=COURT_70, D="S10")], ["A"]),  # 200
        ("A B C D", [out("A", B=COURT_70, C=COURT_50), out("A", B=COURT_70, D="S9")], []),  # 199
    ],
)
def test_winner_takes_all_game_ends_when_someone_reaches_the_target(players, rounds, winners):
    result = score(*rounds, players=players.split())
    assert result["winners"] == winners
    assert result["status"] == ("A wins" if winners else "in progress")


def test_winner_takes_all_highest_total_wins_over_several_rounds():
    result = score(out("B", A=COURT_50), out("A", B=COURT_50), out("A", B=COURT_50), players=["A", "B"])
    assert result["totals"] == {"A": 100, "B": 50}
    assert result["winners"] == ["A"]


def test_no_round_after_the_game_is_over():
    with pytest.raises(GameFileError, match=r"^round 2: the game was already over after round 1"):
        score(out("A", B=COURT_100), out("B", A="S2"), players=["A", "B"])


@pytest.mark.parametrize(
    "rounds,totals,winners",
    [
        # Nikki Katz's guide: "When the first person reaches 100 points, the player with the fewest points wins."
        ([out("A", B=COURT_50, C="H2"), out("A", B=COURT_50)], {"A": 0, "B": 100, "C": 2}, ["A"]),
        ([out("A", B=COURT_50, C="H2"), out("C", A="S3", B=COURT_50)], {"A": 3, "B": 100, "C": 2}, ["C"]),
        ([out("A", B=COURT_50, C="H2"), out("C", A="S2", B=COURT_50)], {"A": 2, "B": 100, "C": 2}, ["A", "C"]),
        ([out("A", B=COURT_50, C="H2")], {"A": 0, "B": 50, "C": 2}, []),
        ([out("A", B=COURT_50), STALEMATE], {"A": 0, "B": 50, "C": 0}, []),
    ],
)
def test_penalty_scoring_lowest_total_wins_once_someone_reaches_100(rounds, totals, winners):
    result = score(*rounds, rules={"scoring": "penalty"})
    assert result["totals"] == totals
    assert result["winners"] == winners


def test_penalty_scoring_rummy_double_can_end_the_game():
    result = score(out("A", True, B=COURT_50), rules={"scoring": "penalty"})
    assert result["totals"] == {"A": 0, "B": 100, "C": 0}
    assert result["winners"] == ["A", "C"]
    assert result["status"] == "A and C win"


def test_an_unfinished_last_round_scores_nothing_yet():
    result = score(out("A", B="S5"), {"hands": {"B": ["S9"]}})
    assert result["rounds"][1]["finished"] is False
    assert result["rounds"][1]["scores"] == {"A": 0, "B": 0, "C": 0}
    assert result["totals"] == {"A": 5, "B": 0, "C": 0}


# ---------------------------------------------------------------------------------------
# Illegal rounds.


def test_the_player_who_went_out_cannot_hold_cards_in_the_library():
    with pytest.raises(IllegalPlay, match="A went out"):
        new_game().play(hand_round("A", A="S2", B="S3"))


ILLEGAL = [
    ("out-player-holds-cards", [out("A", A="S2", B="S3")], {}, r"^round 1: A went out, so cannot still hold S2"),
    ("second-copy-of-a-card", [out("A", B="S9", C="9s")], {}, r"^round 1, hands of C: S9 appears 2 times"),
    ("second-copy-in-one-hand", [out("A", B="S9 S9")], {}, r"^round 1, hands of B: S9 appears 2 times"),
    ("joker", [out("A", B="JK")], {}, r"^round 1, hands of B: JK"),
    ("knocker", [{"knocker": "A", "hands": {}}], {}, r"^round 1: only Gin rounds end with a knock"),
    ("stalemate-and-out", [{"out": "A", "stalemate": True}], {}, r"^round 1: a stalemate round has no one going out"),
    ("rummy-without-out", [{"rummy": True, "stalemate": True}], {}, r"^round 1: rummy is true but no one went out"),
    ("rummy-not-bool", [{"out": "A", "rummy": "yes"}], {}, r"^round 1: rummy must be true or false"),
    ("unknown-player-out", [{"out": "Z"}], {}, r"^round 1: out: unknown player 'Z'"),
    ("unknown-player-in-hands", [out("A", Z="S2")], {}, r"^round 1, hands: unknown player 'Z'"),
    ("unknown-round-field", [{"out": "A", "events": []}], {}, r"^round 1: unknown field 'events'"),
    ("earlier-round-unfinished", [{"hands": {}}, out("A")], {}, r"^round 1: has no hands"),
    ("later-round", [out("A", B="S2"), out("B", A="S2", C="S2")], {}, r"^round 2, hands of C: S2 appears 2 times"),
    ("unknown-rule", [], {"jokers": 2}, r"^rules: unknown rule 'jokers' for rummy"),
    ("bad-scoring", [], {"scoring": "lowball"}, r"^rules: rule 'scoring' cannot be 'lowball'"),
    ("bad-rummy-bonus", [], {"rummy_bonus": "triple"}, r"^rules: rule 'rummy_bonus'"),
]


@pytest.mark.parametrize("rounds,rules,message", [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_illegal_rounds_are_refused_naming_the_round(rounds, rules, message):
    with pytest.raises(GameFileError, match=message):
        score(*rounds, rules=rules)


# A hand left at the end holds at most what was dealt: 10 for two players, 7 for three or four.
TEN = "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ"


@pytest.mark.parametrize("players,hand,ok", [
    (("A", "B"), TEN, True),
    (("A", "B"), TEN + " SQ", False),
    (("A", "B", "C"), "H2 H3 H4 H5 H6 H7 H8", True),
    (("A", "B", "C"), "H2 H3 H4 H5 H6 H7 H8 H9", False),
    (("A", "B", "C", "D"), "H2 H3 H4 H5 H6 H7 H8 H9", False),
])
def test_a_hand_bigger_than_dealt_is_refused(players, hand, ok):
    rounds = [out("A", B=hand)]
    if ok:
        assert score(*rounds, players=players)["rounds"][0]["detail"]["B"]["hand_value"] > 0
    else:
        dealt = 10 if len(players) == 2 else 7
        with pytest.raises(GameFileError, match=rf"^round 1: B's hand has {dealt + 1} cards, but "
                                                rf"Rummy with {len(players)} players deals {dealt} each$"):
            score(*rounds, players=players)


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C", "D", "E"]])
def test_two_to_four_players(players):
    with pytest.raises(GameFileError, match="2 to 4 players"):
        score(players=players)


def test_no_partnerships():
    with pytest.raises(GameFileError, match="^teams"):
        gamefile.score_document(game() | {"teams": [["A", "B"], ["C"]]})


# The round's story says what the rummy bonus did, in words (no option name).
BONUS_STORIES = [
    ("winner_takes_all", "double", "A", ["went out: the others' hands come to 19",
                                         "went out in one turn (rummy): doubled, 38"]),
    ("winner_takes_all", "plus10", "A", ["went out: the others' hands come to 19",
                                         "went out in one turn (rummy): 10 added, 29"]),
    ("winner_takes_all", "none", "A", ["went out: the others' hands come to 19"]),
    ("penalty", "double", "B", ["penalty points 19, doubled: A went out in one turn (rummy), 38"]),
    ("penalty", "plus10", "A", ["went out in one turn (rummy): 10 taken off, -10"]),
    ("penalty", "none", "B", ["penalty points 19"]),
]


@pytest.mark.parametrize("scoring,bonus,player,story", BONUS_STORIES)
def test_the_rummy_bonus_is_told_in_words(scoring, bonus, player, story):
    result = new_game("A B", scoring=scoring, rummy_bonus=bonus).play(hand_round(out="A", rummy_=True, B=PIPS_19))
    assert [str(line) for line in result.stories[player]][-len(story):] == story  # after the card lines
