"""``api.bulk`` on Ray: the same chunks of lines as the solver pool, as Ray tasks.

Imported only for ``rummy-solver bulk --ray`` (or by a caller that wants
Ray); needs the optional extra: ``pip install -e '.[ray]'``.  With no
address a local Ray instance is started for the run (and stopped after);
``"auto"`` joins the cluster this machine belongs to and
``"ray://host:port"`` connects through Ray Client (which needs
``ray[client]``).  A caller that has already called ``ray.init`` keeps its
instance: the run uses it and leaves it running.  Cluster nodes need
``rummy-solver`` installed (tasks import ``api.shared.lines``).

Answers come back in input order, ids kept, with at most
``IN_FLIGHT_PER_PROCESS`` chunks in flight per CPU of the cluster; a task
that failed (after Ray's own retries) is rerun a line at a time
(``pipeline.in_order``).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Generator, Iterable, Sequence
from typing import Any

from api.bulk.pipeline import CHUNK_LINES, IN_FLIGHT_PER_PROCESS, ChunkRunner, chunks, in_order
from api.shared.lines import Answered, Line, answer_chunk, check_op
from api.shared.operations import DEFAULT_SETTINGS
from api.shared.settings import Settings

logger = logging.getLogger("api.bulk.ray")


def import_ray() -> Any:
    """The ``ray`` module; ``ImportError`` saying how to install it when missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ImportError("ray is not installed: pip install -e '.[ray]'") from None


def answer_chunk_with_settings(lines: Sequence[Line], first: int, op: str,
                               settings: Settings) -> list[Answered]:
    """A Ray task: ``answer_chunk`` in a Ray worker process under the run's
    engine settings (``RUMMY_SOLVER_NODE_BUDGET`` ...), as each process of the
    solver pool starts with them; a worker process may serve several runs."""
    settings.apply_to_engines()
    return answer_chunk(lines, first, op, settings)


class RayRunner(ChunkRunner):
    """Chunks of lines as Ray tasks."""

    def __init__(self, ray: Any, op: str, settings: Settings) -> None:
        self.ray = ray
        self.op = op
        self.settings = settings
        self.task = ray.remote(answer_chunk_with_settings)
        self.single = self.task.options(max_retries=0)
        self.started: list[Any] = []

    def start(self, first: int, lines: Sequence[Line]) -> Any:
        """Submit a chunk as a task (a line alone gets no retries: it is being isolated)."""
        task = self.single if len(lines) == 1 else self.task
        ref = task.remote(list(lines), first, self.op, self.settings)
        self.started.append(ref)
        return ref

    def finish(self, ticket: Any) -> list[Answered] | None:
        """The task's answers; None when it failed."""
        try:
            answers: list[Answered] = self.ray.get(ticket)
            return answers
        except self.ray.exceptions.RayError as exc:
            logger.error("a Ray task failed (%s)", type(exc).__name__)
            return None
        finally:
            if ticket in self.started:
                self.started.remove(ticket)


def run_lines_ray(lines: Iterable[Line], op: str = "solve_hand", address: str | None = None, *,
                  settings: Settings = DEFAULT_SETTINGS, chunk_lines: int = CHUNK_LINES,
                  num_cpus: int | None = None) -> Generator[Answered, None, None]:
    """``api.bulk.on_pool.run_lines`` on Ray: every line answered, in input order.

    ``address`` is ``None`` (a local instance with ``num_cpus`` CPUs, default
    all), ``"auto"`` or ``"ray://host:port"``; ignored when Ray is already
    initialised in this process.  Connects at once (Ray's own errors --
    ``ConnectionError``, ``ValueError`` -- are raised by this call, before any
    line is read); the instance it started stops when the answers are
    exhausted or closed."""
    name = check_op(op)
    if chunk_lines < 1:
        raise ValueError(f"chunk_lines must be at least 1; got {chunk_lines}")
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=num_cpus if address is None else None,
                 include_dashboard=False, logging_level=logging.WARNING)
        started = True
    return _answers(ray, started, lines, name, settings, chunk_lines)


def _answers(ray: Any, started: bool, lines: Iterable[Line], op: str, settings: Settings,
             chunk_lines: int) -> Generator[Answered, None, None]:
    runner = RayRunner(ray, op, settings)
    try:
        slots = max(1, int(ray.cluster_resources().get("CPU", 1))) * IN_FLIGHT_PER_PROCESS
        yield from in_order(chunks(lines, chunk_lines), runner, slots,
                            "; is rummy-solver installed on every node of the cluster?")
    finally:
        for ref in runner.started:
            ray.cancel(ref)
        if started:
            ray.shutdown()
