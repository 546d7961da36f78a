"""A game file's document before its rounds: its JSON text read and its header checked.

Every game file gets these checks, whatever its variant (docs/game-file.md): the JSON
itself (a key written twice, a fault the reader stopped at, in the app's words), the
format, the variant, the rounds' number (at most :data:`MAX_ROUNDS`), the players, the
partnerships and the rules. The rounds themselves are replayed, and a refusal in one
placed in the file, by gamefile/round_replay.py.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..games import registry
from ..games.errors import GameFileError, ScorekeeperError
from ..games.options import Rules
from ..games.variant import CountVariant, LogVariant, Variant
from ..games.words import Say, joined

FORMAT = "scorekeeper/1"


TOP_KEYS = {"format", "variant", "rules", "players", "teams", "rounds", "changes"}  # changes: gamefile/changes.py


# The most rounds a game holds (docs/game-file.md, "Limits"): the games of the sources
# reach their targets in 5 to 40 rounds, and a round takes a table 5 to 15 minutes, so a
# hundred rounds is a day and a night of play. It keeps every game's file, pages and
# changes bounded (an earlier round changed is scored again up to the last one).
MAX_ROUNDS = 100

NAME_LENGTH = 40  # letters in a player's name, at most (the app's forms and imports keep to it)


# What the JSON reader stopped at, in the app's words (not the reader's own).
JSON_FAULTS = {
    "Expecting value": Say("a value was expected (a number, text in double quotes, true, false, "
                           "null, a list or an object)"),
    "Expecting property name enclosed in double quotes": Say("a name in double quotes was expected"),
    "Expecting ',' delimiter": Say("a comma was expected"),
    "Expecting ':' delimiter": Say("a colon was expected"),
    "Extra data": Say("more follows the end of the document"),
    "Unterminated string starting at": Say("a text is not closed by a double quote"),
    "Invalid control character at": Say("a text holds a line break or a tab (write \\n or \\t)"),
    "Invalid \\escape": Say("a backslash escape that JSON does not have"),
    "Invalid \\uXXXX escape": Say("a backslash escape that JSON does not have"),
}


class _Twice(Exception):
    """A key written twice in one JSON object (the reader would keep the last silently)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (``"Bob"`` twice in ``hands`` would lose
    one of Bob's hands, ``"variant"`` twice would choose a game by which comes last)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Twice(key)
        found[key] = value
    return found


def parse_json(text: str) -> Any:
    if not text.strip():
        raise GameFileError(Say("not a game file: it is empty (a game file is a JSON document)"))
    try:
        return json.loads(text, object_pairs_hook=_once_each)
    except _Twice as e:
        raise GameFileError(Say("not a game file: \"%(key)s\" is written twice in one object (each name "
                                "once: the file would say two things)", key=e.key[:60])) from None
    except json.JSONDecodeError as e:
        fault = JSON_FAULTS.get(e.msg, Say("not JSON"))
        raise GameFileError(Say("not a game file: invalid JSON at line %(line)s, column %(column)s: %(fault)s",
                                line=e.lineno, column=e.colno, fault=fault)) from None
    except RecursionError:
        raise GameFileError(Say("not a game file: the JSON is nested too deeply")) from None
    except ValueError:  # an integer of thousands of digits
        raise GameFileError(Say("not a game file: it holds a number too long to read")) from None


def read_header(doc: Any) -> tuple[LogVariant | CountVariant, list[Any]]:
    """The checks every game file gets, whatever its variant: (its variant, its rounds)."""
    if not isinstance(doc, dict):
        raise GameFileError(Say("not a game file: the document must be a JSON object"))
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise GameFileError(Say("unknown field '%(field)s' in the game file", field=unknown[0]))
    if doc.get("format", FORMAT) != FORMAT:
        raise GameFileError(Say("format %(given)s is not supported (expected '%(format)s')",
                                given=repr(doc.get("format")), format=FORMAT))
    variant = doc.get("variant")
    known = joined(registry.VARIANTS, ", ")  # the game file's keys
    if variant is None:
        raise GameFileError(Say("the game file names no variant (\"variant\": one of %(known)s)", known=known))
    found = registry.get(variant) if isinstance(variant, str) else None
    if found is None:
        raise GameFileError(Say("unknown variant %(given)s (expected one of: %(known)s)", given=repr(variant),
                                known=known))
    assert isinstance(found, (LogVariant, CountVariant))  # each game's rounds are logged or counted
    rounds = doc.get("rounds", [])
    if not isinstance(rounds, list):
        raise GameFileError(Say("rounds must be a list"))
    if len(rounds) > MAX_ROUNDS:
        raise GameFileError(Say("a game holds at most %(most)s rounds, and this file has %(count)s: "
                                "split it into games of %(most)s rounds or fewer", most=MAX_ROUNDS,
                                count=len(rounds)))
    return found, rounds


def check_players(doc: Mapping[str, Any], variant: Variant) -> list[str]:
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise GameFileError(Say("players must be a list of names"))
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise GameFileError(Say("players: '%(player)s' is listed twice; names must be unique", player=twice))
    low, high = variant.min_players, variant.max_players
    if not low <= len(players) <= high:
        raise GameFileError(Say("%(game)s is played by %(low)s to %(high)s players, not %(count)s",
                                game=variant.name, low=low, high=high, count=len(players)))
    return players


def check_teams(doc: Mapping[str, Any], players: list[str], variant: Variant) -> dict[str, str]:
    """Partnerships, where the game has them: 4 players in two teams of two (docs/rules/);
    player → team name ("Ann & Cy"). Empty without partnerships."""
    teams = doc.get("teams")
    if teams is None:
        return {}
    if not variant.partnerships:
        raise GameFileError(Say("teams: %(game)s is played without partnerships (teams must be null)",
                                game=variant.name))
    if (
        not isinstance(teams, list)
        or not all(isinstance(t, list) and t and all(isinstance(p, str) for p in t) for t in teams)
    ):
        raise GameFileError(Say("teams must be null or a list of lists of player names"))
    named = [p for t in teams for p in t]
    for p in named:
        if p not in players:
            raise GameFileError(Say("teams: unknown player %(given)s", given=repr(p)))
    if sorted(named) != sorted(players):
        raise GameFileError(Say("teams: every player must be in exactly one team"))
    if len(players) != 4 or len(teams) != 2 or any(len(t) != 2 for t in teams):
        raise GameFileError(Say("teams: partnership play is 4 players in two teams of two"))
    return {p: " & ".join(t) for t in teams for p in t}


def resolve_rules(doc: Mapping[str, Any], variant: Variant, players: list[str]) -> Rules:
    try:
        return variant.rules.resolve(doc.get("rules"), len(players))
    except ScorekeeperError as e:
        raise GameFileError(Say("rules: %(reason)s", reason=e.message)) from None


@dataclass(frozen=True)
class Header:
    """What every round of a game is replayed with: the game, who plays, the rules (every
    option resolved) and the partnerships (player → team name; empty without them)."""

    variant: LogVariant | CountVariant
    players: list[str]
    rules: Mapping[str, Any]
    teams: Mapping[str, str]
    teams_listed: Any = None  # the game file's ``teams``, as it was


def read_game(doc: Any) -> Header:
    """The checks of a whole game file before its rounds: its header, or GameFileError."""
    variant, _rounds = read_header(doc)
    players = check_players(doc, variant)
    teams = check_teams(doc, players, variant)
    return Header(variant, players, resolve_rules(doc, variant, players), teams, doc.get("teams"))


def canonical_text(value: Any) -> str:
    """JSON data as one text: the same data, whatever its keys' order, the same text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
