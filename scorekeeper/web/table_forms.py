"""The forms of a game's table and its rounds: a play (a meld or a lay-off, an ace,
going out, a pass), an undo, a play changed, deleted or brought back, the hands at a
round's end and a hand counted earlier changed. Each names what the phone's page showed
(the round, whose turn, the play's revision, the game's version a waiting play was tapped
on), so that a form sent from a page that is behind is refused rather than acted on.
"""
from __future__ import annotations

from flask_babel import lazy_gettext
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired, Optional

from .forms import Between, CardsField, WholeNumberField, WriteForm
from .links import LARGEST_ID


class TableForm(WriteForm):
    """A play on the table screen names the round it was made on: an old tab's play for
    a round that is over is refused, never logged in the next one. ``seen``: the game's
    version when a play that then waited to be sent was tapped (the page's script)."""

    round_no = WholeNumberField(lazy_gettext("Round"),
                            [Optional(), Between(1, LARGEST_ID, lazy_gettext("no such round"))])
    seen = WholeNumberField(lazy_gettext("Table seen"),
                            [Optional(), Between(0, LARGEST_ID, lazy_gettext("no such table"))])


class PlayForm(TableForm):
    """A meld, or a lay-off when a meld on the table is chosen: check it, then confirm."""

    player = StringField(lazy_gettext("Who plays"), [InputRequired()])
    cards = CardsField(lazy_gettext("Cards"))
    meld = WholeNumberField(lazy_gettext("Lay off on"), [Optional()])
    check = SubmitField(lazy_gettext("Check"))
    confirm = SubmitField(lazy_gettext("Confirm"))


class AceForm(TableForm):
    player = StringField(lazy_gettext("Who plays"), [InputRequired()])
    card = StringField(lazy_gettext("Ace"), [InputRequired()])


class OutForm(TableForm):
    player = StringField(lazy_gettext("Who went out"), [InputRequired()])


class PassForm(TableForm):
    """Pass the turn on; ``turn``: whose turn the page showed (refused if it moved since)."""

    turn = StringField(lazy_gettext("Whose turn"), [Optional()])


class UndoForm(WriteForm):
    """Undo; ``last``: the id of the last play the page showed (0: none)."""

    last = WholeNumberField(lazy_gettext("Last play"), [Optional()])


class BringBackForm(WriteForm):
    """A play a delete or an undo took out, brought back from the game's changes."""

    play = WholeNumberField(lazy_gettext("Play"), [InputRequired()])


class DeleteForm(WriteForm):
    """Delete a play; ``revision``: the play's revision the page showed."""

    revision = WholeNumberField(lazy_gettext("Revision"), [Optional()])


class EditForm(WriteForm):
    player = StringField(lazy_gettext("Who played"), [InputRequired()])
    cards = CardsField(lazy_gettext("Cards"))
    meld = WholeNumberField(lazy_gettext("On meld"), [Optional()])
    revision = WholeNumberField(lazy_gettext("Revision"), [Optional()])
    check = SubmitField(lazy_gettext("Check"))
    save = SubmitField(lazy_gettext("Save the change"))


class HandForm(WriteForm):
    player = StringField(lazy_gettext("Player"), [InputRequired()])
    round_no = WholeNumberField(lazy_gettext("Round"), [InputRequired()])
    cards = CardsField(lazy_gettext("Cards left in hand"))


class CorrectHandForm(HandForm):
    """A hand counted at the end of an earlier round, changed; ``was``: the hand the page
    showed (its cards, space apart), refused if another phone changed it since."""

    was = StringField(lazy_gettext("The hand as shown"), [Optional()])


class ConfirmRoundForm(WriteForm):
    round_no = WholeNumberField(lazy_gettext("Round"), [InputRequired()])
