"""``python -m benchmarks --arena``: the options, the run, the exit code.

Exit code 1 when a player made an illegal move or the referee disagreed
with OpenSpiel; never because of a result or a time.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from benchmarks.arena.players.registry import ENTRANTS


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options (``--seed`` and ``--json`` are the benchmark's own)."""
    group = parser.add_argument_group("arena (gin bots on mirrored deals; benchmarks/arena)")
    group.add_argument("--arena", action="store_true",
                       help="play gin hands and matches to 100 between two players, mirrored deals")
    group.add_argument("--a", default="greedy", choices=list(ENTRANTS), metavar="NAME",
                       help=f"player A (default greedy): {', '.join(ENTRANTS)}")
    group.add_argument("--b", default="openspiel_simple", choices=list(ENTRANTS), metavar="NAME",
                       help="player B (default openspiel_simple)")
    group.add_argument("--hands", type=int, default=200,
                       help="single hands to play, in mirrored pairs (default 200)")
    group.add_argument("--matches", type=int, default=0,
                       help="matches to 100 to play, in mirrored pairs (default 0)")
    group.add_argument("--no-cross-check", action="store_true",
                       help="do not shadow every hand in OpenSpiel (it still follows hands "
                            "OpenSpiel's bot plays)")


def arena_problems(results: dict[str, Any]) -> list[str]:
    """What makes the run fail: illegal moves and referee disagreements."""
    problems = list(results["violations"])
    check = results.get("cross_check")
    if check is not None and check["disagreements"]:
        problems.append(f"{check['disagreements']} referee/OpenSpiel disagreement(s): "
                        + "; ".join(check["disagreement_examples"][:2]))
    return problems


def run_arena_command(args: argparse.Namespace) -> int:
    """Run the arena as the options say; print the report; the exit code."""
    from benchmarks.arena.openspiel_shadow import OpenSpielMissingError
    from benchmarks.arena.report import render, write_json
    from benchmarks.arena.runner import run_arena

    if args.hands < 0 or args.matches < 0 or args.hands + args.matches == 0:
        print("error: --hands and --matches must be >= 0, and one of them > 0", file=sys.stderr)
        return 2
    try:
        results = run_arena(args.a, args.b, hands=args.hands, matches=args.matches, seed=args.seed,
                            cross_check=not args.no_cross_check)
    except OpenSpielMissingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(render(results))
    if args.json:
        write_json(results, args.json)
    problems = arena_problems(results)
    for problem in problems:
        print(f"CORRECTNESS: {problem}", file=sys.stderr)
    return 1 if problems else 0
