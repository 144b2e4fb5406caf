"""One change of the advisor's parameters tried against today's numbers:
``python -m benchmarks --tune GAME --try FIELD=VALUE [FIELD=VALUE ...]
[--half tuning|held_out] [--hands N | --deals N] [--seed S] [--workers W]``.

Where ``--tune`` searches a space, ``--try`` answers one question (is this
option, or this value, better than today's?) with the same units and the
same pairing: each unit (a gin hand pair, any other game's deal played in
every rotation) is played by the advisor with today's parameters and with
the changed ones, against the half's bot ``i % k``, on the same deals, and
the figure is the mean per-unit difference with its 95 % interval.  Screen
on the tuning half (the default); report on the held-out half.

A value is read as the field's type today (``int``, ``float``, ``bool``:
``true``/``false``, ``str``; a tuple of words as the words between commas,
``searched_phases=draw,discard,wall``); a field the parameters object does not have,
or a value that is not of its type, is refused with the fields it has.
"""

from __future__ import annotations

import dataclasses
import difflib
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from benchmarks.arena.core.panels import PANELS, TUNING, check_seed, seeds_of
from benchmarks.arena.core.tuning import TuningSpec, paired, play_units, schedule

_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


def _value(field: str, today: object, text: str) -> object:
    """``text`` read as ``today``'s type; ``ValueError`` naming the field when it is not one."""
    if isinstance(today, bool):
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"{field} is true or false; got {text!r}")
    if isinstance(today, int | float | str):
        try:
            return type(today)(text)
        except ValueError:
            raise ValueError(f"{field} must be of type {type(today).__name__}; got {text!r}") from None
    if isinstance(today, tuple) and all(isinstance(item, str) for item in today):
        words = tuple(word.strip() for word in text.split(",") if word.strip())
        if not words:
            raise ValueError(f"{field} takes words between commas; got {text!r}")
        return words
    raise ValueError(f"{field} is a {type(today).__name__}: --try takes numbers, words, "
                     f"words between commas and true/false only")


def changed_params(params: Any, changes: Sequence[str]) -> tuple[Any, dict[str, object]]:
    """``params`` with each ``FIELD=VALUE`` of ``changes`` replaced, and the changes read.

    >>> from solver.play.gin.params import GIN_PARAMS
    >>> changed_params(GIN_PARAMS, ["search=ismcts", "least=24"])[1]
    {'search': 'ismcts', 'least': 24}
    >>> changed_params(GIN_PARAMS, ["searched_phases=draw,discard,wall"])[1]
    {'searched_phases': ('draw', 'discard', 'wall')}
    >>> changed_params(GIN_PARAMS, ["leest=24"])
    Traceback (most recent call last):
    ...
    ValueError: GinParams has no field 'leest' (did you mean 'least'?)
    """
    fields = {f.name: getattr(params, f.name) for f in dataclasses.fields(params)}
    read: dict[str, object] = {}
    for change in changes:
        name, equals, text = change.partition("=")
        name = name.strip()
        if not equals:
            raise ValueError(f"--try takes FIELD=VALUE; got {change!r}")
        if name not in fields:
            near = difflib.get_close_matches(name, fields, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ValueError(f"{type(params).__name__} has no field {name!r}{hint}")
        read[name] = _value(name, fields[name], text.strip())
    return dataclasses.replace(params, **read), read


def try_params(spec: TuningSpec, changes: Sequence[str], *, half: str = TUNING,
               units: int | None = None, seed: int | None = None, workers: int = 1,
               progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Today's parameters and ``changes`` on the same ``units`` of ``half``:
    the per-unit figures of both, their paired difference, the bots and deals."""
    changed, read = changed_params(spec.params, changes)
    seed = seeds_of(half).start if seed is None else seed
    check_seed(seed, half)
    units = spec.units if units is None else units
    if units < 2:
        raise ValueError("--try needs at least 2 units for an interval")
    opponents = PANELS[spec.game].half(half)
    plan = schedule(opponents, 0, units)
    say = progress or (lambda _: None)
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    started = time.monotonic()
    try:
        say(f"try {spec.game}: today's numbers on {units} {spec.unit}s of the {half} half "
            f"(seed {seed})")
        today = play_units(spec.bench, spec.params, seed, plan, workers, pool)
        say(f"try {spec.game}: {', '.join(changes)} on the same {spec.unit}s")
        tried = play_units(spec.bench, changed, seed, plan, workers, pool)
    finally:
        if pool is not None:
            pool.shutdown()
    by_bot: dict[str, dict[str, float]] = {}
    for bot in opponents:
        picked = [i for i, (_, opponent) in enumerate(plan) if opponent == bot]
        by_bot[bot] = paired([tried[i] - today[i] for i in picked])
    return {"game": spec.game, "changes": read, "half": half, "seed": seed, "units": units,
            "unit": spec.unit, "points": spec.points, "opponents": list(opponents),
            "today": today, "tried": tried, "today_figure": paired(today),
            "tried_figure": paired(tried),
            "difference": paired([b - a for a, b in zip(today, tried, strict=True)]),
            "by_opponent": by_bot, "seconds": time.monotonic() - started}


def render_try(result: dict[str, Any]) -> str:
    """The comparison as a Markdown table (what the experiment files quote)."""
    changes = ", ".join(f"{k}={v}" for k, v in result["changes"].items())
    lines = [f"{result['game']}: {changes} against today's numbers, {result['units']} "
             f"{result['unit']}s of the {result['half'].replace('_', '-')} half, seed "
             f"{result['seed']} ({result['points']}, 95 % intervals; {result['seconds']:.0f} s)",
             "", "| opponents | units | today | tried | tried - today (paired) |",
             "|---|---:|---:|---:|---:|"]

    def cell(figure: dict[str, float]) -> str:
        if figure["n"] < 2:
            return "-" if figure["n"] < 1 else f"{figure['mean']:+.2f}"
        return f"{figure['mean']:+.2f} ± {figure['half_width']:.2f}"

    for bot, figure in result["by_opponent"].items():
        if figure["n"] < 1:
            continue
        lines.append(f"| {bot} | {figure['n']:.0f} | | | {cell(figure)} |")
    lines.append(f"| **all** | {result['units']} | {cell(result['today_figure'])} | "
                 f"{cell(result['tried_figure'])} | **{cell(result['difference'])}** |")
    return "\n".join(lines) + "\n"
