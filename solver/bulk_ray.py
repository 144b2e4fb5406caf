"""``solver.bulk`` on Ray: the same chunks of lines as the process pool, as Ray tasks.

Imported only for ``rummy-solver bulk --ray`` (or by a caller that wants
Ray); needs the optional extra: ``pip install -e '.[ray]'``.  With no
address a local Ray instance is started for the run (and stopped after);
``"auto"`` joins the cluster this machine belongs to and
``"ray://host:port"`` connects through Ray Client (which needs
``ray[client]``).  A caller that has already called ``ray.init`` keeps its
instance: the run uses it and leaves it running.  Cluster nodes need
``rummy-solver`` installed (tasks import ``solver.bulk``).

Answers come back in input order, ids kept, with at most
``IN_FLIGHT_PER_PROCESS`` chunks in flight per CPU of the cluster.
"""

from __future__ import annotations

import importlib
import logging
from collections import deque
from collections.abc import Generator, Iterable, Sequence
from typing import Any

from solver.bulk import (
    CHUNK_LINES,
    DEFAULT_LIMITS,
    IN_FLIGHT_PER_PROCESS,
    LOC_PREFIX,
    MAX_CRASH_STREAK,
    OPERATIONS,
    OPS,
    Answered,
    Limits,
    Line,
    LineError,
    WorkersFailed,
    answer_chunk,
    chunks,
    encode,
    line_id,
)

logger = logging.getLogger("solver.bulk_ray")


def import_ray() -> Any:
    """The ``ray`` module; ``ImportError`` saying how to install it when missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ImportError("ray is not installed: pip install -e '.[ray]'") from None


def run_lines_ray(lines: Iterable[Line], op: str = "solve", address: str | None = None, *,
                  limits: Limits = DEFAULT_LIMITS, chunk_lines: int = CHUNK_LINES,
                  num_cpus: int | None = None) -> Generator[Answered, None, None]:
    """``solver.bulk.run_lines`` on Ray: every line answered, in input order.

    ``address`` is ``None`` (a local instance with ``num_cpus`` CPUs, default
    all), ``"auto"`` or ``"ray://host:port"``; ignored when Ray is already
    initialised in this process.  Connects at once (Ray's own errors --
    ``ConnectionError``, ``ValueError`` -- are raised by this call, before any
    line is read); the instance it started stops when the answers are
    exhausted or closed.  A chunk whose worker died (after Ray's own
    retries) is rerun a line at a time; a line that fails alone is answered
    ``worker_crashed``.
    """
    if op not in OPERATIONS:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(OPS)}")
    if chunk_lines < 1:
        raise ValueError(f"chunk_lines must be at least 1; got {chunk_lines}")
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=num_cpus if address is None else None,
                 include_dashboard=False, logging_level=logging.WARNING)
        started = True
    return _answers(ray, started, lines, op, limits, chunk_lines)


def _answers(ray: Any, started: bool, lines: Iterable[Line], op: str, limits: Limits,
             chunk_lines: int) -> Generator[Answered, None, None]:
    task = ray.remote(answer_chunk)
    window: deque[tuple[list[Line], Any]] = deque()
    try:
        slots = max(1, int(ray.cluster_resources().get("CPU", 1))) * IN_FLIGHT_PER_PROCESS
        for chunk in chunks(lines, chunk_lines):
            window.append((chunk, task.remote(chunk, op, limits)))
            if len(window) >= slots:
                yield from _oldest(ray, task, window, op, limits)
        while window:
            yield from _oldest(ray, task, window, op, limits)
    finally:
        for _, ref in window:
            ray.cancel(ref)
        if started:
            ray.shutdown()


def _oldest(ray: Any, task: Any, window: deque[tuple[list[Line], Any]], op: str,
            limits: Limits) -> list[Answered]:
    """The answers of the oldest chunk in flight (rerun a line at a time when
    its worker died)."""
    chunk, ref = window.popleft()
    try:
        answers: list[Answered] = ray.get(ref)
        return answers
    except ray.exceptions.RayError as exc:
        logger.error("a Ray task of %d lines failed (%s); rerunning them one at a time",
                     len(chunk), type(exc).__name__)
    return _one_at_a_time(ray, task, chunk, op, limits)


def _one_at_a_time(ray: Any, task: Any, chunk: Sequence[Line], op: str,
                   limits: Limits) -> list[Answered]:
    answers: list[Answered] = []
    streak = 0
    for line in chunk:
        try:
            answers += ray.get(task.options(max_retries=0).remote([line], op, limits))
            streak = 0
            continue
        except ray.exceptions.RayError:
            streak += 1
        if streak >= MAX_CRASH_STREAK:
            raise WorkersFailed(f"Ray tasks failed on {streak} lines in a row; is rummy-solver "
                                "installed on every node of the cluster?")
        error = LineError("worker_crashed", "the worker answering this line died (out of memory "
                                            "or a crash in the solver)", list(LOC_PREFIX))
        answers.append(Answered(encode({"id": line_id(line), "error": error.to_dict()}), False))
    return answers

