"""Many lines in input order on any runner of chunks (the solver pool, Ray).

``run_lines`` (``api.bulk.on_pool``) and ``run_lines_ray``
(``api.bulk.on_ray``) cut a game log into chunks of ``CHUNK_LINES`` lines
(``chunks``), each answered as ``api.shared.lines.answer_chunk`` answers it,
and go through ``in_order``: at most ``IN_FLIGHT_PER_PROCESS`` chunks per
worker in flight, so memory stays flat whatever the input's size; a chunk
whose worker died is rerun a line at a time, and only a line that kills a
worker on its own is answered ``worker_crashed``.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from api.shared.errors import item
from api.shared.lines import PREFIX, Answered, Line, encode, error_answer, line_id

logger = logging.getLogger("api.bulk")

CHUNK_LINES = 64
"""Lines per task sent to a solver process (or a Ray task)."""
IN_FLIGHT_PER_PROCESS = 4
"""Chunks in flight per worker: enough that no worker waits for the next
chunk while the oldest one holds up the output order, few enough that
memory stays flat."""
MAX_CRASH_STREAK = 3
"""Lines in a row whose worker died before the run is given up (``WorkersFailed``)."""


class WorkersFailed(RuntimeError):
    """Worker processes keep dying (or the pool keeps refusing a chunk): the run cannot go on."""


def chunks(lines: Iterable[Line], size: int = CHUNK_LINES) -> Iterator[tuple[int, list[Line]]]:
    """``(number of the first line, lines)`` in lists of ``size``, read lazily."""
    iterator = iter(lines)
    first = 1
    while chunk := list(islice(iterator, size)):
        yield first, chunk
        first += len(chunk)


class ChunkRunner:
    """What ``in_order`` needs of a runner (the solver pool, Ray): start a
    chunk (a ticket), then its answers, or ``None`` when its worker died."""

    def start(self, first: int, lines: Sequence[Line]) -> Any:  # pragma: no cover - protocol
        """Start answering ``lines`` (numbered from ``first``); a ticket for them."""
        raise NotImplementedError

    def finish(self, ticket: Any) -> list[Answered] | None:  # pragma: no cover - protocol
        """The answers of a started chunk; None when its worker died."""
        raise NotImplementedError


def in_order(chunked: Iterator[tuple[int, list[Line]]], runner: ChunkRunner, window_size: int,
             crashed_hint: str = "") -> Generator[Answered, None, None]:
    """Every line's answer in input order, at most ``window_size`` chunks in
    flight.  A chunk whose worker died is rerun a line at a time: a line
    that kills a worker on its own is answered ``worker_crashed``; when that
    happens ``MAX_CRASH_STREAK`` lines in a row the run stops
    (``WorkersFailed``, its message ending with ``crashed_hint``)."""
    window: deque[tuple[int, list[Line], Any]] = deque()
    for first, chunk in chunked:
        window.append((first, chunk, runner.start(first, chunk)))
        if len(window) >= window_size:
            yield from _oldest(window, runner, crashed_hint)
    while window:
        yield from _oldest(window, runner, crashed_hint)


def _oldest(window: deque[tuple[int, list[Line], Any]], runner: ChunkRunner,
            crashed_hint: str) -> list[Answered]:
    first, chunk, ticket = window.popleft()
    answers = runner.finish(ticket)
    if answers is not None:
        return answers
    logger.error("a bulk worker died; rerunning %d lines one at a time", len(chunk))
    answers = []
    streak = 0
    for number, line in enumerate(chunk, first):
        single = runner.finish(runner.start(number, [line]))
        if single is not None:
            answers += single
            streak = 0
            continue
        streak += 1
        if streak >= MAX_CRASH_STREAK:
            raise WorkersFailed(f"bulk workers died on {streak} lines in a row{crashed_hint}")
        error = item("worker_crashed", PREFIX, "the worker answering this line died (out of "
                                               "memory or a crash in the solver)")
        answers.append(Answered(encode(error_answer(line_id(line), number, error)), False))
    return answers
