"""Service limits and defaults, read from ``RUMMY_SOLVER_*`` environment variables.

Settings are read once, when ``create_app()`` runs (for ``api.main:app`` that
is when a uvicorn worker imports the module), so a restart picks up changes.

* ``RUMMY_SOLVER_MAX_HAND_CARDS`` (30): cards in one hand; for validate, all
  cards of melds + deadwood.
* ``RUMMY_SOLVER_MAX_BATCH`` (1000): requests in one ``/v1/solve/batch``.
* ``RUMMY_SOLVER_MAX_TIME_LIMIT_MS`` (2000): the largest ``time_limit_ms`` a
  request may ask for.
* ``RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS`` (1000): ``time_limit_ms`` when a
  request gives none.
* ``RUMMY_SOLVER_BATCH_BUDGET_MS`` (30000): wall time one batch may spend
  solving.
* ``RUMMY_SOLVER_MAX_BODY_BYTES`` (1000000): request body size; larger bodies
  get 413.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass

from solver.config import MAX_TIME_LIMIT_MS
from solver.rules import MAX_HAND_CARDS

ENV_PREFIX = "RUMMY_SOLVER_"


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot run with."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits that keep every request bounded in size and time."""

    max_hand_cards: int = MAX_HAND_CARDS
    max_batch: int = 1000
    max_time_limit_ms: int = 2000
    default_time_limit_ms: int = 1000
    batch_budget_ms: int = 30_000
    max_body_bytes: int = 1_000_000

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SettingsError(f"setting {f.name} must be a positive integer; got {value!r}")
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
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise SettingsError(
                f"setting default_time_limit_ms ({self.default_time_limit_ms}) must not exceed "
                f"max_time_limit_ms ({self.max_time_limit_ms})"
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Defaults overridden by ``RUMMY_SOLVER_<FIELD>`` variables (upper case)."""
        env = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for f in dataclasses.fields(cls):
            name = ENV_PREFIX + f.name.upper()
            raw = env.get(name)
            if raw is None or raw.strip() == "":
                continue
            try:
                values[f.name] = int(raw.strip().replace("_", ""))
            except ValueError:
                raise SettingsError(f"{name} must be an integer; got {raw!r}") from None
        return cls(**values)
