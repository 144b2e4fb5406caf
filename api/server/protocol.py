"""uvicorn's HTTP protocol with bounded request heads and JSON error answers.

``JsonErrorsProtocol`` is uvicorn's httptools protocol (``rummy-solver
serve`` hands it to uvicorn: ``uvicorn.Config(http=...)``; httptools is a
dependency) with two changes:

* **Malformed HTTP** (a ``Content-Length`` that is not a number, a broken
  request line or header ...) never reaches the application: uvicorn answers
  it with a plain-text 400 itself; here it is the one error shape,
  ``{"detail": [{"type": "invalid_http", ...}]}``.
* **A request's head is bounded** (``RUMMY_SOLVER_MAX_HEADER_BYTES``, the
  request line and every header; ``RUMMY_SOLVER_MAX_HEADERS`` headers) while
  its bytes arrive: uvicorn and httptools have no limit, and the parser joins
  the pieces of a header as they come (each piece copies all before it), so
  one 128 MB header cost a worker 20 CPU-seconds and 100 MB of memory it
  kept.  Bytes of a head are counted before the parser sees them and a head
  over the limit is refused without being parsed further; the header count
  is checked as each header completes.  Either way the answer is a 431
  ``headers_too_large`` at once, and the connection is closed.

A refused connection is closed the way production servers close one (a
*lingering close*): the answer is sent, the write side shut, and what the
client still sends is read and dropped for a moment (``LINGER_S``, at most
``LINGER_BYTES``) before the socket is closed; closing at once, with unread
bytes, makes the kernel reset the connection, and a client still sending
would lose the answer it had not read yet.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base

from api.shared.errors import error_body, error_bytes, item
from api.shared.settings import current

_MESSAGE = ("the request is not valid HTTP/1.1 (a Content-Length that is not a number, "
            "a malformed request line or header ...)")
LINGER_S = 1.0
"""How long a refused connection keeps reading (and dropping) what its client still sends."""
LINGER_BYTES = 1 << 20
"""... and how much of it, at most, before it is closed anyway."""

_REASONS = {400: b"Bad Request", 431: b"Request Header Fields Too Large"}


def _answer(status: int, body: bytes) -> bytes:
    """A whole HTTP answer that closes its connection, with a fresh
    ``X-Request-ID`` as every answer of the service has (the request's own
    is not read: its head is refused)."""
    return (b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"x-request-id: %s\r\nconnection: close\r\n\r\n"
            % (status, _REASONS[status], len(body), os.urandom(16).hex().encode()) + body)


def too_large_answer(msg: str) -> bytes:
    """The 431 answer to a head over the limits (``loc``: the headers)."""
    return _answer(431, error_body([item("headers_too_large", ("header",), msg)]))


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop parsing a head over the limits."""


class JsonErrorsProtocol(_Base):
    """uvicorn's httptools protocol (httptools is a dependency: where a head
    starts and ends comes from its parser's callbacks); bounded heads, errors
    in the JSON error shape."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = current()
        self.max_head_bytes = settings.max_header_bytes
        self.max_headers = settings.max_headers
        self.head_bytes: int | None = 0
        """Bytes of the head being received, or None while a body is (the
        parser's callbacks say where a head starts and ends)."""
        self.heads = 0
        """Heads begun on this connection (tells a new head from the one counted)."""
        self.header_count = 0
        self.refusal: bytes | None = None
        """The answer a parser callback decided on (the parser then raises)."""
        self.refused = False
        """The connection was answered and is closing: what arrives is dropped."""
        self.dropped = 0
        """Bytes read and dropped since the connection was refused."""
        self.linger: asyncio.TimerHandle | None = None

    # -- bytes in ---------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self.refused:
            self.dropped += len(data)
            if self.dropped > LINGER_BYTES:
                self.transport.close()
            return
        if self.head_bytes is None or self.head_bytes + len(data) <= self.max_head_bytes:
            if self.head_bytes is not None:
                self.head_bytes += len(data)
            super().data_received(data)
            return
        # The head would pass its limit within this chunk: the parser gets only
        # what still fits; if the head has not ended by then, it is refused
        # without a byte more parsed (the rest may be a body or the next request).
        room = self.max_head_bytes - self.head_bytes
        heads = self.heads
        self.head_bytes = self.max_head_bytes
        if room:
            super().data_received(data[:room])
        if self.refused:
            return
        if self.head_bytes is not None and self.heads == heads:
            self._refuse(too_large_answer(
                f"the request's head (request line and headers) is over {self.max_head_bytes} "
                "bytes (RUMMY_SOLVER_MAX_HEADER_BYTES)"))
            return
        self.data_received(data[room:])

    # -- parser callbacks -------------------------------------------------------
    def on_message_begin(self) -> None:
        self.header_count = 0
        super().on_message_begin()

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_count += 1
        if self.header_count > self.max_headers:
            self.refusal = too_large_answer(
                f"the request has more than {self.max_headers} headers "
                "(RUMMY_SOLVER_MAX_HEADERS)")
            raise _HeadTooLarge  # the parser stops; uvicorn calls send_400_response
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.head_bytes = None
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        # The next request's head starts here; the rest of the chunk that held
        # this end is not counted (it is at most the limit: see data_received).
        self.head_bytes = 0
        self.heads += 1
        super().on_message_complete()

    # -- answers that close the connection ---------------------------------------
    def send_400_response(self, msg: str) -> None:
        refusal, self.refusal = self.refusal, None
        if refusal is None:
            self.logger.warning("%s", msg)
            refusal = _answer(400, error_bytes("invalid_http", _MESSAGE))
        self._refuse(refusal)

    def _refuse(self, answer: bytes) -> None:
        """Send ``answer`` and close the connection, lingering (module docstring)."""
        self.refused = True
        self.transport.write(answer)
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.linger = self.loop.call_later(LINGER_S, self.transport.close)
        else:  # pragma: no cover - TLS transports cannot half-close
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.linger is not None:
            self.linger.cancel()
        super().connection_lost(exc)


PROTOCOL = f"{__name__}:JsonErrorsProtocol"
"""What ``uvicorn.Config(http=...)`` is given (a name: the config crosses to the workers)."""
