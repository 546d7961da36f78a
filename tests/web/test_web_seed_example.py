"""docs/rules/iceberg.md's seed example played through the routes: A 100, B −120, C −20."""
import re

from web_table import seed_round


def test_seed_example_round_end_screen_shows_the_scores(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    assert table.end_scores() == {"A": 100, "B": -120, "C": -20}


def test_seed_example_end_screen_explains_the_s3(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    html = table.page("/end")
    # Both seed pages forgot that S3 is playable: the dispute view shows it.
    assert "3♠: 3rd card on meld 3 (3♥ 3♣): −20" in re.sub(r"</?span\b[^>]*>", "", html)
    assert "2 aces: × 3" not in html and "1 ace: × 2" in html


def test_seed_example_totals_after_confirming(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    assert table.totals() == {"A": 100, "B": -120, "C": -20}
    assert table.totals("") == {"A": 100, "B": -120, "C": -20}


def test_seed_example_export_matches_the_example_file(table, client, seed_example):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    exported = client.get(f"{table.url}/export").get_json()
    expected = seed_example["rounds"][0]
    got = exported["rounds"][0]
    assert [(e["type"], e["player"], sorted(e.get("cards", [])), e.get("meld")) for e in got["events"]] == [
        (e["type"], e["player"], sorted(e.get("cards", [])), e.get("meld")) for e in expected["events"]
    ]
    assert {p: sorted(c) for p, c in got["hands"].items() if c} == {p: sorted(c) for p, c in expected["hands"].items()}
