"""``api.server.protocol`` on a real server: bounded request heads, JSON error answers.

One ``rummy-solver serve`` worker (so every connection reaches the same
event loop) and, over raw sockets:

* a 128 MB header, streamed until the server answers, gets a 431 at once;
  ordinary requests on the same worker keep answering meanwhile, and the
  worker's memory (``/proc``) does not stay higher afterwards;
* 1,000 headers get a 431; a head just under the limits, with a body after
  it, is served;
* every such answer is the JSON error shape and closes the connection.
"""

from __future__ import annotations

import json
import re
import select
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.shared.settings import Settings
from benchmarks.service.load import Server

LIMITS = Settings.model_construct()
HEADER_BYTES = LIMITS.max_header_bytes
HEADERS = LIMITS.max_headers

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server(1, settings={"processes": "1"})
    try:
        running.wait_ready(answers=2, timeout_s=40)
        yield running
    finally:
        running.close()


def _address(server: Server) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").split(":")
    return host, int(port)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _read_all(sock: socket.socket, timeout_s: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(timeout_s)
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    return answer


def _json_error(answer: bytes, status: int) -> dict[str, object]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(f"HTTP/1.1 {status} ".encode()), answer[:300]
    assert b"content-type: application/json" in head.lower()
    assert b"connection: close" in head.lower()
    # README: every response carries X-Request-ID (these had none)
    assert re.search(rb"^x-request-id: [0-9a-f]{32}\r$", head.lower(), re.M), head
    detail = json.loads(body)["detail"]
    assert len(detail) == 1 and set(detail[0]) == {"type", "loc", "msg"}
    item: dict[str, object] = detail[0]
    return item


def _stream_header(server: Server, total: int, chunk: int = 256 * 1024) -> tuple[bytes, float, int]:
    """Send a request whose one header is ``total`` bytes long, a chunk at a
    time, stopping as soon as the server answers; the answer, the seconds from
    the first byte to the answer, and the bytes sent."""
    piece = b"a" * chunk
    with socket.create_connection(_address(server), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        while sent < total:
            readable, writable, _ = select.select([sock], [sock], [], 10)
            if readable:
                break
            if writable:
                try:
                    sent += sock.send(piece)
                except (BrokenPipeError, ConnectionResetError):
                    break  # the server answered and closed between the select and the send
            if time.monotonic() - started > 30:
                break
        readable, _, _ = select.select([sock], [], [], 10)
        answered = time.monotonic() - started
        return _read_all(sock), answered, sent


def test_a_128_mb_header_gets_431_at_once_and_leaves_no_memory(server: Server) -> None:
    pid = server.process.pid
    with httpx.Client(timeout=10) as client:
        for _ in range(20):  # the worker's memory after ordinary work
            assert client.get(server.url + "/healthz").status_code == 200
    before = _rss_mb(pid)

    stop = threading.Event()
    waits: list[float] = []
    statuses: list[int] = []

    def ordinary() -> None:
        with httpx.Client(timeout=10) as client:
            while not stop.is_set():
                started = time.monotonic()
                statuses.append(client.get(server.url + "/healthz").status_code)
                waits.append(time.monotonic() - started)
                time.sleep(0.01)

    neighbour = threading.Thread(target=ordinary)
    neighbour.start()
    try:
        answer, answered_s, sent = _stream_header(server, 128 * 1024 * 1024)
    finally:
        time.sleep(0.2)
        stop.set()
        neighbour.join(15)
    item = _json_error(answer, 431)
    assert item["type"] == "headers_too_large" and item["loc"] == ["header"]
    assert str(HEADER_BYTES) in str(item["msg"])
    assert answered_s < 2.0, answered_s  # a few ms on a quiet machine
    assert sent < 64 * 1024 * 1024, sent  # the client stopped well before the end
    assert statuses and set(statuses) == {200}, statuses
    assert max(waits) < 1.0, max(waits)  # the neighbours were not held up
    time.sleep(0.5)
    grown = _rss_mb(pid) - before
    assert grown < 16, f"the worker holds {grown:.0f} MB more after the header"


def test_a_thousand_headers_get_431(server: Server) -> None:
    headers = b"".join(b"X-H%d: v\r\n" % i for i in range(1000))
    assert len(headers) < HEADER_BYTES  # the count trips, not the size
    with socket.create_connection(_address(server), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
        answer = _read_all(sock)
    item = _json_error(answer, 431)
    assert item["type"] == "headers_too_large"
    assert str(HEADERS) in str(item["msg"])


def test_a_head_in_small_pieces_is_counted_across_them(server: Server) -> None:
    """A header sent a few bytes at a time, past the limit: the pieces add up."""
    with socket.create_connection(_address(server), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        for _ in range(HEADER_BYTES // 1000 + 2):
            sock.sendall(b"b" * 1000)
            time.sleep(0.001)
        answer = _read_all(sock)
    assert _json_error(answer, 431)["type"] == "headers_too_large"


def test_a_head_just_under_the_limits_and_its_body_are_served(server: Server) -> None:
    """Headers near both limits, then a JSON body the parser must still read as a body."""
    count = HEADERS - 10  # httpx adds its own (host, user-agent, content-type ...)
    filler = (HEADER_BYTES - 2000) // count - len("X-Fill-00: \r\n")
    headers = {f"X-Fill-{i:02d}": "f" * filler for i in range(count)}
    body = {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}
    with httpx.Client(timeout=10) as client:
        for _ in range(3):  # and again on the same connection
            response = client.post(server.url + "/v1/solve", json=body, headers=headers)
            assert response.status_code == 200, response.text[:300]
            assert response.json()["deadwood_points"] == 33


def test_pipelined_requests_each_get_their_answer(server: Server) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 2000 + b"\r\n\r\n"
    with socket.create_connection(_address(server), timeout=10) as sock:
        sock.sendall(request * 40 + b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = _read_all(sock)
    assert answer.count(b"HTTP/1.1 200 ") == 41, answer[:300]


def test_malformed_http_gets_a_json_400_and_the_connection_closes(server: Server) -> None:
    with socket.create_connection(_address(server), timeout=10) as sock:
        sock.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}")
        answer = _read_all(sock)
    assert _json_error(answer, 400)["type"] == "invalid_http"


def test_openapi_documents_the_refusals_any_request_may_get() -> None:
    """This protocol's 400 ``invalid_http`` and 431 ``headers_too_large`` may
    answer any request, and the body guard's 408 ``body_timeout`` any JSON
    body: ``openapi.json`` lists them on every ``/v1`` operation (they were
    missing, so a client generated from it did not expect them), each with
    its example in the error shape."""
    document = json.loads((Path(__file__).resolve().parent.parent / "openapi.json").read_text())
    for path, operations in document["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            expected = {"400": "invalid_http", "431": "headers_too_large"}
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                expected["408"] = "body_timeout"
            for status, code in expected.items():
                answer = operation["responses"].get(status)
                assert answer is not None, f"{where} {status}"
                example = answer["content"]["application/json"]["example"]
                assert example["detail"][0]["type"] == code, f"{where} {status}"
