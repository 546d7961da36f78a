"""The forms behind every POST (WTForms through Flask-WTF, so each carries a CSRF token).

The new-game form's rule fields are generated from ``iceberg.RULES``: the names,
defaults, allowed values, help and house values the rules library declares, so the form,
the game file and ``scorekeeper rules iceberg`` cannot drift apart.
"""
from __future__ import annotations

import secrets

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    Field,
    IntegerField,
    RadioField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from .games import iceberg
from .games.options import Option

try:  # WTForms 3.3 names its choices; older versions take (value, label) pairs
    from wtforms.fields.choices import SelectChoice as Choice
except ImportError:  # pragma: no cover
    def Choice(value, label):  # noqa: N802
        return (value, label)

NAME_LENGTH = 40
MAX_SEATS = 6
AUTO = "auto"


class CardsField(Field):
    """The cards picked in a card picker: one value per card, a card twice if picked twice.

    The picker's checkboxes all share one name; store.read_cards checks what they say.
    """

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.data = []

    def process_formdata(self, valuelist):
        self.data = [v for v in valuelist if v]

    def _value(self):
        return " ".join(self.data or [])


def new_request_id() -> str:
    """A fresh idempotency key, put in a form each time it is shown (96 random bits)."""
    return secrets.token_urlsafe(12)


class RequestIdField(StringField):
    """The form's idempotency key (a hidden field filled by ``new_request_id``).

    The change a form asks for is recorded with its key, in the same transaction
    (store._once): a double tap or a resubmitted form is acted on once.
    """

    def __init__(self, label="request id", validators=None, **kwargs):
        super().__init__(label, validators or [Optional(), Length(max=64)], **kwargs)


class WriteForm(FlaskForm):
    """Every form that changes a game carries its request id."""

    request_id = RequestIdField()


# ---------------------------------------------------------------------------------------
# New game


def _bool_choice(value: bool) -> str:
    return "true" if value else "false"


def rule_title(option: Option) -> str:
    """A rule's name as words (target → Target, card_penalty → Card penalty)."""
    return option.name.replace("_", " ").capitalize()


def rule_field(option: Option) -> Field:
    """One form field for one rule option, as the rules library declares it."""
    description = option.help
    if option.default_for:  # decks: by player count unless the table says otherwise
        choices = [Choice(AUTO, "By player count (1 deck for 2–3 players, 2 for 4 or more)")] + [
            Choice(str(c), f"{c} deck{'s' if c != 1 else ''}") for c in option.choices
        ]
        return RadioField(rule_title(option), choices=choices, default=AUTO, description=description)
    if option.kind == "bool":
        return RadioField(
            rule_title(option), choices=[Choice("true", "Yes"), Choice("false", "No")],
            default=_bool_choice(option.default), description=description,
        )
    if option.kind == "choice":
        return RadioField(
            rule_title(option), choices=[Choice(str(c), str(c)) for c in option.choices],
            default=str(option.default), description=description,
        )
    return IntegerField(
        rule_title(option),
        [NumberRange(min=option.minimum, max=option.maximum)],
        default=option.default, description=description,
    )


def rule_value(option: Option, data, players: int):
    """The value a rule field's data stands for (``decks``: resolved by player count)."""
    if option.default_for:
        if data == AUTO:
            return option.default_for(players, {})
        return int(data)
    if option.kind == "bool":
        return data == "true"
    if option.kind == "choice":
        return next(c for c in option.choices if str(c) == data)
    return data


class NewGameBase(FlaskForm):
    """Six seats (names in seating order, empty seats skipped), the first dealer, the rules."""

    first_dealer = RadioField(
        "First dealer",
        choices=[Choice(str(i), f"Seat {i + 1}") for i in range(MAX_SEATS)],
        default="0",
    )
    create = SubmitField("Start the game")

    def seats(self) -> list[Field]:
        return [self[f"seat_{i}"] for i in range(MAX_SEATS)]

    def seated(self) -> list[tuple[int, str]]:
        """(seat index, name) of the filled seats, in seating order."""
        return [(i, (field.data or "").strip()) for i, field in enumerate(self.seats())
                if (field.data or "").strip()]

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        try:
            self.check_players()
        except ValidationError as e:
            self.form_errors.append(str(e))
            return False
        return valid

    def check_players(self) -> None:
        names = [n for _i, n in self.seated()]
        if not 2 <= len(names) <= MAX_SEATS:
            raise ValidationError(f"Iceberg Rummy needs 2 to {MAX_SEATS} players; {len(names)} named.")
        seen = {}
        for name in names:
            if name.casefold() in seen:
                raise ValidationError(f"Two players are called {name}: give each a different name.")
            seen[name.casefold()] = name

    def validate_first_dealer(self, field):
        if field.data is None or field.errors:  # not one of the seats: already said so
            return
        seats = {i for i, _n in self.seated()}
        if int(field.data) not in seats:
            raise ValidationError(f"Seat {int(field.data) + 1} has no player: choose a seat with a name in it.")

    def rule_fields(self):
        """(option, field) for every Iceberg rule option, in the rule book's order."""
        return [(option, self[f"rule_{option.name}"]) for option in iceberg.RULES]

    def game(self) -> tuple[list[str], dict, int]:
        """(players, rules, first dealer's index among them) from valid data."""
        seated = self.seated()
        names = [n for _i, n in seated]
        dealer = [i for i, _n in seated].index(int(self.first_dealer.data))
        rules = {
            option.name: rule_value(option, field.data, len(names))
            for option, field in self.rule_fields()
        }
        return names, rules, dealer


def seat_field(i: int) -> Field:
    return StringField(f"Player {i + 1}", [Optional(), Length(max=NAME_LENGTH, message=f"keep names to {NAME_LENGTH} letters")])


NewGameForm = type(
    "NewGameForm",
    (NewGameBase,),
    {
        **{f"seat_{i}": seat_field(i) for i in range(MAX_SEATS)},
        **{f"rule_{option.name}": rule_field(option) for option in iceberg.RULES},
    },
)


# ---------------------------------------------------------------------------------------
# The table


class PlayForm(WriteForm):
    """A meld, or a lay-off when a meld on the table is chosen: check it, then confirm."""

    player = StringField("Who plays", [InputRequired()])
    cards = CardsField("Cards")
    meld = IntegerField("Lay off on", [Optional()])
    check = SubmitField("Check")
    confirm = SubmitField("Confirm")


class AceForm(WriteForm):
    player = StringField("Who plays", [InputRequired()])
    card = StringField("Ace", [InputRequired()])


class OutForm(WriteForm):
    player = StringField("Who went out", [InputRequired()])


class PassForm(WriteForm):
    """Pass the turn on; ``turn``: whose turn the page showed (refused if it moved since)."""

    turn = StringField("Whose turn", [Optional()])


class UndoForm(WriteForm):
    """Undo; ``last``: the id of the last play the page showed (0: none)."""

    last = IntegerField("Last play", [Optional()])


class DeleteForm(WriteForm):
    """Delete a play; ``revision``: the play's revision the page showed."""

    revision = IntegerField("Revision", [Optional()])


class EditForm(WriteForm):
    player = StringField("Who played", [InputRequired()])
    cards = CardsField("Cards")
    meld = IntegerField("On meld", [Optional()])
    revision = IntegerField("Revision", [Optional()])
    check = SubmitField("Check")
    save = SubmitField("Save the change")


class HandForm(WriteForm):
    player = StringField("Player", [InputRequired()])
    round_no = IntegerField("Round", [InputRequired()])
    cards = CardsField("Cards left in hand")


class ConfirmRoundForm(WriteForm):
    round_no = IntegerField("Round", [InputRequired()])


# ---------------------------------------------------------------------------------------
# Games in: a game file uploaded from the phone.


class ImportForm(FlaskForm):
    """A game file (CONTRACT.md) to add as a new game; its size is capped by MAX_CONTENT_LENGTH."""

    game_file = FileField("Game file (.json)", [FileRequired("Choose a game file first.")])
    upload = SubmitField("Import the game")
