"""Service limits and defaults, read from ``RUMMY_SOLVER_*`` environment variables.

Settings are read once, when ``create_app()`` runs (for ``api.main:app`` that
is when a uvicorn worker imports the module), so a restart picks up changes.

* ``RUMMY_SOLVER_MAX_HAND_CARDS`` (30): cards in one hand; for validate, all
  cards of melds + deadwood.
* ``RUMMY_SOLVER_MAX_BATCH`` (1000): requests in one ``/v1/solve/batch``.
* ``RUMMY_SOLVER_MAX_TIME_LIMIT_MS`` (2000): the largest ``time_limit_ms`` a
  solve may ask for.
* ``RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS`` (1000): a solve's ``time_limit_ms``
  when it gives none.
* ``RUMMY_SOLVER_REQUEST_BUDGET_MS`` (5000; ``RUMMY_SOLVER_BATCH_BUDGET_MS`` is
  the old name, still read): the deadline of a request that gives no
  ``time_limit_ms`` and runs many solves (batches, hints, gin and round
  scoring, validate), and the largest ``time_limit_ms`` such a request may ask for.
* ``RUMMY_SOLVER_MAX_BODY_BYTES`` (1000000): request body size; larger bodies
  get 413.
* ``RUMMY_SOLVER_MAX_STREAM_BYTES`` (67108864): bytes one ``/v1/solve/stream``
  request may send (each of its lines is held to ``MAX_BODY_BYTES``).
* ``RUMMY_SOLVER_PROCESSES`` (1): solver processes per uvicorn worker (0: solve
  in a thread of the worker, for embedding and tests).
* ``RUMMY_SOLVER_QUEUE_SIZE`` (64): requests waiting for a solver process per
  worker; past it, or when the wait would outlast the request's deadline, 503
  with ``Retry-After`` at once.
* ``RUMMY_SOLVER_DRAIN_S`` (10): on SIGTERM, seconds to finish the requests in
  flight before exiting.
* ``RUMMY_SOLVER_RECYCLE_TASKS`` (5000) / ``RUMMY_SOLVER_RECYCLE_RSS_MB`` (768):
  a solver process is replaced after this many requests, or once it holds
  this much memory, so memory stays bounded.
* ``RUMMY_SOLVER_CORS_ORIGINS`` (empty): comma-separated origins a browser game
  may call from (``*`` for any); empty sends no CORS headers.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass

from solver.config import MAX_TIME_LIMIT_MS
from solver.rules import MAX_HAND_CARDS

ENV_PREFIX = "RUMMY_SOLVER_"
ALIASES = {"request_budget_ms": ("RUMMY_SOLVER_BATCH_BUDGET_MS",)}
"""Old names still read for a setting (the current name wins)."""
MAX_REQUEST_BUDGET_MS = 600_000


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot run with."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits that keep every request bounded in size, time and memory."""

    max_hand_cards: int = MAX_HAND_CARDS
    max_batch: int = 1000
    max_time_limit_ms: int = 2000
    default_time_limit_ms: int = 1000
    request_budget_ms: int = 5000
    max_body_bytes: int = 1_000_000
    max_stream_bytes: int = 64 * 1024 * 1024
    processes: int = 1
    queue_size: int = 64
    drain_s: int = 10
    recycle_tasks: int = 5000
    recycle_rss_mb: int = 768
    cors_origins: str = ""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "cors_origins":
                if not isinstance(value, str):
                    raise SettingsError("setting cors_origins must be a string")
                continue
            low = 0 if f.name == "processes" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise SettingsError(
                    f"setting {f.name} must be an integer of at least {low}; got {value!r}")
        if self.max_hand_cards > MAX_HAND_CARDS:
            raise SettingsError(
                f"setting max_hand_cards must be at most {MAX_HAND_CARDS} (the solver's limit); "
                f"got {self.max_hand_cards}"
            )
        if self.max_time_limit_ms > MAX_TIME_LIMIT_MS:
            raise SettingsError(
                f"setting max_time_limit_ms must be at most {MAX_TIME_LIMIT_MS} (the solver's "
                f"limit); got {self.max_time_limit_ms}"
            )
        if self.request_budget_ms > MAX_REQUEST_BUDGET_MS:
            raise SettingsError(
                f"setting request_budget_ms must be at most {MAX_REQUEST_BUDGET_MS}; "
                f"got {self.request_budget_ms}")
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise SettingsError(
                f"setting default_time_limit_ms ({self.default_time_limit_ms}) must not exceed "
                f"max_time_limit_ms ({self.max_time_limit_ms})"
            )
        if self.processes > 64 or self.queue_size > 100_000:
            raise SettingsError("settings processes (at most 64) or queue_size (at most 100000) "
                                "out of range")

    @property
    def origins(self) -> list[str]:
        """The CORS origins, one per entry."""
        return [o.strip() for o in self.cors_origins.split(",") if o.strip()]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Defaults overridden by ``RUMMY_SOLVER_<FIELD>`` variables (upper case)."""
        env = os.environ if environ is None else environ
        values: dict[str, int | str] = {}
        for f in dataclasses.fields(cls):
            names = (ENV_PREFIX + f.name.upper(), *ALIASES.get(f.name, ()))
            name, raw = next(((n, env[n]) for n in names if env.get(n, "").strip()), (names[0], None))
            if raw is None:
                continue
            if f.name == "cors_origins":
                values[f.name] = raw.strip()
                continue
            try:
                values[f.name] = int(raw.strip().replace("_", ""))
            except ValueError:
                raise SettingsError(f"{name} must be an integer; got {raw!r}") from None
        return cls(**values)  # type: ignore[arg-type]
