"""A club night's own rules (scorekeeper/nights.py): where each player finished at a table,
placing points shared by ties, the two ways of ranking the night, and the seats for the
next round of tables."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import nights
from scorekeeper.games import registry
from scorekeeper.stats import GameRecord

RUMMY, KALOOKI = registry.get("rummy"), registry.get("kalooki")


def record(game_id, totals, winners=(), variant=RUMMY):
    """A game as the stores keep it, with just what a night reads: players, totals, winners."""
    game = SimpleNamespace(players=list(totals), totals=dict(totals), winners=list(winners), rules={}, rounds=[])
    return GameRecord(game_id, variant, "2026-11-29", game, {p: p.lower() for p in totals})


def table(game_id, totals, winners=(), round_no=1, number=1, abandoned=False, variant=RUMMY):
    return nights.Table(game_id, round_no, number, record(game_id, totals, winners, variant), abandoned)


def test_the_winners_come_first_then_the_others_by_total_equal_totals_sharing_a_place():
    r = record(1, {"Ann": 120, "Bob": 40, "Cy": 40, "Dee": 60}, ["Ann"])
    assert nights.finishing_order(r) == [["Ann"], ["Dee"], ["Bob", "Cy"]]
    assert nights.placing_points(r, (3, 2, 1, 0)) == {
        "Ann": (1, 1, 3), "Dee": (2, 1, 2), "Bob": (3, 2, Fraction(1, 2)), "Cy": (3, 2, Fraction(1, 2))}


def test_where_the_lowest_total_wins_the_lowest_comes_next():
    r = record(1, {"Ann": 20, "Bob": 160, "Cy": 90}, ["Ann"], KALOOKI)
    assert nights.finishing_order(r) == [["Ann"], ["Cy"], ["Bob"]]


def test_players_tied_for_first_share_the_points_of_the_places_they_fill():
    r = record(1, {"Ann": 100, "Bob": 100, "Cy": 10}, ["Ann", "Bob"])
    points = nights.placing_points(r, (3, 2, 1, 0))
    assert points["Ann"] == points["Bob"] == (1, 2, Fraction(5, 2))
    assert points["Cy"] == (3, 1, 1)


def test_a_place_past_the_points_given_earns_nothing():
    r = record(1, {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}, ["A"])
    assert [p[2] for p in nights.placing_points(r, (5, 3)).values()] == [5, 3, 0, 0, 0]


def present(*names, left=()):
    return {n.lower(): (n, n in left) for n in names}


def test_placing_points_count_finished_games_only_and_an_abandoned_one_not_at_all():
    tables = [table(1, {"Ann": 110, "Bob": 30}, ["Ann"]),
              table(2, {"Cy": 50, "Dee": 20}, [], number=2),  # still playing
              table(3, {"Bob": 200, "Dee": 0}, ["Bob"], round_no=2, abandoned=True)]
    ranked = nights.standings(tables, nights.PLACES, (3, 2, 1, 0), present("Ann", "Bob", "Cy", "Dee", "Eve"))
    by = {s.name: s for s in ranked}
    assert [s.name for s in ranked] == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    assert (by["Ann"].points, by["Ann"].games, by["Ann"].won, by["Ann"].rank) == (3, 1, 1, 1)
    assert (by["Bob"].points, by["Bob"].games, by["Bob"].won) == (2, 1, 0)  # the abandoned win is not his
    assert by["Cy"].playing and by["Cy"].games == 0 and by["Cy"].points == 0
    assert [r.table.game_id for r in by["Bob"].results] == [1]
    assert (by["Cy"].rank, by["Dee"].rank, by["Eve"].rank) == (3, 3, 3)
    assert by["Cy"].tied and by["Eve"].tied and not by["Ann"].tied


def test_equal_points_share_a_rank_and_the_next_rank_skips():
    tables = [table(1, {"Ann": 110, "Bob": 30}, ["Ann"]), table(2, {"Cy": 150, "Dee": 20}, ["Cy"], number=2)]
    ranked = nights.standings(tables, nights.PLACES, (3, 1), present("Ann", "Bob", "Cy", "Dee"))
    assert [(s.name, s.rank, s.tied) for s in ranked] == [
        ("Ann", 1, True), ("Cy", 1, True), ("Bob", 3, True), ("Dee", 3, True)]


def test_a_player_who_left_keeps_what_they_earned():
    ranked = nights.standings([table(1, {"Ann": 110, "Bob": 30}, ["Ann"])], nights.PLACES, (3, 2),
                              present("Ann", "Bob", left=("Ann",)))
    assert (ranked[0].name, ranked[0].left, ranked[0].points) == ("Ann", True, 3)


def test_the_sum_of_scores_counts_games_in_progress_and_ranks_as_the_game_does():
    tables = [table(1, {"Ann": 110, "Bob": 30}, ["Ann"]), table(2, {"Ann": 10, "Bob": 95}, round_no=2)]
    ranked = nights.standings(tables, nights.SCORES, (3, 2, 1, 0), present("Ann", "Bob"))
    assert [(s.name, s.points, s.games, s.playing) for s in ranked] == [("Bob", 125, 1, True), ("Ann", 120, 1, True)]
    low = [table(1, {"Ann": 20, "Bob": 160}, ["Ann"], variant=KALOOKI)]
    ranked = nights.standings(low, nights.SCORES, (3, 2), present("Ann", "Bob"), low_wins=True)
    assert [s.name for s in ranked] == ["Ann", "Bob"]


def test_where_the_lowest_sum_wins_who_sat_at_more_tables_ranks_first():
    """A sum of penalties is smaller for who played less: one who has not played yet is
    not first, nor is one who left after a game ahead of those who played on."""
    low = [table(1, {"Ann": 20, "Bob": 160}, ["Ann"], variant=KALOOKI),
           table(2, {"Ann": 30, "Cy": 10}, ["Cy"], round_no=2, variant=KALOOKI)]
    ranked = nights.standings(low, nights.SCORES, (3, 2), present("Ann", "Bob", "Cy", "Dee"), low_wins=True)
    assert [(s.name, s.rank, s.points) for s in ranked] == [("Ann", 1, 50), ("Cy", 2, 10), ("Bob", 3, 160),
                                                              ("Dee", 4, 0)]


def test_tables_are_as_even_as_the_players_allow():
    assert nights.table_sizes(12, 4) == [4, 4, 4]
    assert nights.table_sizes(10, 4) == [4, 3, 3]
    assert nights.table_sizes(5, 4) == [3, 2]
    assert nights.table_sizes(7, 2) == [2, 2, 2, 1]
    assert nights.table_sizes(0, 4) == []
    assert nights.table_sizes(6, 4, 3) == [2, 2, 2]


TWELVE = [f"P{i}" for i in range(12)]


def repeats(tables, earlier):
    met = {frozenset(pair) for t in earlier for pair in combinations(t, 2)}
    return sum(1 for t in tables for pair in combinations(t, 2) if frozenset(pair) in met)


def test_twelve_players_over_two_rounds_meet_as_few_people_again_as_can_be():
    first = nights.suggest(TWELVE, 4, [])
    assert [len(t) for t in first] == [4, 4, 4]
    assert sorted(p for t in first for p in t) == sorted(TWELVE)
    second = nights.suggest(TWELVE, 4, first)
    assert sorted(p for t in second for p in t) == sorted(TWELVE)
    # Four players at a table from three tables before: one pair at least meets again, no more.
    assert repeats(second, first) == 3
    third = nights.suggest(TWELVE, 4, first + second)
    assert repeats(third, first + second) <= 3


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 20), st.integers(2, 6), st.data())
def test_every_waiting_player_gets_one_seat_and_starting_a_table_as_suggested_moves_no_other(n, size, data):
    players = [f"P{i}" for i in range(n)]
    earlier = data.draw(st.lists(st.lists(st.sampled_from(players), min_size=2, max_size=size, unique=True),
                                 max_size=6))
    tables = nights.suggest(players, size, earlier)
    assert sorted(p for t in tables for p in t) == sorted(players)
    assert all(len(t) <= size for t in tables)
    assert max(map(len, tables)) - min(map(len, tables)) <= 1
    started, rest = tables[:1], [p for p in players if p not in tables[0]]
    assert nights.suggest(rest, size, earlier, started, order=players) == tables[1:]
    moved = [tables[0][1:] + rest[:1]] if len(tables) > 1 else []  # a table started otherwise
    if moved:
        others = nights.suggest([p for p in players if p not in moved[0]], size, earlier, moved, order=players)
        assert sorted(p for t in moved + others for p in t) == sorted(players)


def test_no_table_has_fewer_players_than_the_game_needs_nor_more_than_the_night_seats():
    # Gin seats two: of five players, one waits for the next table.
    assert [len(t) for t in nights.suggest(TWELVE[:5], 2, [], least=2)] == [2, 2]
    # Manipulation takes 3 to 5: four players at 3 a table make one table of three, not two of two.
    assert [len(t) for t in nights.suggest(TWELVE[:4], 3, [], least=3)] == [3]
    assert nights.suggest(TWELVE[:2], 3, [], least=3) == []


NINE = [f"P{i}" for i in range(9)]


def test_nine_players_at_three_a_table_meet_no_one_twice_in_four_rounds():
    """Nine players in threes: four rounds where no pair meets twice exist (Kirkman's
    schoolgirls, for nine); the suggestion finds them."""
    earlier: list = []
    for _round in range(4):
        tables = nights.suggest(NINE, 3, earlier)
        assert repeats(tables, earlier) == 0, (tables, earlier)
        earlier += tables
