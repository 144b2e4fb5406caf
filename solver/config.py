"""Engine defaults, overridable by environment variables (read once at import).

* ``RUMMY_SOLVER_TIME_LIMIT_MS`` (2000): ``solve()``'s time limit when the call gives none;
* ``RUMMY_SOLVER_CPSAT_WORKERS`` (1): CP-SAT search workers (1 keeps answers
  reproducible; raise it on machines with cores to spare per request);
* ``RUMMY_SOLVER_NODE_BUDGET`` (5000000): a ceiling on the search work of one
  solve (states plus the options they weigh; the request's deadline usually
  binds first, at ``solver.deadline.NODES_PER_MS`` per millisecond);
* ``RUMMY_SOLVER_AUTO_SEARCH_MS`` (300): the search's share of the time limit
  under ``engine="auto"``;
* ``RUMMY_SOLVER_REQUEST_BUDGET_MS`` (5000; the old name
  ``RUMMY_SOLVER_BATCH_BUDGET_MS`` is still read): the time limit of a call
  that runs many solves (hints, gin scoring, round scoring, batches) when it
  gives none.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass


def _env_int(name: str, default: int, low: int, high: int) -> int:
    """The variable's value, or ``default`` with a warning when it is unusable
    (a bad setting must not make ``import solver`` fail: the command line and
    the service report their own settings errors)."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip().replace("_", ""))
    except ValueError:
        warnings.warn(f"environment variable {name} must be an integer; got {raw!r}: "
                      f"using {default}", stacklevel=2)
        return default
    if not low <= value <= high:
        warnings.warn(f"environment variable {name} must be from {low} to {high}; got {value}: "
                      f"using {default}", stacklevel=2)
        return default
    return value


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Defaults the engines run with."""

    default_time_limit_ms: int
    cpsat_workers: int
    node_budget: int
    auto_search_ms: int
    request_budget_ms: int


MAX_TIME_LIMIT_MS = 60_000

CONFIG = EngineConfig(
    default_time_limit_ms=_env_int("RUMMY_SOLVER_TIME_LIMIT_MS", 2_000, 1, MAX_TIME_LIMIT_MS),
    cpsat_workers=_env_int("RUMMY_SOLVER_CPSAT_WORKERS", 1, 1, 64),
    node_budget=_env_int("RUMMY_SOLVER_NODE_BUDGET", 5_000_000, 1_000, 1_000_000_000),
    auto_search_ms=_env_int("RUMMY_SOLVER_AUTO_SEARCH_MS", 300, 1, MAX_TIME_LIMIT_MS),
    request_budget_ms=_env_int(
        "RUMMY_SOLVER_REQUEST_BUDGET_MS",
        _env_int("RUMMY_SOLVER_BATCH_BUDGET_MS", 5_000, 1, 600_000), 1, 600_000),
)
