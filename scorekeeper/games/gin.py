"""Gin Rummy (docs/rules/gin.md; Nikki Katz's guide with the common published tables).

Two players, ten cards each, one deck, ace low only (A-2-3, never Q-K-A). Deadwood:
ace 1, pips face value, J Q K 10. A player may knock with deadwood of at most
``knock_limit``; gin is no deadwood at all. The program arranges each hand's melds for
the least deadwood; after a knock (not gin) the defender lays off deadwood onto the
knocker's melds, the defender's own melds and lay-offs chosen for the least deadwood
left; of the knocker's least-deadwood arrangements the one that leaves the defender the
most deadwood is taken (a knocker lays down what serves them best).

Knocker lower: the knocker scores the difference. Undercut (defender equal or lower, no gin):
the defender scores the difference + ``undercut_bonus``. Gin: the defender's deadwood +
``gin_bonus``, never undercut. Game to ``target``: the winner gets ``game_bonus``; a
shutout (the loser scored nothing) adds it again (``flat``) or doubles the winner's total
(``double``); each hand won is worth ``line_bonus`` at the end (not toward the target).
The winner is whoever has the most points after all the bonuses.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from .cards import Card, sort_key
from .errors import IllegalPlay
from .handcount import CountedGame, HandRound, RoundScore, ScoredRound
from .options import LARGEST, Option, RuleBook, Rules
from .variant import CountVariant
from .words import Cards, Say, SayN

NAME = Say("Gin Rummy")
MIN_PLAYERS, MAX_PLAYERS = 2, 2
DECKS, JOKERS = 1, 0
HAND_SIZE = 10
SOURCE = Say("Nikki Katz's guide and the common published tables")

PRESETS: dict[str, dict[str, int | str]] = {
    "classic": {"gin_bonus": 20, "undercut_bonus": 10, "line_bonus": 20, "shutout": "flat"},
    "modern": {"gin_bonus": 25, "undercut_bonus": 25, "line_bonus": 25, "shutout": "double"},
}


def _from_preset(name: str) -> Callable[[int, Mapping[str, Any]], int | str]:
    return lambda _players, rules: PRESETS[rules.get("preset", "classic")][name]


RULES = RuleBook(
    "gin",
    [
        Option("preset", "classic",
               Say("Classic: gin 20, undercut 10, line 20, a shutout adds the game bonus again; "
                   "modern: gin 25, undercut 25, line 25, a shutout doubles. Single options override it."),
               SOURCE, kind="choice", choices=("classic", "modern"), label=Say("Bonuses"),
               choice_labels=(Say("Classic"), Say("Modern"))),
        Option("knock_limit", 10, Say("Most deadwood a player may knock with."),
               Say("the published rule (the sources disagree)"), minimum=0, maximum=LARGEST,
               label=Say("Knock limit")),
        Option("gin_bonus", 20, Say("Bonus for going gin (modern: 25)."), SOURCE, minimum=0, maximum=LARGEST,
               default_for=_from_preset("gin_bonus"),
               default_text=Say("20 (classic), 25 (modern)"), label=Say("Gin bonus")),
        Option("undercut_bonus", 10, Say("Bonus to a defender who undercuts (modern: 25)."), SOURCE,
               minimum=0, maximum=LARGEST, default_for=_from_preset("undercut_bonus"),
               default_text=Say("10 (classic), 25 (modern)"), label=Say("Undercut bonus")),
        Option("line_bonus", 20, Say("Bonus per hand won, added at the end of the game (modern: 25)."),
               SOURCE, minimum=0, maximum=LARGEST, default_for=_from_preset("line_bonus"),
               default_text=Say("20 (classic), 25 (modern)"), label=Say("Line bonus")),
        Option("shutout", "flat",
               Say("The loser scored nothing: the game bonus is added again, or the winner's total is doubled."),
               SOURCE, kind="choice", choices=("flat", "double"), default_for=_from_preset("shutout"),
               label=Say("Shutout"), choice_labels=(Say("The game bonus again"), Say("Double the winner's total")),
               # the choices' words, not their names, on the pages (web/forms.py default_words)
               default_text=Say("%(flat)s (classic), %(double)s (modern)", flat="flat", double="double")),
        Option("game_bonus", 100, Say("Bonus to the player who reaches the target; the winner is whoever "
                   "has the most points after all the bonuses."), SOURCE, minimum=0, maximum=LARGEST,
               label=Say("Game bonus")),
        Option("target", 100, Say("The game ends when a player's hand points reach this."), SOURCE,
               minimum=1, maximum=LARGEST, label=Say("Target")),
    ],
)


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def deadwood_value(card: Card) -> int:
    return min(card.rank, 10)


# ---------------------------------------------------------------------------------------
# Melds and deadwood.


def possible_melds(cards: Sequence[Card]) -> list[int]:
    """Every meld in the hand as a bit mask over ``cards``: sets of 3–4, runs of 3+ (ace low)."""
    index = {c: i for i, c in enumerate(cards)}
    melds = []
    by_rank: dict[int, list[int]] = {}
    for c, i in index.items():
        by_rank.setdefault(c.rank, []).append(i)
    for members in by_rank.values():
        if len(members) >= 3:
            full = sum(1 << i for i in members)
            melds.append(full)
            if len(members) == 4:
                melds.extend(full & ~(1 << i) for i in members)
    for suit in "SHDC":
        for low in range(1, 12):
            if Card(low, suit) not in index:
                continue
            mask = 0
            for high in range(low, 14):
                card = Card(high, suit)
                if card not in index:
                    break
                mask |= 1 << index[card]
                if high - low >= 2:
                    melds.append(mask)
    return melds


def _arrangements(cards: tuple[Card, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """(least deadwood, every meld arrangement reaching it as tuples of masks)."""
    values = [deadwood_value(c) for c in cards]
    melds = possible_melds(cards)
    with_lowest: dict[int, list[int]] = {}
    for m in melds:
        with_lowest.setdefault((m & -m).bit_length() - 1, []).append(m)
    memo: dict[int, tuple[int, list[tuple[int, ...]]]] = {}

    def solve(mask: int) -> tuple[int, list[tuple[int, ...]]]:
        if mask == 0:
            return 0, [()]
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        best, ways = solve(mask & (mask - 1))
        best += values[low]
        ways = list(ways)
        for m in with_lowest.get(low, ()):
            if m & mask == m:
                dw, sub = solve(mask & ~m)
                if dw < best:
                    best, ways = dw, [(m,) + s for s in sub]
                elif dw == best:
                    ways += [(m,) + s for s in sub]
        memo[mask] = (best, ways)
        return memo[mask]

    best, ways = solve((1 << len(cards)) - 1)
    return best, tuple(tuple(w) for w in ways)


# The fast count: a meld arrangement is some sets (only ranks with 3 or 4 cards can give
# one) plus, in each suit, the best runs among the cards the sets left. The best runs of
# every possible suit (13 bits, ace = bit 0) are worked out once, as points melded.


def _run_table() -> list[int]:
    """RUNS[mask]: the most deadwood points runs can meld from the ranks in ``mask``."""
    size = 1 << 13
    table = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1  # the lowest rank left: unused, or a run's start
        best = table[mask & (mask - 1)]
        run, value, rank = 0, 0, low
        while rank < 13 and mask >> rank & 1:
            run |= 1 << rank
            value += min(rank + 1, 10)
            if rank - low >= 2:
                best = max(best, value + table[mask & ~run])
            rank += 1
        table[mask] = best
    return table


RUNS = _run_table()
_SUIT_SHIFT = {"S": 0, "H": 13, "D": 26, "C": 39}


def least_deadwood(cards: Sequence[Card]) -> int:
    """The hand's least deadwood (the same as every best arrangement's), quickly."""
    total = hand = 0
    counts = [0] * 14
    for card in cards:
        rank = card.rank
        hand |= 1 << (_SUIT_SHIFT[card.suit] + rank - 1)
        total += rank if rank < 10 else 10
        counts[rank] += 1
    if max(counts) < 3:  # no set possible: each suit's best runs
        return total - (RUNS[hand & 0x1FFF] + RUNS[hand >> 13 & 0x1FFF]
                        + RUNS[hand >> 26 & 0x1FFF] + RUNS[hand >> 39 & 0x1FFF])
    choices = []  # per rank with 3+ cards: (the cards taken as a set, their points)
    for rank, n in enumerate(counts):
        if n >= 3:
            bits = [b for b in (1 << (rank - 1 + shift) for shift in (0, 13, 26, 39)) if hand & b]
            points = rank if rank < 10 else 10
            full = sum(bits)
            options = [(0, 0), (full, points * n)]
            if n == 4:
                options += [(full & ~b, points * 3) for b in bits]
            choices.append(options)
    best = 0
    for picked in product(*choices):
        used = points = 0
        for taken, value in picked:
            used |= taken
            points += value
        left = hand & ~used
        points += (RUNS[left & 0x1FFF] + RUNS[left >> 13 & 0x1FFF]
                   + RUNS[left >> 26 & 0x1FFF] + RUNS[left >> 39 & 0x1FFF])
        if points > best:
            best = points
    return total - best


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    layoffs: tuple[tuple[Card, int], ...] = ()  # defender: (card, index of knocker meld)

    @property
    def points(self) -> int:
        return sum(deadwood_value(c) for c in self.deadwood)


def _cards_of(mask: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(c for i, c in enumerate(cards) if mask >> i & 1)


def best_arrangements(cards: Sequence[Card]) -> list[Arrangement]:
    """Every arrangement of the hand with the least deadwood."""
    cards = tuple(sorted(cards, key=sort_key))
    _best, ways = _arrangements(cards)
    result = []
    for way in ways:
        used = 0
        for m in way:
            used |= m
        result.append(Arrangement(
            tuple(_cards_of(m, cards) for m in way),
            tuple(c for i, c in enumerate(cards) if not used >> i & 1),
        ))
    return result


def _meld_masks_disjoint(cards: tuple[Card, ...]) -> list[tuple[int, ...]]:
    """Every choice of disjoint melds (including none) as tuples of masks."""
    melds = possible_melds(cards)
    out: list[tuple[int, ...]] = []

    def pick(start: int, used: int, chosen: list[int]) -> None:
        out.append(tuple(chosen))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                chosen.append(melds[i])
                pick(i + 1, used | melds[i], chosen)
                chosen.pop()

    pick(0, 0, [])
    return out


def lay_offs(rest: Sequence[Card], knocker_melds: Sequence[Sequence[Card]]) -> list[tuple[Card, int]]:
    """The defender's cards that fit the knocker's melds, chains included.

    Runs are grown first, as far as the cards reach at either end: a card that would
    fit a set too may be what lets the next card onto the run. Then sets take the rest.
    """
    left = set(rest)
    placed: list[tuple[Card, int]] = []
    runs = [(i, list(m)) for i, m in enumerate(knocker_melds) if len({c.rank for c in m}) > 1]
    sets = [(i, list(m)) for i, m in enumerate(knocker_melds) if len({c.rank for c in m}) == 1]
    changed = True
    while changed:
        changed = False
        for i, meld in runs:
            suit = meld[0].suit
            for card in (Card(min(c.rank for c in meld) - 1, suit), Card(max(c.rank for c in meld) + 1, suit)):
                if card in left:
                    left.discard(card)
                    meld.append(card)
                    placed.append((card, i))
                    changed = True
    for i, meld in sets:
        for card in sorted((c for c in left if c.rank == meld[0].rank), key=sort_key):
            left.discard(card)
            placed.append((card, i))
    return placed


def defend(cards: Sequence[Card], knocker_melds: Sequence[Sequence[Card]], may_lay_off: bool) -> Arrangement:
    """The defender's melds and lay-offs that leave the least deadwood."""
    cards = tuple(sorted(cards, key=sort_key))
    best: Arrangement | None = None
    for way in _meld_masks_disjoint(cards):
        used = 0
        for m in way:
            used |= m
        rest = [c for i, c in enumerate(cards) if not used >> i & 1]
        placed = lay_offs(rest, knocker_melds) if may_lay_off else []
        gone = {c for c, _ in placed}
        arrangement = Arrangement(
            tuple(_cards_of(m, cards) for m in way),
            tuple(c for c in rest if c not in gone),
            tuple(placed),
        )
        if best is None or arrangement.points < best.points:
            best = arrangement
    assert best is not None  # the choices start with no melds at all
    return best


# ---------------------------------------------------------------------------------------
# A hand and the game.


@dataclass(frozen=True)
class HandResult:
    knocker: str
    defender: str
    knock: Arrangement
    defence: Arrangement
    gin: bool
    undercut: bool
    winner: str
    points: int


def score_hand(knocker: str, defender: str, knock_cards: Sequence[Card], defend_cards: Sequence[Card],
               rules: Mapping[str, Any]) -> HandResult:
    """A knock: arrange both hands, lay off, and score (docs/rules/gin.md)."""
    options = best_arrangements(knock_cards)
    if options[0].points > rules["knock_limit"]:
        raise IllegalPlay(Say("%(player)s cannot knock with %(points)s in deadwood (%(cards)s): the knock "
                              "limit is %(limit)s", player=knocker, points=options[0].points,
                              cards=Cards(options[0].deadwood), limit=rules["knock_limit"]))
    gin = options[0].points == 0
    # Of the knocker's least-deadwood arrangements, the one that leaves the defender the most
    # deadwood after lay-offs (docs/rules/gin.md).
    pairs = [(a, defend(defend_cards, a.melds, not gin)) for a in options]
    knock, defence = max(pairs, key=lambda p: p[1].points)
    k, d = knock.points, defence.points
    if gin:
        return HandResult(knocker, defender, knock, defence, True, False, knocker, d + rules["gin_bonus"])
    if k < d:
        return HandResult(knocker, defender, knock, defence, False, False, knocker, d - k)
    return HandResult(knocker, defender, knock, defence, False, True, defender, k - d + rules["undercut_bonus"])


def describe_arrangement(a: Arrangement, knocker_melds: Sequence[Sequence[Card]] | None = None) -> list[Say]:
    """A hand's melds, lay-offs and deadwood, line by line."""
    lines = [Say("meld %(cards)s", cards=Cards(m)) for m in a.melds]
    for card, i in a.layoffs:
        assert knocker_melds is not None  # a defence's lay-offs come with the knocker's melds
        lines.append(Say("%(card)s laid off on %(meld)s", card=card, meld=Cards(knocker_melds[i])))
    if a.deadwood:
        lines.append(Say("deadwood %(cards)s = %(points)s", cards=Cards(a.deadwood), points=a.points))
    else:
        lines.append(Say("deadwood none = %(points)s", points=a.points))
    return lines


class Game(CountedGame):
    CARRIED = ("hands_won",)

    def __init__(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        super().__init__(players, rules)
        self.hands_won = {p: 0 for p in players}

    def play(self, rnd: HandRound) -> RoundScore:
        if rnd.out:
            raise IllegalPlay(Say("a Gin hand ends with a knock: say who knocked (\"knocker\")"))
        if rnd.stalemate and rnd.knocker:
            raise IllegalPlay(Say("a stalemate hand has no knock"))
        scores = {p: 0 for p in self.players}
        if rnd.stalemate or not rnd.knocker:
            said = (Say("stalemate: no knock before the stock ran down; no score") if rnd.stalemate
                    else Say("in progress"))
            return RoundScore(scores, {p: {"story": [str(said)]} for p in self.players},
                              words=Say("void hand (no knock)") if rnd.stalemate else None,
                              stories={p: [said] for p in self.players})
        knocker = rnd.knocker
        defender = next(p for p in self.players if p != knocker)
        for p in self.players:
            if len(rnd.hand(p)) != HAND_SIZE:
                raise IllegalPlay(SayN("%(player)s's hand has %(num)s card; a Gin hand has %(size)s",
                                       "%(player)s's hand has %(num)s cards; a Gin hand has %(size)s",
                                       len(rnd.hand(p)), player=p, size=HAND_SIZE))
        result = score_hand(knocker, defender, rnd.hand(knocker), rnd.hand(defender), self.rules)
        scores[result.winner] = result.points
        self.add(scores)
        self.hands_won[result.winner] += 1
        if max(self.totals.values()) >= self.rules["target"]:
            self.over = True
            final = self.final_totals()
            top = max(final.values())
            self.winners = [p for p in self.players if final[p] == top]
        how = "gin" if result.gin else ("undercut" if result.undercut else "knock")
        k, d = result.knock.points, result.defence.points
        if how == "gin":
            summary = Say("gin: %(deadwood)s + gin bonus %(bonus)s = %(points)s to %(player)s", deadwood=d,
                          bonus=self.rules["gin_bonus"], points=result.points, player=knocker)
            words = Say("%(player)s went gin", player=knocker)
        elif how == "undercut":
            summary = Say("undercut: %(knocker_deadwood)s − %(deadwood)s + undercut bonus %(bonus)s = "
                          "%(points)s to %(player)s", knocker_deadwood=k, deadwood=d,
                          bonus=self.rules["undercut_bonus"], points=result.points, player=defender)
            words = Say("%(knocker)s knocked, %(defender)s undercut", knocker=knocker, defender=defender)
        else:
            summary = Say("knock: %(deadwood)s − %(knocker_deadwood)s = %(points)s to %(player)s", deadwood=d,
                          knocker_deadwood=k, points=result.points, player=knocker)
            words = Say("%(player)s knocked", player=knocker)
        stories = {knocker: describe_arrangement(result.knock) + [summary],
                   defender: describe_arrangement(result.defence, result.knock.melds) + [summary]}
        detail = {
            knocker: {
                "role": "knocker",
                "melds": [[str(c) for c in m] for m in result.knock.melds],
                "deadwood": [str(c) for c in result.knock.deadwood],
                "deadwood_points": k,
                "story": [str(line) for line in stories[knocker]],
            },
            defender: {
                "role": "defender",
                "melds": [[str(c) for c in m] for m in result.defence.melds],
                "layoffs": [{"card": str(c), "onto": [str(x) for x in result.knock.melds[i]]}
                            for c, i in result.defence.layoffs],
                "deadwood": [str(c) for c in result.defence.deadwood],
                "deadwood_points": d,
                "story": [str(line) for line in stories[defender]],
            },
        }
        for p in self.players:
            detail[p]["score"] = scores[p]
        return RoundScore(scores, detail, words=words, how=how, stories=stories)

    def final_totals(self) -> dict[str, int]:
        """Hand points, and once the game is over its bonuses (docs/rules/gin.md: not toward the target)."""
        return {p: self.totals[p] + sum(points for _name, points in given)
                for p, given in self.bonuses().items()}

    def bonuses(self) -> dict[str, list[tuple[str, int]]]:
        """Once a player's hand points reach the target, the bonuses each player gets, by
        name, only those worth something: "lines" (``line_bonus`` per hand won), and for
        the winner "game" (``game_bonus``) and "shutout" when the loser scored nothing
        (``game_bonus`` again, or the winner's total doubled)."""
        given: dict[str, list[tuple[str, int]]] = {p: [] for p in self.players}
        if not (self.over or max(self.totals.values()) >= self.rules["target"]):
            return given
        winner = max(self.players, key=lambda p: self.totals[p])
        loser = next(p for p in self.players if p != winner)
        for p in self.players:
            if self.rules["line_bonus"] * self.hands_won[p]:
                given[p].append(("lines", self.rules["line_bonus"] * self.hands_won[p]))
        if self.rules["game_bonus"]:
            given[winner].insert(0, ("game", self.rules["game_bonus"]))
        if self.totals[loser] == 0:
            if self.rules["shutout"] == "flat":
                extra = self.rules["game_bonus"]
            else:  # double: the winner's total, bonuses included, once more
                extra = self.totals[winner] + sum(points for _name, points in given[winner])
            if extra:
                given[winner].insert(1 if self.rules["game_bonus"] else 0, ("shutout", extra))
        return given


# ---------------------------------------------------------------------------------------
# "Can I knock?": a hand's best melds and deadwood, tied to no game.


def knock_advice(cards: Sequence[Card], limit: int) -> dict[str, Any]:
    """What a hand of 10 (or 11, before the discard) may do: its best melds and deadwood,
    gin, and whether it may knock at ``limit``. With 11 cards, the discard that leaves the
    least deadwood is found first (of those, the highest card)."""
    twice = [c for c in dict.fromkeys(cards) if cards.count(c) > 1]
    if twice:
        raise IllegalPlay(Say("%(card)s is picked twice, but one deck has one %(card)s", card=twice[0]))
    if any(c.is_joker for c in cards):
        raise IllegalPlay(Say("Gin is played without jokers"))
    if len(cards) not in (HAND_SIZE, HAND_SIZE + 1):
        raise IllegalPlay(SayN("pick the %(size)s cards of the hand (or %(more)s, before the discard): "
                               "%(num)s picked",
                               "pick the %(size)s cards of the hand (or %(more)s, before the discard): "
                               "%(num)s picked",
                               len(cards), size=HAND_SIZE, more=HAND_SIZE + 1))
    cards = list(cards)
    discard: Card | None = None
    if len(cards) == HAND_SIZE + 1:
        discard = min(cards, key=lambda c: (least_deadwood([x for x in cards if x != c]),
                                            -deadwood_value(c)))
        cards = [c for c in cards if c != discard]
    best = best_arrangements(cards)[0]
    return {"melds": [[str(c) for c in m] for m in best.melds],
            "deadwood": [str(c) for c in best.deadwood], "points": best.points,
            "discard": str(discard) if discard else None, "limit": limit,
            "gin": best.points == 0, "may_knock": best.points <= limit}


def goal(rules: Mapping[str, Any]) -> Say:
    """How the game is won, in a sentence, with this game's numbers."""
    values = dict(gin=rules["gin_bonus"], undercut=rules["undercut_bonus"], target=rules["target"],
                  game=rules["game_bonus"], line=rules["line_bonus"])
    if rules["shutout"] == "double":
        return Say("The knocker scores the difference (gin +%(gin)s, undercut +%(undercut)s to the "
                   "defender). First to %(target)s: game bonus %(game)s, line bonus %(line)s per hand "
                   "won, shutout double.", **values)
    return Say("The knocker scores the difference (gin +%(gin)s, undercut +%(undercut)s to the "
               "defender). First to %(target)s: game bonus %(game)s, line bonus %(line)s per hand "
               "won, shutout flat.", **values)


def round_facts(result: ScoredRound) -> dict[str, dict[str, int]]:
    """A hand's card-level records: a gin (the knocker had no deadwood) or an undercut (the
    defender had as little or less). ``result``: the hand as the game file scored it."""
    facts = {p: {"gins": 0, "undercuts": 0} for p in result.detail}
    roles = {d.get("role"): p for p, d in result.detail.items()}
    if result.how == "gin":
        facts[roles["knocker"]]["gins"] += 1
    elif result.how == "undercut":
        facts[roles["defender"]]["undercuts"] += 1
    return facts


VARIANT = CountVariant(
    key="gin",
    name=NAME,
    blurb=Say("Two players; knock at 10 or less, gin, undercuts and bonuses."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="hands",
    card_stats=("gins", "undercuts"),
    round_facts=round_facts,
    new_game=Game,
    decks=DECKS,
    jokers=JOKERS,
    ender="knock",
    hand_size=lambda _players: HAND_SIZE,
    who_ended=Say("Who knocked (or went gin)?"),
    say_how=Say("say how the round ended: who knocked (or went gin), or a stalemate"),
    say_who=Say("say who knocked (or went gin)"),
    how_to_enter=Say("say who knocked (or went gin) and pick both hands"),
    stalemate_choice=Say("No knock: the stock ran down (no score)"),
    goal=goal,
    knock_advice=knock_advice,
)
