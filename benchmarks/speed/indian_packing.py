"""How often the Indian advisor's packing search finds a hand's best packing within its node budget.

Random hands of the game's size and one more (seeded), each searched
without a limit (the reference) and then within the budget, first the way
the advisor searches (a plain depth-first search of ``PROBE_NODES``, then a
limited discrepancy search) and then as a plain depth-first search alone::

    python -m benchmarks.speed.indian_packing --game indian21 --hands 300 --nodes 2500

For each way it prints how many hands got the reference's distance and its
whole key (distance, pure gaps, loose points), and the mean time a hand.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from solver.cards import JOKER, card_name
from solver.play.indian.hands import IndianHands
from solver.rules import make_deal, make_rules

UNLIMITED = 10**9


@dataclass
class Tally:
    """One way of searching: hands with the best distance, with the best
    key, and the seconds spent."""

    distance: int = 0
    key: int = 0
    seconds: float = 0.0


def dealt(game: str, count: int, seed: int) -> list[tuple[IndianHands, list[int]]]:
    """``count`` seeded (evaluator, hand) pairs, every other hand one card over size."""
    rules = make_rules(game)
    rng = random.Random(seed)
    full = list(range(52)) * rules.decks + [JOKER] * rules.decks
    out = []
    for index in range(count):
        deck = full[:]
        rng.shuffle(deck)
        cut = next(c for c in deck if c != JOKER)
        hands = IndianHands(make_deal(rules, card_name(cut)))
        out.append((hands, deck[1:1 + rules.hand_size + index % 2]))
    return out


def measure(game: str, count: int, nodes: int, seed: int = 7) -> dict[str, Tally]:
    """The tallies of the advisor's search (``"discrepancy"``) and of the plain
    search (``"plain"``), both within ``nodes``, against the unlimited search.

    >>> tallies = measure("indian13", 4, 2500)
    >>> tallies["discrepancy"].key, tallies["plain"].key
    (4, 4)
    """
    tallies = {"discrepancy": Tally(), "plain": Tally()}
    for hands, hand in dealt(game, count, seed):
        best = hands.evaluate(hand, UNLIMITED).key()
        probe = hands.probe_nodes
        for name, tally in tallies.items():
            hands.probe_nodes = probe if name == "discrepancy" else UNLIMITED
            start = time.perf_counter()
            key = hands.evaluate(hand, nodes).key()
            tally.seconds += time.perf_counter() - start
            tally.distance += key[0] == best[0]
            tally.key += key == best
        hands.probe_nodes = probe
    return tallies


def main(argv: list[str] | None = None) -> None:
    """Print the tallies of one game and budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("indian13", "indian21"), default="indian21")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    for name, tally in measure(args.game, args.hands, args.nodes, args.seed).items():
        print(f"{name:12s} best distance {tally.distance}/{args.hands}, best key "
              f"{tally.key}/{args.hands}, {1000 * tally.seconds / args.hands:.2f} ms a hand")


if __name__ == "__main__":
    main()
