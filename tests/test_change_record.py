"""A game file's record of changes is free-form input (gamefile/changes.py): fuzzed, each
record is either refused with a sentence naming its place, or kept as something the
Changes page can say in words (storage/record.py) — never an exception of Python's own."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.gamefile import changes
from scorekeeper.games.errors import GameFileError
from scorekeeper.storage import record
from tests.conftest import examples

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**7, 10**7) | st.floats(allow_nan=False)
                    | st.text(max_size=50), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
NAMES = st.sampled_from(["Mia", "Zoe", "", "M" * 41, "Ann\u0000"]) | st.text(max_size=45)
CARDS = st.lists(st.sampled_from(["H5", "5♥", "JK", "X9", "ST", "10C", ""]) | st.text(max_size=4), max_size=6)
PLAY = st.fixed_dictionaries({}, optional={"kind": st.sampled_from(["meld", "layoff", "stock", ""]) | JSON,
                                           "player": NAMES | JSON, "cards": CARDS | JSON, "extra": JSON})
MOVED = st.dictionaries(NAMES, st.lists(st.integers(-10**7, 10**7) | JSON, max_size=3), max_size=4) | JSON
CHANGE = st.fixed_dictionaries({}, optional={
    "at": st.sampled_from(["2026-11-29T21:04:00+00:00", "2026-11-29T21:04", "yesterday", ""]) | JSON,
    "by": st.sampled_from(["seat:0", "seat:9", "table", "phone", "command line", "file", None]) | JSON,
    "kind": st.sampled_from(changes.KINDS + ("swap", "")) | JSON,
    "round": st.integers(-2, 120) | JSON,
    "was": PLAY | NAMES | JSON, "now": PLAY | NAMES | JSON,
    "scores": MOVED, "totals": MOVED,
    "cards": st.lists(st.lists(NAMES | CARDS | st.integers(-99, 99) | JSON, max_size=5), max_size=3) | JSON,
    "whom": JSON})

GOOD_NAMES = st.sampled_from(["Mia", "Zoe", "", "Ann-Marie", "Zoë", "M" * 40])
GOOD_CARDS = st.lists(st.sampled_from(["H5", "5♥", "JK", "S10", "10♣", "DA"]), max_size=5)


@st.composite
def good_changes(draw):
    """A change as the app writes one (a field now and then not one: ``CHANGE``'s)."""
    kind = draw(st.sampled_from(changes.KINDS))
    side = GOOD_NAMES.filter(bool) if kind == "rename" else st.fixed_dictionaries(
        {"player": GOOD_NAMES, "cards": GOOD_CARDS}, optional={"kind": st.sampled_from(["meld", "layoff", "stock"])})
    change = {"at": draw(st.sampled_from(["2026-11-29T21:04:00+00:00", "2026-11-29T21:04Z"])),
              "by": draw(st.sampled_from(["seat:0", "seat:7", "table", "phone", "command line", None])),
              "kind": kind, **draw(st.fixed_dictionaries({}, optional={
                  "round": st.integers(1, 100), "was": side, "now": side,
                  "scores": st.dictionaries(GOOD_NAMES.filter(bool), st.lists(st.integers(-999, 999), min_size=2,
                                                                                max_size=2), max_size=3),
                  "totals": st.dictionaries(GOOD_NAMES.filter(bool), st.lists(st.integers(-999, 999), min_size=2,
                                                                                max_size=2), max_size=3),
                  "cards": st.lists(st.tuples(GOOD_NAMES.filter(bool), st.sampled_from(["H8", "8♥", "JK"]),
                                              st.integers(0, 200), st.integers(0, 200)).map(list), max_size=3)}))}
    if draw(st.integers(0, 3)) == 0:  # one field not one
        field, value = draw(st.sampled_from(sorted(CHANGE_FIELDS))), draw(JSON)
        change[field] = value
    return change


CHANGE_FIELDS = {"at", "by", "kind", "round", "was", "now", "scores", "totals", "cards", "whom"}


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.lists(good_changes() | CHANGE, max_size=4) | JSON)
def test_a_record_is_refused_in_words_or_said_in_words(value):
    try:
        kept = changes.check(value)
    except GameFileError as refused:
        said = str(refused.message)
        assert said.startswith("changes") and "Error" not in said and "Traceback" not in said
        return
    for change in kept:
        assert change["kind"] in changes.KINDS
        for words in (record.what_said(change, "round", 2), record.what_said(change, "hand"),
                      record.effects_said(change), record.by_said(change.get("by"), ["Mia", "Zoe"])):
            if words is not None:
                assert str(words) and "{" not in str(words).replace("{}", "")
