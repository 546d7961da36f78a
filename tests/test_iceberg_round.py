"""An Iceberg round from its log of plays, the round score and the game (docs/rules/iceberg.md)."""
import pytest

from scorekeeper.games.cards import CardError, parse_cards
from scorekeeper.games.errors import IllegalPlay
from scorekeeper.games.iceberg import (
    Round,
    apply_aces,
    game_state,
    resolve_rules,
    score_round,
    total_scores,
)


def cards(text):
    return parse_cards(text.split()) if text else []


def new_round(players="A B C", **rules):
    names = players.split()
    return Round(names, resolve_rules(rules, len(names)))


def play(round_, player, kind, arg=None):
    """One logged play: ("A", "meld", "S9 S8 S7"), ("C", "layoff", (2, "HJ")), ("A", "out")."""
    if kind == "ace":
        return round_.ace(player, cards(arg))
    if kind == "meld":
        return round_.meld(player, cards(arg))
    if kind == "layoff":
        number, laid = arg
        return round_.lay_off(player, number, cards(laid))
    assert kind == "out"
    return round_.go_out(player)


def played(events, players="A B C", **rules):
    round_ = new_round(players, **rules)
    for event in events:
        play(round_, *event)
    return round_


def hands(**held):
    return {player: cards(text) for player, text in held.items()}


# docs/rules/iceberg.md, "The sources' example, recomputed", one play per row:
# (player, play, cards, points the play scores, everyone's earned points after it).
SEED_STEPS = [
    ("A", "ace", "DA", 0, {"A": 0, "B": 0, "C": 0}),
    ("A", "meld", "S9 S8 S7", 30, {"A": 30, "B": 0, "C": 0}),  # "S9 S8 S7 (30)"
    ("B", "meld", "DJ CJ", 10, {"A": 30, "B": 10, "C": 0}),  # "pair DJ CJ (10)"
    ("C", "ace", "HA", 0, {"A": 30, "B": 10, "C": 0}),
    ("C", "layoff", (2, "HJ"), 20, {"A": 30, "B": 10, "C": 20}),  # "HJ on B's pair (20)"
    ("C", "layoff", (1, "S6"), 40, {"A": 30, "B": 10, "C": 60}),  # "S6 on A's run (40)"
    ("A", "meld", "H3 C3", 10, {"A": 40, "B": 10, "C": 60}),  # "pairs H3 C3 ..."
    ("A", "meld", "DQ SQ", 10, {"A": 50, "B": 10, "C": 60}),  # "... and DQ SQ (10 + 10)"
    ("A", "out", None, 0, {"A": 50, "B": 10, "C": 60}),  # "goes out"
]
SEED_EVENTS = [step[:3] for step in SEED_STEPS]
SEED_HANDS = {"B": "SK SJ S3 HQ C6", "C": "D10 D9 D4 CK CQ"}


def seed_result(**rules):
    return score_round(played(SEED_EVENTS, **rules), hands(**SEED_HANDS))


@pytest.mark.parametrize("step", range(len(SEED_STEPS)))
def test_seed_example_step_by_step(step):
    round_ = played(SEED_EVENTS[:step])
    player, kind, arg, points, earned = SEED_STEPS[step]
    assert play(round_, player, kind, arg).points == points
    assert {p: round_.earned(p) for p in "ABC"} == earned


def test_seed_example_round_scores():
    # docs/rules/iceberg.md: A = 50 × 2 = 100. C = (60 − 50 − 20 for CQ) × 2 = −20. B = ... = −120
    result = seed_result()
    assert result.finished
    assert result.scores == {"A": 100, "B": -120, "C": -20}


@pytest.mark.parametrize(
    "player,earned,card_penalty,playable_penalty,before_aces,score",
    [
        ("A", 50, 0, 0, 50, 100),
        ("B", 10, -50, -80, -120, -120),
        ("C", 60, -50, -20, -10, -20),
    ],
)
def test_seed_example_breakdown(player, earned, card_penalty, playable_penalty, before_aces, score):
    mine = seed_result().players[player]
    assert mine.earned == earned
    assert mine.card_penalty == card_penalty
    assert mine.playable_penalty == playable_penalty
    assert mine.before_aces == before_aces
    assert mine.score == score


@pytest.mark.parametrize(
    "player,playable",
    [
        ("A", {}),
        # "B = 10 − 50 − 40 (SJ, 4th jack) − 20 (HQ, 3rd queen) − 20 (S3, 3rd three on A's H3 C3)"
        ("B", {"SJ": -40, "HQ": -20, "S3": -20}),
        # "C = (60 − 50 − 20 for CQ) × 2"
        ("C", {"CQ": -20}),
    ],
)
def test_seed_example_playable_cards(player, playable):
    costs = seed_result().players[player].playable_costs
    assert {" ".join(str(c) for c in cost.cards): cost.points for cost in costs} == playable


def test_seed_example_explanation_shows_the_s3_line():
    # docs/rules/iceberg.md: Both seed pages print −100 for B: they forgot that S3 is playable. The
    # scorekeeper computes −120 and its explanation shows the S3 line.
    story = [str(line) for line in seed_result().players["B"].story()]
    s3 = [line for line in story if line.startswith("S3:")]
    assert len(s3) == 1
    assert "−10" in s3[0]  # the card in hand
    assert "3rd card on meld 3 (H3 C3)" in s3[0]
    assert "−20" in s3[0]
    assert story[-1] == "round score −120"
    detail = seed_result().players["B"].as_detail()
    assert "on meld 3 (H3 C3): S3 as 3rd card 20" in detail["best_last_turn"]
    assert detail["score"] == -120


def test_seed_example_every_card_in_hand_has_a_line():
    story = [str(line) for line in seed_result().players["C"].story()]
    for card in SEED_HANDS["C"].split():
        assert sum(line.startswith(f"{card}:") for line in story) == 1


# ---------------------------------------------------------------------------------------
# Points go to the player who places the cards.


def test_lay_off_on_someone_elses_meld_scores_for_the_player_who_places_it():
    # docs/rules/iceberg.md: The player who places a card scores it, whoever started the meld.
    round_ = played([("A", "meld", "H9 D9"), ("B", "layoff", (1, "S9")), ("C", "layoff", (1, "C9"))])
    assert {p: round_.earned(p) for p in "ABC"} == {"A": 10, "B": 20, "C": 40}


def test_eight_card_set_built_by_four_players():
    round_ = played(
        [
            ("A", "meld", "H9 D9"),  # 10
            ("B", "layoff", (1, "S9")),  # 3rd card 20
            ("C", "layoff", (1, "C9")),  # 4th 40
            ("D", "layoff", (1, "H9")),  # 5th 50 (second deck)
            ("A", "layoff", (1, "D9 S9 C9")),  # 6th, 7th, 8th: 60 + 70 + 80
        ],
        players="A B C D",
    )
    assert {p: round_.earned(p) for p in "ABCD"} == {"A": 220, "B": 20, "C": 40, "D": 50}
    assert str(round_.table[0]) == "S9 S9 H9 H9 D9 D9 C9 C9"


@pytest.mark.parametrize(
    "events,points",
    [
        # "laying k cards on a meld of m cards scores each new position in turn"
        ([("A", "meld", "S7 S8 S9"), ("B", "layoff", (1, "S10 SJ"))], 90),
        ([("A", "meld", "S7 S8 S9"), ("B", "layoff", (1, "S6 S10"))], 90),
        ([("A", "meld", "S7 S8 S9"), ("B", "layoff", (1, "SQ SJ S10 S6 S5"))], 40 + 50 + 60 + 70 + 80),
        ([("A", "meld", "H9 D9"), ("B", "layoff", (1, "S9 C9"))], 20 + 40),
        ([("A", "meld", "S7 S8 S9 S10"), ("B", "layoff", (1, "SJ"))], 50),
    ],
)
def test_multi_card_lay_off_scores_each_position(events, points):
    assert played(events).plays[-1].points == points


@pytest.mark.parametrize(
    "at_once,one_by_one,points",
    [
        (
            [("A", "meld", "S5 S6 S7 S8 S9")],
            [("A", "meld", "S5 S6 S7"), ("A", "layoff", (1, "S8")), ("A", "layoff", (1, "S9"))],
            120,
        ),
        (
            [("A", "meld", "H9 D9 S9 C9")],
            [("A", "meld", "H9 D9"), ("A", "layoff", (1, "S9")), ("A", "layoff", (1, "C9"))],
            70,
        ),
    ],
)
def test_meld_at_once_scores_as_built_card_by_card(at_once, one_by_one, points):
    # docs/rules/iceberg.md: A new meld of n ≥ 3 cards scores 30 + 40 + … + 10n (the same as
    # building it card by card)
    assert played(at_once).earned("A") == points
    assert played(one_by_one).earned("A") == points


def test_special_meld_scores_whole_and_cannot_be_extended():
    round_ = played([("A", "meld", "S3 S5 S7 S9 SJ SK")])
    assert round_.earned("A") == 700
    with pytest.raises(IllegalPlay, match="never extended"):
        round_.lay_off("B", 1, cards("S2"))


# ---------------------------------------------------------------------------------------
# Refused plays change nothing.


@pytest.mark.parametrize(
    "event,error,message",
    [
        (("B", "layoff", (1, "H10")), IllegalPlay, "takes only spades"),
        (("B", "layoff", (1, "S5")), IllegalPlay, "grows only at its ends"),
        (("B", "layoff", (3, "S10")), IllegalPlay, "there is no meld 3 on the table (it has melds 1 to 1)"),
        (("B", "layoff", (0, "S10")), IllegalPlay, "there is no meld 0"),
        (("B", "meld", "H10 D9"), IllegalPlay, "is not a meld"),
        (("B", "meld", "HA DA"), IllegalPlay, "aces never take part in melds"),
        (("B", "ace", "H10"), IllegalPlay, "H10 is not an ace"),
        (("Zed", "meld", "H10 D10"), IllegalPlay, "'Zed' is not playing in this game"),
        # docs/game-file.md: a second S9 in a one-deck game is an error
        (("B", "meld", "S9 H9"), CardError, "S9 appears 2 times in this round, but one deck holds only one"),
        (("B", "layoff", (1, "S10 S9")), IllegalPlay, "grows only at its ends"),
    ],
)
def test_refused_play_leaves_the_round_as_it_was(event, error, message):
    round_ = played([("A", "meld", "S7 S8 S9")])
    with pytest.raises(error) as excinfo:
        play(round_, *event)
    assert message in str(excinfo.value)
    assert len(round_.plays) == 1
    assert [str(m) for m in round_.table] == ["S7 S8 S9"]
    # the refused cards were not used up: B can still play them
    round_.meld("B", cards("H10 D10"))
    round_.lay_off("C", 1, cards("S10"))
    assert [str(m) for m in round_.table] == ["S7 S8 S9 S10", "H10 D10"]


def test_lay_off_with_no_melds_names_the_problem():
    with pytest.raises(IllegalPlay, match="there is no meld 1 on the table \\(it has no melds yet\\)"):
        new_round().lay_off("A", 1, cards("S9"))


@pytest.mark.parametrize(
    "players,events,refused",
    [
        # one deck: a second S9 is an error
        ("A B C", [("A", "meld", "S7 S8 S9")], ("B", "meld", "S9 H9")),
        ("A B C", [("A", "ace", "DA")], ("B", "ace", "DA")),
        # two decks: a second S9 is fine, a third is an error
        ("A B C D", [("A", "meld", "S7 S8 S9"), ("B", "meld", "S9 H9")], ("C", "layoff", (2, "S9"))),
    ],
)
def test_round_refuses_more_copies_than_the_decks_hold(players, events, refused):
    round_ = played(events, players=players)
    with pytest.raises(CardError, match="S9 appears|DA appears"):
        play(round_, *refused)


# ---------------------------------------------------------------------------------------
# The end of the round: going out, the last ace.


@pytest.mark.parametrize(
    "event",
    [
        ("A", "meld", "H4 D4"),
        ("B", "meld", "H4 D4"),
        ("B", "layoff", (1, "S10")),
        ("C", "ace", "CA"),
        ("B", "out"),
        ("A", "out"),
    ],
)
def test_no_plays_after_going_out(event):
    round_ = played([("A", "meld", "S7 S8 S9"), ("A", "out")])
    assert round_.over
    with pytest.raises(IllegalPlay, match="the round is over: A went out"):
        play(round_, *event)
    assert len(round_.plays) == 2


@pytest.mark.parametrize(
    "players,aces",
    [
        # docs/rules/iceberg.md: the last ace of the decks is exposed (4 aces, or 8 with two decks)
        ("A B C", [("A", "SA HA"), ("C", "DA"), ("B", "CA")]),
        ("A B C", [("A", "SA"), ("C", "DA HA"), ("B", "CA")]),
        ("A B C", [("A", "SA HA DA"), ("B", "CA")]),
        ("A B", [("A", "SA HA DA"), ("B", "CA")]),
        ("A B C D", [("A", "SA HA DA CA"), ("C", "SA HA DA"), ("B", "CA")]),
        ("A B C D", [("A", "SA HA"), ("C", "DA CA SA HA DA"), ("B", "CA")]),
    ],
)
def test_last_ace_ends_the_round_after_that_players_turn(players, aces):
    round_ = new_round(players)
    for player, text in aces[:-1]:
        round_.ace(player, cards(text))
    assert round_.last_ace_by is None
    assert round_.end_reason() is None
    # before the last ace, everyone still plays
    round_.meld("A", cards("H7 D7"))
    last_player, last = aces[-1]
    round_.ace(last_player, cards(last))
    assert round_.last_ace_by == "B"
    assert round_.end_reason() == "B exposed the last ace; the round ends after that turn"
    # "the player who exposed it finishes that turn"
    assert round_.lay_off("B", 1, cards("S7")).points == 20
    assert round_.meld("B", cards("S9 H9 D9")).points == 30
    # ... and nobody else plays
    for other in set(players.split()) - {"B"}:
        with pytest.raises(IllegalPlay, match="B exposed the last ace: only B plays on, to finish that turn, "
                                              "then the round ends"):
            round_.meld(other, cards("S4 H4"))
    result = score_round(round_, {p: [] for p in players.split()})
    assert result.finished
    assert result.scores["B"] == 50 * (1 + 1)


def test_seventh_ace_of_two_decks_does_not_end_the_round():
    round_ = played([("A", "ace", "SA HA DA CA"), ("B", "ace", "SA HA DA")], players="A B C D")
    assert round_.aces_exposed == 7
    assert round_.last_ace_by is None
    assert round_.meld("C", cards("S4 H4")).points == 10


def test_the_last_ace_player_may_go_out():
    round_ = played([("A", "ace", "SA HA DA"), ("B", "ace", "CA"), ("B", "meld", "S4 S5 S6"), ("B", "out")])
    assert round_.end_reason() == "B went out"
    assert score_round(round_, hands(A="H2", C="")).scores == {"A": -10 * 4, "B": 30 * 2, "C": 0}


def test_player_who_went_out_holds_nothing():
    round_ = played([("A", "meld", "S7 S8 S9"), ("A", "out")])
    with pytest.raises(IllegalPlay, match="A went out, so cannot hold H2"):
        score_round(round_, hands(A="H2"))


# docs/rules/iceberg.md: seven cards each; a turn takes the card passed in, draws one and
# passes one on (the first turn takes none in): a hand grows by one card per draw at most.
@pytest.mark.parametrize("players, decks, most", [
    (2, 1, 26), (2, 2, 52), (3, 1, 18), (3, 2, 35), (4, 2, 26), (5, 2, 21), (6, 2, 18), (6, 1, 9),
])
def test_a_hand_holds_at_most_the_cards_dealt_and_drawn(players, decks, most):
    from scorekeeper.games.iceberg import most_in_hand

    assert most_in_hand(players, {"decks": decks}) == most


def test_a_hand_larger_than_the_deal_and_the_draws_allow_is_refused():
    # Two players, one deck: 7 dealt and at most 19 drawn (52 − 14 = 38 in the stock).
    round_ = played([("A", "meld", "S2 S3 S4"), ("A", "out")], players="A B")
    every = [f"{s}{r}" for s in "SHDC" for r in ("5", "6", "7", "8", "9", "10", "J")]
    assert len(score_round(round_, hands(B=" ".join(every[:26]))).players["B"].hand) == 26
    with pytest.raises(IllegalPlay, match="B's hand has 27 cards, but a hand can hold at most 26 here"):
        score_round(round_, hands(B=" ".join(every[:27])))


def test_unfinished_round_scores_what_was_earned():
    # docs/game-file.md: an unfinished round scores what has been earned so far with no
    # end-of-round penalties (and aces count only at the end of the round)
    round_ = played(SEED_EVENTS[:6])
    result = score_round(round_, None)
    assert not result.finished
    assert result.scores == {"A": 30, "B": 10, "C": 60}


def test_missing_hand_means_nothing_in_hand():
    round_ = played([("A", "meld", "S7 S8 S9"), ("A", "out")])
    assert score_round(round_, hands(B="H2 D5")).scores == {"A": 30, "B": -20, "C": 0}


# ---------------------------------------------------------------------------------------
# Aces.


@pytest.mark.parametrize(
    "mode,ace_bonus,score,aces,expected",
    [
        # multiplier: "round score × (1 + aces). Negative scores are multiplied too."
        ("multiplier", 20, 50, 0, 50),
        ("multiplier", 20, 50, 1, 100),
        ("multiplier", 20, 50, 3, 200),
        ("multiplier", 20, 50, 8, 450),
        ("multiplier", 20, -10, 1, -20),
        ("multiplier", 20, -30, 2, -90),
        ("multiplier", 20, -120, 4, -600),
        ("multiplier", 20, 0, 4, 0),
        # bonus: "+ ace_bonus per ace"
        ("bonus", 20, 50, 0, 50),
        ("bonus", 20, 50, 1, 70),
        ("bonus", 20, 50, 3, 110),
        ("bonus", 20, -120, 2, -80),
        ("bonus", 50, 50, 2, 150),
        ("bonus", 0, 50, 2, 50),
        # doubling_bonus: "20, 40, 80 … (n aces = ace_bonus × (2ⁿ − 1))"
        ("doubling_bonus", 20, 0, 0, 0),
        ("doubling_bonus", 20, 0, 1, 20),
        ("doubling_bonus", 20, 0, 2, 60),
        ("doubling_bonus", 20, 0, 3, 140),
        ("doubling_bonus", 20, 0, 4, 300),
        ("doubling_bonus", 20, -100, 3, 40),
        ("doubling_bonus", 50, 10, 3, 360),
    ],
)
def test_apply_aces(mode, ace_bonus, score, aces, expected):
    rules = resolve_rules({"aces": mode, "ace_bonus": ace_bonus}, 3)
    assert apply_aces(score, aces, rules)[0] == expected


@pytest.mark.parametrize("ace_bonus", [20, 50])
@pytest.mark.parametrize("aces", range(0, 9))
def test_doubling_bonus_is_ace_bonus_times_two_to_the_n_minus_one(ace_bonus, aces):
    rules = resolve_rules({"aces": "doubling_bonus", "ace_bonus": ace_bonus}, 4)
    each = [ace_bonus * 2**i for i in range(aces)]  # 20, 40, 80 …
    assert apply_aces(0, aces, rules)[0] == sum(each) == ace_bonus * (2**aces - 1)


@pytest.mark.parametrize(
    "rules,scores",
    [
        ({}, {"A": 100, "B": -120, "C": -20}),
        ({"aces": "multiplier"}, {"A": 100, "B": -120, "C": -20}),
        ({"aces": "bonus"}, {"A": 70, "B": -120, "C": 10}),
        ({"aces": "bonus", "ace_bonus": 50}, {"A": 100, "B": -120, "C": 40}),
        ({"aces": "doubling_bonus"}, {"A": 70, "B": -120, "C": 10}),
    ],
)
def test_seed_example_under_each_aces_rule(rules, scores):
    assert seed_result(**rules).scores == scores


@pytest.mark.parametrize(
    "mode,aces,scores",
    [
        # A earns 30 and exposes the aces; B holds H2 (−10)
        ("multiplier", "SA HA DA", {"A": 120, "B": -10}),
        ("bonus", "SA HA DA", {"A": 90, "B": -10}),
        ("doubling_bonus", "SA HA DA", {"A": 170, "B": -10}),
        ("doubling_bonus", "SA HA", {"A": 90, "B": -10}),
    ],
)
def test_aces_rule_in_a_round(mode, aces, scores):
    round_ = played([("A", "ace", aces), ("A", "meld", "S7 S8 S9"), ("A", "out")], players="A B", aces=mode)
    assert score_round(round_, hands(B="H2")).scores == scores


def test_ace_left_in_hand_costs_a_card_and_never_multiplies():
    round_ = played([("A", "meld", "S7 S8 S9"), ("A", "out")], players="A B")
    result = score_round(round_, hands(B="SA HA SK"))
    b = result.players["B"]
    assert b.aces == ()
    assert b.score == -30
    assert [(str(c.cards[0]), c.why) for c in b.card_costs] == [
        ("SA", "an ace never put face up"),
        ("SK", "left in hand"),
        ("HA", "an ace never put face up"),
    ]
    assert b.playable_penalty == 0


# ---------------------------------------------------------------------------------------
# Cards left in hand: card_penalty and the playable penalty.


@pytest.mark.parametrize(
    "card_penalty,b_score,c_score",
    [
        (0, 10 - 80, (60 - 20) * 2),
        (10, -120, -20),
        (25, 10 - 125 - 80, (60 - 125 - 20) * 2),
    ],
)
def test_card_penalty(card_penalty, b_score, c_score):
    assert seed_result(card_penalty=card_penalty).scores == {"A": 100, "B": b_score, "C": c_score}


def test_card_penalty_applies_to_unplayable_cards_only():
    # docs/rules/iceberg.md: unplayable: then only cards that the best last turn below does not use
    # cost card_penalty. B: SK C6 unplayable (−20) − 80 playable; C: four unplayable.
    result = seed_result(card_penalty_applies_to="unplayable")
    assert result.scores == {"A": 100, "B": 10 - 20 - 80, "C": (60 - 40 - 20) * 2}
    assert sorted(str(c.cards[0]) for c in result.players["B"].card_costs) == ["C6", "SK"]


# S10 and SJ in hand with S7-8-9 on the table (docs/rules/iceberg.md's example of a chain).
CHAIN = [("A", "meld", "S7 S8 S9"), ("A", "out")]


@pytest.mark.parametrize(
    "rules,score,playable",
    [
        # best_turn: "S10 as 4th card 40, then SJ as 5th 50, penalty 90"
        ({}, -20 - 90, {"S10": -40, "SJ": -50}),
        ({"playable_penalty": "best_turn"}, -20 - 90, {"S10": -40, "SJ": -50}),
        # single_card: "each card alone, its best single lay-off; no chains"
        ({"playable_penalty": "single_card"}, -20 - 40, {"S10": -40}),
        ({"playable_penalty": "single_card", "card_penalty_applies_to": "unplayable"}, -10 - 40, {"S10": -40}),
        ({"card_penalty_applies_to": "unplayable"}, -90, {"S10": -40, "SJ": -50}),
        ({"card_penalty": 0}, -90, {"S10": -40, "SJ": -50}),
    ],
)
def test_playable_penalty_best_turn_and_single_card(rules, score, playable):
    result = score_round(played(CHAIN, players="A B", **rules), hands(B="S10 SJ"))
    b = result.players["B"]
    assert b.score == score
    assert {str(c.cards[0]): c.points for c in b.playable_costs} == playable
    assert result.scores["A"] == 30


@pytest.mark.parametrize(
    "hand,best_turn,single_card",
    [
        ("H4 H5 H6", -30 - 30, -30),  # a new run from hand counts in best_turn only
        ("H4 D4", -20 - 10, -20),  # a new pair from hand
        # one card at each end: 4th and 5th card in one turn, but each alone is a 4th card
        ("S6 S10", -20 - 90, -20 - 80),
        ("S5 S6", -20 - 90, -20 - 40),  # a chain down from the run
    ],
)
def test_playable_penalty_new_melds_and_chains(hand, best_turn, single_card):
    for mode, score in (("best_turn", best_turn), ("single_card", single_card)):
        result = score_round(played(CHAIN, players="A B", playable_penalty=mode), hands(B=hand))
        assert result.scores["B"] == score, mode


def test_most_cards_among_equal_totals_decides_what_is_unplayable():
    # Two decks: S10 on the 8-card run scores 90 alone; S10 then the second S9 on
    # SJ-SQ-SK score 40 + 50 = 90 too. docs/rules/iceberg.md: where several turns reach the best
    # total, the one that uses the most cards, so neither card is unplayable.
    events = [("A", "meld", "S2 S3 S4 S5 S6 S7 S8 S9"), ("A", "meld", "SJ SQ SK"), ("A", "out")]
    round_ = played(events, players="A B", decks=2, card_penalty_applies_to="unplayable")
    b = score_round(round_, hands(B="S10 S9")).players["B"]
    assert b.card_penalty == 0
    assert b.playable_penalty == -90
    assert b.score == -90


# ---------------------------------------------------------------------------------------
# The game: totals, target, winner; a tie at the top plays on.


def test_total_scores_add_finished_rounds_only():
    first = seed_result()
    second = seed_result(card_penalty=0)
    unfinished = score_round(played(SEED_EVENTS[:2]), None)
    totals = total_scores(["A", "B", "C"], [first, second, unfinished])
    assert totals == {"A": 200, "B": -120 + (10 - 80), "C": -20 + (60 - 20) * 2}


def test_total_scores_of_no_rounds_are_zero():
    assert total_scores(["A", "B"], []) == {"A": 0, "B": 0}


@pytest.mark.parametrize(
    "target,totals,over,winners,tied",
    [
        # "rounds until someone reaches target (default 5000)"
        (None, {"A": 4990, "B": 100}, False, [], False),
        (None, {"A": 5000, "B": 100}, True, ["A"], False),
        (None, {"A": 5200, "B": 5100}, True, ["A"], False),
        (None, {"A": 5100, "B": 5200, "C": 5100}, True, ["B"], False),
        # "on a tie at the top, play another round"
        (None, {"A": 5100, "B": 5100}, False, [], True),
        (None, {"A": 5000, "B": 5000, "C": 4000}, False, [], True),
        (None, {"A": 4000, "B": 4000}, False, [], False),
        (100, {"A": 100, "B": -20}, True, ["A"], False),
        (100, {"A": 99, "B": -20}, False, [], False),
        (100, {"A": -500, "B": -20}, False, [], False),
        (1, {"A": 1, "B": 1, "C": 0}, False, [], True),
    ],
)
def test_game_state(target, totals, over, winners, tied):
    rules = resolve_rules({} if target is None else {"target": target}, len(totals))
    assert game_state(list(totals), rules, totals) == (over, winners, tied)


def test_game_plays_on_until_the_target():
    rules = resolve_rules({"target": 150}, 3)
    results = [seed_result(target=150)]
    totals = total_scores(["A", "B", "C"], results)
    assert game_state(["A", "B", "C"], rules, totals) == (False, [], False)
    results.append(seed_result(target=150))
    totals = total_scores(["A", "B", "C"], results)
    assert totals == {"A": 200, "B": -240, "C": -40}
    assert game_state(["A", "B", "C"], rules, totals) == (True, ["A"], False)
