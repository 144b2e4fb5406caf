"""How the engines run when a call does not say: the library's only settings.

The library reads no environment variable.  Its defaults are the fields of
``EngineConfig``; a front end (the service, ``bulk``, the command line) reads
its settings once -- ``api.shared.settings.Settings``, every ``RUMMY_SOLVER_*``
variable in one table -- and hands the engine part to ``configure()`` at
start.  A program using the library calls ``configure()`` itself if it wants
other values.

* ``default_time_limit_ms`` (1000): a solve's deadline when the call gives none;
* ``request_budget_ms`` (5000): the deadline of a call that runs many solves
  (hints, gin and round scoring) when it gives none;
* ``cpsat_workers`` (1): CP-SAT search workers (1 keeps answers reproducible);
* ``node_budget`` (5000000): a ceiling on the search work of one solve (the
  request's deadline usually binds first, at ``solver.deadline.NODES_PER_MS``
  work units per millisecond);
* ``auto_search_ms`` (300): the search's share of the time limit under
  ``engine="auto"`` before CP-SAT takes over.

>>> configure(cpsat_workers=2); CONFIG.cpsat_workers
2
>>> configure(cpsat_workers=1); CONFIG.cpsat_workers
1
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from solver.errors import InvalidOptionError, plain_int, shown

MAX_TIME_LIMIT_MS = 60_000
"""The longest time limit a single solve may ask for."""
MAX_REQUEST_BUDGET_MS = 600_000
"""The longest time limit a call running many solves may ask for."""


@dataclass(slots=True)
class EngineConfig:
    """Defaults the engines run with (see the module docstring)."""

    default_time_limit_ms: int = 1_000
    request_budget_ms: int = 5_000
    cpsat_workers: int = 1
    node_budget: int = 5_000_000
    auto_search_ms: int = 300


BOUNDS: dict[str, tuple[int, int]] = {
    "default_time_limit_ms": (1, MAX_TIME_LIMIT_MS),
    "request_budget_ms": (1, MAX_REQUEST_BUDGET_MS),
    "cpsat_workers": (1, 64),
    "node_budget": (1_000, 1_000_000_000),
    "auto_search_ms": (1, MAX_TIME_LIMIT_MS),
}
"""The range each setting may take."""

DEFAULTS = EngineConfig()
"""The defaults, never changed (front ends document and compare against them)."""

CONFIG = EngineConfig()
"""The values in force; read at call time, changed only through ``configure``."""


def configure(**values: int) -> None:
    """Change engine settings in place (``InvalidOptionError`` naming a bad one)."""
    checked: dict[str, int] = {}
    for name, value in values.items():
        if name not in BOUNDS:
            raise InvalidOptionError(name, f"unknown engine setting {shown(name)}; settings are "
                                           f"{', '.join(BOUNDS)}", code="invalid_setting")
        low, high = BOUNDS[name]
        number = plain_int(value)
        if number is None or not low <= number <= high:
            raise InvalidOptionError(name, f"engine setting {name} must be an integer from {low} "
                                           f"to {high}; got {shown(value)}", code="invalid_setting")
        checked[name] = number
    for name, number in checked.items():
        setattr(CONFIG, name, number)


def engine_fields() -> tuple[str, ...]:
    """The names of the engine settings."""
    return tuple(field.name for field in dataclasses.fields(EngineConfig))
