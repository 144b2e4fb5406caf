"""``POST /v1/solve/stream``: NDJSON in, NDJSON out, one answer line per input line.

Each input line is what a ``rummy-solver bulk`` line is (a ``/v1/solve`` body,
or another operation's body with ``"op"``, plus an optional ``"id"``); each
output line is exactly what the CLI writes for it (``api.shared.lines``), in
input order, sent as soon as it is ready; an error line names the line's
number.

* **Work** runs on the worker's solver pool, one job per line and one line
  at a time, each under the line's own deadline: its ``time_limit_ms`` or the
  default, as ``api.bulk`` applies it, counted from when the line's job
  starts.  Each line queues under the stream's client like any request
  (``api.pool.fair_queue``), so a stream's lines take turns with other clients'
  requests instead of going in front of them.  A line that cannot start in
  time is answered with an ``overloaded`` error line; the stream goes on.
* **Time**: a stream runs at most ``RUMMY_SOLVER_MAX_STREAM_S`` seconds; then
  one ``stream_time_exceeded`` line ends it.  A client that stops reading
  blocks the writes; one still blocked ``STALLED_WRITE_S`` past that time
  has its connection dropped (uvicorn closes a response its app left
  unfinished), so the stream and its unread lines do not outlive it.  When
  the service shuts down and its drain time (``RUMMY_SOLVER_DRAIN_S``) is
  over, one ``unavailable`` line ends it.
* **Limits**: a line over ``RUMMY_SOLVER_MAX_BODY_BYTES`` is answered
  ``line_too_large`` (and never held whole); the stream reads at most
  ``RUMMY_SOLVER_MAX_STREAM_BYTES``, then answers one ``stream_too_large``
  line and stops.
* **Reading** runs ahead of the answers (into memory, within that limit): a
  client that sends its whole body before reading the response, as most
  HTTP/1.1 clients do, never deadlocks against our output.
* **Disconnect**: a client that goes away cancels the line in progress and
  everything after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque

from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from api.pool.solver_pool import Overloaded, SolverPool
from api.server.dispatch import client_of
from api.shared.decode import too_large
from api.shared.errors import ErrorItem, item
from api.shared.lines import PREFIX, encode, error_answer
from api.shared.settings import Settings

logger = logging.getLogger("api.stream")

MEDIA_TYPE = "application/x-ndjson"
STALLED_WRITE_S = 2.0
"""How long past the stream's time (``RUMMY_SOLVER_MAX_STREAM_S``) a write may
wait for a client that does not read; then the stream is dropped."""


class _TimeUp:
    """``_Lines.next_line``'s answer when the stream's time ran out while it waited."""


TIME_UP = _TimeUp()


class _Lines:
    """The request body as lines, read eagerly by a background task."""

    def __init__(self, receive: Receive, settings: Settings) -> None:
        self.receive = receive
        self.max_line = settings.max_body_bytes
        self.max_total = settings.max_stream_bytes
        self.ready: deque[bytes | ErrorItem] = deque()
        self.changed = asyncio.Event()
        self.finished = False
        self.disconnected = asyncio.Event()

    def _put(self, line: bytes | ErrorItem) -> None:
        self.ready.append(line)
        self.changed.set()

    async def read(self) -> None:
        """Read the body to its end, then wait for the client's disconnect."""
        try:
            await self._read_body()
        finally:
            self.finished = True
            self.changed.set()
        while (await self.receive())["type"] != "http.disconnect":
            pass
        self.disconnected.set()
        self.changed.set()

    async def _read_body(self) -> None:
        partial = bytearray()
        skipping = False  # inside a line already answered line_too_large
        total = 0
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                self.disconnected.set()
                return
            chunk: bytes = message.get("body", b"")
            over = total + len(chunk) > self.max_total
            if over:  # the whole lines within the limit are answered, then one error
                chunk = chunk[:self.max_total - total]
                chunk = chunk[:chunk.rfind(b"\n") + 1]
            total += len(chunk)
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                if not skipping:
                    partial += piece
                    if len(partial) > self.max_line:
                        self._put(too_large("line", self.max_line).prefixed(PREFIX)[0])
                        partial.clear()
                        skipping = True
                if end < 0:
                    break
                if not skipping:
                    self._put(bytes(partial).rstrip(b"\r"))
                partial.clear()
                skipping = False
                start = end + 1
            if over:
                self._put(item(
                    "stream_too_large", ("body",),
                    f"the stream is over {self.max_total} bytes "
                    "(RUMMY_SOLVER_MAX_STREAM_BYTES); later lines were not read"))
                return
            if not message.get("more_body", False):
                if partial and not skipping:
                    self._put(bytes(partial).rstrip(b"\r"))
                return

    async def next_line(self, until: float) -> bytes | ErrorItem | _TimeUp | None:
        """The next line, ``None`` at the body's end (or the client's
        disconnect), or ``TIME_UP`` when none came by ``until`` (a
        ``time.monotonic()`` instant): a client that holds its body open
        without sending lines does not hold the stream past its time."""
        while not self.disconnected.is_set():
            if self.ready:
                return self.ready.popleft()
            if self.finished:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(until - time.monotonic(), 0.0))
            except TimeoutError:
                return TIME_UP
        return None


class NdjsonStream:
    """The ASGI response of one stream (see the module docstring)."""

    def __init__(self, pool: SolverPool, settings: Settings, request_id: str) -> None:
        self.pool = pool
        self.settings = settings
        self.request_id = request_id
        self.client = "-"
        self.lines = 0
        self.failed = 0

    def _line_limit_ms(self) -> int:
        # The longest deadline a line may ask for (api.shared.lines): the job's backstop.
        return max(self.settings.max_time_limit_ms, self.settings.request_budget_ms)

    async def _answer(self, line: bytes | ErrorItem, number: int,
                      lines: _Lines) -> tuple[bytes, bool]:
        if isinstance(line, dict):  # answered while reading
            return encode(error_answer(None, number, line)).encode(), False
        limit_ms = self._line_limit_ms()
        try:
            outcome = await self.pool.submit(
                "stream_line", {"line": line, "number": number},
                time.monotonic() + limit_ms / 1000.0, limit_ms, lines.disconnected.wait,
                self.request_id, client=self.client)
        except Overloaded as exc:
            return encode(error_answer(None, number, item(
                "overloaded", PREFIX, f"{exc.reason}; retry in {exc.retry_after_s} s"))).encode(), \
                False
        if outcome.log.get("shed"):  # refused while waiting: the work ahead ran long
            return encode(error_answer(None, number, item(
                "overloaded", PREFIX, "the solvers are busy: this line could not start before "
                f"its deadline; retry in {outcome.log['retry_after']} s"))).encode(), False
        if outcome.status != 200:  # the solver process failed or overran: the line's error
            return encode(error_answer(None, number, item(
                "unavailable", PREFIX, "the solver could not answer this line in time; "
                "send it again"))).encode(), \
                False
        return outcome.body, bool(outcome.log.get("ok"))

    def _ended(self, started: float, timed_out: bool = False) -> ErrorItem | None:
        """Why the stream must stop before its next line, if it must (``timed_out``:
        its time ran out while it waited for that line)."""
        if timed_out or time.monotonic() - started > self.settings.max_stream_s:
            return item("stream_time_exceeded", ("body",),
                        f"the stream ran for {self.settings.max_stream_s} s "
                        "(RUMMY_SOLVER_MAX_STREAM_S); later lines were not answered")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        self.client = client_of(scope)
        send = _writes_until(send, started + self.settings.max_stream_s)
        lines = _Lines(receive, self.settings)
        reader = asyncio.ensure_future(lines.read())
        window: deque[asyncio.Future[tuple[bytes, bool]]] = deque()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", MEDIA_TYPE.encode()),
                                (b"cache-control", b"no-store")]})
        try:
            number = 0
            ends_at = started + self.settings.max_stream_s
            while (line := await lines.next_line(ends_at)) is not None:
                number += 1
                ended = self._ended(started, timed_out=line is TIME_UP)
                if ended is not None:
                    self.failed += 1
                    await send({"type": "http.response.body", "more_body": True,
                                "body": encode(error_answer(None, number, ended)).encode() + b"\n"})
                    break
                assert not isinstance(line, _TimeUp)  # _ended said so
                # One line at a time: the next waits its turn with other clients' requests.
                window.append(asyncio.ensure_future(self._answer(line, number, lines)))
                await self._send_one(window.popleft(), send)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except TimeoutError:  # before OSError, which it is: the writes waited too long
            logger.warning("the stream's client stopped reading; its connection is dropped "
                           "%.0f s after RUMMY_SOLVER_MAX_STREAM_S", STALLED_WRITE_S)
        except OSError:
            pass  # the client went away while we wrote
        except asyncio.CancelledError:
            # The server's drain time is over: one last line says so, then the end.
            with contextlib.suppress(OSError, RuntimeError):
                await send({"type": "http.response.body", "more_body": True,
                            "body": encode(error_answer(None, self.lines + 1, item(
                                "unavailable", ("body",), "the service is shutting down "
                                "(its drain time is over); later lines were not answered"
                            ))).encode() + b"\n"})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            raise
        finally:
            for pending in window:
                pending.cancel()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            scope.setdefault("state", {})["log_fields"] = {
                "lines": self.lines, "failed_lines": self.failed}

    async def _send_one(self, answer: asyncio.Future[tuple[bytes, bool]], send: Send) -> None:
        body, ok = await answer
        self.lines += 1
        self.failed += not ok
        await send({"type": "http.response.body", "body": body + b"\n", "more_body": True})


def _writes_until(send: Send, ends_at: float) -> Send:
    """``send`` whose writes wait for the client until ``ends_at`` (the
    stream's end, a ``time.monotonic()`` instant) and ``STALLED_WRITE_S``
    more -- a write begun after it, ``STALLED_WRITE_S`` -- then give up with
    ``TimeoutError`` (an ``OSError``): a client that stopped reading would
    hold them forever."""
    async def bounded(message: Message) -> None:
        now = time.monotonic()
        loop = asyncio.get_running_loop()
        async with asyncio.timeout_at(loop.time() + max(ends_at - now, 0.0) + STALLED_WRITE_S):
            await send(message)

    return bounded


class StreamResponse(Response):
    """A ``Response`` whose body is an ``NdjsonStream`` (it reads the request itself)."""

    def __init__(self, stream: NdjsonStream) -> None:
        super().__init__(media_type=MEDIA_TYPE)
        self.stream = stream

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.stream(scope, receive, send)
