"""A replayed game of Robber Rummy as its pages (views/steals.py) show it: the sides that
score and their colours, the melds on the table with their owners, the hand so far in
words, and the discard pile still owed. Read from the replay (storage/logs.py); the
rules decide, this only arranges what they said for the page.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...games import robber
from ...games.cards import parse_card
from ...games.words import Cards, Say
from ...storage import logs, plays


@dataclass
class TableMeld:
    """A meld on the table as the page shows it."""

    pid: int | None  # the play id of the row that made it (None: a play not saved yet, a preview)
    number: int
    tm: Any  # the rules' table meld: its meld, owner and history
    side: str  # its owner's side: the player, or the team
    colour: int  # the side's colour (its index among the sides)
    locked: bool
    value: int


@dataclass
class LogLine:
    row: plays.PlayRow
    text: Say  # the play in words, a sentence read in the phone's language
    steal: bool = False
    editable: bool = False  # a meld, a lay-off or going out can be changed, the rest deleted


def robber_round(state: logs.LogState) -> robber.Round:
    """The hand's table as Robber's rules keep it: its melds with their owners and locks,
    its plays with the meld each went on and whom it stole from (the game contract's round
    says none of it: these pages ask the game's own classes)."""
    round_ = state.round
    assert isinstance(round_, robber.Round)  # the Robber pages show Robber's hands only
    return round_


@dataclass
class Steals:
    """A replayed game as these pages show it: sides and their colours, melds with owners,
    the hand so far in words."""

    state: logs.LogState

    def __getattr__(self, name: str):  # the rest is the replayed game's (logs.LogState)
        return getattr(self.state, name)

    @property
    def scored(self):
        return self.state.game

    @property
    def winners(self) -> list[str]:
        return self.state.game.winners

    @property
    def tied(self) -> bool:
        return self.state.game.tied_at_target

    @property
    def sides(self) -> list[str]:
        """The sides that score: the teams' names, or the players."""
        if self.state.teams:
            return [" & ".join(t) for t in self.state.teams]
        return list(self.state.players)

    def side(self, player: str) -> str:
        return self.state.game.teams.get(player, player)

    def colour(self, player: str) -> int:
        return self.sides.index(self.side(player))

    @property
    def pending_take(self) -> plays.PlayRow | None:
        """A discard pile taken whose top card has not gone into a meld yet (the rules'
        :func:`robber.pending_take`)."""
        return robber.pending_take(self.state.rows())

    def current(self):
        """The hand being played, as the replay scored it so far (None before its first play)."""
        if self.state.over:
            return None
        return self.state.round_result(self.state.round_no)

    def live(self) -> dict:
        """Each player's score if the hand ended now (melds owned; the team's in partnership)."""
        current = self.current()
        return current.scores if current is not None else {p: 0 for p in self.state.players}

    def melds(self) -> list[TableMeld]:
        round_ = robber_round(self.state)
        shown = []
        for pid, tm in self.state.melds():
            assert isinstance(tm, robber.TableMeld)  # the round's own melds
            shown.append(TableMeld(pid, tm.number, tm, self.side(tm.owner), self.colour(tm.owner),
                                   round_.locked(tm.number), tm.meld.value(self.state.rules)))
        return shown

    def _arranged(self, play) -> Cards:
        """A play's cards in the order they lie in their meld on the table now (a card's
        place in a meld never changes once played)."""
        lying = self.state.round.melds[play.meld_number - 1].meld.cards
        return Cards(sorted(play.cards, key=lying.index))

    def log_lines(self) -> list[LogLine]:
        """The hand so far, newest last, in words: steals say whose meld was stolen."""
        lines = []
        for tp in self.state.plays():
            row, play = tp.row, tp.play
            # The rules' own play of an event (a meld, a lay-off, going out); None for a row
            # the game file does not record (a pass, the discard pile taken, …).
            assert play is None or isinstance(play, robber.Play)
            if row.type == "meld":
                assert play is not None
                text = Say("%(player)s melds %(cards)s (meld %(number)s)", player=row.player,
                           cards=self._arranged(play), number=play.meld_number)
            elif row.type == "layoff":
                assert play is not None
                if play.stolen_from:
                    text = Say("%(player)s steals meld %(number)s from %(owner)s with %(cards)s",
                               player=row.player, number=play.meld_number, owner=play.stolen_from,
                               cards=self._arranged(play))
                else:
                    text = Say("%(player)s adds %(cards)s to meld %(number)s", player=row.player,
                               cards=self._arranged(play), number=play.meld_number)
            elif row.type == "out":
                text = Say("%(player)s went out", player=row.player)
            elif row.type == "pass":
                text = Say("%(player)s discarded: %(next)s’s turn", player=row.player, next=tp.passed_to)
            elif row.type == "take":
                text = Say("%(player)s took the discard pile (%(card)s on top)", player=row.player,
                           card=parse_card(row.cards[0]))
            elif row.type == "renege":
                text = Say("%(player)s reneged: −%(penalty)s this hand", player=row.player,
                           penalty=self.state.rules["renege_penalty"])
            elif row.player:
                text = Say("the stock ran out: %(player)s drew the last card", player=row.player)
            else:
                text = Say("the stock ran out")
            lines.append(LogLine(row, text, bool(play is not None and play.stolen_from),
                                 self.state.variant.changes(row.type)))
        return lines

    def hand_ended(self, round_no: int) -> Say | str:
        """How hand ``round_no`` ended, in words: out, the stock, or the game file's word."""
        rows = self.state.log.rows(round_no)
        out = next((r for r in rows if r.type == "out"), None)
        if out is not None:
            return Say("%(player)s went out", player=out.player)
        stock = next((r for r in rows if r.type == "stock"), None)
        if stock is not None:
            return plays.ended_by(stock)
        result = self.state.round_result(round_no)
        return result.ended if result else ""
