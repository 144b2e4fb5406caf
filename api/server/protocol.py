"""uvicorn's HTTP protocol, answering malformed HTTP in the one error shape.

A request the HTTP parser rejects (a ``Content-Length`` that is not a number,
a broken request line or header ...) never reaches the application: uvicorn
answers it with a plain-text 400 itself.  ``JsonErrorsProtocol`` is uvicorn's
protocol (httptools when installed, else h11) with that answer as
``{"detail": [{"type": "invalid_http", ...}]}``.  ``rummy-solver serve``
hands it to uvicorn (``uvicorn.Config(http=...)``).
"""

from __future__ import annotations

from api.shared.errors import error_bytes

_MESSAGE = ("the request is not valid HTTP/1.1 (a Content-Length that is not a number, "
            "a malformed request line or header ...)")


def _answer() -> bytes:
    body = error_bytes("invalid_http", _MESSAGE)
    return (b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:  # pragma: no cover - httptools is a dependency
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Base  # type: ignore[assignment]


class JsonErrorsProtocol(_Base):
    """uvicorn's protocol; malformed requests get the JSON error shape."""

    def send_400_response(self, msg: str) -> None:
        self.logger.warning("%s", msg)
        self.transport.write(_answer())
        self.transport.close()


PROTOCOL = f"{__name__}:JsonErrorsProtocol"
"""What ``uvicorn.Config(http=...)`` is given (a name: the config crosses to the workers)."""
