"""How fast an Indian rummy hand gets nearer a show: the race model's step chances, measured.

Two of the advisor's fast players (``solver.play.indian.policy.FastPolicy``)
play seeded two-player deals to a show or an empty stock; every turn adds,
under the distance the player's hand had before it drew, whether the turn
brought the hand nearer a declaration (by how many cards).  The mean per
distance is the chance ``solver.play.indian.race.STEP`` holds (measured on
``indian13``; the 21-card figures are about half as large at distances 1-3
but did not play better in the arena, see benchmarks/README.md)::

    python -m benchmarks.speed.indian_steps --game indian21 --deals 1000

A distance seen on fewer than ``FEW`` turns is printed but should not be
trusted.  Long deals where both players stay stuck near a show weigh
heavily, so a few hundred deals still vary by a few points.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from solver.cards import JOKER, card_name
from solver.play.indian.hands import IndianHands
from solver.play.indian.policy import FastPolicy
from solver.rules import make_deal, make_rules

MAX_ROUNDS = 60
"""Rounds a deal plays at most (two fast players rarely need 30)."""
FEW = 200
"""Turns under a distance below which its figure is noise."""


def measure(game: str, deals: int, seed: int = 1) -> dict[int, tuple[int, float]]:
    """Per distance before the draw: (turns seen, mean cards nearer that turn)."""
    rules = make_rules(game)
    rng = random.Random(seed)
    full = list(range(52)) * rules.decks + [JOKER] * rules.decks
    seen: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for _ in range(deals):
        deck = full[:]
        rng.shuffle(deck)
        cut = next(c for c in reversed(deck) if c != JOKER)
        deck.remove(cut)
        policy = FastPolicy(IndianHands(make_deal(rules, card_name(cut))))
        size = rules.hand_size
        hands = [deck[:size], deck[size:2 * size]]
        del deck[:2 * size]
        pile = [deck.pop()]
        _play(policy, hands, deck, pile, seen)
    return {d: (n, nearer / n) for d, (n, nearer) in sorted(seen.items())}


def _play(policy: FastPolicy, hands: list[list[int]], stock: list[int], pile: list[int],
          seen: dict[int, list[int]]) -> None:
    """One deal to a show or an empty stock, counted into ``seen``."""
    for _ in range(MAX_ROUNDS):
        for hand in hands:
            before = policy.packing(hand).distance
            taken: int | None = None
            if pile and policy.takes(hand, pile[-1]):
                card = taken = pile.pop()
            else:
                if not stock:
                    return
                card = stock.pop()
            hand.append(card)
            out, packing = policy.discard(hand, taken)
            seen[before][0] += 1
            if packing.distance == 0:
                seen[before][1] += before
                return
            hand.remove(out)
            pile.append(out)
            seen[before][1] += max(0, before - policy.packing(hand).distance)


def main(argv: list[str] | None = None) -> None:
    """Print the measured chances of one game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("indian13", "indian21"), default="indian13")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for distance, (turns, chance) in measure(args.game, args.deals, args.seed).items():
        note = "" if turns >= FEW else "  (few turns)"
        print(f"distance {distance}: {turns:6d} turns, {chance:.3f} cards nearer a turn{note}")


if __name__ == "__main__":
    main()
