"""A play of a logged game checked before anything is saved: may it be played, and what
would it make?

:func:`check_play` says what row a play would add and the round after it, or refuses it
(:class:`~scorekeeper.storage.kernel.Refused`, in plain words): by the rules, through the
round's replay (storage/logs.py), and by what only the table knows (whose turn it is, the
cards the decks still hold, the order of a round's plays, how many a round holds).
:func:`preview` is the same without the refusal raised (the table's "Check"), and
:func:`hands_left` checks a hand entered at the round's end against the cards left.
storage/log_changes.py writes what these allow.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import gamefile
from ..gamefile import round_replay
from ..games.cards import Card, Supply, parse_card
from ..games.errors import GameFileError, ScorekeeperError
from ..games.variant import LogVariant
from ..games.words import Say, SayN, Sentence
from .kernel import Refused
from .logs import GameLog, LogState, most_plays, refusal, replay, round_data
from .plays import WITH_CARDS, PlayRow, availability, by_word, read_cards


def game_over(status: Say) -> Say:
    return Say("the game is over: %(status)s", status=status)


def round_over(state: LogState) -> Say:
    return by_word(state.variant,
                   Say("the round is over (%(how)s): count the hands", how=state.end_reason()),
                   Say("the hand is over (%(how)s): count the hands", how=state.end_reason()))


def playing(state: LogState) -> None:
    if state.over:
        raise Refused(game_over(state.game.said_status()))
    if state.ended and not state.ending:
        raise Refused(round_over(state))


def check_order(variant: LogVariant, rows: list[PlayRow], rules: Mapping[str, Any]) -> None:
    if variant.check_plays is not None:
        try:
            variant.check_plays(rows, rules)
        except ScorekeeperError as e:
            raise Refused(e.message) from None


def unknown_kind(kind: str) -> Say:
    return Say("unknown kind of play %(kind)s", kind=repr(kind))


def not_playing(player: str) -> Say:
    return Say("'%(player)s' is not playing in this game", player=player)


def check_play(state: LogState, kind: str, player: str, cards: Iterable[str] = (),
               target: int | None = None, *, in_place: bool = False) -> tuple[PlayRow, LogState]:
    """The row this play would add and the round after it; Refused (nothing saved) if the
    rules or the table do not allow it. ``in_place``: the play is applied to ``state``'s
    own table rather than to a replay of the round with it (``state`` is not to be used
    again): a play replays its round once."""
    variant = state.variant
    playing(state)
    if kind not in variant.table_plays:
        raise Refused(unknown_kind(kind))
    if player not in state.players:
        raise Refused(not_playing(player))
    cards = read_cards(cards) if kind in WITH_CARDS else ()
    if kind in WITH_CARDS and not cards:
        raise Refused(Say("pick the cards first"))
    if kind == "layoff" and target not in {pid for pid, _m in state.melds()}:
        raise Refused(Say("tap a meld on the table to lay off on it"))
    if state.round_no > gamefile.MAX_ROUNDS:
        raise Refused(by_word(variant, Say("a game holds at most %(most)s rounds: start a new game to "
                                           "play on", most=gamefile.MAX_ROUNDS),
                              Say("a game holds at most %(most)s hands: start a new game to play on",
                                  most=gamefile.MAX_ROUNDS)))
    rows = state.rows()
    if len(rows) >= most_plays(state.round):
        raise Refused(by_word(variant, Say("a round holds at most %(most)s plays: this one is full",
                                           most=most_plays(state.round)),
                              Say("a hand holds at most %(most)s plays: this one is full",
                                  most=most_plays(state.round))))
    row = PlayRow(None, state.round_no, rows[-1].seq + 1 if rows else 1, kind, player, cards,
                  target if kind == "layoff" else None)
    check_order(variant, rows + [row], state.rules)
    check_supply(state.round.supply, row.cards)
    log = state.log.with_play(row)
    if kind in variant.events and in_place:
        return row, _played(state, log, row)
    if kind in variant.events or kind in variant.round_lists:
        return row, replay(state.loaded, log, row)
    return row, replace(state, log=log)  # the game file is as it was


def _played(state: LogState, log: GameLog, row: PlayRow) -> LogState:
    """``state`` with one more event played onto its own table and the round scored again
    (the round is not replayed from its start)."""
    data, events = round_data(log, state.round_no)
    lists = {key: data.get(key, []) for key in state.variant.round_lists}
    try:
        result = round_replay.replay_one_more(state.variant, state.round, data["events"][-1], lists,
                                              state.round_no, len(data["events"]))
    except GameFileError as error:
        raise refusal(error, events, row, log, False) from None
    return LogState(log, state.loaded, result, state.after, events)


def _decks_hold(decks: int, have: int, card: Card) -> Say:
    """How many of a card the decks hold: "one deck has one S9", "two decks have two S9s"."""
    if have == 1:
        return Say("one deck has one %(card)s", card=card)
    if decks == have == 2:
        return Say("two decks have two %(card)ss", card=card)
    if decks == have == 3:
        return Say("three decks have three %(card)ss", card=card)
    return Say("%(decks)s decks have %(copies)s %(card)ss", decks=decks, copies=have, card=card)


def _on_the_table(on_table: int, have: int, card: Card, deck: Say) -> Say:
    """That the decks' copies of a card are on the table already: "both S9s are …"."""
    if on_table == 1 and have == 1:
        return Say("%(card)s is already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 1:
        return Say("one %(card)s is already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 2 == have:
        return Say("both %(card)ss are already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 2:
        return Say("two %(card)ss are already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 3:
        return Say("three %(card)ss are already on the table (%(decks)s)", card=card, decks=deck)
    return Say("%(count)s %(card)ss are already on the table (%(decks)s)", count=on_table,
               card=card, decks=deck)


def check_supply(supply: Supply, cards: Iterable[str]) -> None:
    """Refuse, in plain words, a card the decks no longer have in the round being played
    (``supply``: the round's, cards.Supply).

    Two phones can log the same physical card at the same moment; the second is told
    "S9 is already on the table (one deck has one S9)". The replay refuses it as well, in
    the game file's words (``scorekeeper score`` keeps those).
    """
    for card, n in Counter(parse_card(c) for c in cards).items():
        have, left = supply.limit[card], supply.remaining(card)
        if not have or n <= left:
            continue
        deck = _decks_hold(supply.decks, have, card)
        on_table = have - left
        if not on_table:
            raise Refused(SayN("%(card)s is picked %(num)s time, but %(decks)s",
                               "%(card)s is picked %(num)s times, but %(decks)s", n,
                               card=card, decks=deck))
        raise Refused(_on_the_table(on_table, have, card, deck))


@dataclass
class Preview:
    """What a play would make and score, or why it is refused; nothing is saved.

    ``error``: why, in the game file's English (a sentence, as a Refused's ``message``);
    ``said_error``: the same for a page (words.Sentence, as a Refused's ``said``)."""

    row: PlayRow
    play: object | None = None
    error: str | None = None
    after: LogState | None = None
    last_ace: bool = False
    said_error: Sentence | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.play is not None


def preview(state: LogState, kind: str, player: str, cards: Iterable[str],
            target: int | None = None) -> Preview:
    """Replay the round with this play added, without saving it."""
    try:
        row, after = check_play(state, kind, player, cards, target)
    except Refused as e:
        return Preview(PlayRow(None, state.round_no, 0, kind, player, tuple(cards), target),
                       error=e.message, said_error=e.said)
    played = after.plays(row.round_no)[-1].play
    return Preview(row, played, after=after, last_ace=after.ending and not state.ending)


def hands_left(state: LogState, player: str, cards: tuple[str, ...]) -> None:
    """Refuse a hand that holds more cards than the decks leave, once the table and the
    other hands entered are counted."""
    holding = [c for p, hand in state.drafts.items() if p != player for c in hand]
    left = sum(n for n in availability(state.round, holding=holding).values() if n > 0)
    if len(cards) > left:
        raise Refused(SayN("%(player)s's hand cannot hold %(num)s card: the decks leave "
                           "%(left)s once the table and the other hands entered are counted",
                           "%(player)s's hand cannot hold %(num)s cards: the decks leave "
                           "%(left)s once the table and the other hands entered are counted",
                           len(cards), player=player, left=left))
