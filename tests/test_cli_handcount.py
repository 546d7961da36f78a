"""``scorekeeper score`` and ``scorekeeper import``/``export`` for the hand-count rummies
(docs/game-file.md; issue 7, point 2; tests/command.py runs the command): a legal game
prints its scores and exits 0; an illegal round — a gin knock over the limit, a hand of
the wrong size, the player who went out still holding cards, more copies of a card than
the decks hold, an unknown rule — exits 2 with one clear line naming the round, and
prints nothing else."""
import json

import pytest
from command import run
from test_cli import assert_refused


def doc(variant, players, rounds, rules=None):
    return json.dumps({"format": "scorekeeper/1", "variant": variant, "rules": rules or {},
                       "players": players, "teams": None, "rounds": rounds})


ANN_KNOCKS = ["S2", "S3", "S4", "H9", "D9", "C9", "SK", "HK", "DK", "D5"]  # deadwood 5
BOB_LAYS_OFF = ["S5", "S6", "H10", "HJ", "HQ", "C2", "C3", "D7", "CK", "D4"]  # 16 after lay-offs

LEGAL = [
    ("rummy", ["A", "B", "C"], [{"out": "A", "rummy": False, "hands": {"B": ["SK", "H2"], "C": ["D7"]}}],
     {"A": 19, "B": 0, "C": 0}),
    ("rummy", ["A", "B"], [{"out": "B", "rummy": True, "hands": {"A": ["S9"]}}], {"A": 0, "B": 18}),
    ("gin", ["Ann", "Bob"], [{"knocker": "Ann", "hands": {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF}}],
     {"Ann": 11, "Bob": 0}),
    ("kalooki", ["A", "B"], [{"out": "A", "hands": {"B": ["JK", "SA", "HK", "D5"]}}], {"A": 0, "B": 51}),
    ("conquian", ["A", "B"], [{"stalemate": True}, {"out": "B"}], {"A": -2, "B": 2}),
    ("manipulation", ["A", "B", "C"], [{"out": "C", "hands": {"A": ["SA", "H10"], "B": ["D3"]}}],
     {"A": 25, "B": 5, "C": 0}),
]


@pytest.mark.parametrize("variant,players,rounds,totals", LEGAL, ids=[c[0] for c in LEGAL])
def test_score_prints_the_totals(variant, players, rounds, totals):
    proc = run("score", "-", stdin=doc(variant, players, rounds))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["variant"] == variant
    assert result["totals"] == totals


ILLEGAL = [
    ("gin-knock-over-limit", "gin", ["A", "B"],
     [{"knocker": "A", "hands": {"A": ["S2", "S3", "S4", "H9", "D9", "C9", "SK", "HK", "D5", "C6"],
                                 "B": BOB_LAYS_OFF}}], {},
     "round 1: A cannot knock with 31 in deadwood (SK HK D5 C6): the knock limit is 10"),
    ("gin-knock-limit-option", "gin", ["A", "B"],
     [{"knocker": "A", "hands": {"A": ANN_KNOCKS, "B": BOB_LAYS_OFF}}], {"knock_limit": 4},
     "the knock limit is 4"),
    ("gin-hand-of-nine", "gin", ["A", "B"], [{"knocker": "A", "hands": {"A": ANN_KNOCKS, "B": BOB_LAYS_OFF[:9]}}],
     {}, "round 1: B's hand has 9 cards; a Gin hand has 10"),
    ("rummy-hand-too-big", "rummy", ["A", "B", "C"],
     [{"out": "A", "hands": {"B": ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9"]}}], {},
     "round 1: B's hand has 8 cards, but Rummy with 3 players deals 7 each"),
    ("rummy-out-holds-cards", "rummy", ["A", "B"], [{"out": "A", "hands": {"A": ["S2"], "B": ["S3"]}}], {},
     "round 1: A went out, so cannot still hold S2"),
    ("kalooki-out-holds-cards", "kalooki", ["A", "B"], [{"out": "B", "hands": {"B": ["JK"]}}], {},
     "round 1: B went out, so cannot still hold JK"),
    ("rummy-two-copies", "rummy", ["A", "B", "C"], [{"out": "A", "hands": {"B": ["S9"], "C": ["S9"]}}], {},
     "round 1, hands of C: S9 appears 2 times in this round, but one deck holds only one; B's hand has it too"),
    ("manipulation-three-copies", "manipulation", ["A", "B", "C"],
     [{"out": "A", "hands": {"B": ["S9", "S9"], "C": ["S9"]}}], {},
     "round 1, hands of C: S9 appears 3 times in this round, but 2 decks hold only 2; B's hand has it too"),
    ("rummy-the-card-named-only", "rummy", ["A", "B", "C", "D"],
     [{"out": "A", "hands": {"B": ["S9"], "D": ["HK"], "C": ["S9", "HK"]}}], {},
     "round 1, hands of C: S9 appears 2 times in this round, but one deck holds only one; B's hand has it too"),
    ("manipulation-two-other-hands", "manipulation", ["A", "B", "C", "D"],
     [{"out": "A", "hands": {"B": ["S9"], "C": ["S9"], "D": ["H2", "S9"]}}], {},
     "round 1, hands of D: S9 appears 3 times in this round, but 2 decks hold only 2; the hands of B, C have it "
     "too"),
    ("kalooki-five-jokers", "kalooki", ["A", "B", "C"],
     [{"out": "A", "hands": {"B": ["JK", "JK", "JK"], "C": ["JK", "JK"]}}], {},
     "round 1, hands of C: JK appears 5 times in this round, but 2 decks hold only 4; B's hand has it too"),
    ("conquian-no-eights", "conquian", ["A", "B"], [{"out": "A", "hands": {"B": ["S8"]}}], {},
     "S8: this game's deck has no 8s"),
    ("conquian-hand-of-eleven", "conquian", ["A", "B"],
     [{"out": "A", "hands": {"B": ["SA", "S2", "S3", "S4", "S5", "S6", "S7", "SJ", "SQ", "SK", "HA"]}}], {},
     "round 1: B's hand has 11 cards, but Conquian deals 10 each and a card taken is melded at once"),
    ("gin-joker", "gin", ["A", "B"], [{"knocker": "A", "hands": {"A": ["JK"]}}], {},
     "JK: this game is played without jokers"),
    ("rummy-unknown-rule", "rummy", ["A", "B"], [], {"wild": True}, "rules: unknown rule 'wild' for rummy"),
    ("gin-unknown-rule", "gin", ["A", "B"], [], {"jokers": 2}, "rules: unknown rule 'jokers' for gin"),
    ("kalooki-unknown-rule", "kalooki", ["A", "B"], [], {"target": 100}, "rules: unknown rule 'target' for kalooki"),
    ("conquian-unknown-rule", "conquian", ["A", "B"], [], {"stake": 2}, "rules: unknown rule 'stake' for conquian"),
    ("manipulation-unknown-rule", "manipulation", ["A", "B", "C"], [], {"jokers": 1},
     "rules: unknown rule 'jokers' for manipulation"),
    ("manipulation-bad-target", "manipulation", ["A", "B", "C"], [], {"target": 0}, "rules: rule 'target'"),
]


@pytest.mark.parametrize("variant,players,rounds,rules,words", [c[1:] for c in ILLEGAL],
                         ids=[c[0] for c in ILLEGAL])
def test_an_illegal_round_exits_2_with_one_line(variant, players, rounds, rules, words):
    proc = run("score", "-", stdin=doc(variant, players, rounds, rules))
    assert_refused(proc, words)


@pytest.mark.parametrize("variant,players,rounds,totals", LEGAL, ids=[c[0] for c in LEGAL])
def test_import_then_export_gives_the_same_scores(tmp_path, variant, players, rounds, totals):
    database = str(tmp_path / "db.sqlite")
    proc = run("import", "-", "--database", database, stdin=doc(variant, players, rounds))
    assert proc.returncode == 0, proc.stderr
    back = run("export", "1", "--database", database)
    assert back.returncode == 0, back.stderr
    again = run("score", "-", stdin=back.stdout)
    assert json.loads(again.stdout)["totals"] == totals


# The five refusals the issue names, read from a real file on disk (not standard input).
ON_DISK = ["gin-knock-over-limit", "gin-hand-of-nine", "rummy-hand-too-big", "rummy-out-holds-cards",
           "manipulation-three-copies", "rummy-unknown-rule"]


@pytest.mark.parametrize("case", [c for c in ILLEGAL if c[0] in ON_DISK], ids=lambda c: c[0])
def test_an_illegal_game_file_on_disk_exits_2_with_one_line(tmp_path, case):
    _name, variant, players, rounds, rules, words = case
    path = tmp_path / "game.json"
    path.write_text(doc(variant, players, rounds, rules), encoding="utf-8")
    proc = run("score", str(path))
    assert_refused(proc, words)
