"""Rummy 500 (docs/rules/rummy500.md; Hoyle's 500 Rum, Pagat's Rummy 500): card values, sets and
runs, the low ace, lay-offs onto anyone's meld and onto cards laid off, hands, the house
value of an ace in hand, decks and hand sizes, the target and its winners, refusals; through
the library, the game file and ``scorekeeper score``."""
import json
from pathlib import Path

import pytest
from games_data import layoff, meld, out

from scorekeeper import gamefile
from scorekeeper.games import registry, rummy500
from scorekeeper.games.cards import parse_card, parse_cards
from scorekeeper.games.errors import GameFileError, IllegalPlay, RuleError
from tests.command import run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SPADES = "SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK"


def cards(text):
    return parse_cards(text.split()) if text else []


def game(rounds, players=("Ann", "Ben", "Cy"), **rules):
    return {"format": "scorekeeper/1", "variant": "rummy500", "rules": rules, "players": list(players),
            "rounds": rounds}


def scored(rounds, players=("Ann", "Ben", "Cy"), **rules):
    return gamefile.score_document(game(rounds, players, **rules))


def round_scores(events, hands=None, players=("Ann", "Ben", "Cy"), **rules):
    hands = {p: h.split() for p, h in (hands or {}).items()}
    return scored([{"events": events, "hands": hands}], players, **rules)["rounds"][0]["scores"]


def refused(rounds, players=("Ann", "Ben", "Cy"), **rules) -> str:
    with pytest.raises(GameFileError) as e:
        scored(rounds, players, **rules)
    return str(e.value)


# ---------------------------------------------------------------------------------------
# Card values, sets and runs.


@pytest.mark.parametrize("text, points", [
    ("S7 H7 D7", 21),                       # a set: each card its number
    ("SK HK DK CK", 40),                    # K Q J 10 count 10
    ("S10 SJ SQ", 30),
    ("SA HA DA", 45),                       # aces in a set: 15 each
    ("HA H2 H3", 6),                        # ace low in a run: 1
    ("SQ SK SA", 35),                       # ace high: 15
    ("C4 C5 C6", 15),
    ("D9 D10 DJ DQ DK", 49),
    ("HA H2 H3 H4 H5", 15),
    (SPADES, 85),                           # A through K at once: the ace lies low (1)
])
def test_a_new_meld_scores_each_card_s_value(text, points):
    assert round_scores([meld("Ann", text), out("Ann")])["Ann"] == points


def test_card_values_as_the_sources_give_them():
    value = rummy500.card_value
    assert [value(parse_card(c)) for c in "SA S2 S9 S10 SJ SQ SK".split()] == [15, 2, 9, 10, 10, 10, 10]
    assert value(parse_card("SA"), rummy500.LOW_ACE) == 1
    assert value(parse_card("SA"), 14) == 15


@pytest.mark.parametrize("text", ["S3 S2 SA", "SA S3 S2", "H3 HA H2"])
def test_cards_of_a_meld_may_be_listed_in_any_order(text):
    assert round_scores([meld("Ann", text), out("Ann")])["Ann"] == 6


@pytest.mark.parametrize("text, why", [
    ("SK SA S2", "never K-A-2"),            # around the corner
    ("SQ SA S2", "is not a meld"),
    ("S2 H3 S4", "a run 3 or more of one suit in sequence"),
    ("S2 S3 S5", "is not a meld"),
    ("S7 H7", "a meld needs at least three cards"),
    ("S7", "a meld needs at least three cards"),
    ("S7 S8 H8", "is not a meld"),
])
def test_an_illegal_meld_is_refused_naming_it(text, why):
    message = refused([{"events": [meld("Ann", text)]}])
    assert message.startswith("round 1, event 1: ")
    assert why in message and text.split()[0] in message


# ---------------------------------------------------------------------------------------
# Lay-offs: anyone's meld, cards laid off, the low ace.


def test_anyone_may_lay_off_and_each_card_scores_for_who_laid_it():
    events = [meld("Ann", "C4 C5 C6"), layoff("Ben", 1, "C7"), layoff("Cy", 1, "C8 C9"), out("Ann")]
    assert round_scores(events) == {"Ann": 15, "Ben": 7, "Cy": 17}


def test_a_lay_off_onto_cards_another_player_laid_off():
    """Hoyle: a 7 laid off on 4-5-6 takes an 8 next, on the 7."""
    events = [meld("Ann", "D4 D5 D6"), layoff("Ben", 1, "D7"), layoff("Cy", 1, "D8"), layoff("Ann", 1, "D3"),
              out("Cy")]
    assert round_scores(events) == {"Ann": 18, "Ben": 7, "Cy": 8}


def test_a_lay_off_onto_a_set():
    assert round_scores([meld("Ann", "SQ HQ DQ"), layoff("Ben", 1, "CQ"), out("Ann")]) == {
        "Ann": 30, "Ben": 10, "Cy": 0}


@pytest.mark.parametrize("run, laid, points", [
    ("S2 S3 S4", "SA", 1),                  # down to the ace: its low end
    ("S2 S3 S4", "SA S5", 6),               # low ace and a 5 at once
    ("SJ SQ SK", "SA", 15),                 # up to the ace: high
    ("S3 S4 S5", "S2 SA", 3),               # down through the 2 to the ace
    ("S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK", "SA", 1),  # fits either end: low
])
def test_an_ace_laid_off_scores_as_the_end_it_takes(run, laid, points):
    events = [meld("Ann", run), layoff("Ben", 1, laid), out("Ann")]
    assert round_scores(events)["Ben"] == points


def test_an_ace_keeps_the_end_it_was_placed_at():
    """Q-K-A grown down to the 2 keeps its high ace; a second ace (two decks) goes low."""
    events = [meld("Ann", "SQ SK SA"), layoff("Ben", 1, "SJ S10 S9 S8 S7 S6 S5 S4 S3 S2"),
              layoff("Cy", 1, "SA"), out("Ann")]
    players = ("Ann", "Ben", "Cy", "Dee", "Eve")  # two decks
    assert round_scores(events, players=players) == {"Ann": 35, "Ben": 64, "Cy": 1, "Dee": 0, "Eve": 0}
    low_first = [meld("Ann", "SA S2 S3"), layoff("Ben", 1, "S4 S5 S6 S7 S8 S9 S10 SJ SQ SK"),
                 layoff("Cy", 1, "SA"), out("Ann")]
    assert round_scores(low_first, players=players)["Cy"] == 15


@pytest.mark.parametrize("first, laid, why", [
    ("S2 S3 S4", "SK", "never around the corner"),   # K-A-2: around the corner
    ("SQ SK SA", "S2", "never around the corner"),
    ("S2 S3 S4", "H5", "in its suit"),
    ("S2 S3 S4", "S6", "grows only at its ends"),
    ("S7 H7 D7", "S8", "a set takes only its own rank"),
])
def test_a_lay_off_that_does_not_fit_is_refused_naming_it(first, laid, why):
    message = refused([{"events": [meld("Ann", first), layoff("Ben", 1, laid)]}])
    assert message.startswith("round 1, event 2: ") and laid in message and why in message


def test_a_lay_off_onto_a_meld_not_on_the_table_is_refused():
    message = refused([{"events": [meld("Ann", "S2 S3 S4"), layoff("Ben", 2, "S5")]}])
    assert message == "round 1, event 2: there is no meld 2 on the table (it has melds 1 to 1)"


def test_the_lay_off_lines_say_each_card_and_its_points():
    result = scored([{"events": [meld("Ann", "S2 S3 S4"), layoff("Ben", 1, "S5 SA")]}])
    ben = result["rounds"][0]["detail"]["Ben"]
    assert ben["plays"][0]["play"] == "on meld 1 (S2 S3 S4): SA low 1 + S5 5 = 6"
    ann = result["rounds"][0]["detail"]["Ann"]
    assert ann["plays"][0]["play"] == "new run of spades: S2 S3 S4 (meld 1): S2 2 + S3 3 + S4 4 = 9"


# ---------------------------------------------------------------------------------------
# Cards: the decks, hands.


def test_a_card_more_often_than_the_deck_holds_is_refused():
    message = refused([{"events": [meld("Ann", "S2 S3 S4"), meld("Ben", "S4 H4 D4")]}])
    assert message == "round 1, event 2: S4 appears 2 times in this round, but one deck holds only one"
    message = refused([{"events": [meld("Ann", "S2 S3 S4"), out("Ann")], "hands": {"Ben": ["S3"]}}])
    assert message.startswith("round 1, hands of Ben: S3 appears 2 times")


def test_no_jokers():
    assert "S2 S3 JK is not a meld" in refused([{"events": [meld("Ann", "S2 S3 JK")]}])
    message = refused([{"events": [out("Ann")], "hands": {"Ben": ["JK"]}}])
    assert message == "round 1, hands of Ben: JK: this game is played without jokers"


def test_two_decks_allow_both_copies_in_a_set():
    players = ("Ann", "Ben", "Cy", "Dee", "Eve")
    assert round_scores([meld("Ann", "S7 S7 H7"), layoff("Ben", 1, "H7 D7 D7"), out("Ann")],
                        players=players)["Ben"] == 21
    assert "2 decks hold only 2" in refused([{"events": [meld("Ann", "S7 S7 S7")]}], players)


def test_cards_left_in_hand_count_against_their_holder():
    hands = {"Ben": "SK S9 S2", "Cy": "HA"}
    assert round_scores([meld("Ann", "C4 C5 C6"), out("Ann")], hands) == {"Ann": 15, "Ben": -21, "Cy": -15}


def test_an_ace_in_hand_is_15_or_the_house_value_1():
    events = [meld("Ann", "SA HA DA"), out("Ann")]
    assert round_scores(events, {"Ben": "CA S2"}) == {"Ann": 45, "Ben": -17, "Cy": 0}
    assert round_scores(events, {"Ben": "CA S2"}, ace_in_hand=1) == {"Ann": 45, "Ben": -3, "Cy": 0}
    # Only an ace in hand: one laid is scored as laid.
    assert round_scores([meld("Ann", "HA H2 H3"), out("Ann")], {"Ben": "SA"}, ace_in_hand=1) == {
        "Ann": 6, "Ben": -1, "Cy": 0}


def test_the_ace_in_hand_option_is_the_sources_15_or_the_house_value_1():
    option = rummy500.RULES.options["ace_in_hand"]
    assert not option.house_value and option.default == 15 and option.choices == (15, 1)
    assert [str(label) for label in option.choice_labels] == ["15 points", "1 point (a house value)"]
    assert "cannot be 5" in refused([], ace_in_hand=5)


def test_who_went_out_holds_nothing():
    message = refused([{"events": [meld("Ann", "S2 S3 S4"), out("Ann")], "hands": {"Ann": ["H9"]}}])
    assert message == "round 1: Ann went out, so cannot hold H9"


def test_nothing_is_played_after_someone_went_out():
    message = refused([{"events": [meld("Ann", "S2 S3 S4"), out("Ann"), meld("Ben", "H2 H3 H4")]}])
    assert message == "round 1, event 3: the round is over: Ann went out"


def test_aces_are_not_put_face_up_in_this_game():
    message = refused([{"events": [{"type": "ace", "player": "Ann", "cards": ["SA"]}]}])
    assert "unknown event type 'ace' (expected meld, layoff, out)" in message


@pytest.mark.parametrize("players, decks, dealt, most", [
    (2, 1, 13, 39), (3, 1, 7, 38), (4, 1, 7, 31), (5, 2, 7, 76), (8, 2, 7, 55), (5, 1, 7, 24),
])
def test_a_hand_holds_at_most_the_dealt_and_the_undealt(players, decks, dealt, most):
    """7 dealt, 13 with two players; a hand may take much of the discard pile, but never
    more than its own deal and the cards not dealt."""
    assert rummy500.dealt(players) == dealt
    assert rummy500.most_in_hand(players, {"decks": decks}) == most


def test_a_bigger_hand_is_refused_naming_the_limit():
    deck = [f"{s}{r}" for s in "SHDC" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    ok = scored([{"events": [out("Ann")], "hands": {"Ben": deck[:39]}}], ("Ann", "Ben"))
    assert ok["totals"]["Ben"] == -sum(rummy500.hand_value(parse_card(c), {"ace_in_hand": 15}) for c in deck[:39])
    message = refused([{"events": [out("Ann")], "hands": {"Ben": deck[:40]}}], ("Ann", "Ben"))
    assert message == ("round 1: Ben's hand has 40 cards, but a hand can hold at most 39 here "
                       "(the 13 dealt and the 26 that were not dealt)")


@pytest.mark.parametrize("players, decks", [(2, 1), (4, 1), (5, 2), (8, 2)])
def test_decks_default_by_players(players, decks):
    names = [f"P{i}" for i in range(players)]
    assert scored([], names)["rules"]["decks"] == decks


def test_one_deck_for_five_is_allowed_but_not_for_eight():
    assert scored([], [f"P{i}" for i in range(5)], decks=1)["rules"]["decks"] == 1
    message = refused([], [f"P{i}" for i in range(8)], decks=1)
    assert message == "rules: one deck cannot deal 7 cards to each of 8 players: play with two decks"
    with pytest.raises(RuleError):
        rummy500.RULES.resolve({"decks": 1}, 8)


@pytest.mark.parametrize("count", [1, 9])
def test_two_to_eight_players(count):
    assert "played by 2 to 8 players" in refused([], [f"P{i}" for i in range(count)])


def test_an_unfinished_round_scores_what_was_laid_so_far():
    result = scored([{"events": [meld("Ann", "SQ SK SA"), layoff("Ben", 1, "SJ")]}])
    assert result["rounds"][0]["scores"] == {"Ann": 35, "Ben": 10, "Cy": 0}
    assert result["rounds"][0]["finished"] is False and result["totals"] == {"Ann": 0, "Ben": 0, "Cy": 0}


def test_a_round_may_end_with_no_one_out():
    """The sources let play stop when the stock is used up: the hands are counted the same."""
    assert round_scores([meld("Ann", "S2 S3 S4")], {"Ben": "H9"}) == {"Ann": 9, "Ben": -9, "Cy": 0}


# ---------------------------------------------------------------------------------------
# The game: the target, winners, ties.


def a_round(points_for_ann, points_for_ben):
    """A round in which Ann lays a set worth ``points_for_ann`` (as tens) and Ben one worth ``points_for_ben``."""
    sets = ["SK HK DK", "SQ HQ DQ", "SJ HJ DJ", "S10 H10 D10"]
    events = [meld("Ann", s) for s in sets[:points_for_ann]]
    events += [meld("Ben", s) for s in sets[points_for_ann:points_for_ann + points_for_ben]]
    return {"events": events + [out("Ann")], "hands": {}}


def test_the_game_ends_after_the_round_that_reaches_the_target_and_the_highest_wins():
    result = scored([a_round(1, 2), a_round(1, 2)], target=100)
    assert result["totals"] == {"Ann": 60, "Ben": 120, "Cy": 0}
    assert result["winners"] == ["Ben"] and result["status"] == "Ben wins"
    assert scored([a_round(1, 2)], target=100)["winners"] == []


def test_the_highest_total_wins_whoever_reached_the_target():
    first = {"events": [meld("Ann", "SK HK DK"), meld("Ann", "SQ HQ DQ"), meld("Ann", "SJ HJ DJ"),
                        meld("Ben", "S10 H10 D10"), out("Ann")], "hands": {}}
    second = {"events": [meld("Ann", "C9 D9 H9"), meld("Ben", "SK HK DK"), meld("Ben", "SQ HQ DQ"),
                         meld("Ben", "SJ HJ DJ"), out("Ben")], "hands": {"Cy": ["C2"]}}
    result = scored([first, second], target=100)
    assert result["totals"] == {"Ann": 117, "Ben": 120, "Cy": -2}
    assert result["winners"] == ["Ben"]


def test_players_tied_on_the_highest_total_all_win():
    result = scored([a_round(2, 2)], target=50)
    assert result["totals"] == {"Ann": 60, "Ben": 60, "Cy": 0}
    assert result["winners"] == ["Ann", "Ben"]
    assert result["status"] == "Ann & Ben win"


def test_no_round_after_the_game_is_over():
    message = refused([a_round(2, 0), a_round(1, 0)], target=50)
    assert message == "round 2: the game was already over after round 1"


def test_the_default_target_is_500():
    assert scored([])["rules"]["target"] == 500
    assert scored([a_round(4, 0)] * 4)["winners"] == []


# ---------------------------------------------------------------------------------------
# The example file and the command line.


def test_the_first_round_example_through_scorekeeper_score():
    path = EXAMPLES / "rummy500-first-round.json"
    proc = run("score", str(path))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    expected = json.loads((EXAMPLES / "rummy500-first-round.expected.json").read_text())
    assert [{"scores": r["scores"]} for r in result["rounds"]] == expected["rounds"]
    assert result["totals"] == expected["totals"] == {"Ann": 11, "Ben": 9, "Cy": 15}
    assert result["winners"] == expected["winners"] == []
    ann = result["rounds"][0]["detail"]["Ann"]["story"]
    assert "new run of hearts: HA H2 H3 (meld 3): HA low 1 + H2 2 + H3 3 = 6" in ann
    ben = result["rounds"][0]["detail"]["Ben"]["story"]
    assert "DA: an ace left in hand counts 15 points → −15" in ben


def test_a_refused_file_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(game([{"events": [meld("Ann", "SK SA S2")]}])))
    proc = run("score", str(path))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: round 1, event 1: SK SA S2 is not a meld")
    assert proc.stderr.count("\n") == 1


def test_scorekeeper_rules_shows_its_options_and_the_house_value():
    proc = run("rules", "rummy500")
    assert proc.returncode == 0
    assert "decks = 1 for 2–4 players, 2 for 5 or more" in proc.stdout
    assert "ace_in_hand = 15\n" in proc.stdout  # the sources' value
    assert "or 1 (a house value: no source gives it)" in proc.stdout
    assert "takes: 15, 1" in proc.stdout
    assert "target = 500" in proc.stdout


def test_registered_once_and_shown_by_the_table_family():
    variant = registry.get("rummy500")
    assert variant is rummy500.VARIANT and variant.screens == "table"
    assert not variant.aces_face_up and not variant.playable_penalty
    assert registry.get("iceberg").aces_face_up and registry.get("iceberg").playable_penalty


def test_a_meld_reads_its_own_aces():
    run_, points = rummy500.make_meld(cards("HA H2 H3"))
    assert run_.kind == "run" and run_.places == (1, 2, 3) and points == (1, 2, 3)
    grown, laid, points = rummy500.grow(run_, cards("H4 H5"))
    assert [str(c) for c in laid] == ["H4", "H5"] and points == (4, 5)
    with pytest.raises(IllegalPlay):
        rummy500.grow(run_, cards("HK"))
