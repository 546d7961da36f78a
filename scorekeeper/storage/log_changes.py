"""Changes to a game kept as a log of plays: a play, an undo, an edit, a delete, a play
brought back, the hands at a round's end (game files in and out: storage/log_store.py).

A change is checked on the game as read (storage/logs.py: the round it changes, replayed
from the game as it stood before it) through kernel.change: a play of the round being
played and an undo under the write lock (one round's replay, bounded by its cards); one
that scores hands or changes a counted round (the best last turn of each hand, the rounds
after it) before the lock, written under it only if the game is still at the version it
was read at, else checked again. So no other phone's play waits behind a long check, and
none is lost: each change is checked against the log as it is when it is written, not
against the page the phone was shown; only what depends on that page is checked (whose
turn is passed on, which play is undone, which revision of a play is changed or deleted,
which round the page was at).

What the change makes of the round's results is written with it (storage/results.py): a
round counted adds its row; a change to an earlier round writes the rows from that round
on (its score, and the totals after it and after every later round).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import Standing, round_replay
from ..games.variant import LogVariant
from ..games.words import Say, joined
from . import entries, kernel, record, results
from .kernel import NotFound, Refused, Repeated, Stale, Unreadable
from .log_checks import (
    Preview,
    check_order,
    check_play,
    game_over,
    hands_left,
    not_playing,
    playing,
    round_over,
    unknown_kind,
)
from .logs import GameLog, Loaded, LogState, load, replay, round_of
from .plays import ONLY_DELETED, PlayRow, by_word, read_cards, read_hand


def _insert_play(db: Database, game_id: int, row: PlayRow) -> int:
    return entries.new_play(db, game_id, row.round_no, row.seq, row.type, row.player, row.cards, row.target)


def save_summary(db: Database, log: GameLog, state: LogState) -> LogState:
    """Bump the version past the log's and keep what the history list shows (``state``:
    the round being played, as saved); the state, at its new version."""
    assert log.id is not None  # a stored game's (an imported one once inserted)
    kernel.save_summary(db, log.id, log.version, over=state.over, status=state.said_status(),
                        round_no=state.round_no, totals=state.after.totals)
    return replace(state, log=replace(state.log, version=log.version + 1))


def save_standing(db: Database, log: GameLog, header: gamefile.Header, standing: Standing,
                  playing_now: LogState | None) -> None:
    """:func:`save_summary` after a change to an earlier round: the round being played
    (``playing_now``), or, the game over, the game as ``standing`` leaves it."""
    if playing_now is not None:
        save_summary(db, log, playing_now)
        return
    game = gamefile.game_of(header, standing, [])
    assert log.id is not None  # a stored game's (an imported one once inserted)
    kernel.save_summary(db, log.id, log.version, over=True, status=game.said_status(),
                        round_no=standing.rounds, totals=standing.totals)


# ---------------------------------------------------------------------------------------
# A play of the round being played, and an undo.


def add_play(db: Database, game_id: int, request_id: str | None, kind: str, player: str,
             cards: Iterable[str] = (), target: int | None = None,
             turn: str | None = None, round_no: int | None = None,
             seen: int | None = None) -> tuple[PlayRow, LogState]:
    """Log a play of the round being played (one of its game's ``table_plays``): the play as
    saved, and the round after it (replayed once).

    ``round_no``: the round the phone's page showed; a play made on a round that has
    ended since (an old tab) is refused, never logged in the next one. A pass is made by
    whoever's turn it is: ``turn``, whose turn the phone showed; if another phone passed
    it on meanwhile, the pass is refused rather than skipping a player. ``seen``: the
    game's version the phone showed when a play was tapped that then waited to be sent
    (no network); if the game changed since, on another phone, it is refused: the same
    play logged there meanwhile is not logged twice. A refusal of the play carries the
    round as read (``Refused.read``): the page answers with it.
    """
    def plan() -> tuple[int, Callable[[], tuple[PlayRow, LogState]]]:
        loaded = load(db, game_id)
        try:
            state = replay(loaded)
        except Refused as e:
            raise Unreadable(e.said_reason) from None
        try:
            who = player
            if seen is not None and seen != loaded.log.version:
                by = (turn or state.turn) if kind == "pass" else player
                waited = PlayRow(None, state.round_no, 0, kind, by, tuple(cards), target)
                raise Stale(Say("%(play)s waited to be sent, and meanwhile the table changed on another "
                                "phone: it was not saved. If it is still to be logged, log it again",
                                play=waited.describe()))
            if round_no is not None and round_no != state.round_no:
                raise Stale(by_word(
                    state.variant,
                    Say("that was made on the table of round %(round)s, and round %(round)s is over: "
                        "nothing was saved. This is round %(now)s", round=round_no, now=state.round_no),
                    Say("that was made on the table of hand %(round)s, and hand %(round)s is over: "
                        "nothing was saved. This is hand %(now)s", round=round_no, now=state.round_no)))
            if kind == "pass":
                playing(state)
                if state.ended:
                    raise Refused(round_over(state))
                if turn is not None and turn != state.turn:
                    raise Stale(Say("the turn already passed to %(player)s (on another phone): "
                                    "nothing was changed", player=state.turn))
                who = state.turn
            row, after = check_play(state, kind, who, cards, target, in_place=True)
        except Refused as e:  # the round as read, not the one the play refused was tried on
            e.read = replay(loaded)
            raise

        def save() -> tuple[PlayRow, LogState]:
            saved = replace(row, id=_insert_play(db, game_id, row))
            done = replace(after, log=after.log.replacing(row, saved),
                           events=[saved if r is row else r for r in after.events])
            return saved, save_summary(db, loaded.log, done)
        return loaded.log.version, save

    return kernel.change(db, game_id, request_id, plan, checked_under_lock=True)


def undo(db: Database, game_id: int, request_id: str | None = None,
         last: int | None = None) -> str:
    """:func:`undo_said`, what was undone in the game file's English ("took back …")."""
    return str(undo_said(db, game_id, request_id, last))


def undo_said(db: Database, game_id: int, request_id: str | None = None,
              last: int | None = None) -> Say:
    """Take back the last play of the round; in a round with none, reopen the last round
    end. Returns what was undone, a sentence ("took back Ann's meld (H3 H4 H5)").

    ``last``: the id of the last play the phone showed (0: none, the undo reopens a round
    end); if another phone logged or took back a play meanwhile, nothing is undone.
    """
    def plan() -> tuple[int, Callable[[], Say]]:
        loaded = load(db, game_id)
        state = replay(loaded)
        rows = [] if state.over else loaded.log.rows(state.round_no)
        now_last = rows[-1].id if rows else 0
        if last is not None and last != now_last:
            if last and kernel.revision_of(db, game_id, last) is None:
                raise Stale(Say("that play was taken back already (on another phone): "
                                "nothing more was undone"))
            if rows:
                raise Stale(Say("the last play is now %(play)s (the table changed on another "
                                "phone): nothing was undone; undo again to take it back",
                                play=rows[-1].describe()))
            raise Stale(Say("the table changed on another phone: nothing was undone"))
        if rows:
            row = rows[-1]
            after = replay(loaded, loaded.log.without(row))

            def take_back() -> Say:
                assert row.id is not None  # a stored play's
                change = record.note(db, game_id, record.round_change("undo", state, after, was=row), play=row.id)
                entries.change_play(db, game_id, row.id, change, live=False)
                save_summary(db, loaded.log, after)
                return Say("took back %(play)s", play=row.describe())
            return loaded.log.version, take_back
        counted = loaded.finished
        if not counted:
            raise Refused(Say("there is nothing to undo yet"))
        ended = load(db, game_id, counted)
        log = replace(ended.log, hands={}, drafts={counted: ended.log.hands.get(counted, {})})
        reopened = replay(ended, log)

        def reopen() -> Say:
            change = record.note(db, game_id, {"kind": "reopen", "round": counted})
            entries.change_hands(db, game_id, counted, change, confirmed=False)
            results.write(db, game_id, counted, [])
            save_summary(db, loaded.log, reopened)
            return by_word(loaded.log.variant,
                           Say("reopened the end of round %(round)s: the hands can be changed",
                               round=counted),
                           Say("reopened the end of hand %(round)s: the hands can be changed",
                               round=counted))
        return loaded.log.version, reopen

    return kernel.change(db, game_id, request_id, plan, checked_under_lock=True)


# ---------------------------------------------------------------------------------------
# Any play of the game changed, deleted or brought back: its round is replayed, and if its
# hands are counted, what it scored and the totals after it and after every later round.


def _same_revision(log: GameLog, play_id: int, revision: int | None) -> None:
    """Refuse to change or delete a play that someone else changed (or deleted) meanwhile."""
    if revision is None:
        return
    found = next((p for p in log.plays if p.id == play_id), None)
    if found is None:
        raise Stale(Say("that play is not in the game any more (it was deleted on another "
                        "phone): nothing was changed"))
    if found.revision != revision:
        raise Stale(Say("this play was changed on another phone meanwhile; it is now %(play)s. "
                        "Nothing was saved: look at it again", play=found.describe()))


def preview_edit(state: LogState, play_id: int, player: str, cards: Iterable[str],
                 target: int | None = None) -> Preview:
    """What a play would make and score once changed, its round replayed with it (``state``:
    that round read); nothing is saved."""
    try:
        old, row = _edited(state.log, play_id, player, cards, target)
        after = replay(state.loaded, state.log.replacing(old, row), row)
    except (Refused, NotFound) as e:
        return Preview(PlayRow(play_id, 0, 0, "meld", player, tuple(cards), target),
                       error=e.message, said_error=e.said)
    played = next(tp.play for tp in after.plays(row.round_no) if tp.row is row)
    return Preview(row, played, after=after)


def _round_of(db: Database, game_id: int, play_id: int, revision: int | None) -> Loaded:
    """The round a play is in, read (NotFound, or Stale for a play the phone showed)."""
    round_no = round_of(db, game_id, play_id)
    if round_no is None:
        if revision is not None:
            raise Stale(Say("that play is not in the game any more (it was deleted on another "
                            "phone): nothing was changed"))
        raise NotFound(Say("play %(play)s is not in this game", play=play_id))
    return load(db, game_id, round_no)


def _edited(log: GameLog, play_id: int, player: str, cards: Iterable[str],
            target: int | None) -> tuple[PlayRow, PlayRow]:
    """(the play as logged, the play as changed); the type of a play never changes."""
    old = log.play(play_id)
    if old.type not in log.variant.events:
        only = ONLY_DELETED.get(old.type)
        raise Refused(only() if only else Say("a %(kind)s can only be deleted", kind=old.type))
    if player not in log.players:
        raise Refused(not_playing(player))
    new_cards = () if old.type == "out" else read_cards(cards)
    if old.type != "out" and not new_cards:
        raise Refused(Say("pick the cards first (or delete the play)"))
    return old, replace(old, player=player, cards=new_cards,
                        target=target if old.type == "layoff" else None)


def _rounds_after(db: Database, loaded: Loaded,
                  after: LogState) -> tuple[list[tuple[str, ...]] | None, Standing, LogState | None]:
    """What a change to the round read makes of the rounds after it: (the results to keep
    from that round on, or None when its hands are not counted; the game after the last
    counted round; the round being played as the change leaves it, None once the game is
    over). Refused when the game would be over before a round that was played after it."""
    game_id, changed = loaded.log.id, loaded.round_no
    assert game_id is not None  # a stored game's
    if changed not in loaded.log.hands:  # the round being played: nothing counted changes
        return None, after.after, (None if after.over else after)
    kept = [(after.record(), after.after)]
    standing = after.after
    for n, kept_round in enumerate(results.records(db, game_id, changed + 1), changed + 1):
        if standing.over:
            raise Refused(_ends_before(loaded.log.variant, n))
        standing = round_replay.after_round(loaded.header, standing, kept_round.scores, kept_round.figures)
        kept.append((kept_round, standing))
    try:
        following = load(db, game_id, standing.rounds + 1)
    except NotFound:  # the game was over after its last round: no round was played after it
        empty = replace(loaded.log, plays=(), hands={}, drafts={})
        following = Loaded(empty, loaded.header, standing, standing.rounds + 1, standing.rounds)
    if standing.over:
        if following.log.plays or following.log.drafts:
            raise Refused(_ends_before(loaded.log.variant, standing.rounds + 1))
        return results.encode(kept), standing, None
    return results.encode(kept), standing, replay(replace(following, before=standing))


def _ends_before(variant: LogVariant, round_no: int) -> Say:
    return by_word(variant,
                   Say("that would end the game before round %(round)s, which was played after it: "
                       "delete the later rounds first", round=round_no),
                   Say("that would end the game before hand %(round)s, which was played after it: "
                       "delete the later hands first", round=round_no))


@dataclass(frozen=True)
class _Changed:
    """What a change does to the round it changes, for the record (storage/record.py): the
    round before it (its plays only: no hands scored again), the round after it, and the
    round's scores before it (as kept, once its hands are counted)."""

    before: LogState
    after: LogState
    scores: Mapping[str, int]

    def facts(self, kind: str, *, was: PlayRow | None = None, now: PlayRow | None = None,
              changed: int | None = None) -> dict[str, Any]:
        return record.round_change(kind, self.before, self.after, was=was, now=now, scores_before=self.scores,
                                   changed=changed)


def _change_in_round(db: Database, game_id: int, request_id: str | None, play_id: int,
                     revision: int | None,
                     changed_log: Callable[[GameLog], tuple[GameLog, PlayRow | None, PlayRow]],
                     write_row: Callable[[PlayRow, _Changed], PlayRow]) -> PlayRow:
    """One play of any round changed (``changed_log(log) -> (the new log, the play it is
    about, what the answer names)``), written with ``write_row(play, what the change
    does)``."""
    def plan() -> tuple[int, Callable[[], PlayRow]]:
        loaded = _round_of(db, game_id, play_id, revision)
        _same_revision(loaded.log, play_id, revision)
        log, about, answer = changed_log(loaded.log)
        return _round_changed(db, loaded, log, about, lambda changed: write_row(answer, changed))

    return kernel.change(db, game_id, request_id, plan)


Written = TypeVar("Written")


def _round_changed(db: Database, loaded: Loaded, log: GameLog, about: PlayRow | None,
                   write_row: Callable[[_Changed], Written]) -> tuple[int, Callable[[], Written]]:
    """The plan of a change to the round read (its rows as ``log`` has them; ``about``: the
    play changed, if any): the round replayed, its order checked, the rounds after it
    worked out; (the version read, the writer: ``write_row(what the change does)`` then
    the results and the summary)."""
    after = replay(loaded, log, about)
    check_order(log.variant, after.log.rows(loaded.round_no), after.rules)
    kept, standing, playing_now = _rounds_after(db, loaded, after)
    before = replay(loaded, replace(loaded.log, hands={}))
    assert loaded.log.id is not None  # a stored game's
    counted = loaded.round_no in loaded.log.hands
    scores = results.scores(db, loaded.log.id, loaded.round_no)[0] if counted else before.scored_round.scores
    changed = _Changed(before, after, scores)

    def save() -> Written:
        saved = write_row(changed)
        if kept is not None:
            assert loaded.log.id is not None  # a stored game's
            results.write(db, loaded.log.id, loaded.round_no, kept)
        save_standing(db, loaded.log, loaded.header, standing, playing_now)
        return saved
    return loaded.log.version, save


def edit_play(db: Database, game_id: int, request_id: str | None, play_id: int, player: str,
              cards: Iterable[str] = (), target: int | None = None,
              revision: int | None = None) -> PlayRow:
    """Change a play anywhere in the game; every later play and score is recomputed.

    ``revision``: the play's revision the phone showed; every edit bumps it.
    """
    def changed(log: GameLog) -> tuple[GameLog, PlayRow, PlayRow]:
        old, row = _edited(log, play_id, player, cards, target)
        return log.replacing(old, row), row, row

    def write_row(row: PlayRow, changed: _Changed) -> PlayRow:
        was = changed.before.log.play(play_id)
        change = record.note(db, game_id, changed.facts("edit", was=was, now=row, changed=play_id), play=play_id)
        entries.change_play(db, game_id, play_id, change, player=row.player, cards=row.cards, target=row.target)
        return row

    return _change_in_round(db, game_id, request_id, play_id, revision, changed, write_row)


def delete_play(db: Database, game_id: int, request_id: str | None, play_id: int,
                revision: int | None = None) -> PlayRow:
    """Remove a play anywhere in the game, if everything after it still stands."""
    def changed(log: GameLog) -> tuple[GameLog, None, PlayRow]:
        row = log.play(play_id)
        if row.type == "meld":
            on_it = [p for p in log.plays if p.target == row.id]
            if on_it:
                raise Refused(_lay_off_first(log.variant, on_it[0]))
        return log.without(row), None, row

    def write_row(row: PlayRow, changed: _Changed) -> PlayRow:
        change = record.note(db, game_id, changed.facts("delete", was=row, changed=play_id), play=play_id)
        entries.change_play(db, game_id, play_id, change, live=False)
        return row

    return _change_in_round(db, game_id, request_id, play_id, revision, changed, write_row)


def restore_play(db: Database, game_id: int, request_id: str | None, row: PlayRow) -> PlayRow:
    """Put a deleted play back where it was (its round and place in it), if everything
    around it still stands; a play logged in its place since is said, and nothing changes."""
    def plan() -> tuple[int, Callable[[], PlayRow]]:
        try:
            loaded = load(db, game_id, row.round_no)
        except NotFound:
            raise Refused(Say("it was in a round that is not in the game any more")) from None
        log = loaded.log
        if row.type not in log.variant.table_plays:
            raise Refused(unknown_kind(row.type))
        if row.player and row.player not in log.players:
            raise Refused(not_playing(row.player))
        if row.id is not None and any(p.id == row.id for p in log.plays):
            raise Stale(Say("%(play)s is in the game already (brought back on another phone): nothing was "
                            "changed", play=row.describe()))
        if any(p.seq == row.seq for p in log.plays):
            raise Refused(Say("another play has been logged in its place since: log it again "
                              "instead"))
        plays = tuple(sorted(log.plays + (row,), key=lambda p: p.seq))
        return _round_changed(db, loaded, replace(log, plays=plays), row, lambda changed: _bring_back(row, changed))

    def _bring_back(row: PlayRow, changed: _Changed) -> PlayRow:
        """The play's own next entry if it was removed from this game; else a new play."""
        again = row.id is not None and entries.removed(db, game_id, row.id)
        play_id = row.id if again and row.id is not None else entries.next_play(db)
        change = record.note(db, game_id, changed.facts("restore", now=row, changed=row.id), play=play_id)
        if again and row.id is not None:
            entries.change_play(db, game_id, row.id, change, round_no=row.round_no, seq=row.seq,
                                player=row.player, cards=row.cards, target=row.target)
            return row
        return replace(row, id=entries.new_play(db, game_id, row.round_no, row.seq, row.type, row.player,
                                                row.cards, row.target, change))

    return kernel.change(db, game_id, request_id, plan)


def correct_hand(db: Database, game_id: int, request_id: str | None, round_no: int, player: str,
                 cards: Iterable[str], was: Iterable[str] | None = None) -> Say:
    """Change a player's hand counted at the end of round ``round_no`` (any counted round):
    the round is scored again, and every total after it. ``was``: the hand the phone
    showed; if another phone changed it meanwhile, nothing is saved. What the change did,
    in words."""
    cards = read_hand(cards)
    shown = None if was is None else read_hand(was)

    def plan() -> tuple[int, Callable[[], Say]]:
        loaded = load(db, game_id, round_no)
        counted = loaded.log.hands.get(round_no)
        if counted is None:
            raise Refused(by_word(
                loaded.log.variant,
                Say("round %(round)s is not counted yet: enter its hands at its end", round=round_no),
                Say("hand %(round)s is not counted yet: enter its hands at its end", round=round_no)))
        if player not in loaded.log.players:
            raise Refused(not_playing(player))
        state = replay(loaded)
        if player not in state.entering():
            raise Refused(Say("%(player)s's hand was not counted in this round: %(player)s went out "
                              "or sat out of it", player=player))
        now = read_hand(counted.get(player, ()))  # as entered: an imported hand keeps its file's order
        if shown is not None and shown != now:
            raise Stale(Say("%(player)s's hand was changed on another phone meanwhile: nothing was saved. "
                            "Look at it again", player=player))
        if now == cards:
            raise Refused(Say("that is the hand counted already: nothing was changed"))
        log = replace(loaded.log, hands={round_no: {**counted, player: cards}})

        def write_row(changed: _Changed) -> Say:
            facts = record.hand_facts(round_no, player, now, cards, (changed.scores, changed.after.scored_round.scores))
            change = record.note(db, game_id, facts)
            entries.set_hand(db, game_id, round_no, player, cards, confirmed=True, change=change)
            return record.what_said(facts, loaded.log.variant.round_word)
        return _round_changed(db, loaded, log, None, write_row)

    return kernel.change(db, game_id, request_id, plan)


def bring_back(db: Database, game_id: int, request_id: str | None, play_id: int) -> PlayRow:
    """A play a delete or an undo took out of the game, put back where it was (as
    :func:`restore_play`), found by its id: the Changes page's "Bring back"."""
    found = entries.taken_out(db, game_id, play_id)
    if found is None:
        raise Refused(Say("that play is not out of the game (it was brought back already, or it is "
                          "not this game's): nothing was changed"))
    round_no, seq, kind, player, cards, target, change = found
    for was, now in record.renames_since(db, game_id, change):  # a player renamed since: that name now
        player = now if player == was else player
    return restore_play(db, game_id, request_id, PlayRow(play_id, round_no, seq, kind, player, tuple(cards), target))


def _lay_off_first(variant: LogVariant, lay_off: PlayRow) -> Say:
    if variant.edits:
        return Say("%(play)s lies on this meld: change or delete that lay-off first",
                   play=lay_off.describe())
    return Say("a lay-off lies on this meld (%(play)s): delete that lay-off first",
               play=lay_off.describe())


# ---------------------------------------------------------------------------------------
# The end of a round: hands entered one by one (drafts), then counted together.


def _round_end(state: LogState, round_no: int) -> None:
    if state.over:
        raise Refused(game_over(state.game.said_status()))
    if round_no != state.round_no:
        raise Refused(by_word(
            state.variant,
            Say("round %(round)s is not the round being played (round %(playing)s is)",
                round=round_no, playing=state.round_no),
            Say("hand %(round)s is not the hand being played (hand %(playing)s is)",
                round=round_no, playing=state.round_no)))
    if not state.ended:
        raise Refused(by_word(
            state.variant,
            Say("the round is not over yet: %(how)s", how=state.variant.how_rounds_end),
            Say("the hand is not over yet: %(how)s", how=state.variant.how_rounds_end)))


def save_hand(db: Database, game_id: int, request_id: str | None, round_no: int, player: str,
              cards: Iterable[str]) -> LogState:
    """Enter (or change) one player's cards left in hand at the end of the round.

    A hand holds no more cards than the decks leave once the table and the other hands
    entered are counted; each card as many times as the decks still hold it. The hands
    entered so far are scored (the best last turn of each) before the lock is taken."""
    cards = read_hand(cards)

    def plan() -> tuple[int, Callable[[], LogState]]:
        loaded = load(db, game_id)
        state = replay(loaded)
        _round_end(state, round_no)
        if player not in loaded.log.players:
            raise Refused(not_playing(player))
        if player == state.out and cards:
            raise Refused(Say("%(player)s went out and holds no cards", player=player))
        hands_left(state, player, cards)
        # This hand checked last: a card one too many is said of it, naming the hands before.
        others = {p: hand for p, hand in state.drafts.items() if p != player}
        drafts = {**loaded.log.drafts, round_no: {**others, player: cards}}
        after = replay(loaded, replace(loaded.log, drafts=drafts))
        counted = after.counted()  # the hands entered so far must be possible: scored here
        facts: dict[str, Any] | None = None
        if player in state.drafts and tuple(state.drafts[player]) != tuple(cards):  # a hand corrected
            was = state.counted()
            scores = None if was is None or counted is None else (was.scored_round.scores, counted.scored_round.scores)
            facts = record.hand_facts(round_no, player, state.drafts[player], cards, scores)

        def save() -> LogState:
            change = None if facts is None else record.note(db, game_id, facts)
            entries.set_hand(db, game_id, round_no, player, cards, confirmed=False, change=change)
            return save_summary(db, loaded.log, after)
        return loaded.log.version, save

    return kernel.change(db, game_id, request_id, plan)


def next_round(loaded: Loaded, after: Standing) -> LogState | None:
    """The round after the one just counted (no plays yet), or the last one if the game is over."""
    if after.over:
        return None
    empty = replace(loaded.log, plays=(), hands={}, drafts={})
    return replay(Loaded(empty, loaded.header, after, loaded.round_no + 1, after.rounds))


def confirm_round(db: Database, game_id: int, request_id: str | None, round_no: int) -> LogState:
    """Count the entered hands: the round is scored (the best last turn of each hand, before
    the lock), its results kept, and the next one starts with the next dealer. Returns the
    round being played after it (the last round, once the game is over).

    A round already counted (two phones confirming it) raises Repeated: nothing to do.
    """
    def plan() -> tuple[int, Callable[[], LogState]]:
        loaded = load(db, game_id)
        if round_no <= loaded.finished:
            raise Repeated(by_word(loaded.log.variant,
                                   Say("round %(round)s was counted already", round=round_no),
                                   Say("hand %(round)s was counted already", round=round_no)))
        state = replay(loaded)
        _round_end(state, round_no)
        missing = state.missing_hands()
        if missing:
            raise Refused(Say("enter the cards left in %(players)s's hand first",
                              players=joined(missing, ", ")))
        hands = dict(state.drafts)
        if state.out:
            hands[state.out] = ()
        counted = replay(loaded, replace(loaded.log, hands={round_no: hands}, drafts={}))
        playing_now = next_round(loaded, counted.after) or counted
        kept = results.encode([(counted.record(), counted.after)])

        def save() -> LogState:
            entries.set_hands(db, game_id, round_no, hands, confirmed=True)
            results.write(db, game_id, round_no, kept)
            return save_summary(db, loaded.log, playing_now)
        return loaded.log.version, save

    return kernel.change(db, game_id, request_id, plan)




