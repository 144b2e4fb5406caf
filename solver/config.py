"""Engine defaults, overridable by environment variables (read once at import).

* ``RUMMY_SOLVER_TIME_LIMIT_MS`` (2000): ``solve()``'s time limit when the call gives none;
* ``RUMMY_SOLVER_CPSAT_WORKERS`` (1): CP-SAT search workers (1 keeps answers
  reproducible; raise it on machines with cores to spare per request);
* ``RUMMY_SOLVER_NODE_BUDGET`` (400000): search states before ``auto`` hands
  the hand to CP-SAT (``engine="search"`` reports a timeout instead);
* ``RUMMY_SOLVER_AUTO_SEARCH_MS`` (300): the search's share of the time limit
  under ``engine="auto"``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


def _env_int(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"environment variable {name} must be an integer; got {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"environment variable {name} must be from {low} to {high}; got {value}")
    return value


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Defaults the engines run with."""

    default_time_limit_ms: int
    cpsat_workers: int
    node_budget: int
    auto_search_ms: int


MAX_TIME_LIMIT_MS = 60_000

CONFIG = EngineConfig(
    default_time_limit_ms=_env_int("RUMMY_SOLVER_TIME_LIMIT_MS", 2_000, 1, MAX_TIME_LIMIT_MS),
    cpsat_workers=_env_int("RUMMY_SOLVER_CPSAT_WORKERS", 1, 1, 64),
    node_budget=_env_int("RUMMY_SOLVER_NODE_BUDGET", 400_000, 1_000, 100_000_000),
    auto_search_ms=_env_int("RUMMY_SOLVER_AUTO_SEARCH_MS", 300, 1, MAX_TIME_LIMIT_MS),
)
