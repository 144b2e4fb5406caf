"""Solver processes that start warm: the service's solver pool has its
forkserver import this module (``SolverPool``'s ``preload``), which runs the
job runner's warm-up (``api.pool.jobs.warm_up``: every example request once,
briefly) under the environment's settings before the forkserver forks any
solver process.  Each process forked from it, and each replacement of a
recycled or killed one, has the caches and tables that built instead of
building them again: about half a second of CPU per process, which six
processes starting at once on two cores otherwise spent side by side with
the workers' own start, and a replacement spent beside the solves of the
others.

``WARMED_WITH`` is the settings the warm-up ran with, or None when it could
not run; a process whose settings differ (a pool given settings of its own)
warms itself as before.
"""

from __future__ import annotations

import logging

from api.pool.jobs import warm_up
from api.shared.settings import Settings, load_settings

WARMED_WITH: Settings | None = None
"""The settings this process's warm-up ran with (None: it did not run)."""

try:
    _settings = load_settings()
    _settings.apply_to_engines()
    warm_up(_settings)
    WARMED_WITH = _settings
except Exception:  # settings the environment cannot give: each process warms itself
    logging.getLogger("api.jobs").debug("the forkserver's warm-up did not run", exc_info=True)
