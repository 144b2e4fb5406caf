"""A forkserver preload for ``tests/test_pool.py``, as ``api.pool.warmed`` is
the service's: it warms the test runner's module (``tests.pool_jobs``) under
the environment's settings and says so in ``WARMED_WITH``."""

from __future__ import annotations

from api.shared.settings import load_settings
from tests import pool_jobs

WARMED_WITH = load_settings()
pool_jobs.warm_up(WARMED_WITH)
