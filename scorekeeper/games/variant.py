"""What a game declares about itself: the one record the rest of the app reads.

Each game module ends with a ``VARIANT``: its name and rules, how a round is recorded
and scored, how a round ended in words, whether the lowest total wins, which
card-level statistics it offers and which pages show it. The registry
(:mod:`scorekeeper.games.registry`) lists them; no other module names a game.

There are two ways a round is recorded, and a declaration of each:

- :class:`LogVariant` (Iceberg, Robber Rummy): a round is a log of plays made as they
  happen. The game file's rounds are lists of events; the table screen logs those and
  a few plays of its own (a pass, the discard pile taken, the stock running out).
- :class:`CountVariant` (Basic Rummy, Gin, Kalooki, Conquian, Manipulation): a round is
  entered when it ends, by how it ended and the cards left in each hand.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, full_deck
from .contract import NewRound, ScoreRound, Standing
from .handcount import CountedGame
from .options import RuleBook
from .words import Say, SayN
from .worth import Worth

LOG, COUNT = "log", "count"

# The card-level records a game can offer (stats.Facts has one field for each), and for
# those that count something, how a number of them is said ("3 special melds").
CARD_STATS = ("melds", "specials", "playable_penalty", "aces", "steals", "gins", "undercuts")
COUNTED_AS: dict[str, Callable[[int], Say]] = {
    "specials": lambda n: SayN("%(num)s special meld", "%(num)s special melds", n),
    "aces": lambda n: SayN("%(num)s ace", "%(num)s aces", n),
    "gins": lambda n: SayN("%(num)s gin", "%(num)s gins", n),
    "undercuts": lambda n: SayN("%(num)s undercut", "%(num)s undercuts", n),
}


def _never(_rules: Mapping[str, Any]) -> bool:
    return False


def _unsaid(_rules: Mapping[str, Any]) -> None:
    return None


def _target_total(rules: Mapping[str, Any]) -> tuple[int, str] | None:
    """The total that ends the game, where the rules have one: their ``target``."""
    return (rules["target"], "target") if rules.get("target") else None


@dataclass(frozen=True)
class Variant:
    """Everything the rest of the app needs to know about one game.

    What it says to people is sentences (words.Say): its name, its blurb, whose rules the
    defaults are and the words of the subclasses below. Plain text still: ``round_word``
    ("round", "hand"), which the stores put into sentences of their own.
    """

    key: str  # the game file's "variant"
    name: Say  # as people call it: "Iceberg Rummy"
    blurb: Say  # one line for the new-game page
    rules: RuleBook
    min_players: int
    max_players: int
    screens: str  # the family of pages that show it (the web layer's presenters)
    round_word: str = "round"  # what a round is called at this table ("hand" in Robber Rummy)
    defaults_from: Say = Say("the published rules")  # whose rules the defaults are
    partnerships: bool = False  # may be played in two teams of two
    # Penalty games: the lowest total (and the lowest round) is the best.
    lowest_total_wins: Callable[[Mapping[str, Any]], bool] = _never
    # Card-level records for the statistics (names from CARD_STATS), and the function
    # that reads them from a finished round's result: {player: {record: value}}, a meld
    # as (points, card names, its title or None); the statistics add up the rounds'.
    card_stats: tuple[str, ...] = ()
    round_facts: Callable[[Any], Mapping[str, Mapping[str, Any]]] | None = None
    # What the game page shows of each player in a finished round beyond the score (whole
    # numbers by name: Iceberg's earned and penalties, Kalooki's "eliminated"), read from
    # the round's result: {player: {figure: number}}.
    round_figures: Callable[[Any], Mapping[str, Mapping[str, int]]] | None = None
    # "Can I knock?" (Gin): (cards, knock limit) → the hand's best melds and deadwood, gin,
    # and whether it may knock; a page of its own, tied to no game.
    knock_advice: Callable[[Sequence[Any], int], dict[str, Any]] | None = None
    # The total that ends the game, as a chart of the running totals draws it: (total,
    # what it is: "target", or "elimination" where a player above it is out); None: none.
    ending_total: Callable[[Mapping[str, Any]], tuple[int, str] | None] = _target_total
    recording = ""  # LOG or COUNT, said by the subclass

    def __post_init__(self) -> None:
        unknown = set(self.card_stats) - set(CARD_STATS)
        if unknown:
            raise ValueError(f"{self.key}: unknown card-level records {sorted(unknown)}")


@dataclass(frozen=True, kw_only=True)
class LogVariant(Variant):
    """A game whose rounds are logs of plays (docs/game-file.md, "a log of plays").

    The game file's round holds ``events`` (of the types ``events``), optionally lists of
    players by name (``round_lists``, e.g. who reneged) and, once over, ``hands``.
    ``new_round(players, rules, teams)`` makes the empty table the events are applied to
    (a :class:`~scorekeeper.games.contract.LogRound`, an ``AceRound`` where aces are
    played); ``score_round(round, hands, lists)`` scores it, hands None while it is being
    played (a ``contract.RoundResult``); ``standing(players, rules, totals, teams)`` says
    (over, winners, tied).

    The table screen logs ``table_plays``: the events, and plays the game file does not
    record (a pass; the discard pile taken; ``round_enders``, which end the round without
    an event, such as the stock running out). ``check_plays(rows, rules)`` checks the
    order of a round's plays that only the table sees; rows have ``type``, ``player``
    and ``cards``. After a play of ``sits_out`` its player is out of the round (Robber's
    renege): the turn passes them by and their hand is not asked for. Where aces go face
    up (an ``ace`` event, :attr:`aces_face_up`) and playable cards cost extra
    (``playable_penalty``), the pages show it.
    """

    new_round: NewRound
    score_round: ScoreRound
    standing: Standing
    events: tuple[str, ...] = ("meld", "layoff", "out")
    round_lists: tuple[str, ...] = ()
    table_plays: tuple[str, ...] = ("meld", "layoff", "out", "pass")
    round_enders: tuple[str, ...] = ()
    sits_out: tuple[str, ...] = ()
    check_plays: Callable[[Sequence[Any], Mapping[str, Any]], None] | None = None
    how_rounds_end: Say = Say("someone goes out")  # for "the round is not over yet: …"
    edits: bool = False  # a play logged earlier can be changed, not only deleted
    # Iceberg: cards left in hand that could still have been played cost extra (a round's
    # results say how they would have been played); the pages show it where it is so.
    playable_penalty: bool = False
    # What a play would score, as a phone offline adds it up (games/worth.py): a new meld
    # (given a round: its players, rules and partners) and a lay-off on each meld of a
    # round, in order (given its lists); None: the page says it does not know.
    worth_new: Callable[[Any], Worth] | None = None
    worth_melds: Callable[[Any, Mapping[str, Sequence[str]]], Sequence[Worth]] | None = None
    recording = LOG

    def changes(self, kind: str) -> bool:
        """A play of this kind, logged earlier, can be changed (its player, cards, meld),
        not only deleted: one of the game file's events, where the game allows edits."""
        return self.edits and kind in self.events

    @property
    def aces_face_up(self) -> bool:
        """Aces are put face up as plays of their own and never meld (Iceberg): the table
        has a button for each, and its card picker no aces."""
        return "ace" in self.events


@dataclass(frozen=True, kw_only=True)
class CountVariant(Variant):
    """A game whose rounds are entered when they end (docs/game-file.md, "Rounds counted at the end").

    ``new_game(players, rules)`` keeps the running totals (a
    :class:`~scorekeeper.games.handcount.CountedGame`, whose ``play(HandRound)`` scores a
    round); the decks: ``decks`` standard decks, ``jokers`` jokers, without the cards of
    ``without_ranks``. How a round may end: ``ender`` ("out", or "knock" in Gin) or a
    stalemate; ``rummy_bonus``: going out "rummy" can be said; ``counts_hands``: the
    cards left in hands are entered (not in Conquian, where a hand is a stake).
    """

    new_game: type[CountedGame]
    decks: int = 1
    jokers: int = 0
    without_ranks: tuple[int, ...] = ()
    ender: str = "out"
    rummy_bonus: bool = False
    counts_hands: bool = True
    # How many cards each hand holds when the round ends, where the rules fix it (Gin: 10),
    # by the number of players: the hand entry counts "7 of 10 cards". None: any number.
    hand_size: Callable[[int], int] | None = None
    # Words for the round-end screen: its question, and what a form that does not answer
    # it is told (how the round ended; who ended it).
    who_ended: Say = Say("Who went out?")
    say_how: Say = Say("say how the round ended: who went out, or a stalemate")
    say_who: Say = Say("say who went out")
    how_to_enter: Say = Say("say who went out and pick the cards left in the other hands")
    stalemate_choice: Say = Say("Stalemate: no one went out (no score)")
    goal: Callable[[Mapping[str, Any]], Say | None] = _unsaid  # how the game is won, with its numbers
    how_won: Callable[[Mapping[str, Any]], Say | None] = _unsaid  # why the winner won; None: "highest total"
    # What the round to enter is worth, read from the game as it stands (its CountedGame's
    # carry()): Conquian's stake after tableaus. None: nothing to say.
    round_note: Callable[[Mapping[str, Any]], Say | SayN | None] = _unsaid
    recording = COUNT

    def deck(self) -> Counter[Card]:
        """How many copies of each card the game's decks hold (its jokers included)."""
        return full_deck(self.decks, self.jokers, self.without_ranks)
