"""The one error family the rules library raises: always a plain sentence for a person."""


class ScorekeeperError(Exception):
    """Bad input to the rules: the message says what is wrong in plain words."""

    def __init__(self, message: str, place: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.place = place  # the part of a round it is about, where more exact ("hands")

    def __str__(self) -> str:
        return self.message


class IllegalPlay(ScorekeeperError):
    """A meld or lay-off the rules do not allow."""


class RuleError(ScorekeeperError):
    """An unknown rule option, or a value it does not take."""


class GameFileError(ScorekeeperError):
    """A game document that is not what docs/game-file.md describes.

    Where the fault is in a round, ``round_no`` and ``event_no`` say where and ``reason``
    keeps the plain sentence without the place (the web app shows just that).
    """

    reason: str | None = None
    round_no: int | None = None
    event_no: int | None = None
