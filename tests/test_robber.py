"""Robber Rummy (docs/rules/robber.md; Howard Fosdick's rules): melds, the chart, steals, partners,
reneges and the game to 400, through the library and through the game file."""
import json
from types import SimpleNamespace

import pytest
from games_data import layoff, meld, out

from scorekeeper import gamefile
from scorekeeper.games import robber
from scorekeeper.games.cards import CardError, parse_cards
from scorekeeper.games.errors import GameFileError, IllegalPlay
from tests.conftest import EXAMPLES

TEAMS = {"A": "A & C", "C": "A & C", "B": "B & D", "D": "B & D"}
FULL_SPADES = "SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA"


def cards(text):
    return parse_cards(text.split()) if text else []


def meld_of(text):
    return robber.make_meld(cards(text))


def new_round(players="A B", teams=None, **rules):
    names = players.split()
    return robber.Round(names, robber.resolve_rules(rules, len(names)), teams)


def play(round_, player, kind, arg=None):
    """One logged play: ("A", "meld", "H9 H10 HJ"), ("B", "layoff", (1, "HQ")), ("A", "out")."""
    if kind == "meld":
        return round_.meld(player, cards(arg))
    if kind == "layoff":
        number, laid = arg
        return round_.lay_off(player, number, cards(laid))
    assert kind == "out"
    return round_.go_out(player)


def played(events, players="A B", teams=None, **rules):
    round_ = new_round(players, teams, **rules)
    for event in events:
        play(round_, *event)
    return round_


def scores(round_, hands, renege=(), teams=None):
    """Each player's score for the hand (the team's, for partners); None = hand unfinished."""
    own = {
        p: robber.score_player(round_, p, None if hands is None else cards(hands.get(p, "")), p in renege).score
        for p in round_.players
    }
    return robber.side_scores(round_.players, own, teams or {})


# ---------------------------------------------------------------------------------------
# The game file.


def game(*rounds, players=("A", "B"), rules=None, teams=None):
    return {
        "format": "scorekeeper/1",
        "variant": "robber",
        "rules": rules or {},
        "players": list(players),
        "teams": teams,
        "rounds": list(rounds),
    }


def round_(*events, hands=None, renege=None):
    data = {"events": list(events)}
    if hands is not None:
        data["hands"] = {p: text.split() for p, text in hands.items()}
    if renege is not None:
        data["renege"] = renege
    return data


def score(*rounds, **fields):
    return gamefile.score_document(game(*rounds, **fields))


# ---------------------------------------------------------------------------------------
# The chart and the seed's own numbers.


@pytest.mark.parametrize(
    "text,points",
    [
        ("H4 S4 C4", 15),  # seed: "4-Hearts, 4-Spades, and 4-Clubs is worth 5 + 5 + 5 ... +15"
        ("S9 S10 SJ SQ SK SA", 120),  # seed: "9-10-J-Q-K-A is worth ... times 2, or +120"
        ("H9 H10 HJ", 50),  # seed: "9-10-J in Hearts ... times 2 or +50"
        ("SJ HJ DJ", 30),  # docs/rules/robber.md: K Q J 10 → 10, sets single
        ("S10 H10 D10 C10", 40),
        ("S2 H2 D2", 15),  # 9 down to 2 → 5
        ("SA HA DA", 45),  # "Ace high (in a sequence after K, or in a set of aces) 15"
        ("S2 S3 S4", 30),  # sequences double
        ("SJ SQ SK", 60),
        ("SQ SK SA", 70),  # the high ace doubled: 2 × 15
    ],
)
def test_meld_values_follow_the_chart(text, points):
    assert meld_of(text).value(robber.resolve_rules({}, 2)) == points


@pytest.mark.parametrize(
    "hand,points",
    [
        ("S2 H3 D4 C5 SJ HA", -45),  # seed: "2, 3, 4, 5, Jack, Ace ... -45 points total"
        ("D2 SA CQ CK CA", -55),  # seed: "-5 + -15 + -10 + -10 + -15 or -55 points"
        ("S10", -10),
        ("S9", -5),
        ("SA HA", -30),  # "Penalty card values are never doubled. Aces in hand are always valued as high."
    ],
)
def test_cards_left_in_hand_cost_the_chart_never_doubled(hand, points):
    assert scores(new_round(), {"A": hand})["A"] == points


@pytest.mark.parametrize("ace_low", [0, 1, 5])
def test_an_ace_in_hand_is_always_high_whatever_ace_low(ace_low):
    assert scores(new_round(ace_low=ace_low), {"A": "SA"})["A"] == -15


def test_seed_example_owned_hearts_with_five_cards_in_hand_is_minus_5():
    # seed: "+50 points for his table meld ... -55 points. ... 50 + -55 = -5 points."
    round_ = played([("A", "meld", "H9 H10 HJ"), ("B", "meld", "H4 S4 C4"), ("B", "out")])
    assert scores(round_, {"A": "D2 SA CQ CK CA"}) == {"A": -5, "B": 15}


def test_public_example_robber_seed_chart():
    doc = json.loads((EXAMPLES / "robber-seed-chart.json").read_text())
    expected = json.loads((EXAMPLES / "robber-seed-chart.expected.json").read_text())
    result = gamefile.score_document(doc)
    assert [r["scores"] for r in result["rounds"]] == [r["scores"] for r in expected["rounds"]]
    assert result["totals"] == expected["totals"] == {"A": -5, "B": 135}
    assert result["winners"] == expected["winners"] == []


def test_public_example_detail_explains_every_card_and_meld():
    result = gamefile.score_document(json.loads((EXAMPLES / "robber-seed-chart.json").read_text()))
    a = result["rounds"][0]["detail"]["A"]
    assert a["meld_points"] == 50
    assert a["hand_points"] == -55
    assert a["hand"] == ["SA", "D2", "CA", "CQ", "CK"]  # sorted by suit, then rank
    assert "SA: left in hand −15" in a["story"]
    assert a["own_score"] == -5


# ---------------------------------------------------------------------------------------
# Aces low or high (docs/rules/robber.md: ace low (before 2) option ace_low default 5).


@pytest.mark.parametrize(
    "text,rules,points",
    [
        ("SA S2 S3", {}, 30),  # 2 × (5 + 5 + 5)
        ("SA S2 S3", {"ace_low": 1}, 22),  # "some tables 1": 2 × (1 + 5 + 5)
        ("SA S2 S3", {"ace_low": 0}, 20),
        ("SQ SK SA", {"ace_low": 1}, 70),  # a high ace is 15 whatever ace_low says
        ("SA HA DA", {"ace_low": 1}, 45),  # an ace in a set is high
        (FULL_SPADES, {}, 200),  # 2 × (5 + 8 × 5 + 4 × 10 + 15)
        (FULL_SPADES, {"ace_low": 1}, 192),
    ],
)
def test_ace_low_option_prices_only_the_low_ace(text, rules, points):
    assert meld_of(text).value(robber.resolve_rules(rules, 2)) == points


def test_ace_low_is_a_house_value_defaulting_to_5():
    option = robber.RULES.options["ace_low"]
    assert option.default == 5
    assert option.house_value


@pytest.mark.parametrize(
    "text,positions",
    [
        ("SA S2 S3", (1, 2, 3)),
        ("S3 SA S2", (1, 2, 3)),  # any order in the log
        ("SQ SK SA", (12, 13, 14)),
        ("SA SQ SK", (12, 13, 14)),
        (FULL_SPADES, tuple(range(1, 15))),  # "A-2-3-...-K-A. This is also the maximum length"
    ],
)
def test_sequences_place_the_ace_low_or_high(text, positions):
    meld = meld_of(text)
    assert meld.kind == robber.SEQUENCE
    assert meld.positions == positions


@pytest.mark.parametrize(
    "meld_text,added,positions",
    [
        ("S2 S3 S4", "SA", (1, 2, 3, 4)),
        ("SJ SQ SK", "SA", (11, 12, 13, 14)),
        ("SA S2 S3", "S4", (1, 2, 3, 4)),
        ("SQ SK SA", "SJ", (11, 12, 13, 14)),
        # Both ends are open: an ace laid on 2 … K goes high, as a new meld's would.
        ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", "SA", tuple(range(2, 15))),
        ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", "SA SA", tuple(range(1, 15))),
        ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA", "SA", tuple(range(1, 15))),
    ],
)
def test_lay_offs_grow_a_sequence_at_either_end(meld_text, added, positions):
    assert robber.lay_off(meld_of(meld_text), cards(added)).positions == positions


def test_a_full_ace_to_ace_sequence_is_locked_and_scores_200():
    round_ = played([("A", "meld", FULL_SPADES), ("A", "out")])
    assert round_.melds[0].meld.locked
    assert scores(round_, {}) == {"A": 200, "B": 0}


# docs/rules/robber.md: An ace keeps the end it was placed at: a sequence A-2-3 grown
# up to K keeps its ace low (and may still take a second ace high); only where a new
# ace could be read at either end (A through K laid at once, or a lone ace laid on 2 … K)
# does it count high.
ACE_TO_Q = "SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ"
ACE_TO_J = "SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ"
ACE_TO_K = ACE_TO_Q + " SK"


@pytest.mark.parametrize(
    "meld_text,lay_offs,positions,points",
    [
        # A-2-…-K is not around the corner (K-A-2 is): the ace stays low, 2 × (5 + 40 + 40)
        (ACE_TO_Q, ["SK"], tuple(range(1, 14)), 170),
        (ACE_TO_J, ["SK SQ"], tuple(range(1, 14)), 170),
        ("SA S2 S3", ["S4 S5 S6 S7 S8 S9 S10 SJ SQ SK"], tuple(range(1, 14)), 170),
        ("SA S2 S3", ["S4", "S5 S6", "S7 S8 S9 S10", "SJ", "SQ", "SK"], tuple(range(1, 14)), 170),
        # … and it can still take a second ace, high: the whole suit, 2 × (5 + 40 + 40 + 15)
        (ACE_TO_Q, ["SK", "SA"], tuple(range(1, 15)), 200),
        (ACE_TO_Q, ["SK SA"], tuple(range(1, 15)), 200),
        ("SA S2 S3", ["S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA"], tuple(range(1, 15)), 200),
        # the same thirteen cards laid down at once read the ace high: 2 × (40 + 40 + 15)
        (ACE_TO_K, [], tuple(range(2, 15)), 190),
        (ACE_TO_K, ["SA"], tuple(range(1, 15)), 200),
        # a lone ace laid on 2 … K fits either end: it reads high, as A … K laid at once
        ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", ["SA"], tuple(range(2, 15)), 190),
    ],
)
def test_an_ace_keeps_the_end_it_was_placed_at(meld_text, lay_offs, positions, points):
    meld = meld_of(meld_text)
    for laid in lay_offs:
        meld = robber.lay_off(meld, cards(laid))
    assert meld.positions == positions
    assert meld.value(robber.resolve_rules({}, 2)) == points


@pytest.mark.parametrize("ace_low,points", [(5, 170), (1, 162), (0, 160)])
def test_a_sequence_grown_to_the_king_prices_its_ace_low(ace_low, points):
    meld = robber.lay_off(meld_of(ACE_TO_Q), cards("SK"))
    assert meld.value(robber.resolve_rules({"ace_low": ace_low}, 2)) == points


def test_a_sequence_grown_from_the_low_ace_to_the_king_in_the_file():
    result = score(round_(meld("A", ACE_TO_Q), layoff("A", 1, "SK"), out("A"), hands={"B": "H2"}))
    rnd = result["rounds"][0]
    assert rnd["scores"] == {"A": 170, "B": -5}
    assert rnd["detail"]["A"]["melds"][0]["cards"] == ACE_TO_K.split()
    assert rnd["detail"]["A"]["melds"][0]["locked"] is False


@pytest.mark.parametrize(
    "events,extenders,locked",
    [
        # ace low grown to K: only the second ace (high) could still come
        ([("A", "meld", ACE_TO_Q), ("B", "layoff", (1, "SK"))], "SA", False),
        # … and once the other spade ace is in a set, no card is left to add
        ([("A", "meld", ACE_TO_Q), ("B", "layoff", (1, "SK")), ("A", "meld", "SA HA DA")], "SA", True),
        # the second ace laid high: the whole suit, A to A
        ([("A", "meld", ACE_TO_Q), ("B", "layoff", (1, "SK")), ("A", "layoff", (1, "SA"))], "", True),
        # A through K laid at once reads its ace high: the other ace could still go low
        ([("A", "meld", ACE_TO_K)], "SA", False),
    ],
)
def test_extenders_and_locked_for_a_sequence_from_ace_to_king(events, extenders, locked):
    round_ = played(events)
    assert round_.extenders(1) == tuple(cards(extenders))
    assert round_.locked(1) is locked
    assert round_.melds[0].meld.locked is (round_.melds[0].meld.positions == tuple(range(1, 15)))


# ---------------------------------------------------------------------------------------
# Sets: up to 8 with both decks, repeated cards allowed.


@pytest.mark.parametrize(
    "text,points,locked",
    [
        ("H3 H3 S3", 15, False),
        ("H3 H3 S3 S3", 20, False),
        ("H3 H3 S3 S3 C3 C3 D3", 35, False),
        ("H3 H3 S3 S3 C3 C3 D3 D3", 40, True),  # seed: "a set meld of 8-of-a-kind cannot be stolen"
        ("SK SK HK HK DK DK CK CK", 80, True),
    ],
)
def test_sets_take_repeated_cards_up_to_eight(text, points, locked):
    meld = meld_of(text)
    assert meld.kind == robber.SET
    assert meld.value(robber.resolve_rules({}, 2)) == points
    assert meld.locked is locked


def test_a_set_grows_to_eight_by_lay_offs_and_no_further():
    round_ = played([("A", "meld", "H3 S3 C3"), ("B", "layoff", (1, "D3 H3 S3")), ("A", "layoff", (1, "C3 D3"))])
    assert len(round_.melds[0].meld.cards) == 8
    assert round_.melds[0].meld.locked
    with pytest.raises(CardError, match="H3"):
        round_.lay_off("B", 1, cards("H3"))


def test_a_ninth_card_of_a_rank_in_the_file_is_refused_naming_the_round():
    with pytest.raises(GameFileError, match=r"^round 1, hands of B: .*S3 appears 3 times"):
        score(round_(meld("A", "H3 H3 S3 S3 C3 C3 D3 D3"), out("A"), hands={"B": "S3"}))


# ---------------------------------------------------------------------------------------
# What is not a meld, or does not fit one.


@pytest.mark.parametrize(
    "text",
    [
        "SK SA S2",  # "not 'around the corner' (eg, K-A-2)"
        "SQ SK SA S2",
        "SK SA S2 S3",
        "S2 S3",  # three or more
        "S2 H3 S4",  # one suit
        "S2 S3 S5",  # in sequence
        "S2 S2 S3 S4",  # a repeated card makes no sequence
        "SA S2 S3 SA",  # two aces but not the full A-to-A
    ],
)
def test_not_melds_are_refused(text):
    with pytest.raises(IllegalPlay, match="not a meld"):
        meld_of(text)


@pytest.mark.parametrize(
    "meld_text,added",
    [
        ("SQ SK SA", "S2"),  # around the corner
        ("SA S2 S3", "SK"),
        ("SQ SK SA", "SA"),  # a second ace would need the whole suit between
        ("S4 S5 S6", "S8"),  # only at the ends
        ("S4 S5 S6", "H7"),
        ("S4 S5 S6", "S5"),
        ("H3 S3 C3", "H4"),
    ],
)
def test_lay_offs_that_do_not_fit_are_refused(meld_text, added):
    with pytest.raises(IllegalPlay, match="does not fit"):
        robber.lay_off(meld_of(meld_text), cards(added))


def test_around_the_corner_in_the_file_names_round_and_event():
    with pytest.raises(GameFileError, match=r"^round 1, event 2: S2 does not fit SQ SK SA"):
        score(round_(meld("A", "SQ SK SA"), layoff("B", 1, "S2")))


# ---------------------------------------------------------------------------------------
# Ownership, steals and steal-backs.


def test_adding_to_a_meld_someone_else_owns_steals_it():
    # seed: "Player A lays down a Spades sequence of 9-10-J-Q ... Player B steals the meld by
    # adding the King and Ace of Spades to it."
    round_ = played([("A", "meld", "S9 S10 SJ SQ"), ("B", "layoff", (1, "SK SA")), ("B", "out")])
    table = round_.melds[0]
    assert table.owner == "B"
    assert table.history == ["made by A", "stolen by B from A with SK SA"]
    assert round_.plays[1].stolen_from == "A"
    assert scores(round_, {}) == {"A": 0, "B": 120}


def test_steal_back_returns_the_meld_to_its_maker():
    # seed: "You play Hearts 3-4-5 ... keep in hand your 2-Hearts. Should your opponent steal
    # this meld with a 6-Hearts, you can then steal it back again by playing your 2-Hearts."
    round_ = played([("A", "meld", "H3 H4 H5"), ("B", "layoff", (1, "H6")), ("A", "layoff", (1, "H2")), ("A", "out")])
    table = round_.melds[0]
    assert table.owner == "A"
    assert table.history == ["made by A", "stolen by B from A with H6", "stolen by A from B with H2"]
    assert [p.stolen_from for p in round_.plays[1:3]] == ["A", "B"]
    assert scores(round_, {"B": "S9"}) == {"A": 50, "B": -5}


def test_adding_to_your_own_meld_is_not_a_steal():
    round_ = played([("A", "meld", "H3 H4 H5"), ("A", "layoff", (1, "H6"))])
    assert round_.melds[0].owner == "A"
    assert round_.melds[0].history == ["made by A", "A added H6"]
    assert round_.plays[1].stolen_from is None


def test_only_melds_owned_when_the_hand_ends_score():
    events = [
        ("A", "meld", "H4 S4 C4"),  # 15
        ("A", "meld", "D9 D10 DJ"),  # 50
        ("B", "layoff", (2, "DQ")),  # B steals: 2 × (5 + 10 + 10 + 10) = 70
        ("B", "out"),
    ]
    assert scores(played(events), {"A": "S2"}) == {"A": 15 - 5, "B": 70}


def test_steals_in_the_file_show_in_the_owners_detail():
    result = score(
        round_(meld("A", "S9 S10 SJ SQ"), layoff("B", 1, "SK SA"), out("B"), hands={"A": "H2"})
    )
    detail = result["rounds"][0]["detail"]
    assert result["rounds"][0]["scores"] == {"A": -5, "B": 120}
    assert detail["A"]["melds"] == []
    assert detail["B"]["melds"] == [{
        "meld": 1, "cards": ["S9", "S10", "SJ", "SQ", "SK", "SA"], "value": 120,
        "history": ["made by A", "stolen by B from A with SK SA"], "locked": False,
    }]


# ---------------------------------------------------------------------------------------
# Partnerships (docs/rules/robber.md: "4 in two partnerships"; "Partners add their scores").


def test_a_lay_off_on_a_partners_meld_is_not_a_steal():
    round_ = played([("A", "meld", "H3 H4 H5"), ("C", "layoff", (1, "H6"))], "A B C D", TEAMS)
    assert round_.melds[0].owner == "A"
    assert round_.melds[0].history == ["made by A", "C added H6"]
    assert round_.plays[1].stolen_from is None


def test_an_opponent_steals_from_a_partnership():
    round_ = played([("A", "meld", "H3 H4 H5"), ("C", "layoff", (1, "H6")), ("D", "layoff", (1, "H7"))],
                    "A B C D", TEAMS)
    assert round_.melds[0].owner == "D"
    assert round_.plays[2].stolen_from == "A"


def test_partners_add_their_scores_and_each_shows_the_team_score():
    events = [("A", "meld", "H4 S4 C4"), ("C", "meld", "SJ SQ SK"), ("B", "meld", "D2 D3 D4"), ("B", "out")]
    round_ = played(events, "A B C D", TEAMS)
    # A 15 − 5 (S9); C 60 − 10 (HK); B 30; D − 15 (DA): seed "the card points still in his
    # partner's hand count against the partnership"
    hands = {"A": "S9", "C": "HK", "D": "DA"}
    assert scores(round_, hands, teams=TEAMS) == {"A": 60, "C": 60, "B": 15, "D": 15}


def test_partnership_file_repeats_the_team_score_for_each_member():
    result = score(
        round_(meld("A", "H4 S4 C4"), meld("C", "SJ SQ SK"), meld("B", "D2 D3 D4"), layoff("D", 1, "D4"),
               out("B"), hands={"A": "S9", "C": "HK", "D": "DA"}),
        players=("A", "B", "C", "D"), teams=[["A", "C"], ["B", "D"]],
    )
    # D steals A's fours (now 20): A −5, C 50 → 45; B 30, D 20 − 15 → 35
    assert result["rounds"][0]["scores"] == {"A": 45, "B": 35, "C": 45, "D": 35}
    assert result["totals"] == {"A": 45, "B": 35, "C": 45, "D": 35}
    assert result["rounds"][0]["detail"]["D"]["own_score"] == 5
    assert result["teams"] == [["A", "C"], ["B", "D"]]


TEAM_ERRORS = [
    ("three-teams-of-one", ["A", "B", "C", "D"], [["A", "C"], ["B"], ["D"]], "two teams of two"),
    ("one-team", ["A", "B", "C", "D"], [["A", "B", "C", "D"]], "two teams of two"),
    ("unknown-player", ["A", "B", "C", "D"], [["A", "C"], ["B", "E"]], "'E'"),
    ("player-left-out", ["A", "B", "C", "D"], [["A", "C"], ["B"]], "exactly one team"),
    ("player-twice", ["A", "B", "C", "D"], [["A", "C"], ["C", "B"]], "exactly one team"),
    ("three-players", ["A", "B", "C"], [["A", "B"], ["C"]], "4 players"),
    ("five-players", ["A", "B", "C", "D", "E"], [["A", "B"], ["C", "D", "E"]], "4 players"),
    ("not-a-list", ["A", "B", "C", "D"], "A C / B D", "list of lists"),
    ("not-names", ["A", "B", "C", "D"], [["A", 1], ["B", "D"]], "list of lists"),
    ("empty-team", ["A", "B", "C", "D"], [["A", "B", "C", "D"], []], "list of lists"),
]


@pytest.mark.parametrize("players,teams,words", [c[1:] for c in TEAM_ERRORS], ids=[c[0] for c in TEAM_ERRORS])
def test_teams_must_be_two_pairs_of_the_four_players(players, teams, words):
    with pytest.raises(GameFileError, match=r"^teams") as error:
        score(players=players, teams=teams)
    assert words in str(error.value)


# ---------------------------------------------------------------------------------------
# Reneging (docs/rules/robber.md: scores exactly −renege_penalty ... for the hand).


@pytest.mark.parametrize("rules,expected", [({}, -100), ({"renege_penalty": 50}, -50), ({"renege_penalty": 0}, 0)])
def test_renege_scores_exactly_minus_the_penalty(rules, expected):
    # A owns 120 in melds and holds 45 in hand: neither counts once A reneges.
    round_ = played([("A", "meld", "S9 S10 SJ SQ SK SA"), ("B", "meld", "H4 S4 C4"), ("B", "out")], **rules)
    assert scores(round_, {"A": "S2 H3 D4 C5 SJ HA"}, renege={"A"}) == {"A": expected, "B": 15}


def test_renege_in_the_file():
    result = score(
        round_(meld("A", "S9 S10 SJ SQ SK SA"), meld("B", "H4 S4 C4"), out("B"), hands={"A": "S2"}, renege=["A"])
    )
    rnd = result["rounds"][0]
    assert rnd["scores"] == {"A": -100, "B": 15}
    assert rnd["detail"]["A"]["reneged"] is True
    assert rnd["detail"]["A"]["story"] == ["reneged: scores exactly −100 for the hand"]


def test_a_partner_of_a_reneger_adds_their_own_score():
    result = score(
        round_(meld("C", "H4 S4 C4"), meld("B", "D2 D3 D4"), out("B"), hands={"A": "SK", "C": "S2"}, renege=["A"]),
        players=("A", "B", "C", "D"), teams=[["A", "C"], ["B", "D"]], rules={"renege_penalty": 100},
    )
    assert result["rounds"][0]["scores"] == {"A": -90, "B": 30, "C": -90, "D": 30}


# docs/rules/robber.md: in partnership play the team scores its owned melds, minus the
# cards left in the other partner's hand, minus renege_penalty for the partner who reneged
# (whose own hand is not counted). Teams A+C against B+D.
PARTNERS = {"players": ("A", "B", "C", "D"), "teams": [["A", "C"], ["B", "D"]]}
SEVENS = (meld("C", "S7 H7 C7"), layoff("A", 1, "D7"), out("B"))  # A's lay-off: same team, no steal


@pytest.mark.parametrize(
    "events,hands,renege,fields,expected",
    [
        # melds 20 (the sevens) − A's H2 5 − 100 for C's renege = −85 for A and for C
        (SEVENS, {"A": "H2"}, ["C"], PARTNERS, {"A": -85, "B": 0, "C": -85, "D": 0}),
        # C's own hand is not counted: still −85
        (SEVENS, {"A": "H2", "C": "SK SQ"}, ["C"], PARTNERS, {"A": -85, "B": 0, "C": -85, "D": 0}),
        # A reneges instead: the melds (C's) 20 − C's S2 5 − 100; A's own hand not counted
        (SEVENS, {"A": "H2", "C": "S2"}, ["A"], PARTNERS, {"A": -85, "B": 0, "C": -85, "D": 0}),
        # both partners renege: the melds still count, −100 each, no hand counted
        (SEVENS, {"A": "H2", "C": "S2"}, ["A", "C"], PARTNERS, {"A": -180, "B": 0, "C": -180, "D": 0}),
        # a meld the reneger made and the other team stole is theirs: B+D 20, A+C −5 − 100
        ((meld("C", "S7 H7 C7"), layoff("B", 1, "D7"), out("B")), {"A": "H2"}, ["C"], PARTNERS,
         {"A": -105, "B": 20, "C": -105, "D": 20}),
        # without partnerships a renege scores exactly −renege_penalty, melds and hand alike
        ((meld("C", "S7 H7 C7"), out("B")), {"A": "H2", "C": "S2"}, ["C"], {"players": ("A", "B", "C")},
         {"A": -5, "B": 0, "C": -100}),
        ((meld("C", "S7 H7 C7"), layoff("A", 1, "D7"), out("B")), {"C": "S2"}, ["A"],
         {"players": ("A", "B", "C")}, {"A": -100, "B": 0, "C": -5}),
    ],
)
def test_a_renege_in_partnership_play_keeps_the_partnerships_melds(events, hands, renege, fields, expected):
    result = score(round_(*events, hands=hands, renege=renege), **fields)
    assert result["rounds"][0]["scores"] == expected
    assert result["totals"] == expected


def test_a_partnership_renege_in_the_detail_says_what_counts_in_plain_words():
    rnd = score(round_(*SEVENS, hands={"A": "H2", "C": "SK"}, renege=["C"]), **PARTNERS)["rounds"][0]
    c, a = rnd["detail"]["C"], rnd["detail"]["A"]
    assert (c["reneged"], c["meld_points"], c["own_score"]) == (True, 20, -80)
    assert (a["reneged"], a["hand_points"], a["own_score"]) == (False, -5, -5)
    assert c["story"] == [
        "meld 1 S7 H7 D7 C7 (set of sevens, made by C; A added D7): +20",
        "reneged: −100 for the hand; the cards left in C's hand (SK) are not counted, "
        "but in partnership play the melds C holds still count for A & C",
        "score -80",
        "partners add their scores: A & C together",
    ]
    assert a["story"] == ["H2: left in hand −5", "score -5", "partners add their scores: A & C together"]


@pytest.mark.parametrize("renege", [["Z"], "A", [1]])
def test_renege_must_list_players(renege):
    with pytest.raises(GameFileError, match=r"^round 1: renege"):
        score(round_(out("A"), hands={}, renege=renege))


# ---------------------------------------------------------------------------------------
# The game: first to 400, a tie at the top plays on.

FOUR_HUNDRED_EACH = round_(
    meld("A", FULL_SPADES), meld("A", FULL_SPADES.replace("S", "H")),
    meld("B", FULL_SPADES.replace("S", "D")), meld("B", FULL_SPADES.replace("S", "C")),
    out("A"), hands={},
)
FOURS_AND_OUT = round_(meld("A", "H4 S4 C4"), out("A"), hands={"B": "S2"})


def test_target_defaults_to_400():
    assert robber.resolve_rules({}, 2)["target"] == 400


def test_a_tie_at_the_top_plays_on():
    result = score(FOUR_HUNDRED_EACH)
    assert result["totals"] == {"A": 400, "B": 400}
    assert result["winners"] == []
    assert "tie" in result["status"]


def test_the_hand_after_a_tie_decides_the_game():
    result = score(FOUR_HUNDRED_EACH, FOURS_AND_OUT)
    assert result["totals"] == {"A": 415, "B": 395}
    assert result["winners"] == ["A"]
    assert result["status"] == "A wins"


def test_no_hand_after_the_game_is_won():
    with pytest.raises(GameFileError, match=r"^round 3: the game was already over"):
        score(FOUR_HUNDRED_EACH, FOURS_AND_OUT, FOURS_AND_OUT)


@pytest.mark.parametrize(
    "rules,rounds,winners",
    [
        ({}, 1, []),  # 15 is far from 400
        ({"target": 15}, 1, ["A"]),  # reaching the target is enough
        ({"target": 16}, 1, []),
        ({"target": 30}, 2, ["A"]),
    ],
)
def test_first_to_the_target_wins(rules, rounds, winners):
    result = score(*[FOURS_AND_OUT] * rounds, rules=rules)
    assert result["totals"]["A"] == 15 * rounds
    assert result["winners"] == winners


def test_partners_level_at_the_top_are_one_side_and_win_together():
    result = score(
        round_(meld("A", "H4 S4 C4"), meld("C", "D4 C4 S4"), out("A"), hands={}),
        players=("A", "B", "C", "D"), teams=[["A", "C"], ["B", "D"]], rules={"target": 30},
    )
    assert result["totals"] == {"A": 30, "B": 0, "C": 30, "D": 0}
    assert result["winners"] == ["A", "C"]


def test_two_teams_level_at_the_top_play_on():
    result = score(
        round_(meld("A", "H4 S4 C4"), meld("B", "D4 C4 S4"), out("A"), hands={}),
        players=("A", "B", "C", "D"), teams=[["A", "C"], ["B", "D"]], rules={"target": 15},
    )
    assert result["totals"] == {"A": 15, "B": 15, "C": 15, "D": 15}
    assert result["winners"] == []


def test_stock_run_out_counts_every_hand():
    # docs/rules/robber.md: a hand also ends when the last stock card is drawn; no one went out.
    result = score(round_(meld("A", "H4 S4 C4"), hands={"A": "SK", "B": "S2 S3"}))
    assert result["rounds"][0]["scores"] == {"A": 5, "B": -10}
    assert result["rounds"][0]["finished"] is True


def test_an_unfinished_hand_scores_melds_only_and_stays_out_of_totals():
    result = score(FOURS_AND_OUT, round_(meld("B", "D9 D10 DJ")))
    assert result["rounds"][1]["scores"] == {"A": 0, "B": 50}
    assert result["rounds"][1]["finished"] is False
    assert result["totals"] == {"A": 15, "B": -5}


# ---------------------------------------------------------------------------------------
# Illegal files: one GameFileError naming the round.


ILLEGAL = [
    ("out-player-holds-cards", [round_(out("A"), hands={"A": "S2", "B": "S3"})], {}, r"^round 1, hands: A went out"),
    ("third-copy-of-a-card", [round_(meld("A", "S9 S10 SJ"), out("A"), hands={"B": "S9 S9"})], {},
     r"^round 1, hands of B: S9 appears 3 times"),
    ("third-copy-in-melds", [round_(meld("A", "H4 H4 S4"), meld("B", "H4 C4 D4"))], {},
     r"^round 1, event 2: H4 appears 3 times"),
    ("no-jokers", [round_(meld("A", "JK S4 C4"))], {}, r"^round 1, event 1: JK"),
    ("unknown-rule", [], {"jokers": 2}, r"^rules: unknown rule 'jokers'"),
    ("bad-ace-low", [], {"ace_low": -1}, r"^rules: rule 'ace_low'"),
    ("no-such-meld", [round_(meld("A", "H4 S4 C4"), layoff("B", 2, "D4"))], {},
     r"^round 1, event 2: there is no meld 2"),
    ("play-after-out", [round_(out("A"), meld("B", "H4 S4 C4"))], {}, r"^round 1, event 2: the hand is over"),
    ("ace-event", [round_({"type": "ace", "player": "A", "cards": ["SA"]})], {},
     r"^round 1, event 1: unknown event type 'ace'"),
    ("unknown-round-field", [round_(out("A"), hands={}) | {"stalemate": True}], {},
     r"^round 1: unknown field 'stalemate'"),
]


@pytest.mark.parametrize("rounds,rules,message", [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_illegal_files_are_refused_naming_the_round(rounds, rules, message):
    with pytest.raises(GameFileError, match=message):
        score(*rounds, rules=rules)


def test_score_text_reads_the_json():
    result = gamefile.score_text(json.dumps(game(FOURS_AND_OUT)))
    assert result["variant"] == "robber"
    assert result["totals"] == {"A": 15, "B": -5}


def _row(kind, player, cards=""):
    return SimpleNamespace(type=kind, player=player, cards=tuple(cards.split()))


@pytest.mark.parametrize("after, settled", [
    ([], False),                                                   # the pile just taken
    ([_row("meld", "A", "H7 S7 C7")], True),                       # its top card melded by the taker
    ([_row("layoff", "A", "H7")], True),                           # or laid off by the taker
    ([_row("meld", "A", "S2 S3 S4")], False),                      # a meld without it settles nothing
    ([_row("meld", "B", "H7 S7 C7")], False),                      # nor another player's play
    ([_row("renege", "B")], False),                                # nor another player's renege
    ([_row("renege", "A")], True),                                 # the taker reneges: settled
    ([_row("meld", "A", "H7 S7 C7"), _row("take", "B", "D9")], False),   # a second pile taken
])
def test_the_pile_taken_is_pending_until_its_top_card_is_played(after, settled):
    take = _row("take", "A", "H7")
    pending = robber.pending_take([_row("pass", "B"), take, *after])
    if settled:
        assert pending is None
    else:
        assert pending is (after[-1] if after and after[-1].type == "take" else take)


def test_whoever_reneged_logs_nothing_more_that_hand_and_an_older_hand_still_plays():
    """The table refuses a meld, lay-off, pile taken or going out by a player who reneged
    earlier in the hand; a hand logged before that was checked (a meld after the renege)
    still takes the others' plays, and a pass or the stock running out is anyone's."""
    def row(kind, player, cards=()):
        return SimpleNamespace(type=kind, player=player, cards=cards)
    rules = {"renege_penalty": 100}
    for kind, cards in (("meld", ("H9", "H10", "HJ")), ("layoff", ("H5",)), ("take", ("SK",)), ("out", ())):
        with pytest.raises(IllegalPlay, match="Bob reneged this hand and is out of it"):
            robber.check_order([row("renege", "Bob"), row(kind, "Bob", cards)], rules)
    robber.check_order([row("renege", "Bob"), row("meld", "Bob", ("H9", "H10", "HJ")),
                        row("meld", "Cy", ("S2", "S3", "S4")), row("pass", "Bob"), row("stock", "Bob")], rules)
