"""The game file (docs/game-file.md): every kind of illegal Iceberg file is refused with one
plain line naming the round and event, and legal multi-round games score as docs/rules/ says.
"""
import copy
import json
from pathlib import Path

import pytest

from scorekeeper import gamefile
from scorekeeper.games.errors import GameFileError
from tests.command import run

PLAYERS = ["Ann", "Bob", "Cy"]


def game(*rounds, players=PLAYERS, rules=None, **fields):
    doc = {
        "format": "scorekeeper/1",
        "variant": "iceberg",
        "rules": rules or {},
        "players": list(players),
        "teams": None,
        "rounds": list(rounds),
    }
    doc.update(fields)
    return doc


def ace(player, *cards):
    return {"type": "ace", "player": player, "cards": list(cards)}


def meld(player, *cards):
    return {"type": "meld", "player": player, "cards": list(cards)}


def layoff(player, number, *cards):
    return {"type": "layoff", "player": player, "meld": number, "cards": list(cards)}


def out(player):
    return {"type": "out", "player": player}


def round_(*events, hands=None):
    data = {"events": list(events)}
    if hands is not None:
        data["hands"] = hands
    return data


# A short legal opening: Ann's run is meld 1, Bob's pair of jacks is meld 2.
OPENING = [meld("Ann", "S7", "S8", "S9"), meld("Bob", "DJ", "CJ")]
ODDS_OF_SPADES = ["S3", "S5", "S7", "S9", "SJ", "SK"]


class Raw(str):
    """A file's text as it is, not a document to write as JSON."""


def one_round_after_game_over():
    # Target 50: Ann's run of six (30+40+50+60 = 180) ends the game after round 1.
    first = round_(meld("Ann", "S2", "S3", "S4", "S5", "S6", "S7"), out("Ann"), hands={"Bob": ["H2"], "Cy": []})
    second = round_(meld("Bob", "D2", "C2"))
    return game(first, second, rules={"target": 50})


LAST_ACE = [ace("Ann", "SA"), ace("Bob", "HA", "DA"), ace("Cy", "CA")]

# (id, the file's text or document, what stderr starts with, words it must contain)
ILLEGAL = [
    ("invalid-json", Raw('{"format": "scorekeeper/1", "variant": "iceberg",'), "error: ", "JSON"),
    ("empty-file", Raw(""), "error: ", "JSON"),
    ("not-an-object-list", [], "error: ", "object"),
    ("not-an-object-string", "iceberg", "error: ", "object"),
    ("not-an-object-null", None, "error: ", "object"),
    ("unknown-top-level-field", game(scores={}), "error: ", "scores"),
    ("wrong-format", game(format="scorekeeper/2"), "error: ", "scorekeeper/2"),
    ("format-not-text", game(format=1), "error: ", "format"),
    ("unknown-variant", game(variant="canasta"), "error: ", "canasta"),
    ("variant-missing", {"format": "scorekeeper/1", "players": PLAYERS, "rounds": []}, "error: ", "variant"),
    ("rounds-not-a-list", game(rounds={}), "error: ", "rounds"),
    ("players-not-a-list", game(players="Ann, Bob"), "error: ", "players"),
    ("players-not-names", game(players=["Ann", 2]), "error: ", "players"),
    ("players-missing", {k: v for k, v in game().items() if k != "players"}, "error: ", "players"),
    ("duplicate-player", game(players=["Ann", "Bob", "Ann"]), "error: ", "Ann"),
    ("too-few-players", game(players=["Ann"]), "error: ", "players"),
    ("no-players", game(players=[]), "error: ", "players"),
    ("too-many-players", game(players=list("ABCDEFG")), "error: ", "players"),
    ("teams-not-null", game(teams=[["Ann", "Bob"], ["Cy"]]), "error: ", "teams"),
    ("unknown-rule", game(rules={"jokers": 2}), "error: ", "jokers"),
    ("rules-not-an-object", game(rules=["aces"]), "error: ", "rules"),
    ("bad-rule-choice", game(rules={"aces": "triple"}), "error: ", "aces"),
    ("bad-rule-negative", game(rules={"card_penalty": -10}), "error: ", "card_penalty"),
    ("bad-rule-not-a-number", game(rules={"target": "5000"}), "error: ", "target"),
    ("bad-rule-bool-as-number", game(rules={"ace_bonus": True}), "error: ", "ace_bonus"),
    ("bad-rule-decks", game(rules={"decks": 3}), "error: ", "decks"),
    ("bad-rule-not-bool", game(rules={"set_duplicates": "yes"}), "error: ", "set_duplicates"),
    ("round-not-an-object", game(["meld", "Ann"]), "error: round 1:", "round"),
    ("second-round-not-an-object", game(round_(*OPENING, out("Ann"), hands={}), None), "error: round 2:", "round"),
    ("unknown-round-field", game(round_(*OPENING) | {"scores": {}}), "error: round 1:", "scores"),
    ("events-not-a-list", game({"events": {"1": meld("Ann", "S7", "S8", "S9")}}), "error: round 1:", "events"),
    ("event-not-an-object", game(round_(*OPENING, "Ann goes out")), "error: round 1, event 3:", "event"),
    ("unknown-event-type", game(round_(*OPENING, {"type": "discard", "player": "Ann", "cards": ["H2"]})),
     "error: round 1, event 3:", "discard"),
    ("event-type-missing", game(round_({"player": "Ann", "cards": ["S7", "S8", "S9"]})),
     "error: round 1, event 1:", "type"),
    ("unknown-event-field", game(round_(meld("Ann", "S7", "S8", "S9") | {"points": 30})),
     "error: round 1, event 1:", "points"),
    ("unknown-player", game(round_(*OPENING, meld("Dee", "H2", "D2"))), "error: round 1, event 3:", "Dee"),
    ("player-missing", game(round_({"type": "meld", "cards": ["H2", "D2"]})), "error: round 1, event 1:", "player"),
    ("unknown-player-goes-out", game(round_(*OPENING, out("Dee"))), "error: round 1, event 3:", "Dee"),
    ("missing-cards", game(round_(*OPENING, {"type": "meld", "player": "Cy"})), "error: round 1, event 3:", "cards"),
    ("empty-cards", game(round_(*OPENING, meld("Cy"))), "error: round 1, event 3:", "cards"),
    ("cards-not-a-list", game(round_(*OPENING, {"type": "meld", "player": "Cy", "cards": "H2 D2"})),
     "error: round 1, event 3:", "cards"),
    ("not-a-card-rank", game(round_(*OPENING, meld("Cy", "H1", "D1"))), "error: round 1, event 3:", "H1"),
    ("not-a-card-suit", game(round_(*OPENING, meld("Cy", "X2", "D2"))), "error: round 1, event 3:", "X2"),
    ("not-a-card-number", game(round_(*OPENING, meld("Cy", 2, "D2"))), "error: round 1, event 3:", "2"),
    ("not-a-card-joker", game(round_(*OPENING, meld("Cy", "JK", "H2", "D2"))), "error: round 1, event 3:", "JK"),
    ("second-s9-in-events", game(round_(*OPENING, meld("Cy", "S9", "H9"))), "error: round 1, event 3:", "S9"),
    ("second-s9-in-one-meld", game(round_(meld("Ann", "S9", "9S", "H9"))), "error: round 1, event 1:", "S9"),
    ("second-ace-of-spades", game(round_(ace("Ann", "SA"), ace("Bob", "SA"))), "error: round 1, event 2:", "SA"),
    ("second-s9-in-hands", game(round_(*OPENING, out("Ann"), hands={"Bob": ["H2"], "Cy": ["9s"]})),
     "error: round 1", "S9"),
    ("second-s9-in-one-hand", game(round_(*OPENING[1:], out("Bob"), hands={"Ann": ["S9", "H2", "S9"]})),
     "error: round 1", "S9"),
    ("not-a-card-in-hands", game(round_(*OPENING, out("Ann"), hands={"Bob": ["H11"]})), "error: round 1", "H11"),
    ("unknown-player-in-hands", game(round_(*OPENING, out("Ann"), hands={"Dee": ["H2"]})), "error: round 1", "Dee"),
    ("hands-not-an-object", game(round_(*OPENING, out("Ann"), hands=[["H2"]])), "error: round 1", "hands"),
    ("hand-not-a-list", game(round_(*OPENING, out("Ann"), hands={"Bob": "H2"})), "error: round 1", "Bob"),
    ("illegal-meld-mixed", game(round_(*OPENING, meld("Cy", "H2", "D3", "C4"))),
     "error: round 1, event 3:", "not a meld"),
    ("illegal-meld-gap", game(round_(*OPENING, meld("Cy", "H2", "H3", "H5"))),
     "error: round 1, event 3:", "not a meld"),
    ("illegal-meld-one-card", game(round_(*OPENING, meld("Cy", "H2"))), "error: round 1, event 3:", "H2"),
    ("illegal-meld-two-ranks", game(round_(*OPENING, meld("Cy", "H2", "H3"))), "error: round 1, event 3:", "H2"),
    ("illegal-meld-with-ace", game(round_(*OPENING, meld("Cy", "HA", "H2", "H3"))), "error: round 1, event 3:", "HA"),
    ("illegal-run-wraps-past-king", game(round_(meld("Ann", "HQ", "HK", "H2"))), "error: round 1, event 1:", "HQ"),
    ("illegal-set-duplicate-suits", game(round_(meld("Ann", "S9", "S9", "H9")), players=["Ann", "Bob", "Cy", "Di"],
                                         rules={"set_duplicates": False}),
     "error: round 1, event 1:", "S9"),
    ("layoff-wrong-suit", game(round_(*OPENING, layoff("Cy", 1, "H10"))), "error: round 1, event 3:", "H10"),
    ("layoff-not-at-an-end", game(round_(*OPENING, layoff("Cy", 1, "S5"))), "error: round 1, event 3:", "S5"),
    ("layoff-wrong-rank", game(round_(*OPENING, layoff("Cy", 2, "HQ"))), "error: round 1, event 3:", "HQ"),
    ("layoff-ace", game(round_(*OPENING, layoff("Cy", 2, "HA"))), "error: round 1, event 3:", "HA"),
    ("layoff-meld-does-not-exist", game(round_(*OPENING, layoff("Cy", 3, "HJ"))), "error: round 1, event 3:", "3"),
    ("layoff-meld-zero", game(round_(*OPENING, layoff("Cy", 0, "HJ"))), "error: round 1, event 3:", "0"),
    ("layoff-before-any-meld", game(round_(layoff("Cy", 1, "HJ"))), "error: round 1, event 1:", "1"),
    ("layoff-meld-not-a-number", game(round_(*OPENING, layoff("Cy", "2", "HJ"))), "error: round 1, event 3:", "meld"),
    ("layoff-meld-missing", game(round_(*OPENING, {"type": "layoff", "player": "Cy", "cards": ["HJ"]})),
     "error: round 1, event 3:", "meld"),
    ("layoff-onto-special-meld", game(round_(meld("Ann", *ODDS_OF_SPADES), layoff("Bob", 1, "HK"))),
     "error: round 1, event 2:", "special"),
    ("layoff-onto-special-meld-run-end", game(round_(meld("Ann", *ODDS_OF_SPADES), layoff("Bob", 1, "S2"))),
     "error: round 1, event 2:", "special"),
    ("ace-event-with-non-ace", game(round_(ace("Ann", "DA", "D2"))), "error: round 1, event 1:", "D2"),
    ("ace-event-without-ace", game(round_(*OPENING, ace("Cy", "H5"))), "error: round 1, event 3:", "H5"),
    ("play-after-out", game(round_(*OPENING, out("Ann"), meld("Bob", "H2", "D2"))), "error: round 1, event 4:", "Ann"),
    ("going-out-twice", game(round_(*OPENING, out("Ann"), out("Bob"))), "error: round 1, event 4:", "Ann"),
    ("play-after-out-same-player", game(round_(*OPENING, out("Ann"), meld("Ann", "H2", "D2"))),
     "error: round 1, event 4:", "Ann"),
    ("other-player-after-last-ace", game(round_(*LAST_ACE, meld("Ann", "H2", "D2"))),
     "error: round 1, event 4:", "ace"),
    ("other-player-goes-out-after-last-ace", game(round_(*LAST_ACE, meld("Cy", "H2", "D2"), out("Bob"))),
     "error: round 1, event 5:", "ace"),
    ("fifth-ace-in-one-deck", game(round_(*LAST_ACE, ace("Cy", "SA"))), "error: round 1, event 4:", "SA"),
    ("out-player-holding-cards", game(round_(*OPENING, out("Ann"), hands={"Ann": ["H2"], "Bob": [], "Cy": []})),
     "error: round 1", "Ann"),
    ("earlier-round-without-hands", game(round_(*OPENING), round_(meld("Cy", "H2", "D2"))), "error: round 1:", "hands"),
    ("middle-round-without-hands",
     game(round_(*OPENING, out("Ann"), hands={}), round_(*OPENING), round_(meld("Cy", "H2", "D2"))),
     "error: round 2:", "hands"),
    ("round-after-game-over", one_round_after_game_over(), "error: round 2:", "over"),
]


def as_text(document) -> str:
    return document if isinstance(document, Raw) else json.dumps(document)


def score_via_cli(text: str, tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return run("score", path)


def assert_one_line_error(proc, starts: str, words: str) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert proc.stderr.endswith("\n") and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(starts), proc.stderr
    assert words.lower() in proc.stderr.lower(), proc.stderr


@pytest.mark.parametrize("document, starts, words", [case[1:] for case in ILLEGAL], ids=[case[0] for case in ILLEGAL])
def test_illegal_file_is_one_line_exit_2(document, starts, words, tmp_path):
    proc = score_via_cli(as_text(document), tmp_path)
    assert_one_line_error(proc, starts, words)


@pytest.mark.parametrize("document, starts, words", [case[1:] for case in ILLEGAL], ids=[case[0] for case in ILLEGAL])
def test_illegal_document_raises_game_file_error(document, starts, words):
    """The library says the same thing the command prints (minus "error: ")."""
    with pytest.raises(GameFileError) as info:
        gamefile.score_text(as_text(document))
    assert ("error: " + str(info.value)).startswith(starts)
    assert "\n" not in str(info.value)


def test_not_utf8_is_one_line_exit_2(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b'{"variant": "iceberg", "players": ["\xff"]}')
    proc = run("score", path)
    assert_one_line_error(proc, "error: ", "")


def test_deeply_nested_json_is_one_line_exit_2(tmp_path):
    proc = score_via_cli("[" * 100_000 + "]" * 100_000, tmp_path)
    assert_one_line_error(proc, "error: ", "")


def test_error_names_the_offending_round(tmp_path):
    good = round_(*OPENING, out("Ann"), hands={"Bob": ["H2"], "Cy": []})
    bad = round_(*OPENING, meld("Cy", "S9", "H9"))
    proc = score_via_cli(json.dumps(game(good, copy.deepcopy(good), bad)), tmp_path)
    assert_one_line_error(proc, "error: round 3, event 3:", "S9")


# ---------------------------------------------------------------------------------------
# Legal games: gamefile.score_document.

# docs/rules/, "The sources' example, recomputed": A 100, B −120, C −20.
SEED_ROUND = round_(
    ace("Ann", "DA"),
    meld("Ann", "S9", "S8", "S7"),
    meld("Bob", "DJ", "CJ"),
    ace("Cy", "CA"),
    layoff("Cy", 2, "HJ"),
    layoff("Cy", 1, "S6"),
    meld("Ann", "H3", "C3"),
    meld("Ann", "DQ", "SQ"),
    out("Ann"),
    hands={"Bob": ["SK", "SJ", "S3", "HQ", "C6"], "Cy": ["D10", "D9", "D4", "CK", "CQ"]},
)
SEED_SCORES = {"Ann": 100, "Bob": -120, "Cy": -20}


def scores(result):
    return [r["scores"] for r in result["rounds"]]


def test_seed_example_round():
    result = gamefile.score_document(game(SEED_ROUND))
    assert scores(result) == [SEED_SCORES]
    assert result["totals"] == SEED_SCORES
    assert result["winners"] == []


def test_totals_sum_finished_rounds():
    result = gamefile.score_document(game(SEED_ROUND, copy.deepcopy(SEED_ROUND)))
    assert scores(result) == [SEED_SCORES, SEED_SCORES]
    assert result["totals"] == {p: 2 * s for p, s in SEED_SCORES.items()}


def test_unfinished_last_round_scores_earned_points_without_penalties():
    # Ann's ace does not multiply yet, Bob's cards in hand cost nothing yet.
    unfinished = round_(ace("Ann", "HA"), meld("Ann", "S2", "S3", "S4"), meld("Bob", "D5", "C5"),
                        layoff("Cy", 2, "H5"), layoff("Cy", 1, "S5", "S6"))
    result = gamefile.score_document(game(SEED_ROUND, unfinished))
    assert scores(result) == [SEED_SCORES, {"Ann": 30, "Bob": 10, "Cy": 20 + 40 + 50}]
    # Totals count finished rounds only.
    assert result["totals"] == SEED_SCORES
    assert result["winners"] == []


def test_unfinished_only_round_leaves_totals_at_zero():
    result = gamefile.score_document(game(round_(*OPENING)))
    assert scores(result) == [{"Ann": 30, "Bob": 10, "Cy": 0}]
    assert result["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert result["winners"] == []


def test_round_with_no_events_yet():
    result = gamefile.score_document(game(round_()))
    assert scores(result) == [{"Ann": 0, "Bob": 0, "Cy": 0}]


def test_no_rounds_yet():
    result = gamefile.score_document(game())
    assert result["rounds"] == []
    assert result["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert result["winners"] == []


def test_winner_once_someone_reaches_target_with_unique_top_total():
    result = gamefile.score_document(game(SEED_ROUND, rules={"target": 100}))
    assert result["winners"] == ["Ann"]


def test_no_winner_below_target():
    result = gamefile.score_document(game(SEED_ROUND, rules={"target": 101}))
    assert result["winners"] == []
    # ... so the game goes on: the same file with one more round is legal.
    result = gamefile.score_document(game(SEED_ROUND, copy.deepcopy(SEED_ROUND), rules={"target": 101}))
    assert result["winners"] == ["Ann"]
    assert result["totals"]["Ann"] == 200


def two_player_round(winner, loser):
    """The winner lays a run of three (30) and goes out; the loser laid a pair (10), holds nothing."""
    return round_(meld(winner, "S7", "S8", "S9"), meld(loser, "H2", "D2"), out(winner), hands={loser: []})


def test_tie_at_the_top_has_no_winner_and_plays_another_round():
    players = ["Ann", "Bob"]
    tied = [two_player_round("Ann", "Bob"), two_player_round("Bob", "Ann")]
    result = gamefile.score_document(game(*tied, players=players, rules={"target": 40}))
    assert result["totals"] == {"Ann": 40, "Bob": 40}
    assert result["winners"] == []
    # Another round is legal after a tie at the top, and it settles the game.
    result = gamefile.score_document(game(*tied, two_player_round("Bob", "Ann"), players=players, rules={"target": 40}))
    assert result["totals"] == {"Ann": 50, "Bob": 70}
    assert result["winners"] == ["Bob"]


def test_highest_total_wins_when_several_reach_target():
    # Ann 30 and Bob 10 both reach the target of 10: the highest total wins.
    data = round_(meld("Ann", "S7", "S8", "S9"), meld("Bob", "H2", "D2"), out("Ann"), hands={"Bob": []})
    result = gamefile.score_document(game(data, players=["Ann", "Bob"], rules={"target": 10}))
    assert result["totals"] == {"Ann": 30, "Bob": 10}
    assert result["winners"] == ["Ann"]


def test_an_unfinished_round_does_not_end_the_game():
    # Ann earns 180 in an unfinished round: it is not in the totals, so no winner yet.
    unfinished = round_(meld("Ann", "S2", "S3", "S4", "S5", "S6", "S7"))
    result = gamefile.score_document(game(unfinished, rules={"target": 100}))
    assert scores(result) == [{"Ann": 180, "Bob": 0, "Cy": 0}]
    assert result["winners"] == []


# Ann lays S7 S8 S9 (30) and goes out; Bob holds S10 SJ H5 D5.
# best_turn: S10 as 4th 40, then SJ as 5th 50, and H5 D5 a new pair 10: 100.
# single_card: S10 alone 40; SJ fits nothing alone; H5 and D5 fit nothing: 40.
CHAIN_ROUND = round_(meld("Ann", "S7", "S8", "S9"), out("Ann"), hands={"Bob": ["S10", "SJ", "H5", "D5"]})


@pytest.mark.parametrize(
    "rules, bob",
    [
        ({}, -40 - 100),
        ({"card_penalty_applies_to": "all", "playable_penalty": "best_turn"}, -40 - 100),
        ({"card_penalty_applies_to": "unplayable"}, 0 - 100),
        ({"playable_penalty": "single_card"}, -40 - 40),
        ({"card_penalty": 5}, -20 - 100),
        ({"card_penalty": 0, "playable_penalty": "single_card"}, -40),
        ({"special_odds_suit": 0}, -140),
    ],
    ids=["defaults", "explicit-defaults", "unplayable", "single-card", "card-penalty-5", "no-card-penalty",
         "other-rule"],
)
def test_penalty_options(rules, bob):
    result = gamefile.score_document(game(CHAIN_ROUND, players=["Ann", "Bob"], rules=rules))
    assert scores(result) == [{"Ann": 30, "Bob": bob}]


@pytest.mark.parametrize(
    "rules, bob",
    [
        # docs/rules/ seed example: B = 10 − 50 − 40 (SJ) − 20 (HQ) − 20 (S3) = −120.
        ({}, -120),
        # Only SK and C6 are left unplayed: 10 − 20 − 80.
        ({"card_penalty_applies_to": "unplayable"}, -90),
        # Each of SJ, HQ, S3 has a single lay-off: the same 80 as the best turn.
        ({"playable_penalty": "single_card"}, -120),
    ],
    ids=["defaults", "unplayable", "single-card"],
)
def test_penalty_options_on_seed_example(rules, bob):
    result = gamefile.score_document(game(SEED_ROUND, rules=rules))
    assert scores(result)[0]["Bob"] == bob
    assert scores(result)[0]["Ann"] == 100


@pytest.mark.parametrize(
    "rules, ann, cy",
    [
        # Ann earns 50 with one ace; Cy 60 − 50 − 20 = −10 with one ace.
        ({}, 100, -20),
        ({"aces": "multiplier"}, 100, -20),
        ({"aces": "bonus"}, 70, 10),
        ({"aces": "bonus", "ace_bonus": 50}, 100, 40),
        ({"aces": "doubling_bonus"}, 70, 10),
    ],
)
def test_aces_options(rules, ann, cy):
    result = gamefile.score_document(game(SEED_ROUND, rules=rules))
    assert scores(result)[0]["Ann"] == ann
    assert scores(result)[0]["Cy"] == cy


def test_doubling_bonus_doubles_each_next_ace():
    three_aces = round_(ace("Ann", "SA", "HA", "DA"), meld("Ann", "S7", "S8", "S9"), out("Ann"), hands={"Bob": []})
    result = gamefile.score_document(game(three_aces, players=["Ann", "Bob"], rules={"aces": "doubling_bonus"}))
    # 30 + 20 + 40 + 80
    assert scores(result)[0]["Ann"] == 170


def test_negative_scores_are_multiplied_too():
    # Bob exposes an ace and holds H2 D4 when Ann goes out: (0 − 20 − 0) × 2.
    round_data = round_(ace("Bob", "SA"), meld("Ann", "S7", "S8", "S9"), out("Ann"), hands={"Bob": ["H2", "D4"]})
    result = gamefile.score_document(game(round_data, players=["Ann", "Bob"]))
    assert scores(result)[0]["Bob"] == -40


def test_last_ace_player_finishes_the_turn():
    # Cy exposes the 4th ace of the one deck and may still meld; the round then ends.
    data = round_(*LAST_ACE, meld("Cy", "H2", "D2"), hands={"Ann": ["S5"], "Bob": []})
    result = gamefile.score_document(game(data))
    assert result["rounds"][0]["scores"]["Cy"] == 10 * 2


def test_two_decks_for_four_players_allow_a_second_s9():
    data = round_(meld("Ann", "S7", "S8", "S9"), meld("Bob", "S9", "H9"), out("Ann"), hands={"Cy": ["C9"]})
    result = gamefile.score_document(game(data, players=["Ann", "Bob", "Cy", "Di"]))
    assert result["rules"]["decks"] == 2
    # Cy's C9 goes on Bob's pair as 3rd card: −10 − 20.
    assert scores(result) == [{"Ann": 30, "Bob": 10, "Cy": -30, "Di": 0}]


def test_decks_rule_overrides_player_count():
    data = round_(meld("Ann", "S7", "S8", "S9"), meld("Bob", "S9", "H9"))
    result = gamefile.score_document(game(data, rules={"decks": 2}))
    assert scores(result) == [{"Ann": 30, "Bob": 10, "Cy": 0}]
    with pytest.raises(GameFileError, match="S9"):
        gamefile.score_document(game(data, players=["Ann", "Bob", "Cy", "Di"], rules={"decks": 1}))


def test_card_spellings_are_forgiving():
    data = round_(meld("Ann", "s7", "8S", "9♠"), meld("Bob", "TD", "♣10"), out("Ann"), hands={"Bob": ["h10"], "Cy": []})
    result = gamefile.score_document(game(data))
    assert scores(result) == [{"Ann": 30, "Bob": 10 - 10 - 20, "Cy": 0}]


def test_format_and_rules_may_be_left_out():
    doc = game(SEED_ROUND)
    del doc["format"], doc["rules"], doc["teams"]
    assert scores(gamefile.score_document(doc)) == [SEED_SCORES]


def test_special_meld_scores_its_rule_value():
    data = round_(meld("Ann", *ODDS_OF_SPADES), out("Ann"), hands={"Bob": []})
    assert scores(gamefile.score_document(game(data, players=["Ann", "Bob"])))[0]["Ann"] == 700
    rules = {"special_odds_suit": 500}
    assert scores(gamefile.score_document(game(data, players=["Ann", "Bob"], rules=rules)))[0]["Ann"] == 500


@pytest.mark.parametrize("round_, within", [
    ({"events": [{"type": "meld", "player": "A", "cards": ["S2", "S3", "S4"]},
                 {"type": "meld", "player": "B", "cards": ["S2", "H3"]}]}, "event 2: S2 H3 is not a meld"),
    ({"events": [], "hands": {"B": ["S2", "S2"]}}, "hands of B: "),
    ({"events": [], "hands": {"Zed": []}}, "hands: unknown player 'Zed'"),
    ({"events": [], "extra": 1}, None),  # the round itself: no place within it
])
def test_a_refusal_says_its_place_within_the_round_for_a_page_of_that_round(round_, within):
    """A refusal in a round says its place in the file ("round 1, event 2: …") and, for a
    page of that round, its place within the round alone (``said_within``): made where
    the place is known, not read back out of the message."""
    doc = {"format": "scorekeeper/1", "variant": "iceberg", "players": ["A", "B"], "rounds": [round_]}
    with pytest.raises(GameFileError) as refused:
        gamefile.replay(doc)
    error = refused.value
    assert error.round_no == 1 and str(error.message).startswith("round 1")
    if within is None:
        assert error.said_within is None
    else:
        assert str(error.said_within).startswith(within), str(error.said_within)
        assert str(error.message) == "round 1, " + str(error.said_within)
