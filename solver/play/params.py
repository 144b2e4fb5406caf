"""A game's tuned numbers as data: one frozen parameters object per game.

Each number the advisor of a game was tuned with is a field of that game's
parameters object (``GinParams``, ``IndianParams``, ``LayDownParams``), made
with ``tuned``: its default, what it means, and the experiment that set it
(a file of ``docs/experiments/``, or ``None`` for a design choice nobody
measured).  The defaults are what ``advise`` uses; a library caller, an
experiment or an arena entrant passes ``dataclasses.replace(params, ...)``
instead of patching a module, and ``describe`` lists them for the docs and
the tuner.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Example:
...     edge: float = tuned(2.0, "points a useful pickup is credited", "gin-take-edge.md")
>>> [(row.name, row.value, row.experiment) for row in describe(Example())]
[('edge', 2.0, 'gin-take-edge.md')]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def tuned(default: T, meaning: str, experiment: str | None = None) -> T:
    """A parameter field: its ``default``, what it ``means`` and the
    ``experiment`` (a file name in ``docs/experiments/``) that set it."""
    return dataclasses.field(default=default,
                             metadata={"meaning": meaning, "experiment": experiment})


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a parameters object, as ``describe`` reads it."""

    name: str
    value: Any
    meaning: str
    experiment: str | None


def describe(params: object) -> list[Parameter]:
    """Every ``tuned`` field of a parameters object, in order."""
    if not dataclasses.is_dataclass(params) or isinstance(params, type):
        raise TypeError("describe takes a parameters object (a dataclass instance)")
    return [Parameter(f.name, getattr(params, f.name), f.metadata.get("meaning", ""),
                      f.metadata.get("experiment"))
            for f in dataclasses.fields(params)]


__all__ = ["Parameter", "describe", "tuned"]
