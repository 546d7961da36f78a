"""The one error family the rules library raises: always a plain sentence for a person."""
from __future__ import annotations

from .words import Say


class ScorekeeperError(Exception):
    """Bad input to the rules: the message says what is wrong in plain words (a
    words.Say, shown as its reader shows it; ``str()`` is the game file's English)."""

    def __init__(self, message: Say | str, place: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.place = place  # the part of a round it is about, where more exact ("hands")

    def __str__(self) -> str:
        return str(self.message)


class IllegalPlay(ScorekeeperError):
    """A meld or lay-off the rules do not allow."""


class RuleError(ScorekeeperError):
    """An unknown rule option, or a value it does not take."""


class GameFileError(ScorekeeperError):
    """A game document that is not what docs/game-file.md describes.

    Where the fault is in a round, ``round_no`` and ``event_no`` say where, and the
    sentence without the place is kept (the web app shows just that): ``said_reason``
    (a words.Say, or the text an error gave), ``reason`` the same in the game file's
    English (what the stores read); ``said_within``: the sentence with its place within
    the round but not the round ("hands of Bob: …", "event 3: …"), None where the place
    is the round itself.
    """

    reason: str | None = None
    said_reason: Say | str | None = None
    said_within: Say | None = None
    round_no: int | None = None
    event_no: int | None = None
