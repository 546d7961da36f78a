"""Kalooki, Conquian and Manipulation Rummy (docs/rules/): penalty values,
elimination, stakes and tableaus, and when each game is over."""
import pytest

from scorekeeper import gamefile
from scorekeeper.games import conquian, kalooki, manipulation, registry
from scorekeeper.games.cards import parse_cards
from scorekeeper.games.errors import GameFileError, IllegalPlay
from scorekeeper.games.handcount import HandRound

KALOOKI_150 = "JK JK JK JK SA SA SK HK S8"  # 4 × 25 + 2 × 11 + 2 × 10 + 8
ACES_AND_KINGS_100 = "SA HA DA CA SK HK DK CK"  # Manipulation: 4 × 15 + 4 × 10


def card(text):
    return parse_cards([text])[0]


def cards(text):
    return tuple(parse_cards(text.split())) if text else ()


def game(variant, *rounds, players=("A", "B", "C"), rules=None):
    return {
        "format": "scorekeeper/1",
        "variant": variant,
        "rules": rules or {},
        "players": list(players),
        "teams": None,
        "rounds": list(rounds),
    }


def out(player, **hands):
    return {"out": player, "hands": {p: t.split() for p, t in hands.items()}}


STALEMATE = {"stalemate": True}


def kalooki_game(*rounds, **fields):
    return gamefile.score_document(game("kalooki", *rounds, **fields))


def conquian_game(*rounds, **fields):
    return gamefile.score_document(game("conquian", *rounds, players=("A", "B"), **fields))


def manipulation_game(*rounds, **fields):
    return gamefile.score_document(game("manipulation", *rounds, **fields))


# ---------------------------------------------------------------------------------------
# Kalooki: "joker 25, ace 11, J Q K 10 (house value ...), pips face value".


@pytest.mark.parametrize(
    "text,rules,value",
    [
        ("JK", {}, 25),
        ("SA", {}, 11),
        ("SK", {}, 10),
        ("HQ", {}, 10),
        ("DJ", {}, 10),
        ("C10", {}, 10),
        ("S7", {}, 7),
        ("S2", {}, 2),
        ("SK", {"court_card_value": 5}, 5),  # the house value is an option
        ("SJ", {"court_card_value": 0}, 0),
        ("C10", {"court_card_value": 5}, 10),  # a 10 is a pip card
        ("SA", {"court_card_value": 5}, 11),
        ("JK", {"court_card_value": 5}, 25),
    ],
)
def test_kalooki_card_values(text, rules, value):
    assert kalooki.card_value(card(text), kalooki.resolve_rules(rules, 3)) == value


def test_kalooki_court_card_value_is_a_house_value():
    option = kalooki.RULES.options["court_card_value"]
    assert option.default == 10
    assert option.house_value
    assert not kalooki.RULES.options["elimination"].house_value


@pytest.mark.parametrize(
    "rules,scores",
    [
        ({}, {"A": 0, "B": 31, "C": 150}),
        ({"court_card_value": 5}, {"A": 0, "B": 26, "C": 140}),
    ],
)
def test_kalooki_round_scores_each_hand_as_penalty(rules, scores):
    result = kalooki_game(out("A", B="HA DK S7 S3", C=KALOOKI_150), rules=rules)
    assert result["rounds"][0]["scores"] == scores
    assert result["totals"] == scores


def test_kalooki_exactly_150_is_not_eliminated():
    # docs/rules/: eliminated when their total exceeds elimination (default 150)
    result = kalooki_game(out("A", B=KALOOKI_150, C="S2"))
    assert result["totals"]["B"] == 150
    assert result["rounds"][0]["detail"]["B"]["eliminated"] is False
    assert result["winners"] == []


ELIMINATION = [
    out("A", B=KALOOKI_150, C="S2"),  # B 150: still in
    out("A", B="S2", C="S3"),  # B 152: out of the game; C 5
]


def test_kalooki_above_150_is_eliminated_and_the_game_goes_on():
    result = kalooki_game(*ELIMINATION)
    assert result["totals"] == {"A": 0, "B": 152, "C": 5}
    detail = result["rounds"][1]["detail"]
    assert detail["B"]["eliminated"] is True
    assert "total 152 is above 150: eliminated" in detail["B"]["story"]
    assert detail["C"]["eliminated"] is False
    assert result["winners"] == []  # A and C are still playing


def test_kalooki_eliminated_player_scores_nothing_later():
    result = kalooki_game(*ELIMINATION, out("C", A="S4"))
    assert result["rounds"][2]["scores"] == {"A": 4, "B": 0, "C": 0}
    assert result["rounds"][2]["detail"]["B"]["story"] == ["eliminated in an earlier round"]


@pytest.mark.parametrize(
    "later,words",
    [
        (out("A", B="S5", C="S6"), "round 3: B was eliminated and no longer plays"),
        (out("B", A="S5", C="S6"), "round 3: B was eliminated and no longer plays"),
    ],
)
def test_kalooki_eliminated_player_cannot_play_later(later, words):
    with pytest.raises(GameFileError, match=f"^{words}"):
        kalooki_game(*ELIMINATION, later)


def test_kalooki_last_player_left_wins():
    result = kalooki_game(*ELIMINATION, out("C", A=KALOOKI_150 + " S9"))
    assert result["totals"] == {"A": 159, "B": 152, "C": 5}
    assert result["winners"] == ["C"]
    assert result["status"] == "C wins"


def test_kalooki_no_round_after_the_last_player_is_left():
    with pytest.raises(GameFileError, match=r"^round 2: the game was already over after round 1"):
        kalooki_game(out("A", B=KALOOKI_150 + " S2"), out("A", B="S3"), players=("A", "B"))


@pytest.mark.parametrize(
    "rules,hand,eliminated",
    [({"elimination": 100}, "JK JK JK JK", False), ({"elimination": 100}, "JK JK JK JK SA", True),
     ({"elimination": 200}, KALOOKI_150 + " S2", False)],
)
def test_kalooki_elimination_option(rules, hand, eliminated):
    result = kalooki_game(out("A", B=hand), rules=rules)
    assert result["rounds"][0]["detail"]["B"]["eliminated"] is eliminated


def test_kalooki_stalemate_scores_nothing():
    result = kalooki_game(out("A", B="S2"), STALEMATE)
    assert result["rounds"][1]["scores"] == {"A": 0, "B": 0, "C": 0}
    assert result["totals"] == {"A": 0, "B": 2, "C": 0}


def test_kalooki_library_refuses_an_eliminated_player():
    g = kalooki.Game(["A", "B"], kalooki.resolve_rules({}, 2))
    g.eliminated = ["B"]
    with pytest.raises(IllegalPlay, match="B was eliminated"):
        g.play(HandRound(out="A", hands={"B": cards("S2")}, has_hands=True))


KALOOKI_ILLEGAL = [
    ("fifth-joker", [out("A", B="JK JK JK", C="JK JK")], {}, r"^round 1, hands of C: JK appears 5 times"),
    ("third-copy", [out("A", B="S9 S9", C="S9")], {}, r"^round 1, hands of C: S9 appears 3 times"),
    ("out-holds-cards", [out("A", A="S2", B="S3")], {}, r"^round 1: A went out, so cannot still hold S2"),
    ("knocker", [{"knocker": "A", "hands": {}}], {}, r"^round 1: only Gin rounds end with a knock"),
    ("unknown-rule", [], {"target": 150}, r"^rules: unknown rule 'target' for kalooki"),
    ("bad-elimination", [], {"elimination": 0}, r"^rules: rule 'elimination'"),
]


@pytest.mark.parametrize("rounds,rules,message", [c[1:] for c in KALOOKI_ILLEGAL], ids=[c[0] for c in KALOOKI_ILLEGAL])
def test_kalooki_illegal_rounds(rounds, rules, message):
    with pytest.raises(GameFileError, match=message):
        kalooki_game(*rounds, rules=rules)


def test_kalooki_two_copies_of_a_card_are_fine():
    assert kalooki_game(out("A", B="S9", C="S9"))["totals"] == {"A": 0, "B": 9, "C": 9}


# 15 cards dealt for two to four players, 13 for five, 11 for six: no hand left is bigger.
PAIRS = [f"{s}{r}" for r in "2 3 4 5 6 7 8 9".split() for s in "SS"]  # two decks: each twice


@pytest.mark.parametrize("players,held,dealt", [(2, 15, 15), (4, 16, 15), (5, 14, 13), (6, 12, 11), (6, 11, 11)])
def test_kalooki_no_hand_bigger_than_dealt(players, held, dealt):
    names = [f"P{i}" for i in range(players)]
    rounds = [{"out": "P0", "hands": {"P1": PAIRS[:held]}}]
    if held <= dealt:
        assert len(kalooki_game(*rounds, players=names)["rounds"][0]["detail"]["P1"]["cards"]) == held
    else:
        with pytest.raises(GameFileError, match=rf"^round 1: P1's hand has {held} cards, but Kalooki "
                                                rf"with {players} players deals {dealt} each$"):
            kalooki_game(*rounds, players=names)


def test_kalooki_hands_are_dealt_for_the_players_still_in_the_game():
    names = [f"P{i}" for i in range(6)]
    gone = {"out": "P0", "hands": {"P1": ["JK", "JK", "JK", "JK", "SA", "HA", "DA"]}}  # P1 133: eliminated
    thirteen = {"out": "P0", "hands": {"P2": PAIRS[:13]}}  # five left: 13 each
    result = kalooki_game(gone, thirteen, players=names, rules={"elimination": 100})
    assert result["rounds"][1]["detail"]["P2"]["hand_value"] > 0
    with pytest.raises(GameFileError, match=r"^round 2: P2's hand has 13 cards, but Kalooki with 6 players"):
        kalooki_game({"out": "P0", "hands": {"P1": ["S2"]}}, thirteen, players=names, rules={"elimination": 100})


@pytest.mark.parametrize("players,ok", [(1, False), (2, True), (6, True), (7, False)])
def test_kalooki_two_to_six_players(players, ok):
    names = [f"P{i}" for i in range(players)]
    if ok:
        assert kalooki_game(players=names)["winners"] == []
    else:
        with pytest.raises(GameFileError, match="2 to 6 players"):
            kalooki_game(players=names)


# ---------------------------------------------------------------------------------------
# Conquian: "each hand is a stake"; a tableau raises the next decided hand's stake.


@pytest.mark.parametrize(
    "rounds,scores,totals",
    [
        ([out("A")], [{"A": 1, "B": -1}], {"A": 1, "B": -1}),
        ([out("B", A="S2")], [{"A": -1, "B": 1}], {"A": -1, "B": 1}),
        ([STALEMATE, out("A")], [{"A": 0, "B": 0}, {"A": 2, "B": -2}], {"A": 2, "B": -2}),
        ([STALEMATE, STALEMATE, out("B")], [{"A": 0, "B": 0}] * 2 + [{"A": -3, "B": 3}], {"A": -3, "B": 3}),
        # The stake goes back to 1 after a decided hand: "1 + the tableaus just before it".
        ([STALEMATE, out("A"), out("A")], [{"A": 0, "B": 0}, {"A": 2, "B": -2}, {"A": 1, "B": -1}], {"A": 3, "B": -3}),
        ([STALEMATE, out("A"), STALEMATE, STALEMATE, out("B")],
         [{"A": 0, "B": 0}, {"A": 2, "B": -2}, {"A": 0, "B": 0}, {"A": 0, "B": 0}, {"A": -3, "B": 3}],
         {"A": -1, "B": 1}),
    ],
)
def test_conquian_stakes_and_tableaus(rounds, scores, totals):
    result = conquian_game(*rounds)
    assert [r["scores"] for r in result["rounds"]] == scores
    assert result["totals"] == totals


def test_conquian_detail_shows_the_stake_and_the_tableau():
    result = conquian_game(STALEMATE, out("A"))
    assert "the next decided hand is worth 2" in result["rounds"][0]["detail"]["A"]["story"][0]
    assert result["rounds"][1]["detail"]["B"] == {"score": -2, "stake": 2, "story": ["lost a hand at stake 2"]}


def test_conquian_target_defaults_to_none_and_the_match_plays_on():
    assert conquian.resolve_rules({}, 2)["target"] is None
    result = conquian_game(*[out("A")] * 12)
    assert result["totals"] == {"A": 12, "B": -12}
    assert result["winners"] == []
    assert result["status"] == "in progress"


@pytest.mark.parametrize(
    "rounds,target,winners",
    [
        ([out("A")], 2, []),
        ([out("A"), out("A")], 2, ["A"]),
        ([STALEMATE, out("B")], 2, ["B"]),  # a tableau raises the stake: 2 in one hand
        ([out("A")], 1, ["A"]),
        ([out("A"), out("B"), out("B"), out("B")], 2, ["B"]),
    ],
)
def test_conquian_target_in_stakes(rounds, target, winners):
    result = conquian_game(*rounds, rules={"target": target})
    assert result["winners"] == winners


def test_conquian_no_hand_after_the_match_is_won():
    with pytest.raises(GameFileError, match=r"^round 2: the game was already over after round 1"):
        conquian_game(out("A"), out("B"), rules={"target": 1})


@pytest.mark.parametrize("text", ["S8", "H9", "D10", "10c", "9S"])
def test_conquian_deck_has_no_8_9_10(text):
    with pytest.raises(GameFileError, match=r"^round 1, hands of B: .*this game's deck has no"):
        conquian_game(out("A", B=text))


@pytest.mark.parametrize("text", ["S7", "HJ", "DA", "CK"])
def test_conquian_deck_keeps_7_and_j(text):
    assert conquian_game(out("A", B=text))["totals"] == {"A": 1, "B": -1}


CONQUIAN_ILLEGAL = [
    ("second-copy", [out("A", B="S7 S7")], {}, r"^round 1, hands of B: S7 appears 2 times"),
    ("joker", [out("A", B="JK")], {}, r"^round 1, hands of B: JK"),
    ("out-holds-cards", [out("A", A="S2")], {}, r"^round 1: A went out, so cannot still hold S2"),
    ("knocker", [{"knocker": "A"}], {}, r"^round 1: only Gin rounds end with a knock"),
    ("unknown-rule", [], {"stakes": 3}, r"^rules: unknown rule 'stakes' for conquian"),
    ("bad-target", [], {"target": 0}, r"^rules: rule 'target' cannot be 0"),
    ("earlier-round-unfinished", [{}, out("A")], {}, r"^round 1: has no hands, but only the last round"),
]


@pytest.mark.parametrize("rounds,rules,message", [c[1:] for c in CONQUIAN_ILLEGAL],
                         ids=[c[0] for c in CONQUIAN_ILLEGAL])
def test_conquian_illegal_rounds(rounds, rules, message):
    with pytest.raises(GameFileError, match=message):
        conquian_game(*rounds, rules=rules)


# docs/rules/conquian.md: A hand never holds more than 10 cards (a card taken is melded at
# once), and the two hands with the winner's melds never hold more than the 40 cards.
CONQUIAN_RANKS = "A 2 3 4 5 6 7 J Q K".split()
SPADES, HEARTS, DIAMONDS, CLUBS = (" ".join(s + r for r in CONQUIAN_RANKS) for s in "SHDC")
ELEVEN = SPADES + " HA"
THIRTY = " ".join([SPADES, HEARTS, DIAMONDS])
FORTY = " ".join([SPADES, HEARTS, DIAMONDS, CLUBS])


def tableau(**hands):
    return {"stalemate": True, "hands": {p: t.split() for p, t in hands.items()}}


CONQUIAN_HAND_SIZES = [
    ("loser-holds-11", out("A", B=ELEVEN),
     "round 1: B's hand has 11 cards, but Conquian deals 10 each and a card taken is melded at once"),
    ("loser-holds-30-beside-the-winners-11", out("A", B=THIRTY),
     "round 1: B's hand has 30 cards beside the 11 A melded: 41 cards, but the Conquian pack has 40"),
    ("winner-b-loser-holds-11", out("B", A=ELEVEN),
     "round 1: A's hand has 11 cards, but Conquian deals 10 each and a card taken is melded at once"),
    ("tableau-hand-holds-all-40", tableau(A=FORTY),
     "round 1: A's hand has 40 cards, but Conquian deals 10 each and a card taken is melded at once"),
    ("tableau-hand-holds-11", tableau(A=CLUBS, B=ELEVEN),
     "round 1: B's hand has 11 cards, but Conquian deals 10 each and a card taken is melded at once"),
    ("unfinished-hand-holds-11", {"hands": {"B": ELEVEN.split()}},
     "round 1: B's hand has 11 cards, but Conquian deals 10 each and a card taken is melded at once"),
]


@pytest.mark.parametrize("round_,message", [c[1:] for c in CONQUIAN_HAND_SIZES],
                         ids=[c[0] for c in CONQUIAN_HAND_SIZES])
def test_conquian_refuses_a_hand_bigger_than_ten_or_more_cards_than_the_pack(round_, message):
    with pytest.raises(GameFileError) as refused:
        conquian_game(round_)
    assert str(refused.value) == message


@pytest.mark.parametrize("round_,scores", [
    (out("A", B=SPADES), {"A": 1, "B": -1}),  # ten in hand and the winner's eleven: 21 of 40
    (out("B", A=HEARTS), {"A": -1, "B": 1}),
    (tableau(A=SPADES, B=HEARTS), {"A": 0, "B": 0}),  # a tableau: ten each
])
def test_conquian_takes_hands_of_ten(round_, scores):
    assert conquian_game(round_)["rounds"][0]["scores"] == scores


def test_conquian_hand_sizes_are_checked_by_the_library():
    game = conquian.Game(["A", "B"], conquian.resolve_rules({}, 2))
    with pytest.raises(IllegalPlay, match=r"^B's hand has 11 cards, but Conquian deals 10 each"):
        game.play(HandRound(out="A", hands={"B": cards(ELEVEN)}, has_hands=True))
    assert game.totals == {"A": 0, "B": 0}  # a refused hand scores nothing


def test_conquian_is_for_two():
    with pytest.raises(GameFileError, match="not 3"):
        gamefile.score_document(game("conquian"))


def test_conquian_hands_may_be_left_out_and_a_last_round_may_be_unfinished():
    result = conquian_game({"out": "A"}, STALEMATE, {})
    assert result["rounds"][0]["scores"] == {"A": 1, "B": -1}
    assert result["rounds"][2]["finished"] is False
    assert result["totals"] == {"A": 1, "B": -1}


# ---------------------------------------------------------------------------------------
# Manipulation Rummy: "ace 15, 10 J Q K 10, others 5"; lowest total wins at the target.


@pytest.mark.parametrize(
    "text,value",
    [("SA", 15), ("HK", 10), ("DQ", 10), ("CJ", 10), ("S10", 10), ("S9", 5), ("H5", 5), ("D2", 5)],
)
def test_manipulation_card_values(text, value):
    assert manipulation.card_value(card(text)) == value


def test_manipulation_round_scores_penalties():
    result = manipulation_game(out("A", B="SA SK S9", C="S2"))
    assert result["rounds"][0]["scores"] == {"A": 0, "B": 30, "C": 5}
    assert result["rounds"][0]["detail"]["B"]["cards"] == [
        {"card": "SA", "points": 15}, {"card": "SK", "points": 10}, {"card": "S9", "points": 5}]


def test_manipulation_target_is_200_with_300_as_an_option():
    assert manipulation.resolve_rules({}, 3)["target"] == 200
    assert manipulation.resolve_rules({"target": 300}, 3)["target"] == 300


TWO_ROUNDS_B_200 = [
    out("A", B=ACES_AND_KINGS_100, C="S2"),
    out("C", A="S3 S4", B=ACES_AND_KINGS_100),
]


@pytest.mark.parametrize(
    "rounds,rules,totals,winners",
    [
        (TWO_ROUNDS_B_200[:1], {}, {"A": 0, "B": 100, "C": 5}, []),
        (TWO_ROUNDS_B_200, {}, {"A": 10, "B": 200, "C": 5}, ["C"]),  # B reaches 200: lowest wins
        (TWO_ROUNDS_B_200, {"target": 300}, {"A": 10, "B": 200, "C": 5}, []),
        (TWO_ROUNDS_B_200[:1], {"target": 100}, {"A": 0, "B": 100, "C": 5}, ["A"]),
        # ties share the win
        ([TWO_ROUNDS_B_200[0], out("C", A="S3", B=ACES_AND_KINGS_100)], {}, {"A": 5, "B": 200, "C": 5}, ["A", "C"]),
        ([TWO_ROUNDS_B_200[0], STALEMATE], {}, {"A": 0, "B": 100, "C": 5}, []),
    ],
)
def test_manipulation_lowest_total_wins_once_someone_reaches_the_target(rounds, rules, totals, winners):
    result = manipulation_game(*rounds, rules=rules)
    assert result["totals"] == totals
    assert result["winners"] == winners


def test_manipulation_tied_winners_share_the_status():
    result = manipulation_game(TWO_ROUNDS_B_200[0], out("C", A="S3", B=ACES_AND_KINGS_100))
    assert result["status"] == "A and C win"


def test_manipulation_library_game():
    g = manipulation.Game(["A", "B", "C"], manipulation.resolve_rules({}, 3))
    score = g.play(HandRound(out="A", hands={"B": cards("SA S10")}, has_hands=True))
    assert score.scores == {"A": 0, "B": 25, "C": 0}
    assert (g.over, g.winners) == (False, [])


MANIPULATION_ILLEGAL = [
    ("third-copy", [out("A", B="S9 S9", C="S9")], {}, r"^round 1, hands of C: S9 appears 3 times"),
    ("joker", [out("A", B="JK")], {}, r"^round 1, hands of B: JK"),
    ("out-holds-cards", [out("A", A="S2")], {}, r"^round 1: A went out, so cannot still hold S2"),
    ("knocker", [{"knocker": "A", "hands": {}}], {}, r"^round 1: only Gin rounds end with a knock"),
    ("unknown-rule", [], {"discard": True}, r"^rules: unknown rule 'discard' for manipulation"),
    ("round-after-game-over", TWO_ROUNDS_B_200 + [out("A")], {}, r"^round 3: the game was already over"),
]


@pytest.mark.parametrize("rounds,rules,message", [c[1:] for c in MANIPULATION_ILLEGAL],
                         ids=[c[0] for c in MANIPULATION_ILLEGAL])
def test_manipulation_illegal_rounds(rounds, rules, message):
    with pytest.raises(GameFileError, match=message):
        manipulation_game(*rounds, rules=rules)


@pytest.mark.parametrize("players,ok", [(2, False), (3, True), (5, True), (6, False)])
def test_manipulation_three_to_five_players(players, ok):
    names = [f"P{i}" for i in range(players)]
    if ok:
        assert manipulation_game(players=names)["totals"] == {n: 0 for n in names}
    else:
        with pytest.raises(GameFileError, match="3 to 5 players"):
            manipulation_game(players=names)


@pytest.mark.parametrize("key, rules, ending", [
    ("kalooki", {"elimination": 40}, (40, "elimination")),
    ("manipulation", {"target": 300}, (300, "target")),
    ("conquian", {}, None),  # no target: the match goes on
    ("conquian", {"target": 3}, (3, "target")),
    ("iceberg", {}, (5000, "target")),
])
def test_the_total_that_ends_each_game(key, rules, ending):
    variant = registry.VARIANTS[key]
    assert variant.ending_total(variant.rules.resolve(rules, variant.min_players)) == ending


def test_each_counted_game_s_deck():
    conquian_deck = registry.VARIANTS["conquian"].deck()
    assert sum(conquian_deck.values()) == 40 and not [c for c in conquian_deck if c.rank in (8, 9, 10)]
    kalooki_deck = registry.VARIANTS["kalooki"].deck()
    assert sum(kalooki_deck.values()) == 104 + kalooki.JOKERS and kalooki_deck[parse_cards(["S7"])[0]] == 2
    assert sum(registry.VARIANTS["gin"].deck().values()) == 52
