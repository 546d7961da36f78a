"""Rule options: Iceberg's names, defaults and house values exactly as docs/rules/ gives them."""
import pytest

from scorekeeper.games.errors import RuleError
from scorekeeper.games.iceberg import RULES, resolve_rules
from scorekeeper.games.options import Option, RuleBook

# docs/rules/iceberg.md: every option, its default, and whether it is a house value.
ICEBERG_DEFAULTS = [
    ("set_duplicates", True, False),  # "Option set_duplicates (default true ...)"
    ("special_odds_suit", 700, False),  # "700 (bestfreenewgames)"
    ("special_evens_suit", 700, True),  # "700 (house value, by symmetry)"
    ("special_odds_colour", 350, True),  # "350 (house value)"
    ("special_evens_colour", 350, True),  # "350 (house value)"
    ("aces", "multiplier", False),  # "multiplier (default; both seeds)"
    ("ace_bonus", 20, False),  # "+ ace_bonus per ace (default 20 ...)"
    ("card_penalty", 10, False),  # "card_penalty (default 10) — Bower's rule"
    ("card_penalty_applies_to", "all", False),  # "all (default) or unplayable"
    ("playable_penalty", "best_turn", False),  # "best_turn (default)"
    ("target", 5000, False),  # "target (default 5000 ...)"
]
ICEBERG_NAMES = {"decks"} | {name for name, _, _ in ICEBERG_DEFAULTS}


def test_iceberg_options_are_exactly_the_rules_md_names():
    assert {option.name for option in RULES} == ICEBERG_NAMES
    assert len(list(RULES)) == 12


@pytest.mark.parametrize("name,default,_house", ICEBERG_DEFAULTS)
@pytest.mark.parametrize("players", [2, 4])
def test_iceberg_defaults(name, default, _house, players):
    rules = resolve_rules({}, players)
    assert rules[name] == default
    assert type(rules[name]) is type(default)
    assert getattr(rules, name) == default


@pytest.mark.parametrize(
    "players,decks",
    # docs/rules/: One 52-card deck for 2–3 players, two decks shuffled together for 4 or more.
    [(2, 1), (3, 1), (4, 2), (5, 2), (6, 2)],
)
def test_decks_default_by_player_count(players, decks):
    assert resolve_rules({}, players)["decks"] == decks
    assert resolve_rules(None, players)["decks"] == decks


@pytest.mark.parametrize("players,decks", [(2, 2), (3, 2), (4, 1), (6, 1)])
def test_decks_override_beats_the_player_count(players, decks):
    assert resolve_rules({"decks": decks}, players)["decks"] == decks


def test_house_values_are_marked():
    # docs/rules/ marks the three special-meld values no source gives as house values
    assert {o.name for o in RULES if o.house_value} == {
        "special_evens_suit",
        "special_odds_colour",
        "special_evens_colour",
    }


@pytest.mark.parametrize("name,_default,house", ICEBERG_DEFAULTS)
def test_house_value_flag_per_option(name, _default, house):
    assert RULES.options[name].house_value is house


def test_every_option_has_help_and_source():
    for option in RULES:
        assert str(option.help).strip(), option.name
        assert str(option.source).strip(), option.name


@pytest.mark.parametrize(
    "name,value",
    [
        ("decks", 1),
        ("decks", 2),
        ("set_duplicates", True),
        ("set_duplicates", False),
        ("special_odds_suit", 0),  # 0: the meld is not played
        ("special_odds_suit", 700),
        ("special_odds_suit", 1000),
        ("special_evens_suit", 0),
        ("special_evens_suit", 500),
        ("special_odds_colour", 0),
        ("special_odds_colour", 200),
        ("special_evens_colour", 0),
        ("special_evens_colour", 700),
        ("aces", "multiplier"),
        ("aces", "bonus"),
        ("aces", "doubling_bonus"),
        ("ace_bonus", 0),
        ("ace_bonus", 20),
        ("ace_bonus", 50),  # "the rules site suggests such as 20 or 50"
        ("card_penalty", 0),
        ("card_penalty", 5),
        ("card_penalty", 25),
        ("card_penalty_applies_to", "all"),
        ("card_penalty_applies_to", "unplayable"),
        ("playable_penalty", "best_turn"),
        ("playable_penalty", "single_card"),
        ("target", 1),
        ("target", 500),
        ("target", 10000),
    ],
)
def test_every_option_value_is_accepted(name, value):
    rules = resolve_rules({name: value}, 3)
    assert rules[name] == value
    assert type(rules[name]) is type(value)
    assert rules.overrides == {name: value}


def test_overrides_leave_the_other_defaults():
    rules = resolve_rules({"aces": "bonus", "ace_bonus": 50}, 3)
    assert dict(rules) == {
        "decks": 1,
        "set_duplicates": True,
        "special_odds_suit": 700,
        "special_evens_suit": 700,
        "special_odds_colour": 350,
        "special_evens_colour": 350,
        "aces": "bonus",
        "ace_bonus": 50,
        "card_penalty": 10,
        "card_penalty_applies_to": "all",
        "playable_penalty": "best_turn",
        "target": 5000,
    }


@pytest.mark.parametrize(
    "name,value",
    [
        # out of range
        ("decks", 0),
        ("decks", 3),
        ("special_odds_suit", -1),
        ("special_evens_suit", -700),
        ("special_odds_colour", -350),
        ("special_evens_colour", -1),
        ("ace_bonus", -20),
        ("card_penalty", -10),
        ("target", 0),
        ("target", -5000),
        # not one of the choices
        ("aces", "double"),
        ("aces", "Multiplier"),
        ("aces", ""),
        ("card_penalty_applies_to", "none"),
        ("card_penalty_applies_to", "unplayable cards"),
        ("playable_penalty", "best"),
        ("playable_penalty", "single"),
        # wrong type
        ("decks", "1"),
        ("decks", "two"),
        ("decks", 2.0),  # a whole number, as for every other numeric rule
        ("decks", None),
        ("set_duplicates", 1),
        ("set_duplicates", 0),
        ("set_duplicates", "true"),
        ("set_duplicates", None),
        ("special_odds_suit", "700"),
        ("special_odds_suit", 700.0),
        ("special_odds_colour", None),
        ("aces", 1),
        ("aces", ["multiplier"]),
        ("ace_bonus", "20"),
        ("ace_bonus", 20.5),
        ("card_penalty", "10"),
        ("card_penalty", 10.0),
        ("card_penalty_applies_to", True),
        ("playable_penalty", None),
        ("target", "5000"),
        ("target", 5000.5),
        ("target", [5000]),
        # a bool is not a number (JSON true is not 1)
        ("decks", True),
        ("special_evens_suit", True),
        ("ace_bonus", True),
        ("card_penalty", False),
        ("target", True),
        ("aces", False),
    ],
)
def test_bad_values_are_refused_naming_the_option(name, value):
    with pytest.raises(RuleError) as excinfo:
        resolve_rules({name: value}, 3)
    assert f"rule '{name}' cannot be" in str(excinfo.value)


@pytest.mark.parametrize(
    "name,value,message",
    [
        ("decks", 3, "rule 'decks' cannot be 3: it takes 1, 2"),
        ("set_duplicates", 1, "rule 'set_duplicates' cannot be 1: it takes true or false"),
        ("card_penalty", True, "rule 'card_penalty' cannot be true: it takes a whole number from 0 to 1000000000"),
        ("target", 0, "rule 'target' cannot be 0: it takes a whole number from 1 to 1000000000"),
        ("aces", "x", "rule 'aces' cannot be 'x': it takes multiplier, bonus, doubling_bonus"),
        ("playable_penalty", None, "rule 'playable_penalty' cannot be null: it takes best_turn, single_card"),
    ],
)
def test_bad_value_message_says_what_the_option_takes(name, value, message):
    with pytest.raises(RuleError) as excinfo:
        resolve_rules({name: value}, 3)
    assert str(excinfo.value) == message


@pytest.mark.parametrize("name", ["jokers", "Decks", "ace-bonus", "ace_bonuses", "knock_limit", ""])
def test_unknown_rule_is_refused_naming_it(name):
    with pytest.raises(RuleError) as excinfo:
        resolve_rules({"aces": "bonus", name: 1}, 3)
    message = str(excinfo.value)
    assert message.startswith(f"unknown rule '{name}' for iceberg")
    assert "decks" in message  # lists the known rules


@pytest.mark.parametrize("value", [[], ["decks"], "decks=2", 2, True])
def test_rules_must_be_an_object(value):
    with pytest.raises(RuleError, match="rules must be an object"):
        resolve_rules(value, 3)


# ---------------------------------------------------------------------------------------
# The generic machinery, on a small rule book of its own.


def small_book():
    return RuleBook(
        "test",
        [
            Option("size", 3, "", "", minimum=1, maximum=5),
            Option("loose", 0, "", ""),
            Option("flag", False, "", "", kind="bool"),
            Option("mode", "a", "", "", kind="choice", choices=("a", "b")),
            Option(
                "double_size", 0, "", "", default_for=lambda players, rules: 2 * rules["size"] + players
            ),
        ],
    )


@pytest.mark.parametrize(
    "option,allowed",
    [
        (Option("x", 1, "", "", minimum=1, maximum=5), "a whole number from 1 to 5"),
        (Option("x", 1, "", "", minimum=0), "a whole number, at least 0"),
        (Option("x", 1, "", ""), "a whole number"),
        (Option("x", True, "", "", kind="bool"), "true or false"),
        (Option("x", "a", "", "", kind="choice", choices=("a", "b")), "a, b"),
    ],
)
def test_describe_allowed(option, allowed):
    assert option.describe_allowed() == allowed


@pytest.mark.parametrize(
    "name,value,ok",
    [
        ("size", 1, True),
        ("size", 5, True),
        ("size", 0, False),
        ("size", 6, False),
        ("loose", -1000, True),
        ("loose", 1.5, False),
        ("flag", True, True),
        ("flag", 0, False),
        ("mode", "b", True),
        ("mode", "c", False),
    ],
)
def test_option_check(name, value, ok):
    option = small_book().options[name]
    if ok:
        assert option.check(value) == value
    else:
        with pytest.raises(RuleError, match=f"^rule '{name}' cannot be"):
            option.check(value)


def test_default_for_sees_the_players_and_the_chosen_rules():
    book = small_book()
    assert book.resolve({}, 2)["double_size"] == 8
    assert book.resolve({"size": 5}, 4)["double_size"] == 14
    assert book.resolve({"double_size": 1}, 4)["double_size"] == 1


def test_rules_is_a_mapping_with_attributes():
    rules = small_book().resolve({"mode": "b"}, 2)
    assert set(rules) == {"size", "loose", "flag", "mode", "double_size"}
    assert len(rules) == 5
    assert rules.mode == "b"
    assert rules["size"] == 3
    assert rules.overrides == {"mode": "b"}
    with pytest.raises(AttributeError):
        _ = rules.nonexistent
    with pytest.raises(KeyError):
        rules["nonexistent"]
