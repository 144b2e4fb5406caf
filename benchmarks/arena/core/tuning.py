"""Tuning as a tool: ``python -m benchmarks --tune GAME [--trials N] [--study NAME]
[--resume]`` searches a game's parameters object on the tuning half of its
panel (``panels``) with Optuna, and reports the best numbers found on the
held-out half.  No constant of ``solver/`` is changed: the file it writes to
``docs/experiments/`` is the evidence the defaults are decided from.

* **The space** is declared per game (``Dimension``s of the game's
  ``tuning`` module: which fields of its parameters object, their ranges);
  a trial's numbers are ``dataclasses.replace(params, ...)`` handed to
  ``advise`` by an arena advisor (its ``params`` argument), never a patched
  module.
* **Units**: a gin unit is a mirrored pair of hands, any other game's a deal
  played once per seat rotation, two players.  Unit ``i`` is dealt by the
  study's seed (one of ``TUNING_SEEDS``) at place ``i``, against the tuning
  half's bot ``i % k``, so every trial meets every bot on the same deals.
* **Paired comparison**: the advisor with today's numbers plays the same
  units once (the study's *baseline*, kept in the study: the players'
  seeds depend on the deal only, so its play does not change); a trial's
  figure is the mean over units of its points less the baseline's on the
  same unit, with its 95 % interval.
* **Early stopping**: after each ``checkpoint`` of units a trial reports
  its running mean; ``PairedPruner`` stops it when it is clearly behind
  (the upper end of its one-sided ``z`` interval below today's numbers, or
  below the best finished trial).
* **A study that can be resumed**: Optuna's SQLite storage,
  ``benchmarks/results/tuning/GAME-STUDY.db`` (``--resume`` goes on with it;
  without, an existing study is refused).  The sampler is TPE, seeded.
* **The report**: the best finished trial is played, with today's numbers,
  on the held-out half's bots and seeds (paired the same way); the study's
  table, the best trial's paired difference and the held-out one are written
  to ``docs/experiments/tune-<GAME>-<STUDY>.md``.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import os
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import optuna

from benchmarks.arena.core.panels import (
    HELD_OUT,
    HELD_OUT_SEEDS,
    PANELS,
    TUNING,
    TUNING_SEEDS,
    check_seed,
)
from benchmarks.arena.core.stats import Z_95

ROOT = Path(__file__).resolve().parents[3]
TUNING_DIR = ROOT / "benchmarks" / "results" / "tuning"
EXPERIMENTS_DIR = ROOT / "docs" / "experiments"
PRUNE_Z = 2.0
"""A trial is stopped when its running mean plus this many standard errors
is below the bar (today's numbers, or the best finished trial)."""
PRUNE_FLOOR = 0.5
"""The least standard error (points) the pruner assumes."""
CHECKPOINTS = 5
"""Reports per trial (the first after a fifth of its units)."""
HEARTBEAT_S = 60
"""A running trial's heartbeat: one silent for twice this long (its run was
stopped) is marked failed when the study is resumed."""


@dataclass(frozen=True, slots=True)
class Dimension:
    """One field of a parameters object the tuner may change, and its range.
    ``build`` makes the field's value from the number drawn (a tuple field:
    the style prior from its first share); ``integer`` draws whole numbers."""

    field: str
    low: float
    high: float
    integer: bool = False
    log: bool = False
    build: Callable[[float], object] | None = None
    read: Callable[[Any], float] | None = None
    """With ``build``: the number a value of the field stands for (today's
    value is reported as that number, as every trial's is)."""
    meaning: str = ""
    """How the number drawn reads, when it is not the field's value itself."""

    def suggest(self, trial: optuna.Trial) -> float:
        """The trial's number for this dimension."""
        if self.integer:
            return trial.suggest_int(self.field, int(self.low), int(self.high), log=self.log)
        return trial.suggest_float(self.field, self.low, self.high, log=self.log)

    def value(self, number: float) -> object:
        """The field's value for ``number``."""
        return self.build(number) if self.build is not None else number

    def number(self, value: Any) -> object:
        """How ``value`` of the field is reported: the number it stands for
        (``read``), else the value itself as JSON takes it."""
        return self.read(value) if self.read is not None else _plain(value)


def apply(params: Any, space: Sequence[Dimension], numbers: Mapping[str, float]) -> Any:
    """``params`` with the fields of ``numbers`` replaced (``dataclasses.replace``)."""
    fields = {d.field: d.value(numbers[d.field]) for d in space if d.field in numbers}
    return dataclasses.replace(params, **fields)


class Bench(Protocol):
    """A game's unit of play for the tuner (picklable: it goes to the workers)."""

    def play_unit(self, params: object, opponent: str, seed: int, index: int) -> float:
        """The advisor's points on unit ``index`` (a gin hand pair's mean per
        hand, a deal's mean per rotation) against ``opponent``, dealt by
        ``seed``, advising with ``params``."""


@dataclass(frozen=True, slots=True)
class TuningSpec:
    """What the tuner needs of a game."""

    game: str
    bench: Bench
    space: tuple[Dimension, ...]
    params: Any
    """Today's parameters object (the game's default)."""
    unit: str
    """``hand pair`` or ``deal``."""
    units: int
    """Units a trial plays by default."""
    points: str
    """What a unit's figure is: ``points per hand`` or ``points per deal``."""


@dataclass(frozen=True, slots=True)
class _Job:
    bench: Bench
    params: object
    seed: int
    units: tuple[tuple[int, str], ...]
    """(index, opponent) of each unit."""


def _play_job(job: _Job) -> list[float]:
    return [job.bench.play_unit(job.params, opponent, job.seed, index)
            for index, opponent in job.units]


def play_units(bench: Bench, params: object, seed: int, units: Sequence[tuple[int, str]],
               workers: int = 1, pool: ProcessPoolExecutor | None = None) -> list[float]:
    """Each unit's points, in order (``pool``: the workers' processes, when
    ``workers`` > 1)."""
    if workers <= 1 or pool is None:
        return _play_job(_Job(bench, params, seed, tuple(units)))
    size = max(1, math.ceil(len(units) / (2 * workers)))
    jobs = [_Job(bench, params, seed, tuple(units[start:start + size]))
            for start in range(0, len(units), size)]
    return [points for part in pool.map(_play_job, jobs) for points in part]


def schedule(opponents: Sequence[str], start: int, stop: int) -> list[tuple[int, str]]:
    """Units ``start`` to ``stop`` and their opponents (unit ``i``: ``opponents[i % k]``)."""
    return [(index, opponents[index % len(opponents)]) for index in range(start, stop)]


def paired(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard error and 95 % half-width of per-unit differences."""
    n = len(values)
    mean = statistics.fmean(values) if values else math.nan
    error = statistics.stdev(values) / math.sqrt(n) if n > 1 else math.nan
    return {"mean": mean, "se": error, "half_width": Z_95 * error, "n": n}


class PairedPruner(optuna.pruners.BasePruner):
    """Stops a trial clearly behind: its running mean difference plus ``z``
    standard errors (at least ``floor`` points: a few equal units do not
    make a trial certain) below today's numbers (0) or the best finished
    trial, after ``least`` units."""

    def __init__(self, least: int, z: float = PRUNE_Z, floor: float = PRUNE_FLOOR) -> None:
        self.least = least
        self.z = z
        self.floor = floor

    def prune(self, study: optuna.study.Study, trial: optuna.trial.FrozenTrial) -> bool:
        """Whether ``trial``'s last report is clearly behind."""
        step = trial.last_step
        if step is None or step < self.least:
            return False
        error = trial.user_attrs.get(f"se:{step}")
        if error is None or math.isnan(error):
            return False
        finished = [t.value for t in study.get_trials(deepcopy=False,
                                                       states=(optuna.trial.TrialState.COMPLETE,))
                    if t.value is not None]
        bar = max([0.0, *finished])
        return bool(trial.intermediate_values[step] + self.z * max(error, self.floor) < bar)


@dataclass(frozen=True, slots=True)
class Settings:
    """A study's settings: a resumed study must have the same."""

    game: str
    seed: int
    units: int
    opponents: tuple[str, ...]
    space: tuple[tuple[str, float, float], ...]

    def to_json(self) -> dict[str, Any]:
        """As the study keeps it."""
        return {"game": self.game, "seed": self.seed, "units": self.units,
                "opponents": list(self.opponents), "space": [list(d) for d in self.space]}


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    commit = done.stdout.strip() if done.returncode == 0 else "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                            "solver", "benchmarks"], cwd=ROOT, capture_output=True, text=True,
                           check=False).stdout.strip()
    return commit + ("+" if dirty else "")


def storage_path(game: str, study: str, folder: Path = TUNING_DIR) -> Path:
    """The study's SQLite file."""
    return folder / f"{game}-{study}.db"


def run_study(spec: TuningSpec, *, study_name: str, trials: int, resume: bool = False,
              units: int | None = None, seed: int | None = None,
              held_out_units: int | None = None, held_out_seed: int | None = None,
              workers: int = 1, folder: Path = TUNING_DIR,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run (or resume) the study, then the held-out comparison; plain data
    (``render_experiment`` writes it).  ``ValueError`` saying why a study
    cannot start (it exists and ``resume`` is false, a resumed study's
    settings differ, a seed of the wrong half)."""
    say = progress or (lambda _: None)
    panel = PANELS[spec.game]
    seed = TUNING_SEEDS.start if seed is None else seed
    check_seed(seed, TUNING)
    held_out_seed = HELD_OUT_SEEDS.start if held_out_seed is None else held_out_seed
    check_seed(held_out_seed, HELD_OUT)
    units = spec.units if units is None else units
    held_out_units = units if held_out_units is None else held_out_units
    if units < len(panel.tuning) or held_out_units < 1 or trials < 0:
        raise ValueError(f"a trial plays at least one unit per tuning bot ({len(panel.tuning)})")
    settings = Settings(spec.game, seed, units, panel.tuning,
                        tuple((d.field, d.low, d.high) for d in spec.space))
    folder.mkdir(parents=True, exist_ok=True)
    path = storage_path(spec.game, study_name, folder)
    if path.exists() and not resume:
        raise ValueError(f"study {study_name!r} of {spec.game} exists ({path}); --resume goes "
                         "on with it, or name another --study")
    if not path.exists() and resume:
        raise ValueError(f"no study {study_name!r} of {spec.game} to resume ({path})")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    checkpoint = max(len(panel.tuning), math.ceil(units / CHECKPOINTS))
    with warnings.catch_warnings():  # the heartbeat is "experimental" since Optuna 2.9
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        storage = optuna.storages.RDBStorage(f"sqlite:///{path}",
                                             heartbeat_interval=HEARTBEAT_S,
                                             grace_period=2 * HEARTBEAT_S)
    study = optuna.create_study(
        study_name=study_name, storage=storage, direction="maximize",
        sampler=optuna.samplers.TPESampler(seed=seed, n_startup_trials=max(4, trials // 4)),
        pruner=PairedPruner(least=checkpoint), load_if_exists=True)
    kept = study.user_attrs.get("settings")
    if kept is None:
        study.set_user_attr("settings", settings.to_json())
        study.set_user_attr("commit", _commit())
        study.set_user_attr("created", _now())
    elif kept != settings.to_json():
        raise ValueError(f"study {study_name!r} was made with other settings: {kept}")
    if _commit() != study.user_attrs.get("commit"):
        say(f"note: the study was started at {study.user_attrs.get('commit')}, this is {_commit()}")

    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    try:
        baseline: list[float] | None = study.user_attrs.get("baseline")
        if baseline is None:
            started = time.monotonic()
            say(f"tune {spec.game}: today's parameters on {units} {spec.unit}s (the baseline)")
            baseline = play_units(spec.bench, spec.params, seed,
                                  schedule(panel.tuning, 0, units), workers, pool)
            study.set_user_attr("baseline", baseline)
            study.set_user_attr("baseline_seconds", time.monotonic() - started)

        def objective(trial: optuna.Trial) -> float:
            numbers = {d.field: d.suggest(trial) for d in spec.space}
            params = apply(spec.params, spec.space, numbers)
            started = time.monotonic()
            differences: list[float] = []
            for start in range(0, units, checkpoint):
                stop = min(units, start + checkpoint)
                points = play_units(spec.bench, params, seed, schedule(panel.tuning, start, stop),
                                    workers, pool)
                differences += [p - baseline[start + i] for i, p in enumerate(points)]
                figure = paired(differences)
                trial.set_user_attr(f"se:{stop}", figure["se"])
                trial.set_user_attr("differences", differences)
                trial.set_user_attr("seconds", time.monotonic() - started)
                trial.report(figure["mean"], stop)
                say(f"tune {spec.game}: trial {trial.number}, {stop}/{units} {spec.unit}s, "
                    f"{figure['mean']:+.2f} ± {figure['half_width']:.2f} vs today")
                if stop < units and trial.should_prune():
                    raise optuna.TrialPruned()
            return paired(differences)["mean"]

        done = sum(1 for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE,
                                                          optuna.trial.TrialState.PRUNED))
        with warnings.catch_warnings():  # a trial cut short by a stop starts again
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            optuna.storages.fail_stale_trials(study)
        if trials > done:
            study.optimize(objective, n_trials=trials - done)
        held_out = _held_out(spec, study, held_out_units, held_out_seed, workers, pool, say)
    finally:
        if pool is not None:
            pool.shutdown()
    return summarize_study(spec, study, study_name, path, held_out)


def _held_out(spec: TuningSpec, study: optuna.Study, units: int, seed: int, workers: int,
              pool: ProcessPoolExecutor | None,
              say: Callable[[str], None]) -> dict[str, Any] | None:
    """The best finished trial and today's numbers on the held-out half (kept in the study)."""
    finished = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if not finished:
        return None
    best = max(finished, key=lambda t: t.value if t.value is not None else -math.inf)
    key = f"held_out:{best.number}:{seed}:{units}"
    kept = study.user_attrs.get(key)
    if kept is not None:
        return dict(kept)
    opponents = PANELS[spec.game].held_out
    plan = schedule(opponents, 0, units)
    started = time.monotonic()
    say(f"tune {spec.game}: trial {best.number} and today's numbers on {units} held-out "
        f"{spec.unit}s (seed {seed})")
    today = play_units(spec.bench, spec.params, seed, plan, workers, pool)
    tuned = play_units(spec.bench, apply(spec.params, spec.space, best.params), seed, plan,
                       workers, pool)
    result = {"trial": best.number, "seed": seed, "units": units, "opponents": list(opponents),
              "today": today, "tuned": tuned, "seconds": time.monotonic() - started}
    study.set_user_attr(key, result)
    return result


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def summarize_study(spec: TuningSpec, study: optuna.Study, name: str, path: Path,
                    held_out: dict[str, Any] | None) -> dict[str, Any]:
    """The study as plain data: settings, every trial, the best, the held-out comparison."""
    settings = study.user_attrs["settings"]
    baseline: list[float] = study.user_attrs["baseline"]
    opponents = settings["opponents"]
    rows: list[dict[str, Any]] = []
    for trial in study.trials:
        differences = trial.user_attrs.get("differences", [])
        rows.append({"number": trial.number, "state": trial.state.name.lower(),
                     "units": len(differences), "params": dict(trial.params),
                     "difference": paired(differences) if differences else None,
                     "seconds": trial.user_attrs.get("seconds")})
    finished = [r for r in rows if r["state"] == "complete"]
    best: dict[str, Any] | None = (max(finished, key=lambda r: r["difference"]["mean"])
                                   if finished else None)
    out: dict[str, Any] = {
        "game": spec.game, "study": name, "storage": str(path.relative_to(ROOT)
                                                         if path.is_relative_to(ROOT) else path),
        "settings": settings, "commit": study.user_attrs.get("commit"),
        "created": study.user_attrs.get("created"), "reported": _now(), "cores": os.cpu_count(),
        "unit": spec.unit, "points": spec.points,
        "today": {d.field: d.number(getattr(spec.params, d.field)) for d in spec.space},
        "space": [{"field": d.field, "low": d.low, "high": d.high, "integer": d.integer,
                   "log": d.log, "meaning": d.meaning} for d in spec.space],
        "baseline": {"points": paired(baseline),
                     "by_opponent": {o: paired(baseline[i::len(opponents)])["mean"]
                                     for i, o in enumerate(opponents)},
                     "seconds": study.user_attrs.get("baseline_seconds")},
        "trials": rows, "best": best, "held_out": None,
    }
    if best is not None:
        differences = next(t for t in study.trials
                           if t.number == best["number"]).user_attrs["differences"]
        best["by_opponent"] = {o: paired(differences[i::len(opponents)])
                               for i, o in enumerate(opponents)}
        best["values"] = {d.field: best["params"][d.field]  # the numbers drawn, as today's
                          for d in spec.space if d.field in best["params"]}
        spread = statistics.stdev(differences) if len(differences) > 1 else math.nan
        best["units_for_half_point"] = (math.ceil((Z_95 * spread / 0.5) ** 2)
                                        if not math.isnan(spread) else None)
    if held_out is not None:
        today, tuned = held_out["today"], held_out["tuned"]
        ho_opponents = held_out["opponents"]
        differences = [b - a for a, b in zip(today, tuned, strict=True)]
        out["held_out"] = {
            "trial": held_out["trial"], "seed": held_out["seed"], "units": held_out["units"],
            "opponents": ho_opponents, "seconds": held_out.get("seconds"),
            "today": paired(today), "tuned": paired(tuned), "difference": paired(differences),
            "by_opponent": {o: {"today": paired(today[i::len(ho_opponents)])["mean"],
                                "tuned": paired(tuned[i::len(ho_opponents)])["mean"],
                                "difference": paired(differences[i::len(ho_opponents)])}
                            for i, o in enumerate(ho_opponents)},
        }
    return out


def _plain(value: object) -> object:
    """A field's value as JSON and Markdown take it (tuples as lists)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _figure(data: dict[str, Any] | None) -> str:
    if not data or data.get("mean") is None or math.isnan(data["mean"]):
        return "-"
    width = data.get("half_width")
    return f"{data['mean']:+.2f}" + ("" if width is None or math.isnan(width) else f" ± {width:.2f}")


def verdict(result: dict[str, Any]) -> str:
    """``kept``-worthy or not, by the held-out figure: a candidate for the
    defaults only when the held-out paired difference's lower end is above 0."""
    held = result.get("held_out")
    if result.get("best") is None:
        return "no change: no trial finished"
    if held is None:
        return "no change: not yet played on the held-out half"
    difference = held["difference"]
    if difference["mean"] - difference["half_width"] > 0:
        return ("candidate: the held-out difference is above 0 (the lead decides; no default "
                "is changed by the tool)")
    return "not kept: the held-out difference is not above 0"


def render_experiment(result: dict[str, Any], command: str) -> str:
    """The study as an experiment file (``docs/experiments/README.md``'s shape)."""
    game, spec_unit = result["game"], result["unit"]
    settings = result["settings"]
    best = result["best"]
    held = result["held_out"]
    fields = ", ".join(f"`{d['field']}`" for d in result["space"])
    lines = [f"# {game}: the advisor's numbers tuned on the tuning half ({fields})", "",
             f"- **Question:** do other values of {fields} play better than today's, against "
             f"bots and deals other than those they were tuned on (issue 36)?",
             f"- **Decision:** {verdict(result)}.",
             f"- **Measured at:** `{result['commit']}` (study started {result['created']}; "
             f"this file written {result['reported']}, {result['cores']} cores).",
             f"- **Deals:** tuning seed {settings['seed']}, {spec_unit}s 0-{settings['units'] - 1}"
             f" (unit `i` against bot `i % {len(settings['opponents'])}`); held-out seed "
             + (f"{held['seed']}, {spec_unit}s 0-{held['units'] - 1}." if held else "-."),
             f"- **Opponents:** tuning half {', '.join(f'`{o}`' for o in settings['opponents'])}; "
             "held-out half " + (", ".join(f"`{o}`" for o in held["opponents"]) if held else "-")
             + ".",
             "- **Tuning deals:** the study's table and the best trial's figure are on the "
             "tuning deals (the best of many trials there is optimistic); the held-out figure "
             "is not.", "",
             "## Re-run", "", "```sh", command, "```", "",
             f"The study is kept in `{result['storage']}` (Optuna, SQLite): `--resume` goes on "
             "with it; each trial plays its numbers (`dataclasses.replace` of the game's "
             "parameters object, handed to `advise` by the arena's advisor) on the same "
             f"{spec_unit}s as today's numbers (the baseline, played once and kept in the "
             "study), and is stopped early when its running paired mean plus "
             f"{PRUNE_Z:g} standard errors is below today's or the best finished trial's.", "",
             "## Figures", "",
             f"Today's numbers on the tuning {spec_unit}s: {_figure(result['baseline']['points'])} "
             f"{result['points']} (by bot: "
             + ", ".join(f"`{o}` {v:+.2f}" for o, v in result["baseline"]["by_opponent"].items())
             + ").", "",
             "The space (today's value in brackets):", ""]
    lines += ["| field | low | high | today | meaning of the number drawn |", "|---|---:|---:|---:|---|"]
    for d in result["space"]:
        lines.append(f"| `{d['field']}` | {d['low']:g} | {d['high']:g} | "
                     f"{_value_text(result['today'][d['field']])} | {d['meaning'] or '-'} |")
    lines += ["", f"The study ({len(result['trials'])} trials; *difference*: the trial's "
                  f"{result['points']} less today's on the same {spec_unit}s, 95 % interval):", ""]
    names = [d["field"] for d in result["space"]]
    lines += ["| trial | state | " + " | ".join(f"`{n}`" for n in names)
              + f" | {spec_unit}s | difference | seconds |",
              "|---:|---|" + "---:|" * len(names) + "---:|---:|---:|"]
    for row in result["trials"]:
        values = [_value_text(row["params"].get(n)) for n in names]
        seconds = "-" if row["seconds"] is None else f"{row['seconds']:.0f}"
        lines.append(f"| {row['number']} | {row['state']} | " + " | ".join(values)
                     + f" | {row['units']} | {_figure(row['difference'])} | {seconds} |")
    if best is not None:
        lines += ["", f"Best finished trial: **{best['number']}**, "
                      f"{_figure(best['difference'])} {result['points']} over today's on the "
                      f"tuning {spec_unit}s ({best['units']}); by bot: "
                  + ", ".join(f"`{o}` {_figure(v)}" for o, v in best["by_opponent"].items()) + ".",
                  "Its values: " + ", ".join(f"`{k}` = {_value_text(v)}"
                                             for k, v in best["values"].items()) + "."]
    if held is not None:
        lines += ["", f"On the held-out half (seed {held['seed']}, {held['units']} "
                      f"{spec_unit}s):", "",
                  "| bot | today | trial " + str(held["trial"]) + " | difference (paired) |",
                  "|---|---:|---:|---:|"]
        for opponent, figures in held["by_opponent"].items():
            lines.append(f"| `{opponent}` | {figures['today']:+.2f} | {figures['tuned']:+.2f} | "
                         f"{_figure(figures['difference'])} |")
        lines.append(f"| **all** | {_figure(held['today'])} | {_figure(held['tuned'])} | "
                     f"**{_figure(held['difference'])}** |")
    lines += ["", "## Why", "", _why(result)]
    return "\n".join(lines).rstrip() + "\n"


def _value_text(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list):
        return "(" + ", ".join(_value_text(v) for v in value) + ")"
    return str(value)


def _why(result: dict[str, Any]) -> str:
    best, held = result["best"], result["held_out"]
    unit = result["unit"]
    if best is None:
        return "No trial finished: nothing to report."
    text = (f"The best of {sum(1 for t in result['trials'] if t['state'] == 'complete')} "
            f"finished trials (of {len(result['trials'])}) gained {_figure(best['difference'])} "
            f"{result['points']} on the tuning {unit}s; that figure is the best of many and "
            "flatters it. ")
    if held is not None:
        text += (f"On the held-out half it gained {_figure(held['difference'])}: "
                 f"{verdict(result)}. ")
    need = best.get("units_for_half_point")
    if need:
        text += (f"A full study would need about {need:,} {unit}s a trial for a paired interval "
                 f"of ±0.5 {result['points']} (the per-{unit} spread of this study), and more "
                 "trials than dimensions squared; this one was sized for the machine.")
    return text


def write_experiment(result: dict[str, Any], command: str,
                     folder: Path = EXPERIMENTS_DIR) -> Path:
    """Write ``docs/experiments/tune-<GAME>-<STUDY>.md``."""
    path = folder / f"tune-{result['game']}-{result['study']}.md"
    path.write_text(render_experiment(result, command), encoding="utf-8")
    return path


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command as typed (for the experiment file)."""
    words = list(sys.argv[1:] if argv is None else argv)
    return "python -m benchmarks " + " ".join(words)
