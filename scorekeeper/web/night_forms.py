"""The form that opens a club night (views/nights.py): its name, who came, the players a
table seats, how the standings rank, and the rules its tables start with (the variant's
rule fields, as the new-game form has them: web/forms.py)."""
from __future__ import annotations

import unicodedata

from flask_babel import lazy_gettext
from wtforms import RadioField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from .. import nights
from ..games import registry
from ..games.variant import Variant
from ..storage import kernel
from ..storage import nights as store_nights
from .forms import Choice, PageForm, RequestIdField, RuleChoices, WholeNumberField, rule_field
from .words import page_text, said


def night_places(text: str | None) -> tuple[int, ...]:
    """Placing points as typed ("3 2 1 0", "3, 2, 1"): whole numbers, the first place's
    first; ValidationError, in words, for anything else."""
    bits = (text or "").replace(",", " ").split()
    if not all(b.isascii() and b.isdigit() and len(b) <= 3 for b in bits) or not bits:
        raise ValidationError(page_text("type whole numbers, the first place's first, such as 3 2 1 0."))
    points = tuple(int(b) for b in bits)
    if len(points) > nights.MOST_PLACES or any(p > nights.MOST_POINTS for p in points):
        raise ValidationError(page_text("at most %(most)s numbers, each from 0 to %(high)s.",
                                        most=nights.MOST_PLACES, high=nights.MOST_POINTS))
    return points


class NightBase(RuleChoices, PageForm):
    """A new night: its name, who came, the players a table seats, how the standings rank,
    and the rules its tables start with (the variant's rule fields). One class per
    variant (:data:`NIGHT_FORMS`)."""

    variant: Variant
    request_id = RequestIdField()
    name = StringField(lazy_gettext("Name of the night"), [Optional(), Length(
        max=store_nights.NAME_LENGTH, message=lazy_gettext("keep it to %(n)s letters", n=store_nights.NAME_LENGTH))])
    players = TextAreaField(lazy_gettext("Who plays tonight: one name a line"))
    table_size = WholeNumberField(lazy_gettext("Players at a table"), [InputRequired(
        lazy_gettext("say how many players sit at a table"))])
    ranking = RadioField(lazy_gettext("The standings"), choices=[
        Choice(nights.PLACES, lazy_gettext("Placing points for each finished game")),
        Choice(nights.SCORES, lazy_gettext("Each player's scores added up (every table plays this game)")),
    ], default=nights.PLACES)
    places = StringField(lazy_gettext("Placing points, first place first"), default="3 2 1 0")

    def validate_table_size(self, field) -> None:
        low, high = self.variant.min_players, self.variant.max_players
        if field.data is not None and not low <= field.data <= high:
            raise ValidationError(page_text("%(game)s seats %(low)s to %(high)s players at a table.",
                                            game=self.variant.name, low=low, high=high))

    def validate_name(self, field) -> None:
        if self.night_name():
            try:
                kernel.clean_name(self.night_name())
            except kernel.Refused as e:
                raise ValidationError(said(e.said)) from None

    def validate_places(self, field) -> None:
        night_places(field.data)

    def validate_players(self, field) -> None:
        names = self.names()
        if len(names) > store_nights.MOST_PLAYERS:
            raise ValidationError(page_text("a night has at most %(most)s players.", most=store_nights.MOST_PLAYERS))
        seen: dict[str, str] = {}
        for line, name in enumerate(names, 1):
            try:
                kernel.clean_name(name)
            except kernel.Refused as e:
                raise ValidationError(page_text("Line %(n)s: %(problem)s", n=line, problem=e.said)) from None
            if kernel.key_of(name) in seen:
                raise ValidationError(page_text(
                    "%(first)s and %(second)s look like one name: give each player a different name.",
                    first=seen[kernel.key_of(name)], second=name))
            seen[kernel.key_of(name)] = name
        if len(names) < self.variant.min_players:
            raise ValidationError(page_text("name at least %(low)s players: %(game)s needs %(low)s at a table.",
                                            low=self.variant.min_players, game=self.variant.name))

    def names(self) -> list[str]:
        """The names typed, one a line, in the form names are kept (white space made one space)."""
        return [n for n in (" ".join(unicodedata.normalize("NFC", line).split())
                            for line in (self.players.data or "").splitlines()) if n]

    def night_name(self) -> str:
        return " ".join((self.name.data or "").split())


def _night_form(v: Variant) -> type[NightBase]:
    """A variant's new-night form class: the night's fields and the variant's rule fields."""
    size = max(v.min_players, min(4, v.max_players))
    return type(f"NightForm_{v.key}", (NightBase,), {
        "variant": v,
        "table_size": WholeNumberField(lazy_gettext("Players at a table"), [InputRequired(
            lazy_gettext("say how many players sit at a table"))], default=size),
        **{f"rule_{option.name}": rule_field(option) for option in v.rules},
    })


NIGHT_FORMS = {key: _night_form(v) for key, v in registry.VARIANTS.items()}


def night_rules_line(night: store_nights.Night):
    """The rules a night's tables start with, in one line (as the new-game form says them)."""
    form = NIGHT_FORMS[night.variant.key](formdata=None, data={
        f"rule_{option.name}": _field_value(option, night.rules.get(option.name, ""))
        for option in night.variant.rules})
    return form.rules_line()["text"]


def _field_value(option, sent: str):
    """A kept rule field, as its form field holds it: a number's as a number."""
    if option.kind == "int" and not option.choices:
        return int(sent) if sent.lstrip("-").isdigit() else None
    return sent
