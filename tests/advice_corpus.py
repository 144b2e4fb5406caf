"""The recorded advice corpus: positions from arena games and the advisor's answers to them.

A redesign of the advisor keeps its behaviour when every recorded answer
comes back the same, byte for byte.  The corpus has two parts, recorded
apart:

* **positions** -- public states (``advise`` keyword arguments, the game's
  cards as tokens) taken from arena games of every game the advisor plays,
  at two to four players: the decisions an advisor met while playing
  against the arena's other bots.  Recorded once; they do not change when
  the advisor does.
* **answers** -- for each position, ``advise(...).to_dict()`` as JSON at the
  ``novice`` and ``standard`` levels, with a seed of the position's own and
  a deadline long enough that no answer is cut short (every recorded answer
  is ``complete``).  Re-recorded, in a commit that says why, when a change
  of behaviour is wanted.

``python -m tests.advice_corpus positions`` records the positions (minutes),
``python -m tests.advice_corpus answers`` the answers (tens of minutes on
two cores), ``python -m tests.advice_corpus check [--every N]`` compares
today's answers with the recorded ones and prints the first difference.
``tests/test_advice_corpus.py`` checks a sample in the default run and every
answer under ``--run-slow``.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "corpus" / "advice"
GAMES = ("gin", "indian13", "indian21", "rummy500", "rommy", "basic")
LEVELS = ("novice", "standard")
PER_TABLE = 110
"""Positions kept per game and table size (three table sizes: 330 a game;
gin has one table size and three kinds of play, see ``_gin_positions``)."""
ANSWER_DEADLINE_MS = 600_000
"""Long enough that no recorded answer is cut short by the clock."""
_SKIPPED = ("level", "seed", "time_limit_ms", "deadline")


def positions_path(game: str) -> Path:
    """The file of ``game``'s positions."""
    return CORPUS / f"{game}.positions.jsonl.gz"


def answers_path(game: str) -> Path:
    """The file of ``game``'s recorded answers."""
    return CORPUS / f"{game}.answers.jsonl.gz"


def _write_lines(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
    # mtime 0: the same rows give the same bytes
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.encode())


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The rows of a corpus file."""
    with gzip.open(path, "rt") as lines:
        return [json.loads(line) for line in lines]


# -- positions -------------------------------------------------------------------------
class _Recorder:
    """Stands in for ``solver.play.advise`` during arena games: records each
    call's state and answers it with the real advisor."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.calls: list[dict[str, Any]] = []

    def __call__(self, game: str = "gin", **kwargs: Any) -> Any:
        state = {k: v for k, v in kwargs.items() if k not in _SKIPPED}
        self.calls.append({"game": game, **json.loads(json.dumps(state))})
        return self.real(game, **kwargs)


def _recording(run: Callable[[], object]) -> list[dict[str, Any]]:
    import benchmarks.arena.core.cli  # noqa: F401 -- loads every game's players
    import solver.play

    recorder = _Recorder(solver.play.advise)
    # The arena's players import advise at their modules' top: the recorder
    # stands in for it in each module that holds it.
    callers = [module for name, module in sorted(sys.modules.items())
               if name.startswith("benchmarks.") and getattr(module, "advise", None) is recorder.real]
    for module in callers:
        setattr(module, "advise", recorder)  # noqa: B010
    try:
        run()
    finally:
        for module in callers:
            setattr(module, "advise", recorder.real)  # noqa: B010
    return recorder.calls


def _spread(calls: Sequence[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``count`` of ``calls`` spread evenly over them (all when fewer)."""
    if len(calls) <= count:
        return list(calls)
    return [calls[i * len(calls) // count] for i in range(count)]


def _gin_positions() -> list[dict[str, Any]]:
    from benchmarks.arena.gin.runner import run_arena

    rows: list[dict[str, Any]] = []
    for a, b, hands, matches in (("advisor", "eaai_simple", 14, 0),
                                 ("advisor_novice", "marjj_style", 14, 0),
                                 ("advisor", "greedy", 0, 2)):
        calls = _recording(functools.partial(run_arena, a, b, hands=hands, matches=matches,
                                             seed=404, cross_check=False, progress=None))
        rows += _spread(calls, PER_TABLE)
    return rows


def _rotated_positions(game: str) -> list[dict[str, Any]]:
    from benchmarks.arena.core.cli import ROTATED_GAMES

    lineups = {
        "indian13": (["advisor", "distance"], ["advisor", "greedy", "distance"],
                     ["advisor", "greedy", "distance", "advisor_novice"]),
        "indian21": (["advisor", "distance"], ["advisor", "greedy", "distance"],
                     ["advisor", "greedy", "distance", "advisor_novice"]),
    }.get(game, (["advisor", "greedy"], ["advisor", "greedy", "random"],
                 ["advisor", "greedy", "advisor_novice", "greedy"]))
    deals = {"indian13": 8, "indian21": 8, "rummy500": 2, "rommy": 3, "basic": 3}[game]
    run = ROTATED_GAMES[game].run
    rows: list[dict[str, Any]] = []
    for lineup in lineups:
        calls = _recording(functools.partial(run, lineup, deals, seed=404, progress=False))
        calls = [c for c in calls if c["game"] == game]
        rows += _spread(calls, PER_TABLE)
    return rows


def record_positions(games: Sequence[str]) -> None:
    """Play the arena games and write each game's positions."""
    for game in games:
        rows = _gin_positions() if game == "gin" else _rotated_positions(game)
        for index, row in enumerate(rows):
            row["id"] = index
        _write_lines(positions_path(game), rows)
        print(f"{game}: {len(rows)} positions", file=sys.stderr, flush=True)


# -- answers ---------------------------------------------------------------------------
def seed_of(position: dict[str, Any]) -> int:
    """The seed a position's answers are recorded with."""
    return 7919 * int(position["id"]) + 17


def answer(position: dict[str, Any], level: str) -> str:
    """Today's answer to ``position`` at ``level``, as recorded (JSON text)."""
    from solver.deadline import Deadline
    from solver.play import advise

    state = {k: v for k, v in position.items() if k not in ("id", "game")}
    advice = advise(position["game"], **state, level=level, seed=seed_of(position),
                    deadline=Deadline.after_ms(ANSWER_DEADLINE_MS))
    if not advice.complete:
        raise RuntimeError(f"{position['game']} position {position['id']} at {level} was cut "
                           "short: the corpus records complete answers only")
    return json.dumps(advice.to_dict(), separators=(",", ":"))


def _answers_of(position: dict[str, Any]) -> dict[str, Any]:
    return {"id": position["id"], **{level: answer(position, level) for level in LEVELS}}


def record_answers(games: Sequence[str], processes: int) -> None:
    """Answer every position of ``games`` at every level and write them."""
    for game in games:
        positions = read_lines(positions_path(game))
        with ProcessPoolExecutor(processes) as pool:
            rows = list(pool.map(_answers_of, positions, chunksize=4))
        _write_lines(answers_path(game), rows)
        print(f"{game}: {len(rows)} answers", file=sys.stderr, flush=True)


def corpus_cases(games: Sequence[str] = GAMES,
                 every: int = 1) -> Iterator[tuple[dict[str, Any], str, str]]:
    """``(position, level, recorded answer)`` of every ``every``-th position."""
    for game in games:
        positions = read_lines(positions_path(game))
        answers = {row["id"]: row for row in read_lines(answers_path(game))}
        for position in positions[::every]:
            for level in LEVELS:
                yield position, level, answers[position["id"]][level]


def _check_one(case: tuple[dict[str, Any], str, str]) -> str | None:
    position, level, recorded = case
    today = answer(position, level)
    if today == recorded:
        return None
    return (f"{position['game']} position {position['id']} at {level}:\n  recorded {recorded}\n"
            f"  today    {today}")


def check(games: Sequence[str], every: int, processes: int) -> int:
    """Compare today's answers with the recorded ones; the number that differ."""
    cases = list(corpus_cases(games, every))
    with ProcessPoolExecutor(processes) as pool:
        differences = [d for d in pool.map(_check_one, cases, chunksize=4) if d]
    for text in differences[:5]:
        print(text)
    print(f"{len(cases) - len(differences)} of {len(cases)} answers the same byte for byte")
    return len(differences)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m tests.advice_corpus")
    parser.add_argument("what", choices=["positions", "answers", "check"])
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    games = args.game or GAMES
    if args.what == "positions":
        record_positions(games)
    elif args.what == "answers":
        record_answers(games, args.processes)
    else:
        return 1 if check(games, args.every, args.processes) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
