"""Rule options: the named, documented choices a table makes before play.

Every variant declares its options once (name, default, allowed values, source, and
whether the value is a **house value** that no source gives). The game file's
``rules`` object, the new-game form and ``scorekeeper rules VARIANT`` all read these
declarations, so the names and defaults cannot drift apart.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError
from .words import Say

# The largest number a rule takes (a target, a bonus, a penalty): far above any table's,
# and small enough that every total and chart stays an ordinary number.
LARGEST = 10**9


@dataclass(frozen=True)
class Option:
    """One rule option. What people read of it is sentences (words.Say): its ``help``,
    ``source``, ``label``, ``choice_labels`` and ``default_text``; ``str()`` of each is the
    English the command line prints (``scorekeeper rules VARIANT``), and the pages read
    them in the phone's language."""

    name: str
    default: Any
    help: Say
    source: Say
    kind: str = "int"  # "int", "bool" or "choice"
    choices: tuple[str | int, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    house_value: bool = False
    nullable: bool = False  # null is a value too (e.g. "no target")
    # When the default depends on the game (e.g. decks by player count), this computes it
    # from the number of players and the other chosen rules.
    default_for: Callable[[int, Mapping[str, Any]], Any] | None = field(default=None, compare=False)
    default_text: Say | str = ""  # how a computed default is chosen, in words
    # How a person reads it (the new-game form, the rules page): the option's name in
    # words ("" : its name made readable) and, for a choice, each value's words in the
    # order of ``choices`` (none: the values as they are).
    label: Say | str = ""
    choice_labels: tuple[Say, ...] = ()

    def describe_default(self) -> Say | str:
        if self.default_text:
            return self.default_text
        if self.default is None:
            return "null"
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        return str(self.default)

    def describe_allowed(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return ", ".join(str(c) for c in self.choices)
        if self.maximum is not None:
            text = f"a whole number from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            text = f"a whole number, at least {self.minimum}"
        else:
            text = "a whole number"
        return text + (", or null" if self.nullable else "")

    def check(self, value: Any) -> Any:
        """Return the value if this option takes it; raise RuleError naming the option."""
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
        elif self.kind == "choice":
            if any(value == c and type(value) is type(c) for c in self.choices):
                return value
        elif (isinstance(value, int) and not isinstance(value, bool)
              and (self.minimum is None or value >= self.minimum)
              and (self.maximum is None or value <= self.maximum)):
            return value
        raise RuleError(
            f"rule '{self.name}' cannot be {_show(value)}: it takes {self.describe_allowed()}"
        )


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value[:40]}'" + ("…" if len(value) > 40 else "")
    if value is None:
        return "null"
    if isinstance(value, int) and abs(value) >= 10**12:
        return f"a number of {len(str(abs(value)))} digits" if abs(value) < 10**4000 else "a number that long"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    return repr(value)


def decks_option(one_deck_up_to: int, help: Say, default_text: Say, source: Say) -> Option:
    """``decks``: one deck or two shuffled together, one by default for up to
    ``one_deck_up_to`` players (Iceberg 3, Rummy 500 4), two for more."""
    return Option("decks", 1, help, source, kind="choice", choices=(1, 2),
                  default_for=lambda players, _rules: 1 if players <= one_deck_up_to else 2,
                  default_text=default_text, label=Say("Decks"), choice_labels=(Say("1 deck"), Say("2 decks")))


class Rules(Mapping[str, Any]):
    """The options in force for one game: every declared option, overrides applied."""

    def __init__(self, values: dict[str, Any], overrides: dict[str, Any]) -> None:
        self._values = values
        self.overrides = overrides

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return f"Rules({self._values!r})"


class RuleBook:
    """A variant's declared options, in the order they are shown to people."""

    def __init__(self, variant: str, options: list[Option]) -> None:
        self.variant = variant
        self.options = {o.name: o for o in options}

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options.values())

    def resolve(self, overrides: object, players: int) -> Rules:
        """Defaults with the game's overrides; an unknown name or bad value is a RuleError."""
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, dict):
            raise RuleError("rules must be an object of option names and values")
        for name in overrides:
            if name not in self.options:
                known = ", ".join(self.options)
                raise RuleError(f"unknown rule '{name}' for {self.variant} (known rules: {known})")
        values = {name: self.options[name].check(v) for name, v in overrides.items()}
        for option in self.options.values():
            if option.name not in values:
                values[option.name] = (
                    option.default_for(players, values) if option.default_for else option.default
                )
        return Rules(values, dict(overrides))
