"""Robber Rummy's new-game form: partnerships (4 players in two teams of two).

A mixin for the form class ``forms.new_game_form("robber")`` builds: the choice of who
partners whom (by seat, among the seats filled), and ``teams()``, the game file's
``teams`` list (CONTRACT.md) or None.
"""
from __future__ import annotations

from wtforms import RadioField
from wtforms.validators import ValidationError

from .forms import Choice

SOLO = "none"
# Partners, as positions among the filled seats (0-based): the first team of each choice.
PAIRS = {"13": (0, 2), "12": (0, 1), "14": (0, 3)}
LABELS = {
    SOLO: "No partnerships: everyone plays for themselves",
    "13": "Players 1 & 3 against 2 & 4 (partners sit opposite)",
    "12": "Players 1 & 2 against 3 & 4",
    "14": "Players 1 & 4 against 2 & 3",
}


class PartnershipsMixin:
    """Partnerships on the Robber Rummy new-game form."""

    partnerships = RadioField(
        "Partnerships (4 players only)",
        choices=[Choice(value, label) for value, label in LABELS.items()],
        default=SOLO,
    )

    def validate_partnerships(self, field) -> None:
        if field.data != SOLO and len(self.seated()) != 4:
            raise ValidationError(
                f"Partnerships are two teams of two: name exactly 4 players, or choose "
                f"no partnerships ({len(self.seated())} named).")

    def teams(self) -> list[list[str]] | None:
        """The game file's ``teams``: two lists of two names, or None (no partnerships)."""
        choice = self.partnerships.data
        if choice not in PAIRS:
            return None
        names = [n for _i, n in self.seated()]
        first = [names[i] for i in PAIRS[choice]]
        return [first, [n for n in names if n not in first]]
