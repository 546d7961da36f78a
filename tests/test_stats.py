"""Statistics of players over games (scorekeeper/stats.py), against games built here.

Every expected number is worked out by hand from docs/rules/ in the comments beside the
game it comes from; the games are replayed by gamefile.replay, as the app does.
"""
from __future__ import annotations

import pytest
from games_data import GIN_ANN_WINS

from scorekeeper import gamefile, stats
from scorekeeper.games import registry
from scorekeeper.web.chart import timeline


def record(game_id, date, doc, who=None):
    return stats.GameRecord(game_id, registry.get(doc["variant"]), date, gamefile.replay(doc), who or {})


def iceberg(players, rounds, target=100):
    return {"format": "scorekeeper/1", "variant": "iceberg", "rules": {"target": target},
            "players": players, "rounds": rounds}


# Iceberg 1 (2026-01-01), Ann and Bob, one deck, target 100.
#   Ann: ace HA; special meld S3 S5 S7 S9 SJ SK (odds in one suit, 700); out.
#   Bob: run D2 D3 D4 (30); left with D5 C9: 2 × 10 for the cards, and D5 would have
#   been the 4th card of his run (40): 30 − 20 − 40 = −30.
#   Ann: 700 × (1 + 1 ace) = 1400, past the target: Ann wins.
ICEBERG_1 = iceberg(["Ann", "Bob"], [{
    "events": [
        {"type": "ace", "player": "Ann", "cards": ["HA"]},
        {"type": "meld", "player": "Ann", "cards": ["S3", "S5", "S7", "S9", "SJ", "SK"]},
        {"type": "meld", "player": "Bob", "cards": ["D2", "D3", "D4"]},
        {"type": "out", "player": "Ann"},
    ],
    "hands": {"Ann": [], "Bob": ["D5", "C9"]},
}])

# Iceberg 2 (2026-01-05), Ann, Bob and Cy, target 100.
#   Bob: set H4 C4 D4 (30); Ann lays S4 on it as 4th card (40, a lay-off, not a meld);
#   Cy: run C10 CJ CQ (30); Bob: run H7 H8 H9 H10 (30 + 40 = 70); Bob goes out: 100.
#   Ann holds D9 (10; plays nowhere): 40 − 10 = 30.
#   Cy holds CK (10, and the 4th card of his run: 40 playable): 30 − 10 − 40 = −20.
#   Bob reaches 100: Bob wins; Ann 30 finishes ahead of Cy −20.
ICEBERG_2 = iceberg(["Ann", "Bob", "Cy"], [{
    "events": [
        {"type": "meld", "player": "Bob", "cards": ["H4", "C4", "D4"]},
        {"type": "layoff", "player": "Ann", "cards": ["S4"], "meld": 1},
        {"type": "meld", "player": "Cy", "cards": ["C10", "CJ", "CQ"]},
        {"type": "meld", "player": "Bob", "cards": ["H7", "H8", "H9", "H10"]},
        {"type": "out", "player": "Bob"},
    ],
    "hands": {"Ann": ["D9"], "Bob": [], "Cy": ["CK"]},
}])

# Iceberg 3 (2026-01-07), Ann and Bob: a round being played (no hands): nothing counted.
ICEBERG_3 = iceberg(["Ann", "Bob"], [{
    "events": [{"type": "meld", "player": "Ann", "cards": ["S2", "S3", "S4"]}],
}])

# Gin (2026-01-03), Ann and Bob, classic preset (gin 20, undercut 10), target 100:
# games_data.GIN_ANN_WINS, worked out there. Hand 1: Ann goes gin, 88; hand 2: Bob
# knocks with 3 and Ann undercuts him, 12 to Ann. Ann reaches 100: Ann wins.
GIN = GIN_ANN_WINS

# Basic Rummy with penalty scoring (2026-01-09), target 100: the lowest total wins, so
# the best round is the lowest. Round 1: Ann out (0), Bob holds SK SQ (20).
# Round 2: Bob out (0), Ann holds S9 (9). Not over.
RUMMY = {"format": "scorekeeper/1", "variant": "rummy", "rules": {"scoring": "penalty"},
         "players": ["Ann", "Bob"], "rounds": [
             {"out": "Ann", "hands": {"Ann": [], "Bob": ["SK", "SQ"]}},
             {"out": "Bob", "hands": {"Ann": ["S9"], "Bob": []}},
         ]}

# Robber Rummy (2026-01-10), Ann and Bob, target 400. Ann melds H4 S4 C4 (15); Bob adds
# D4 to it: a steal, and the four 4s (4 × 5 = 20) are his; Bob goes out. Ann holds SK:
# −10. Not over.
ROBBER = {"format": "scorekeeper/1", "variant": "robber", "rules": {}, "players": ["Ann", "Bob"],
          "rounds": [{"events": [
              {"type": "meld", "player": "Ann", "cards": ["H4", "S4", "C4"]},
              {"type": "layoff", "player": "Bob", "cards": ["D4"], "meld": 1},
              {"type": "out", "player": "Bob"},
          ], "hands": {"Ann": ["SK"], "Bob": []}}]}


@pytest.fixture(scope="module")
def records():
    return [
        record(1, "2026-01-01", ICEBERG_1),
        record(2, "2026-01-05", ICEBERG_2),
        record(3, "2026-01-07", ICEBERG_3),
        record(4, "2026-01-03", GIN),
        record(5, "2026-01-09", RUMMY),
        record(6, "2026-01-10", ROBBER),
    ]


def test_the_games_score_as_worked_out(records):
    by_id = {r.id: r for r in records}
    assert by_id[1].score["totals"] == {"Ann": 1400, "Bob": -30}
    assert by_id[2].score["totals"] == {"Ann": 30, "Bob": 100, "Cy": -20}
    assert [r["scores"] for r in by_id[4].score["rounds"]] == [{"Ann": 88, "Bob": 0}, {"Ann": 12, "Bob": 0}]
    assert [r["scores"] for r in by_id[5].score["rounds"]] == [{"Ann": 0, "Bob": 20}, {"Ann": 9, "Bob": 0}]
    assert by_id[6].score["rounds"][0]["scores"] == {"Ann": -10, "Bob": 20}
    assert [r.over for r in records] == [True, True, False, True, False, False]


@pytest.mark.parametrize("player, variant, played, won, unfinished, rate, average, best", [
    ("Ann", "iceberg", 2, 1, 1, 50, 715.0, 1400),  # rounds 1400 and 30
    ("Bob", "iceberg", 2, 1, 1, 50, 35.0, 100),  # rounds −30 and 100
    ("Cy", "iceberg", 1, 0, 0, 0, -20.0, -20),
    ("Ann", "gin", 1, 1, 0, 100, 50.0, 88),  # hands 88 and 12
    ("Bob", "gin", 1, 0, 0, 0, 0.0, 0),
    ("Ann", "rummy", 0, 0, 1, None, 4.5, 0),  # penalties 0 and 9: the lowest is best
    ("Bob", "rummy", 0, 0, 1, None, 10.0, 0),  # penalties 20 and 0
    ("Ann", "robber", 0, 0, 1, None, -10.0, -10),
    ("Bob", "robber", 0, 0, 1, None, 20.0, 20),
])
def test_games_played_and_won_per_game_type(records, player, variant, played, won, unfinished,
                                            rate, average, best):
    line = next(each for each in stats.player_stats(player, records).lines if each.variant == variant)
    assert (line.played, line.won, line.unfinished) == (played, won, unfinished)
    assert (line.win_rate, line.average_round, line.best_round) == (rate, average, best)


@pytest.mark.parametrize("player, variants, played, won, rate", [
    ("Ann", ["iceberg", "robber", "rummy", "gin"], 3, 2, 67),  # won iceberg 1 and gin
    ("Bob", ["iceberg", "robber", "rummy", "gin"], 3, 1, 33),  # won iceberg 2
    ("Cy", ["iceberg"], 1, 0, 0),
    ("Dee", [], 0, 0, None),  # never played here
])
def test_all_games_together(records, player, variants, played, won, rate):
    figures = stats.player_stats(player, records)
    assert [line.variant for line in figures.lines] == variants  # in the new-game page's order
    assert (figures.overall.played, figures.overall.won, figures.overall.win_rate) == (played, won, rate)


@pytest.mark.parametrize("player, points, cards, game, specials, playable, aces, steals, gins, undercuts", [
    ("Ann", 700, ("S3", "S5", "S7", "S9", "SJ", "SK"), 1, ["odds in one suit (3-5-7-9-J-K)"], 0, 1, 0, 1, 1),
    ("Bob", 70, ("H7", "H8", "H9", "H10"), 2, [], 40, 0, 1, 0, 0),  # his 4s in Robber: 20
    ("Cy", 30, ("C10", "CJ", "CQ"), 2, [], 40, 0, 0, 0, 0),
])
def test_card_level_records(records, player, points, cards, game, specials, playable, aces, steals,
                            gins, undercuts):
    figures = stats.player_stats(player, records)
    assert (figures.biggest_meld.points, figures.biggest_meld.cards, figures.biggest_meld.game) == (
        points, cards, game)
    assert [s.title for s in figures.specials] == specials
    assert (figures.playable_penalty, figures.aces, figures.steals) == (playable, aces, steals)
    assert (figures.gins, figures.undercuts) == (gins, undercuts)


def test_robber_melds_count_at_what_they_were_worth_when_the_hand_ended(records):
    robber = next(r for r in records if r.variant.key == "robber")
    facts = stats.facts(robber)
    assert [(m.points, sorted(m.cards)) for m in facts["Bob"].melds] == [(20, ["C4", "D4", "H4", "S4"])]
    assert facts["Ann"].melds == [] and facts["Bob"].steals == 1 and facts["Ann"].steals == 0


def test_a_lay_off_is_not_a_meld(records):
    assert stats.facts(records[1])["Ann"].melds == []  # only S4 laid on Bob's set


def test_results_over_time_oldest_first(records):
    figures = stats.player_stats("Ann", records)
    # iceberg 1 (01-01, won), gin (01-03, won), iceberg 2 (01-05, lost): 1/1, 2/2, 2/3.
    assert [(r.game, r.won, r.rate) for r in figures.results] == [(1, True, 100), (4, True, 100), (2, False, 67)]
    assert [r.id for r, _f in figures.games] == [6, 5, 3, 2, 4, 1]  # every game, newest first


def test_the_timeline_chart_puts_a_mark_per_game_at_its_win_rate():
    drawn = timeline([("2026-01-01", True, 100, "a"), ("2026-01-03", True, 100, "b"),
                      ("2026-01-05", False, 50, "c")])
    left, top, right, bottom = drawn.plot
    assert [m.won for m in drawn.marks] == [True, True, False]
    assert drawn.marks[0].y == drawn.marks[1].y == top
    assert drawn.marks[2].y == pytest.approx((top + bottom) / 2, abs=0.1)
    assert drawn.marks[0].x < drawn.marks[1].x < drawn.marks[2].x
    assert [d for _x, d in drawn.dates] == ["2026-01-01", "2026-01-05"]
    assert timeline([]).marks == () and timeline([]).dates == ()


@pytest.mark.parametrize("a, b, won, lost, tied", [
    ("Ann", "Bob", 2, 1, 0),  # Ann won iceberg 1 and gin; Bob won iceberg 2
    ("Bob", "Ann", 1, 2, 0),
    ("Ann", "Cy", 1, 0, 0),  # iceberg 2: neither won; Ann 30 above Cy −20
    ("Cy", "Bob", 0, 1, 0),
])
def test_head_to_head(records, a, b, won, lost, tied):
    duel = stats.head_to_head(["Ann", "Bob", "Cy"], records)[(a, b)]
    assert (duel.won, duel.lost, duel.tied) == (won, lost, tied)


def test_head_to_head_lowest_total_is_ahead_where_lowest_wins_and_level_is_a_tie():
    # Rummy with penalty scoring, target 20: Bob reaches 20, Ann and Cy level at 0 → Ann and
    # Cy win together; Ann vs Cy is a tie, each is ahead of Bob.
    doc = {"format": "scorekeeper/1", "variant": "rummy", "rules": {"scoring": "penalty", "target": 20},
           "players": ["Ann", "Bob", "Cy"],
           "rounds": [{"out": "Ann", "hands": {"Ann": [], "Bob": ["SK", "SQ"], "Cy": []}}]}
    game = record(9, "2026-02-01", doc)
    assert game.score["winners"] == ["Ann", "Cy"]
    table = stats.head_to_head(["Ann", "Bob", "Cy"], [game])
    assert (table[("Ann", "Cy")].tied, table[("Ann", "Bob")].won, table[("Bob", "Cy")].lost) == (1, 1, 1)


def test_player_keys_follow_the_seats_not_the_names():
    # The same person under two names in two games (before a merge): the seats say so.
    one = record(1, "2026-01-01", ICEBERG_1, {"Ann": 7, "Bob": 8})
    doc = dict(ICEBERG_2, players=["Annie", "Bob", "Cy"])
    doc["rounds"] = [dict(ICEBERG_2["rounds"][0], events=[dict(e, player="Annie") if e["player"] == "Ann" else e
                                                          for e in ICEBERG_2["rounds"][0]["events"]],
                          hands={"Annie": ["D9"], "Bob": [], "Cy": ["CK"]})]
    two = record(2, "2026-01-05", doc, {"Annie": 7, "Bob": 8, "Cy": 9})
    line = stats.player_stats(7, [one, two]).lines[0]
    assert (line.played, line.won, line.rounds) == (2, 1, [1400, 30])


def test_score_sheet_highlights_in_words(records):
    notes = dict(stats.highlights(stats.facts(records[0])))
    assert notes == {"Ann": ["biggest meld 700", "1 special meld", "1 ace"],
                     "Bob": ["biggest meld 30", "40 paid for playable cards"]}
    assert dict(stats.highlights(stats.facts(records[3]))) == {"Ann": ["1 gin", "1 undercut"]}


@pytest.mark.parametrize("variant, rules, lowest", [
    ("iceberg", {}, False), ("robber", {}, False), ("gin", {}, False), ("conquian", {}, False),
    ("rummy", {"scoring": "winner_takes_all"}, False), ("rummy", {"scoring": "penalty"}, True),
    ("kalooki", {}, True), ("manipulation", {}, True),
])
def test_the_lowest_total_wins_the_penalty_games_as_their_rules_say(variant, rules, lowest):
    # docs/rules/: Rummy's penalty variation, Kalooki's elimination and Manipulation's
    # penalties are won by the lowest total; every other game by the highest.
    assert stats.low_wins(variant, rules) is lowest


# Basic Rummy, the winner taking all (2026-01-11): Ann goes out, Bob holds SK HK (20): Ann
# +20, Bob 0. Beside the penalty game above, Ann's Rummy rounds are told in two lines, each
# with its own best round: the penalty game's lowest (0), this one's highest (20).
RUMMY_WINNER_TAKES_ALL = {"format": "scorekeeper/1", "variant": "rummy", "rules": {}, "players": ["Ann", "Bob"],
                          "rounds": [{"out": "Ann", "hands": {"Ann": [], "Bob": ["SK", "HK"]}}]}


def test_a_game_played_both_ways_of_winning_has_a_line_for_each(records):
    both = [*records, record(7, "2026-01-11", RUMMY_WINNER_TAKES_ALL)]
    lines = [(str(line.name), line.rounds, line.best_round) for line in stats.player_stats("Ann", both).lines
             if line.variant == "rummy"]
    assert lines == [("Rummy", [20], 20), ("Rummy, lowest total wins", [0, 9], 0)]
    only_penalty = [str(line.name) for line in stats.player_stats("Ann", records).lines if line.variant == "rummy"]
    assert only_penalty == ["Rummy"]  # played one way only: its name alone


def test_a_stalemate_is_no_round_of_the_averages():
    """Penalty Rummy: Ann out (0), a stalemate (no hand counted), Bob out (Ann 9): Ann's rounds
    are 0 and 9, average 4.5; the stalemate's 0 counts for nothing."""
    doc = {**RUMMY, "rounds": [RUMMY["rounds"][0], {"stalemate": True}, RUMMY["rounds"][1]]}
    (line,) = stats.player_stats("Ann", [record(8, "2026-01-12", doc)]).lines
    assert line.rounds == [0, 9] and line.average_round == 4.5
