"""``python -m benchmarks --arena``: the options, the run, the exit code.

``--game gin`` (the default) plays gin hands and matches between two players
(``--a``, ``--b``); ``--game indian13`` plays Indian rummy deals between
``--players`` 2 to 4 (``--lineup``, else ``--a``, ``--b`` and then the
``INDIAN_FILL`` players), every deal once per rotation of the seats
(``benchmarks.arena.indian``; ``--game indian21`` the same for 21-card
Indian rummy); ``--game rummy500`` plays Rummy 500 rounds
the same way, 2 to 8 players (two decks from 5; default: 3 players, the
advisor and greedy fill-ins; ``benchmarks.arena.laydown``),
``--game rommy`` Rommy (Danish "500") rounds between 2 to 6 players, and
``--game basic`` basic rummy rounds between 2 to 6 players, both with the
same players and referee.

``--panel GAME`` plays the advisor against every bot of the held-out half of
the game's panel (``--half tuning``: the tuning half) on that half's seeds
(``benchmarks.arena.core.panels``; ``--seed`` defaults to the half's first)
and prints the table (``benchmarks.arena.core.panel_table``): ``--hands`` and
``--matches`` for gin (matches against the panel's match bots only),
``--deals`` for the others, two players.

``python -m benchmarks --tune GAME [--trials N] [--study NAME] [--resume]``
searches the game's parameters object on the tuning half of its panel and
reports the best numbers on the held-out half
(``benchmarks.arena.core.tuning``): ``--hands`` (gin) or ``--deals`` a
trial, ``--held-out-units`` the held-out hand pairs or deals, ``--seed`` a
tuning seed; it writes ``docs/experiments/tune-<GAME>-<STUDY>.md``.

``python -m benchmarks --ladder GAME [--players A,B,...] [--hands N | --deals N]
[--resume PATH]`` plays every pair of a lineup (the game's default:
``round_robin.LINEUPS``) on the same held-out deals and rates the players on
one Elo scale with bootstrap intervals (``benchmarks.arena.core.ladder``):
``--anchor`` the player at 0 (default random; ``mean``: the players' mean),
``--resume`` a run file that keeps finished pairings, ``--wins-by deal`` a
deal (gin: a mirrored pair) counted as one game won on its points,
``--order-by elo`` the players ordered by the Elo of hands won instead of
their points rating.

``--records PATH`` (``--arena``, ``--panel`` and ``--ladder``) writes every game played
as a recorded game, one JSON line each (``benchmarks.arena.core.records``;
docs/REVIEW.md), for ``rummy-solver bulk --op review_game`` and
``python -m benchmarks.speed.review_ordering``.

Exit code 1 when a player made an illegal move or a wrong declaration, or
the referee disagreed with OpenSpiel; never because of a result or a time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from benchmarks.arena.core.entrants import Entrant, check_names
from benchmarks.arena.core.ladder import ANCHOR, Pairing, build_ladder, by_units, render_ladder
from benchmarks.arena.core.panel_table import render_panel, run_panel
from benchmarks.arena.core.panels import (
    HALVES,
    HELD_OUT,
    HELD_OUT_SEEDS,
    PANELS,
    TUNING,
    check_seed,
    seeds_of,
)
from benchmarks.arena.core.records import Records, file_sink
from benchmarks.arena.core.report import Column, write_json
from benchmarks.arena.core.round_robin import (
    LINEUPS,
    SIZES,
    gin_units,
    rotated_units,
    run_round_robin,
    words_of,
)
from benchmarks.arena.core.trial import render_try, try_params
from benchmarks.arena.core.tuning import TuningSpec, run_study, write_experiment
from benchmarks.arena.gin.openspiel_shadow import OpenSpielMissingError
from benchmarks.arena.gin.players.registry import ENTRANTS
from benchmarks.arena.gin.players.registry import LABEL as GIN_LABEL
from benchmarks.arena.gin.report import render as render_gin
from benchmarks.arena.gin.runner import run_arena
from benchmarks.arena.gin.tuning import SPEC as GIN_TUNING
from benchmarks.arena.indian.players import ENTRANTS as INDIAN_ENTRANTS
from benchmarks.arena.indian.players import LABEL as INDIAN_LABEL
from benchmarks.arena.indian.report import COLUMNS as INDIAN_COLUMNS
from benchmarks.arena.indian.report import render as render_indian
from benchmarks.arena.indian.runner import run_indian21_arena, run_indian_arena
from benchmarks.arena.indian.tuning import SPECS as INDIAN_TUNING
from benchmarks.arena.laydown.players import ENTRANTS as RUMMY500_ENTRANTS
from benchmarks.arena.laydown.players import LABEL as RUMMY500_LABEL
from benchmarks.arena.laydown.report import COLUMNS as LAY_DOWN_COLUMNS
from benchmarks.arena.laydown.report import render as render_rummy500
from benchmarks.arena.laydown.runner import run_arena as run_lay_down_arena
from benchmarks.arena.laydown.runner import (
    run_basic_arena,
    run_rommy_arena,
    run_rummy500_arena,
)
from benchmarks.arena.laydown.tuning import SPECS as LAY_DOWN_TUNING
from benchmarks.arena.laydown.variants import BASIC, ROMMY, RUMMY500, Variant, with_house
from benchmarks.speed.suites import DEFAULT_SEED

INDIAN_DEFAULT = ("advisor", "greedy")
INDIAN_FILL = ("distance", "greedy", "advisor_nodrop")
"""Who fills the seats of an Indian table beyond ``--a`` and ``--b``."""
RUMMY500_DEFAULT = ("advisor", "greedy")
RUMMY500_FILL = ("greedy",) * (max(RUMMY500.seats) - 2)
"""Who fills the seats of a Rummy 500 table beyond ``--a`` and ``--b`` (up to eight)."""
RUMMY500_PLAYERS = 3
ROMMY_FILL = ("greedy", "greedy", "greedy", "greedy")
"""Who fills the seats of a Rommy (or basic rummy) table beyond ``--a`` and ``--b`` (up to six)."""


class RunRotated(Protocol):
    """A rotated-deal game's ``run_*_arena``."""

    def __call__(self, lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                 progress: bool = True, max_seconds: float | None = None,
                 records: Records = None) -> dict[str, Any]:
        """Play and sum up."""


@dataclass(frozen=True, slots=True)
class RotatedGame:
    """A game of rotated deals as the command line seats, runs and reports it."""

    label: str
    """The game as messages name it."""
    entrants: Mapping[str, Entrant[object]]
    default: tuple[str, str]
    """``--a`` and ``--b`` when not given."""
    fill: tuple[str, ...]
    """Who fills the seats beyond ``--a`` and ``--b``."""
    players: int
    """The table's size when ``--players`` is not given."""
    run: RunRotated
    render: Callable[[dict[str, Any]], str]
    seats: tuple[int, int] = (2, 4)
    """The fewest and the most players at a table."""
    variant: Variant | None = None
    """The lay-down games' rules (``--house`` changes them); None: no house rules."""
    columns: tuple[Column, ...] = ()
    """Each player's figures in the game's report (the panel's per-side table)."""

    def lineup(self, args: argparse.Namespace) -> list[str]:
        """The table the options ask for (``ValueError`` saying why not)."""
        low, high = self.seats
        if args.lineup or isinstance(args.players, tuple):
            lineup = list(args.players) if isinstance(args.players, tuple) else \
                [name.strip() for name in args.lineup.split(",") if name.strip()]
        else:
            players = self.players if args.players is None else args.players
            if not low <= players <= high:
                raise ValueError(f"--players must be {low} to {high}")
            lineup = [args.a or self.default[0], args.b or self.default[1], *self.fill][:players]
        if not low <= len(lineup) <= high:
            raise ValueError(f"{self.label} tables seat {low} to {high} players")
        unknown = [name for name in lineup if name not in self.entrants]
        if unknown:
            raise ValueError(f"unknown {self.label} player(s) {', '.join(unknown)}; known: "
                             f"{', '.join(self.entrants)}")
        return lineup


ROTATED_GAMES: dict[str, RotatedGame] = {
    "indian13": RotatedGame(INDIAN_LABEL, INDIAN_ENTRANTS, INDIAN_DEFAULT, INDIAN_FILL, 2,
                            run_indian_arena, render_indian, columns=INDIAN_COLUMNS),
    "indian21": RotatedGame(INDIAN_LABEL, INDIAN_ENTRANTS, INDIAN_DEFAULT, INDIAN_FILL, 2,
                            run_indian21_arena, render_indian, columns=INDIAN_COLUMNS),
    "rummy500": RotatedGame(RUMMY500_LABEL, RUMMY500_ENTRANTS, RUMMY500_DEFAULT,
                            RUMMY500_FILL, RUMMY500_PLAYERS, run_rummy500_arena, render_rummy500,
                            (min(RUMMY500.seats), max(RUMMY500.seats)), RUMMY500,
                            LAY_DOWN_COLUMNS),
    "rommy": RotatedGame(ROMMY.label, RUMMY500_ENTRANTS, RUMMY500_DEFAULT, ROMMY_FILL,
                         RUMMY500_PLAYERS, run_rommy_arena, render_rummy500,
                         (min(ROMMY.seats), max(ROMMY.seats)), ROMMY, LAY_DOWN_COLUMNS),
    "basic": RotatedGame(BASIC.label, RUMMY500_ENTRANTS, RUMMY500_DEFAULT, ROMMY_FILL,
                         RUMMY500_PLAYERS, run_basic_arena, render_rummy500,
                         (min(BASIC.seats), max(BASIC.seats)), BASIC, LAY_DOWN_COLUMNS),
}
TUNING_SPECS: dict[str, TuningSpec] = {"gin": GIN_TUNING, **INDIAN_TUNING, **LAY_DOWN_TUNING}
"""What ``--tune GAME`` plays and searches, by game (each game folder's ``tuning``)."""
ARENA_HANDS = 200
ARENA_DEALS = 100
"""``--hands`` and ``--deals`` when not given (``--tune``: the game's ``TuningSpec.units``)."""
indian_lineup = ROTATED_GAMES["indian13"].lineup
rummy500_lineup = ROTATED_GAMES["rummy500"].lineup
rommy_lineup = ROTATED_GAMES["rommy"].lineup
basic_lineup = ROTATED_GAMES["basic"].lineup


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options (``--seed`` and ``--json`` are the benchmark's own)."""
    group = parser.add_argument_group("arena (bots on mirrored or rotated deals; benchmarks/arena)")
    group.add_argument("--arena", action="store_true",
                       help="play gin hands and matches to 100 between two players, mirrored "
                            "deals (or, with --game indian13, indian21, rummy500, rommy or basic, "
                            "rotated deals)")
    group.add_argument("--game", default="gin", choices=["gin", *ROTATED_GAMES],
                       help="the game (default gin); rommy is Danish 500 and basic is basic "
                            "rummy (52 cards, the winner collects the other hands), both "
                            "played by the rummy500 players and referee")
    group.add_argument("--a", default=None, metavar="NAME",
                       help=f"player A (gin default greedy: {', '.join(ENTRANTS)}; indian13 "
                            f"default advisor: {', '.join(INDIAN_ENTRANTS)}; rummy500, rommy "
                            f"and basic default advisor: {', '.join(RUMMY500_ENTRANTS)})")
    group.add_argument("--b", default=None, metavar="NAME",
                       help="player B (gin default openspiel_simple; indian13, rummy500, rommy "
                            "and basic default greedy)")
    group.add_argument("--players", type=players_option, default=None, metavar="N|A,B,...",
                       help="indian13, rummy500, rommy and basic: players at the table, 2 to 4, "
                            "rummy500 2 to 8 (two decks from 5), rommy and basic 2 to 6 "
                            "(default 2; rummy500, rommy and basic "
                            f"{RUMMY500_PLAYERS}), or their names as --lineup; --ladder: the "
                            "players rated (default: the game's lineup)")
    group.add_argument("--house", default=None, metavar="JSON",
                       help="rummy500, rommy and basic: house rules as the rule book's knobs, "
                            "e.g. '{\"joker_points\": 25, \"ace\": \"low\"}' (the referee "
                            "plays them, the library's players are told them)")
    group.add_argument("--lineup", default=None, metavar="NAME,NAME,...",
                       help="indian13, rummy500, rommy and basic: every player at the table, "
                            "in place order (overrides --a, --b and --players)")
    group.add_argument("--deals", type=int, default=None,
                       help="indian13, rummy500, rommy and basic: deals, each played once per "
                            f"seat rotation (default {ARENA_DEALS}; --tune: a trial's)")
    group.add_argument("--workers", type=int, default=1,
                       help="processes playing hand pairs, match pairs or deals, shared out "
                            "in order: the same results as one (default 1)")
    group.add_argument("--max-minutes", type=float, default=None,
                       help="indian13, rummy500, rommy and basic: start no more deals after "
                            "this long; the report covers the deals played (as many as fit)")
    group.add_argument("--hands", type=int, default=None,
                       help=f"single hands to play, in mirrored pairs (default {ARENA_HANDS}; "
                            "--tune: a trial's)")
    group.add_argument("--matches", type=int, default=0,
                       help="matches to 100 to play, in mirrored pairs (default 0)")
    group.add_argument("--panel", default=None, metavar="GAME", choices=list(PANELS),
                       help="play the advisor against every bot of GAME's held-out panel on "
                            "held-out seeds and print the table (" + ", ".join(PANELS) + ")")
    group.add_argument("--half", default=None, choices=HALVES,
                       help="with --panel: the panel's half (default held_out); with --try: "
                            "the half played (default tuning)")
    tune = parser.add_argument_group("tuning (the advisor's numbers on the tuning half; "
                                     "benchmarks/arena/core/tuning.py)")
    tune.add_argument("--tune", default=None, metavar="GAME", choices=list(TUNING_SPECS),
                      help="search GAME's parameters object on the tuning half with Optuna, "
                           "report the best on the held-out half and write "
                           "docs/experiments/tune-<GAME>-<STUDY>.md (" + ", ".join(TUNING_SPECS)
                           + ")")
    tune.add_argument("--trials", type=int, default=25, help="trials of the study (default 25)")
    tune.add_argument("--study", default="study", metavar="NAME",
                      help="the study's name: benchmarks/results/tuning/GAME-NAME.db "
                           "(default study)")
    tune.add_argument("--resume", nargs="?", const=True, default=False, metavar="PATH",
                      help="go on with the study NAME (without: an existing study is refused); "
                           "--ladder: the run file PATH keeping finished pairings (created "
                           "when missing; a run plays only the pairings it lacks)")
    tune.add_argument("--try", dest="try_changes", nargs="+", default=None,
                      metavar="FIELD=VALUE",
                      help="with --tune GAME: play today's parameters and these changes on the "
                           "same units of --half (default tuning) and print their paired "
                           "difference, no study (benchmarks/arena/core/trial.py)")
    tune.add_argument("--held-out-units", type=int, default=None, metavar="N",
                      help="hand pairs (gin) or deals the best trial and today's numbers play "
                           "on the held-out half (default: a trial's)")
    group.add_argument("--records", default=None, metavar="PATH",
                       help="write every game played as a recorded game, one JSON line each "
                            "(docs/REVIEW.md; the file is emptied first)")
    ladder = parser.add_argument_group("ladder (every player of a game on one Elo scale; "
                                       "benchmarks/arena/core/ladder.py)")
    ladder.add_argument("--ladder", default=None, metavar="GAME", choices=list(LINEUPS),
                        help="play every pair of --players (default: the game's lineup) on the "
                             "same held-out deals (--hands for gin, --deals; default: "
                             + ", ".join(f"{game} {size}" for game, size in SIZES.items())
                             + ") and print the ladder (" + ", ".join(LINEUPS) + ")")
    ladder.add_argument("--anchor", default=ANCHOR, metavar="NAME",
                        help=f"--ladder: the player rated 0 (default {ANCHOR}; mean: the "
                             "players' mean)")
    ladder.add_argument("--order-by", default="points", choices=("points", "elo"),
                        help="--ladder: order the players by their points rating (default: "
                             "points per hand above the anchor) or by the Elo of hands won")
    ladder.add_argument("--wins-by", default="hand", choices=("hand", "deal"),
                        help="--ladder: count each hand (an Indian game, a lay-down round) as "
                             "one game, won by the side that scores more (default), or each "
                             "deal (gin: each mirrored pair), won on its points")
    group.add_argument("--no-cross-check", action="store_true",
                       help="do not shadow every hand in OpenSpiel (it still follows hands "
                            "OpenSpiel's bot plays)")


def players_option(text: str) -> int | tuple[str, ...]:
    """``--players``: a number of players, or their names (``a,b,c``)."""
    if text.strip().isdigit():
        return int(text)
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise ValueError(f"not a number or names: {text!r}")
    return names


def arena_problems(results: dict[str, Any]) -> list[str]:
    """What makes the run fail: illegal moves, wrong declarations (Indian
    rummy) and referee disagreements (gin)."""
    problems = list(results["violations"])
    if results.get("wrong_declarations"):
        problems.append(f"{results['wrong_declarations']} wrong declaration(s)")
    check = results.get("cross_check")
    if check is not None and check["disagreements"]:
        problems.append(f"{check['disagreements']} referee/OpenSpiel disagreement(s): "
                        + "; ".join(check["disagreement_examples"][:2]))
    return problems


def _report(results: dict[str, Any], render: Callable[[dict[str, Any]], str],
            args: argparse.Namespace) -> int:
    """Print the report, write the JSON, say what went wrong; the exit code."""
    print(render(results))
    if args.json:
        write_json(results, args.json)
    problems = arena_problems(results)
    for problem in problems:
        print(f"CORRECTNESS: {problem}", file=sys.stderr)
    return 1 if problems else 0


def _records(args: argparse.Namespace) -> Records:
    """``--records PATH``: a sink appending to the file, emptied now (None: no records)."""
    return None if args.records is None else file_sink(args.records)


def _house_variant(game: RotatedGame, house: str) -> Variant:
    """The game under ``--house``'s knobs (``ValueError`` saying why not)."""
    if game.variant is None:
        raise ValueError(f"{game.label} takes no house rules here (rummy500, rommy and basic do)")
    try:
        knobs = json.loads(house)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error}") from None
    if not isinstance(knobs, dict):
        raise ValueError("a JSON object of knobs, e.g. '{\"joker_points\": 25}'")
    return with_house(game.variant, knobs)


def run_rotated_command(args: argparse.Namespace, game: RotatedGame) -> int:
    """``--game indian13``, ``rummy500``, ``rommy`` or ``basic``: play, print, write JSON;
    the exit code."""
    try:
        lineup = game.lineup(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.deals < 1 or args.workers < 1:
        print("error: --deals and --workers must be at least 1", file=sys.stderr)
        return 2
    max_seconds = None if args.max_minutes is None else 60.0 * args.max_minutes
    if args.house is None:
        results = game.run(lineup, args.deals, seed=args.seed, workers=args.workers,
                           max_seconds=max_seconds, records=_records(args))
    else:
        try:
            variant = _house_variant(game, args.house)
        except ValueError as error:
            print(f"error: --house: {error}", file=sys.stderr)
            return 2
        results = run_lay_down_arena(variant, lineup, args.deals, seed=args.seed,
                                     workers=args.workers, max_seconds=max_seconds,
                                     records=_records(args))
    return _report(results, game.render, args)


def run_panel_command(args: argparse.Namespace) -> int:
    """``--panel GAME``: the advisor against every bot of one half; the exit code."""
    game = args.panel
    args.half = args.half or HELD_OUT
    args.hands = ARENA_HANDS if args.hands is None else args.hands
    args.deals = ARENA_DEALS if args.deals is None else args.deals
    seed = seeds_of(args.half).start if args.seed is None else args.seed
    try:
        check_seed(seed, args.half)
    except ValueError as error:
        print(f"error: --seed: {error}", file=sys.stderr)
        return 2
    if args.workers < 1 or args.deals < 1 or args.hands < 0 or args.matches < 0:
        print("error: --workers and --deals must be at least 1, --hands and --matches at "
              "least 0", file=sys.stderr)
        return 2
    rotated = ROTATED_GAMES.get(game)
    records = _records(args)

    def play_rotated(lineup: Sequence[str], deals: int, *, seed: int,
                     workers: int) -> dict[str, Any]:
        assert rotated is not None
        return rotated.run(lineup, deals, seed=seed, workers=workers, records=records)

    def play_gin(a: str, b: str, **options: Any) -> dict[str, Any]:
        return run_arena(a, b, records=records, **options)

    def describe(bot: str) -> str:
        entrants = ENTRANTS if rotated is None else rotated.entrants
        return entrants[bot].description

    try:
        results = run_panel(game, args.half, seed=seed, hands=args.hands, matches=args.matches,
                            deals=args.deals, workers=args.workers,
                            cross_check=not args.no_cross_check, play_gin=play_gin,
                            play_rotated=play_rotated, describe=describe,
                            progress=lambda line: print(line, file=sys.stderr, flush=True))
    except OpenSpielMissingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    columns = () if rotated is None else rotated.columns
    return _report(results, lambda data: render_panel(data, columns), args)


def run_tune_command(args: argparse.Namespace, argv: Sequence[str]) -> int:
    """``--tune GAME``: the study, the held-out comparison, the experiment file."""
    spec = TUNING_SPECS[args.tune]
    units = (None if args.hands is None else (args.hands + 1) // 2) if args.tune == "gin" \
        else args.deals
    if args.try_changes is not None:
        return run_try_command(args, spec, units)
    try:
        result = run_study(spec, study_name=args.study, trials=args.trials, resume=args.resume,
                           units=units, seed=args.seed, held_out_units=args.held_out_units,
                           workers=args.workers,
                           progress=lambda line: print(line, file=sys.stderr, flush=True))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    words = [word for word in argv if word != "--resume"]
    path = write_experiment(result, "python -m benchmarks " + " ".join(words))
    print(path.read_text(encoding="utf-8"))
    if args.json:
        write_json(result, args.json)
    print(f"wrote {path}", file=sys.stderr)
    return 0


def run_try_command(args: argparse.Namespace, spec: TuningSpec, units: int | None) -> int:
    """``--tune GAME --try FIELD=VALUE ...``: one change against today's numbers."""
    try:
        result = try_params(spec, args.try_changes, half=args.half or TUNING, units=units,
                            seed=args.seed, workers=args.workers,
                            progress=lambda line: print(line, file=sys.stderr, flush=True))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(render_try(result))
    if args.json:
        write_json(result, args.json)
    return 0


def run_arena_command(args: argparse.Namespace) -> int:
    """Run the arena as the options say; print the report; the exit code."""
    if args.panel is not None:
        return run_panel_command(args)
    args.hands = ARENA_HANDS if args.hands is None else args.hands
    args.deals = ARENA_DEALS if args.deals is None else args.deals
    if args.seed is None:
        args.seed = DEFAULT_SEED
    if args.game in ROTATED_GAMES:
        return run_rotated_command(args, ROTATED_GAMES[args.game])
    args.a = args.a or "greedy"
    args.b = args.b or "openspiel_simple"
    try:
        check_names(ENTRANTS, (args.a, args.b), GIN_LABEL)
    except KeyError as error:
        print(f"error: {error.args[0]}", file=sys.stderr)
        return 2
    if args.hands < 0 or args.matches < 0 or args.hands + args.matches == 0:
        print("error: --hands and --matches must be >= 0, and one of them > 0", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        results = run_arena(args.a, args.b, hands=args.hands, matches=args.matches, seed=args.seed,
                            cross_check=not args.no_cross_check, workers=args.workers,
                            records=_records(args))
    except OpenSpielMissingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return _report(results, render_gin, args)


def play_pairing(game: str, a: str, b: str, *, size: int, seed: int, workers: int = 1,
                 **options: Any) -> dict[str, Any]:
    """One pairing of a ladder: ``a`` against ``b`` through ``game``'s runner
    on ``size`` hands (gin, mirrored pairs, no OpenSpiel cross-check) or
    deals (two players, seats rotated) of ``seed``; ``options`` go to the
    runner unchanged."""
    if game == "gin":
        return run_arena(a, b, hands=size, seed=seed, cross_check=False, workers=workers,
                         progress=None, **options)
    run: Callable[..., dict[str, Any]] = ROTATED_GAMES[game].run
    return run([a, b], size, seed=seed, workers=workers, progress=False, **options)


def _ladder_lineup(args: argparse.Namespace) -> list[str]:
    """The players ``--ladder`` rates (``ValueError`` saying why not)."""
    game = args.ladder
    if isinstance(args.players, int):
        raise ValueError("--ladder takes the players' names: --players a,b,c")
    if isinstance(args.players, tuple):
        lineup = list(args.players)
    elif args.lineup:
        lineup = [name.strip() for name in args.lineup.split(",") if name.strip()]
    else:
        lineup = list(LINEUPS[game])
    entrants = ENTRANTS if game == "gin" else ROTATED_GAMES[game].entrants
    unknown = [name for name in lineup if name not in entrants]
    if unknown:
        raise ValueError(f"unknown {game} player(s) {', '.join(unknown)}; known: "
                         f"{', '.join(entrants)}")
    if len(set(lineup)) != len(lineup) or len(lineup) < 2:
        raise ValueError("a ladder needs two or more different players")
    if args.anchor != "mean" and args.anchor not in lineup:
        raise ValueError(f"the anchor {args.anchor} is not among the players (--anchor NAME "
                         "or mean)")
    return lineup


def _ladder_records(args: argparse.Namespace) -> Records:
    """``--records PATH`` of a ladder: emptied first, unless the run resumes
    (its finished pairings' records are already in it; appended)."""
    if args.records is None:
        return None
    if isinstance(args.resume, str) and Path(args.records).exists():
        return str(args.records)
    return file_sink(args.records)


def run_ladder_command(args: argparse.Namespace) -> int:
    """``--ladder GAME``: the round robin, the ladder's table and JSON; the exit code."""
    game = args.ladder
    size = args.hands if game == "gin" else args.deals
    size = SIZES[game] if size is None else size
    seed = HELD_OUT_SEEDS.start if args.seed is None else args.seed
    started = time.monotonic()
    try:
        lineup = _ladder_lineup(args)
        if size < 1 or args.workers < 1:
            raise ValueError("--hands, --deals and --workers must be at least 1")
        if args.resume is True:
            raise ValueError("--resume takes the run file's path with --ladder")
        if seed not in HELD_OUT_SEEDS:
            print(f"note: seed {seed} is not a held-out seed ({HELD_OUT_SEEDS.start}-"
                  f"{HELD_OUT_SEEDS.stop - 1})", file=sys.stderr)
        records = _ladder_records(args)
        robin = run_round_robin(
            game, lineup, size=size, seed=seed,
            play=lambda a, b: play_pairing(game, a, b, size=size, seed=seed,
                                           workers=args.workers, records=records),
            units_of=gin_units if game == "gin" else rotated_units,
            path=args.resume or None,
            progress=lambda line: print(line, file=sys.stderr, flush=True))
    except (ValueError, OpenSpielMissingError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    games_word, points_word = words_of(game)
    anchor = None if args.anchor == "mean" else args.anchor
    pairings: Sequence[Pairing] = robin.pairings
    if args.wins_by == "deal":
        pairings = by_units(pairings)
        games_word = "hand pairs" if game == "gin" else "deals"
    ladder = build_ladder(pairings, anchor=anchor, games_word=games_word, order_by=args.order_by)
    unit = "hands (mirrored pairs)" if game == "gin" else "deals (both seatings)"
    count = len(robin.played)
    detail = (f"{count} pairing{'' if count == 1 else 's'}, {size} {unit} each on seed {seed}"
              + (f", {robin.resumed} read from {args.resume}" if robin.resumed else "")
              + ("; a game is a whole deal, won on its points" if args.wins_by == "deal" else "")
              + f"; {time.monotonic() - started:.0f} s on {args.workers} worker(s).")
    print(render_ladder(ladder, pairings, title=f"Ladder {game}: {len(lineup)} players",
                        points_word=points_word, detail=detail))
    problems = robin.problems()
    if args.json:
        write_json({"game": game, "wins_by": args.wins_by, "ladder": ladder.to_dict(),
                    "round_robin": robin.to_dict(), "violations": problems}, args.json)
    for problem in problems:
        print(f"CORRECTNESS: {problem}", file=sys.stderr)
    return 1 if problems else 0
