"""The lay-down advisor's playout player against itself: how much one setting of
its numbers is worth in the playouts alone, before any arena run.

``python -m benchmarks.arena.laydown.fast_selfplay --game basic --rounds 4000
--field feed_care --values 10 30`` plays the fast player
(``solver.play.laydown.fast``) with each value against the fast player with
today's numbers, two players, on mirrored rounds (each deck dealt twice, the
seats swapped) of Rummy 500 or basic rummy, and prints the mean margin a
round with its 95 % interval. The margin is what the advisor's playouts
score: laid less hand points, mine less the other's (Rummy 500), or what
the player collects or pays (basic rummy, a rummy doubled).

A stronger playout player is not a stronger advisor: this measures the
model the search plays its futures with, and the arena measures the advisor
(``docs/experiments/laydown-feed-care.md``). Rommy (its pile penalty and its
closing throw) is not played here.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Sequence
from typing import Any

from benchmarks.arena.core.stats import MeanInterval, mean_interval
from solver.cards import JOKER
from solver.play.laydown.advisor import round_outcome, turn_over_pile
from solver.play.laydown.fast import FastPlayer, Spot
from solver.play.laydown.params import LAY_DOWN_PARAMS, LayDownParams
from solver.play.laydown.variant import VARIANTS

GAMES = ("rummy500", "basic")
MAX_TURNS = 300
"""Turns a round may last (then it scores 0 in basic rummy, as it stands in Rummy 500)."""


def _deck(game: str, rng: random.Random) -> list[int]:
    cards = list(range(52)) + ([JOKER, JOKER] if game == "rummy500" else [])
    rng.shuffle(cards)
    return cards


def play_round(game: str, players: Sequence[FastPlayer], deck: Sequence[int]) -> float:
    """One round of ``game`` between two fast players from ``deck`` (seat 0
    first); seat 0's margin."""
    variant = VARIANTS[game]
    size = variant.hand_size(2)
    hands = [list(deck[:size]), list(deck[size:2 * size])]
    pile, stock = [deck[2 * size]], list(deck[2 * size + 1:])
    table: list[Spot] = []
    laid, early = [0, 0], [False, False]
    seat, out = 0, None
    for _ in range(MAX_TURNS):
        player, hand = players[seat], hands[seat]
        depth = player.draw(hand, pile, table)
        keep = None
        if depth:
            taken = pile[len(pile) - depth:]
            del pile[len(pile) - depth:]
            hand.extend(taken)
            keep = taken[-1] if depth == 1 else None
        else:
            if not stock and not turn_over_pile(variant, stock, pile):
                break  # Rummy 500: the round ends
            hand.append(stock.pop())
        held, before = len(hand), early[seat]
        if not (variant.rummy_doubles and player.holds(hand, table, before)):
            laid[seat] += player.lay(hand, table)
        if len(hand) < held:
            early[seat] = True
        if hand and not (len(hand) == 1 and hand[0] == keep):
            card = player.throw(hand, keep, hands[1 - seat])
            hand.remove(card)
            pile.append(card)
            if not hand:
                early[seat] = before
        if not hand:
            out = seat
            break
        seat = 1 - seat
    margin, _ = round_outcome(variant, dict(enumerate(hands)), laid, early,
                              seat if out is None else out, 0, out is not None)
    return margin


def compare(game: str, tried: LayDownParams, today: LayDownParams, rounds: int,
            seed: int = 0) -> MeanInterval:
    """The tried numbers' mean margin a round against today's, over ``rounds``
    mirrored rounds (each deck played with either player first)."""
    values = VARIANTS[game].values
    deep = VARIANTS[game].deep_takes
    mine, theirs = FastPlayer(values, deep, tried), FastPlayer(values, deep, today)
    margins = []
    for index in range(rounds):
        deck = _deck(game, random.Random(seed * 1_000_003 + index))
        first = play_round(game, [mine, theirs], deck)
        second = play_round(game, [theirs, mine], deck)
        margins.append((first - second) / 2)
    return mean_interval(margins)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.arena.laydown.fast_selfplay",
        description="The lay-down playout player with other numbers against today's.")
    parser.add_argument("--game", choices=GAMES, default="basic")
    parser.add_argument("--rounds", type=int, default=2000, help="mirrored rounds (default 2000)")
    parser.add_argument("--field", default="feed_care",
                        help="a field of LayDownParams (default feed_care)")
    parser.add_argument("--values", type=int, nargs="+", required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.field not in {f.name for f in dataclasses.fields(LayDownParams)}:
        print(f"error: LayDownParams has no field {args.field!r}", file=sys.stderr)
        return 2
    if args.rounds < 2:
        print("error: --rounds must be at least 2", file=sys.stderr)
        return 2
    today = LAY_DOWN_PARAMS
    print(f"{args.game}: the fast player with {args.field} = value against today's "
          f"({getattr(today, args.field)}), {args.rounds} mirrored rounds, seed {args.seed}")
    for value in args.values:
        changes: dict[str, Any] = {args.field: value}
        figure = compare(args.game, dataclasses.replace(today, **changes), today, args.rounds,
                         args.seed)
        print(f"  {args.field} = {value}: {figure.text()} a round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
