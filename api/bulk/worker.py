"""What a solver process runs for ``rummy-solver bulk``: chunks of lines.

``run_chunk`` is the job runner ``api.bulk.on_pool`` hands the solver pool
(``api.pool.solver_pool``): a ``bulk_chunk`` job's lines answered as
``api.shared.lines.answer_chunk`` answers them, packed for the trip back
(``api.shared.lines.pack``).

A bulk process imports this module and what answering a line needs, and
starts as the one process of ``--processes 1`` does: without the HTTP
service's ``api.pool.jobs`` and what it loads up front for its requests'
deadlines (OR-Tools, the gin advisor's tables, a ``warm_up`` over every
operation's examples), a second or more of every process start (and of
every recycling) on a shared 2-core machine.  Each line's first use of
those pays for them within its own time limit, as in one process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.shared.errors import error_bytes, solver_failure
from api.shared.lines import answer_chunk, pack
from api.shared.settings import Settings


def run_chunk(op: str, payload: dict[str, Any], deadline_at: float, budget_ms: float,
              cancelled: Callable[[], bool], settings: Settings,
              request_id: str = "-") -> tuple[int, bytes, dict[str, Any]]:
    """Answer the chunk ``payload`` (``{"lines", "first", "op"}``, ``op`` being
    ``bulk_chunk``): ``(200, packed answers, {})``.  Each line runs under its
    own deadline (``api.shared.lines``), so the chunk's ``deadline_at`` and
    ``budget_ms`` are only the pool's backstop; a failure outside every line
    (a bug) is a 503 ``solver_error``."""
    try:
        answered = answer_chunk(payload["lines"], payload["first"], payload["op"], settings)
    except Exception as exc:
        return 503, error_bytes("solver_error", solver_failure(exc, op)), {}
    return 200, pack(answered), {}
