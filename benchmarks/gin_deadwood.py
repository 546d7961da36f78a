"""Gin Rummy deadwood: scorekeeper's solver against RLCard's melding utilities.

docs/rules/gin.md: the program arranges each hand's melds for the least deadwood.
``scorekeeper.games.gin.least_deadwood`` does it with a precomputed table of the best
runs of every suit and a few set choices; RLCard (the ``rlcard`` package) enumerates
meld clusters (``melding.get_meld_clusters``) and counts each one's deadwood
(``utils.get_deadwood_count``). Both are run in the same process on the same hands:

- 10,000 random 10-card hands;
- 1,000 meld-rich hands, where sets and runs overlap (H7 H8 H9 with S7 D7 and S9 C9).

Every hand must get the same deadwood from both; the script stops with an error if
not. It prints the time per hand and the speed ratio on each set (target: at least 3×
faster on both). Run: ``make bench`` (installs rlcard) or
``.venv/bin/python benchmarks/gin_deadwood.py [--quick]``.
"""
from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.games.cards import Card  # noqa: E402
from scorekeeper.games.gin import least_deadwood  # noqa: E402

SEED = 20261122
TARGET = 3.0
RL_RANKS = "A23456789TJQK"


def random_hands(rng: random.Random, count: int) -> list[list[Card]]:
    deck = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]
    return [rng.sample(deck, 10) for _ in range(count)]


def meld_rich_hands(rng: random.Random, count: int) -> list[list[Card]]:
    """Hands built around a block of 3 ranks × 2–4 suits, where sets and runs overlap."""
    deck = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]
    hands = []
    for _ in range(count):
        low = rng.randint(1, 11)
        suits = rng.sample("SHDC", rng.randint(2, 4))
        block = [Card(rank, suit) for rank in range(low, low + 3) for suit in suits]
        hand = rng.sample(block, min(len(block), rng.randint(6, 9)))
        rest = [c for c in deck if c not in hand]
        hand += rng.sample(rest, 10 - len(hand))
        rng.shuffle(hand)
        hands.append(hand)
    return hands


def rlcard_solver():
    """RLCard's way: the least deadwood over its meld clusters (none: the whole hand)."""
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        sys.exit("rlcard is not installed: `make bench` installs it (.venv/bin/pip install rlcard)")

    def convert(hand: list[Card]):
        return [RLCard(card.suit, RL_RANKS[card.rank - 1]) for card in hand]

    def deadwood(hand) -> int:
        clusters = melding.get_meld_clusters(hand=hand)
        if not clusters:
            return utils.get_deadwood_count(hand=hand, meld_cluster=[])
        return min(utils.get_deadwood_count(hand=hand, meld_cluster=c) for c in clusters)

    return convert, deadwood


def timed(function, hands, repeat: int) -> tuple[list[int], float]:
    """(answers, seconds for the whole set): the fastest of ``repeat`` passes, GC off."""
    best = float("inf")
    answers: list[int] = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            answers = [function(hand) for hand in hands]
            best = min(best, time.perf_counter() - started)
        finally:
            gc.enable()
    return answers, best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1,000 and 100 hands")
    parser.add_argument("--repeat", type=int, default=3, help="passes per set, the fastest counts")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    sets = {
        "random 10-card hands": random_hands(rng, 1000 if args.quick else 10_000),
        "meld-rich hands": meld_rich_hands(rng, 100 if args.quick else 1000),
    }
    convert, rl_deadwood = rlcard_solver()
    import rlcard

    print(f"Gin deadwood benchmark — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"Python {platform.python_version()} on {platform.machine()}, rlcard {rlcard.__version__}, "
          f"seed {SEED}, each set timed as the fastest of {args.repeat} passes\n")
    print(f"{'hands':<22}{'count':>7}{'scorekeeper µs':>16}{'rlcard µs':>11}{'ratio':>8}")
    met = True
    for name, hands in sets.items():
        theirs_hands = [convert(h) for h in hands]
        ours, our_time = timed(least_deadwood, hands, args.repeat)
        theirs, their_time = timed(rl_deadwood, theirs_hands, args.repeat)
        for hand, a, b in zip(hands, ours, theirs):
            if a != b:
                print(f"DISAGREE on {' '.join(map(str, hand))}: scorekeeper {a}, rlcard {b}")
                return 1
        ratio = their_time / our_time
        met &= ratio >= TARGET
        print(f"{name:<22}{len(hands):>7}{our_time / len(hands) * 1e6:>16.2f}"
              f"{their_time / len(hands) * 1e6:>11.2f}{ratio:>7.1f}×")
    print("\nSame deadwood from both on every hand.")
    print(f"Target: at least {TARGET:g}× faster than RLCard on both sets: {'met' if met else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
