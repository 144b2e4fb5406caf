"""Command line: ``rummy-solver solve ...`` and ``rummy-solver serve ...``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from solver.cards import InvalidHandError, card_name
from solver.model import Solution
from solver.rules import PRESETS, InvalidRulesError
from solver.solve import ENGINES, solve


def format_solution(solution: Solution) -> str:
    """A readable multi-line report of a solution."""
    lines = [f"variant {solution.variant}: {solution.status} ({solution.engine})"]
    for meld in solution.melds:
        cards = " ".join(card_name(c) for c in meld.cards)
        wilds = [
            f"{card_name(c)}={card_name(r)}"
            for c, r in zip(meld.cards, meld.represents, strict=True) if c != r
        ]
        note = f"  [{', '.join(wilds)}]" if wilds else ""
        pure = " pure" if meld.pure else ""
        lines.append(f"  {meld.kind:6}{pure:5} {cards}{note}  ({meld.points} pts)")
    dead = " ".join(card_name(c) for c in solution.deadwood) or "-"
    lines.append(f"  deadwood: {dead}")
    if solution.discard is not None:
        lines.append(f"  discard:  {card_name(solution.discard)}")
    lines.append(
        f"  deadwood points {solution.deadwood_points}, meld points {solution.meld_points}, "
        f"net {solution.net_points}, pays {solution.penalty_points}, "
        f"declarable {'yes' if solution.declarable else 'no'}"
    )
    return "\n".join(lines)


def _solve_command(args: argparse.Namespace) -> int:
    try:
        rules = json.loads(args.rules) if args.rules else None
        solution = solve(args.cards, args.variant, wild_rank=args.wild_rank,
                         discard=args.discard, rules=rules, engine=args.engine,
                         time_limit_ms=args.time_limit_ms)
    except (InvalidHandError, InvalidRulesError, json.JSONDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(solution.to_dict(), indent=2))
    else:
        print(format_solution(solution))
    return 0


def _serve_command(args: argparse.Namespace) -> int:
    # Imported here so the library never needs the web stack.
    from api.serve import serve

    return serve(args.host, args.port, args.workers, args.log_level)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests)."""
    parser = argparse.ArgumentParser(prog="rummy-solver", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    solve_parser = commands.add_parser("solve", help="solve one hand")
    solve_parser.add_argument("cards", nargs="*", help="cards such as AS 10H JK")
    solve_parser.add_argument("--variant", default="gin", choices=sorted(PRESETS))
    solve_parser.add_argument("--wild-rank", default=None, help="cut card: 7, 7H or JK")
    solve_parser.add_argument("--discard", action="store_true",
                              help="the hand holds one card more than is kept")
    solve_parser.add_argument("--rules", default=None, help='knob overrides as JSON')
    solve_parser.add_argument("--engine", default="auto", choices=ENGINES)
    solve_parser.add_argument("--time-limit-ms", type=int, default=None)
    solve_parser.add_argument("--json", action="store_true", help="print JSON")
    solve_parser.set_defaults(handler=_solve_command)

    serve_parser = commands.add_parser("serve", help="start the REST API (uvicorn)")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    serve_parser.add_argument("--log-level", default="info")
    serve_parser.set_defaults(handler=_serve_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rummy-solver`` console script."""
    args = build_parser().parse_args(argv)
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
