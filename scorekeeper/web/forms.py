"""The forms behind every POST (WTForms through Flask-WTF, so each carries a CSRF token).

A new-game form's rule fields are generated from the variant's rule book: the names,
defaults, allowed values, help and house values the rules library declares, so the form,
the game file and ``scorekeeper rules VARIANT`` cannot drift apart. Games played in
partnerships get the choice of who partners whom.
"""
from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Callable

from flask import g, request
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.datastructures import CombinedMultiDict
from wtforms import (
    Field,
    IntegerField,
    RadioField,
    StringField,
    SubmitField,
)
from wtforms.validators import Length, Optional, ValidationError

from ..games import registry
from ..games.errors import RuleError
from ..games.options import Option
from ..games.variant import Variant
from ..games.words import Joined, Say, SayN, joined
from ..storage import kernel
from .links import phone
from .words import FirstLetter, page_text, said

try:  # WTForms 3.3 names its choices; older versions take (value, label) pairs
    from wtforms.fields.choices import SelectChoice as Choice
except ImportError:  # pragma: no cover
    def Choice(value, label):  # noqa: N802
        return (value, label)

NAME_LENGTH = kernel.NAME_LENGTH
MAX_SEATS = 6
AUTO = "auto"


class CardsField(Field):
    """The cards picked in a card picker: one value per card, a card twice if picked twice.

    The picker's checkboxes all share one name; the stores check what they say.
    """

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.data = []

    def process_formdata(self, valuelist):
        self.data = [v for v in valuelist if v]

    def _value(self):
        return " ".join(self.data or [])


class WholeNumberField(IntegerField):
    """A whole number, refused in the app's own words. Given them, WTForms does not look
    up its own message for a value that is not a number; it did so even for a field left
    empty where the form allows it (its Optional() then drops the message), and
    Flask-WTF read WTForms' catalog from disk anew for every such request: every meld
    logged (its "lay off on" is empty) paid for it."""

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, invalid_value_message=Say("not a whole number"), **kwargs)


class RuleNumberField(WholeNumberField):
    """A rule's number with a default of its own: left empty, that default (its help says
    "Default 100."), not a number refused."""

    def process_formdata(self, valuelist):
        if valuelist and not str(valuelist[0]).strip() and self.default is not None:
            self.data = self.default
            return
        super().process_formdata(valuelist)


def new_request_id() -> str:
    """A fresh idempotency key, put in a form each time it is shown (96 random bits)."""
    return secrets.token_urlsafe(12)


class RequestIdField(StringField):
    """The form's idempotency key (a hidden field filled by ``new_request_id``).

    The change a form asks for is recorded with its key, in the same transaction
    (storage.kernel.once): a double tap or a resubmitted form is acted on once.
    """

    def __init__(self, label=lazy_gettext("request id"), validators=None, **kwargs):
        # No length validator: a key longer than kernel.REQUEST_ID_LONGEST is refused by
        # the store, on every route in the same words (kernel.check_request_id).
        super().__init__(label, validators or [Optional()], **kwargs)

    def key(self) -> str | None:
        """The key the change is recorded under: the page's id, for this phone (its session),
        this kind of change (the route, in this game or group) and what the form asks (its
        other fields but ``seen``, which a play sent again after waiting adds). The
        same form sent again by this phone is the same key (acted on once); the same id
        from another phone, on another route or with another play is another request,
        never a repeat of someone else's (or of another play). An id longer than any page
        makes is passed on as it came, for the store to refuse (one limit, kernel's)."""
        if not self.data:
            return None
        if len(self.data) > kernel.REQUEST_ID_LONGEST:
            return self.data
        asked = sorted((name, value) for name, value in request.form.items(multi=True)
                       if name not in ("csrf_token", self.name, "seen"))  # a play sent again after waiting adds seen
        where = (request.endpoint, sorted((request.view_args or {}).items()), g.get("group_id"))
        said = repr((phone(), where, self.data, asked)).encode()
        return hashlib.blake2b(said, digest_size=18).hexdigest()


class PageForm(FlaskForm):
    """A form read as the pages send it: the fields of ``request.form`` (URL-encoded or
    multipart), and the uploaded files only where the form takes one (``takes_files``).

    Flask-WTF on its own also reads a JSON body as the fields, and every uploaded file
    as a field: a JSON body that is no object (or nested too deep to read) failed inside
    it, and a file sent for a text field inside a validator, both server errors. No page
    sends either: a JSON body is an empty form here, refused as one.
    """

    takes_files = False

    def __init__(self, *args, **kwargs):
        if not args and "formdata" not in kwargs and request.method == "POST":
            fields = request.form
            if self.takes_files and request.files:
                fields = CombinedMultiDict((request.files, request.form))
            kwargs["formdata"] = fields or None  # None: an empty form, as Flask-WTF has it
        super().__init__(*args, **kwargs)


class WriteForm(PageForm):
    """Every form that changes a game carries its request id.

    Its CSRF token is checked by ``CSRFProtect`` (create_app) before any view runs, for
    every POST: the form itself neither checks it again nor signs a new one it never
    shows (these forms are read, never drawn: the pages carry ``csrf_token()``).
    """

    class Meta:
        csrf = False

    request_id = RequestIdField()


# ---------------------------------------------------------------------------------------
# New game


def _bool_choice(value: bool) -> str:
    return "true" if value else "false"


# What people read of a rule is sentences (words.Say), shown in the phone's language
# where a page prints them (Jinja's finalize) or a view says them (words.said).


def rule_title(option: Option) -> Say | str:
    """A rule's name in words: its label (Target, Aces), else its name made readable."""
    return option.label or option.name.replace("_", " ").capitalize()


def choice_words(option: Option, value) -> Say | str:
    """A rule's value as a person reads it: a choice's words, yes or no, a number, none."""
    if value is None:
        return Say("none")
    if isinstance(value, bool):
        return Say("yes") if value else Say("no")
    for choice, label in zip(option.choices, option.choice_labels):
        if choice == value and type(choice) is type(value):
            return label
    return str(value)


def default_words(option: Option) -> Say | str:
    """A rule's default in words; a default the game works out is said as the rules say it,
    its choices in words: a choice named in the rules' sentence (``%(flat)s (classic)``) is
    said by its words (the game bonus again (classic))."""
    text = option.default_text
    if isinstance(text, Say) and text.values:
        words = {str(c): label for c, label in zip(option.choices, option.choice_labels)}
        return Say(text.template, **{name: FirstLetter(words[v], upper=False) if v in words else v
                                     for name, v in text.values.items()})
    if text:
        return text
    return choice_words(option, option.default)


def allowed_words(option: Option) -> Say | Joined | str:
    """What a rule takes, in words (its choices' words, yes or no, a range of numbers)."""
    if option.kind == "bool":
        return Say("yes or no")
    if option.choices and option.choice_labels:
        return joined(option.choice_labels, ", ")
    if option.choices:
        return ", ".join(str(c) for c in option.choices)
    low, high = option.minimum, option.maximum
    if option.nullable:
        if high is not None:
            return Say("a whole number from %(low)s to %(high)s, or none", low=low, high=high)
        if low is not None:
            return Say("a whole number, at least %(low)s, or none", low=low)
        return Say("a whole number, or none")
    if high is not None:
        return Say("a whole number from %(low)s to %(high)s", low=low, high=high)
    if low is not None:
        return Say("a whole number, at least %(low)s", low=low)
    return Say("a whole number")


def rule_field(option: Option) -> Field:
    """One form field for one rule option, as the rules library declares it.

    An option whose default depends on the game (decks by player count, gin's bonuses by
    preset) offers "as the rules say" first; a nullable number may be left empty.
    """
    description = option.help
    if option.kind == "choice" or (option.default_for and option.choices):
        choices = [Choice(str(c), choice_words(option, c)) for c in option.choices]
        default = str(option.default)
        if option.default_for:
            choices.insert(0, Choice(AUTO, Say("As the rules say (%(default)s)", default=default_words(option))))
            default = AUTO
        return RadioField(rule_title(option), choices=choices, default=default, description=description)
    if option.kind == "bool":
        return RadioField(
            rule_title(option), choices=[Choice("true", Say("Yes")), Choice("false", Say("No"))],
            default=_bool_choice(option.default), description=description,
        )
    if option.default_for or option.nullable:  # empty: the computed default, or null
        return WholeNumberField(rule_title(option), [Optional(), InRange(option)],
                            default=None, description=description)
    return RuleNumberField(rule_title(option), [InRange(option)], default=option.default, description=description)


class Between:
    """A whole number from ``low`` to ``high`` (WTForms' NumberRange turns a number into a
    float first, which a number of hundreds of digits does not survive)."""

    def __init__(self, low: int, high: int, message: str) -> None:
        self.low, self.high, self.message = low, high, message

    def __call__(self, form, field) -> None:
        if field.data is not None and not self.low <= field.data <= self.high:
            raise ValidationError(self.message)


class InRange:
    """A rule's number within the range its option declares: the same check (and words)
    as a game file's ``rules`` get (``Option.check``)."""

    def __init__(self, option: Option) -> None:
        self.option = option

    def __call__(self, form, field) -> None:
        if field.data is None:
            return
        try:
            self.option.check(field.data)
        except RuleError:
            raise ValidationError(page_text("it takes %(allowed)s.", allowed=allowed_words(self.option))) from None


def rule_value(option: Option, data, players: int, chosen: dict):
    """The value a rule field's data stands for; ``AUTO`` or an empty computed default is
    resolved from the player count and the rules ``chosen`` so far."""
    if option.default_for and data in (AUTO, None):
        return option.default_for(players, chosen)
    if option.kind == "bool":
        return data == "true"
    if option.choices:
        return next(c for c in option.choices if str(c) == data)
    return data


class RuleChoices:
    """The rule fields of a variant's form (``rule_<option>``, :func:`rule_field`): a new
    game's, and a night's, whose tables start with them. Mixed into a form (its fields
    are the form's items)."""

    variant: Variant

    def rule_fields(self):
        """(option, field) for every rule option of the variant, in the rule book's order."""
        return [(option, self[f"rule_{option.name}"]) for option in self.variant.rules]

    def rules_line(self) -> dict:
        """The rules chosen, in one line: whose rules they are, what was changed from them
        (a form sent back), how many house values the table is to confirm."""
        changed = []
        for option, field in self.rule_fields():
            if field.data == field.default or (field.data in (None, "") and field.default in (None, "")):
                continue
            if field.type == "RadioField":
                words = next((label for value, label in map(_value_label, field.iter_choices())
                              if value == field.data), str(field.data))
            else:
                words = Say("none") if field.data is None else str(field.data)
            changed.append(Say("%(rule)s: %(value)s", rule=rule_title(option),
                               value=FirstLetter(words, upper=False)))
        base = FirstLetter(self.variant.defaults_from)
        text = Say("%(rules)s, changed: %(changes)s", rules=base,
                   changes=joined(changed, ", ")) if changed else base
        house = sum(1 for option in self.variant.rules if option.house_value)
        return {"text": text, "base": base, "house": house,
                "open": any(field.errors for _option, field in self.rule_fields())}

    def rules_for(self, players: int) -> dict:
        """The rules chosen, for a table of ``players``: "as the rules say" worked out."""
        rules: dict = {}
        fields = self.rule_fields()
        for option, field in fields:  # the plain choices first: computed defaults read them
            if not option.default_for:
                rules[option.name] = rule_value(option, field.data, players, rules)
        for option, field in fields:
            if option.default_for:
                rules[option.name] = rule_value(option, field.data, players, rules)
        return {o.name: rules[o.name] for o, _f in fields}

    def rules_sent(self) -> dict[str, str]:
        """The rule fields as sent, by option (a night keeps them: each table's player count
        decides what "as the rules say" is, :func:`rule_value`)."""
        return {option.name: "" if field.data is None else str(field.data) for option, field in self.rule_fields()}


class NewGameBase(RuleChoices, PageForm):
    """Seats (names in seating order, empty seats skipped), the first dealer, the rules.

    One form class per variant (:func:`new_game_form`): its seats, its rule options.
    """

    variant: Variant
    request_id = RequestIdField()  # a double tap makes one game
    first_dealer = RadioField(
        lazy_gettext("First dealer"),
        choices=[Choice(str(i), lazy_gettext("Seat %(n)s", n=i + 1)) for i in range(MAX_SEATS)],
        default="0",
    )
    create = SubmitField(lazy_gettext("Start the game"))

    def seats(self) -> list[Field]:
        return [self[f"seat_{i}"] for i in range(self.variant.max_players)]

    def seated(self) -> list[tuple[int, str]]:
        """(seat index, name) of the filled seats, in seating order, each name in the form
        names are kept (storage.kernel.clean_name: NFC, white space made one space)."""
        names = [(i, " ".join(unicodedata.normalize("NFC", field.data or "").split()))
                 for i, field in enumerate(self.seats())]
        return [(i, name) for i, name in names if name]

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
        low, high = self.variant.min_players, self.variant.max_players
        if not low <= len(names) <= high:
            raise ValidationError(said(_needs(len(names), self.variant)))
        seen: dict[str, str] = {}  # a name's key → the name it was first given as
        for seat, name in self.seated():
            try:
                kernel.clean_name(name)
            except kernel.Refused as e:
                raise ValidationError(page_text("Player %(n)s: %(problem)s", n=seat + 1,
                                                problem=e.said)) from None
            if kernel.key_of(name) in seen:
                raise ValidationError(page_text(
                    "%(first)s and %(second)s look like one name: give each player a different name.",
                    first=seen[kernel.key_of(name)], second=name))
            seen[kernel.key_of(name)] = name

    def validate_first_dealer(self, field):
        if field.data is None or field.errors:  # not one of the seats: already said so
            return
        if len(self.seated()) < self.variant.min_players:  # the names are missing: said so first
            return
        seats = {i for i, _n in self.seated()}
        if int(field.data) not in seats:
            raise ValidationError(page_text("Seat %(n)s has no player: choose a seat with a name in it.",
                                            n=int(field.data) + 1))

    def teams(self) -> list[list[str]] | None:
        """The game file's ``teams``: none, unless the game has partnerships (the mixin)."""
        return None

    def game(self) -> tuple[list[str], dict, int]:
        """(players, rules, first dealer's index among them) from valid data."""
        seated = self.seated()
        names = [n for _i, n in seated]
        dealer = [i for i, _n in seated].index(int(self.first_dealer.data))
        return names, self.rules_for(len(names)), dealer


def _value_label(choice) -> tuple:
    """(value, label) of a choice as WTForms lists it (an object in 3.3, a tuple before)."""
    return (choice.value, choice.label) if hasattr(choice, "value") else (choice[0], choice[1])


def _needs(named: int, variant: Variant) -> SayN:
    """What a game that does not take ``named`` players says (its plural follows the
    number of players the game needs)."""
    low, high, game = variant.min_players, variant.max_players, variant.name
    if named < low and low == high:
        return SayN("Enter at least %(low)s player's name: %(game)s needs %(low)s player; %(named)s named.",
                    "Enter at least %(low)s players' names: %(game)s needs %(low)s players; %(named)s named.",
                    low, low=low, game=game, named=named)
    if named < low:
        return SayN("Enter at least %(low)s player's name: %(game)s needs %(low)s to %(high)s player; "
                    "%(named)s named.",
                    "Enter at least %(low)s players' names: %(game)s needs %(low)s to %(high)s players; "
                    "%(named)s named.", high, low=low, high=high, game=game, named=named)
    if low == high:
        return SayN("%(game)s needs %(low)s player; %(named)s named.",
                    "%(game)s needs %(low)s players; %(named)s named.", low, low=low, game=game, named=named)
    return SayN("%(game)s needs %(low)s to %(high)s player; %(named)s named.",
                "%(game)s needs %(low)s to %(high)s players; %(named)s named.", high,
                low=low, high=high, game=game, named=named)


def seat_field(i: int) -> Field:
    return StringField(lazy_gettext("Player %(n)s", n=i + 1), [Optional(), Length(
        max=NAME_LENGTH, message=lazy_gettext("keep names to %(n)s letters", n=NAME_LENGTH))])


# Partners, as positions among the filled seats (0-based): the first team of each choice.
SOLO = "none"
PAIRS = {"13": (0, 2), "12": (0, 1), "14": (0, 3)}
PARTNERSHIPS = {
    SOLO: lazy_gettext("No partnerships: everyone plays for themselves"),
    "13": lazy_gettext("Players 1 & 3 against 2 & 4 (partners sit opposite)"),
    "12": lazy_gettext("Players 1 & 2 against 3 & 4"),
    "14": lazy_gettext("Players 1 & 4 against 2 & 3"),
}


class PartnershipsMixin:
    """Partnerships on the new-game form of a game that has them: 4 players, two teams."""

    seated: Callable[[], list[tuple[int, str]]]  # NewGameBase's, which it is always mixed into

    partnerships = RadioField(
        lazy_gettext("Partnerships (4 players only)"),
        choices=[Choice(value, label) for value, label in PARTNERSHIPS.items()],
        default=SOLO,
    )

    def validate_partnerships(self, field) -> None:
        if field.data != SOLO and len(self.seated()) != 4:
            raise ValidationError(page_text(
                "Partnerships are two teams of two: name exactly 4 players, or choose no "
                "partnerships (%(named)s named).", named=len(self.seated())))

    def teams(self) -> list[list[str]] | None:
        """The game file's ``teams``: two lists of two names, or None (no partnerships)."""
        choice = self.partnerships.data
        if choice not in PAIRS:
            return None
        names = [n for _i, n in self.seated()]
        first = [names[i] for i in PAIRS[choice]]
        return [first, [n for n in names if n not in first]]


def _new_game_form(v: Variant) -> type[NewGameBase]:
    """The new-game form class of a variant: its seats, its rule options, its partnerships."""
    return type(
        f"NewGameForm_{v.key}",
        (PartnershipsMixin, NewGameBase) if v.partnerships else (NewGameBase,),
        {
            "variant": v,
            "first_dealer": RadioField(
                lazy_gettext("First dealer"),
                choices=[Choice(str(i), lazy_gettext("Seat %(n)s", n=i + 1)) for i in range(v.max_players)],
                default="0",
            ),
            **{f"seat_{i}": seat_field(i) for i in range(v.max_players)},
            **{f"rule_{option.name}": rule_field(option) for option in v.rules},
        },
    )


NEW_GAME_FORMS = {key: _new_game_form(v) for key, v in registry.VARIANTS.items()}


# ---------------------------------------------------------------------------------------
# A group (the table's forms: web/table_forms.py)


class GroupNameForm(WriteForm):
    """A group's name, given on its page (empty: none)."""

    name = StringField(lazy_gettext("The group's name"), [
        Length(max=kernel.NAME_LENGTH, message=lazy_gettext("keep names to %(n)s letters", n=kernel.NAME_LENGTH))],
        filters=[lambda text: " ".join(text.split()) if isinstance(text, str) else text])  # measured as kept


# ---------------------------------------------------------------------------------------
# Games in: a game file uploaded from the phone.


class ImportForm(PageForm):
    """A game file (docs/game-file.md) to add as a new game; its size is capped by MAX_CONTENT_LENGTH."""

    takes_files = True

    game_file = FileField(lazy_gettext("Game file (.json)"),
                          [FileRequired(lazy_gettext("Choose a game file first."))])
    upload = SubmitField(lazy_gettext("Import the game"))
