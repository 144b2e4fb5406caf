"""``POST /v1/solve/stream``: every line answered as ``rummy-solver bulk`` answers it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import time
import warnings
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import Any, cast

import pytest
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

from api.pool.solver_pool import Outcome, SolverPool
from api.server.main import create_app
from api.server.stream import STALLED_WRITE_S, NdjsonStream
from api.shared.lines import answer_line
from api.shared.settings import Settings
from solver.cards import card_name

NDJSON = {"content-type": "application/x-ndjson"}


def make_client(**settings: int) -> TestClient:
    fields: dict[str, Any] = {"processes": 0, **settings}
    return TestClient(create_app(Settings(**fields)),
                      raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


def _mixed_lines(count: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    deck2 = [card_name(c) for c in range(52) for _ in range(2)] + ["JK"] * 4
    lines = []
    for i in range(count):
        kind = i % 6
        body: dict[str, Any]
        if kind == 0:
            body = {"variant": "gin", "hand": [card_name(c) for c in rng.sample(range(52), 10)]}
        elif kind == 1:
            body = {"variant": "indian13", "wild_rank": "7", "discard": True,
                    "hand": rng.sample(deck2, 14)}
        elif kind == 2:
            body = {"op": "discard_hint", "variant": "gin",
                    "hand": [card_name(c) for c in rng.sample(range(52), 11)]}
        elif kind == 3:
            body = {"op": "validate", "variant": "gin", "melds": [["AS", "2S", "3S"]],
                    "deadwood": ["KD"]}
        elif kind == 4:
            body = {"variant": "gin", "hand": ["AS", "ZZ"]}  # a bad card
        else:
            body = {"op": "knock", "hand": [card_name(c) for c in rng.sample(range(52), 11)]}
        lines.append(json.dumps({"id": i, **body}))
    return lines


def _answers(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def _bulk(lines: list[str]) -> list[dict[str, object]]:
    return [answer_line(line, number) for number, line in enumerate(lines, 1)]


def _body_then_silence(body: list[dict[str, Any]]) -> Callable[[], Awaitable[dict[str, Any]]]:
    """An ASGI ``receive`` that gives ``body``'s messages (last first), then
    waits for good: a client still connected that sends nothing more."""
    async def receive() -> dict[str, Any]:
        if body:
            return body.pop()
        await asyncio.Event().wait()
        raise AssertionError  # pragma: no cover
    return receive


def test_every_line_is_answered_in_order_as_bulk_answers_it(client: TestClient) -> None:
    lines = _mixed_lines(60)
    response = client.post("/v1/solve/stream", content="\n".join(lines) + "\n", headers=NDJSON)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    answers = _answers(response.text)
    assert [a["id"] for a in answers] == list(range(60))
    assert answers == _bulk(lines)
    assert sum(1 for a in answers if "error" in a) == 10  # the bad cards, and nothing else


def test_blank_bad_and_crlf_lines_each_get_an_answer(client: TestClient) -> None:
    body = ('{"id": "a", "variant": "gin", "hand": "AS 2S 3S"}\r\n'
            "\n"
            "not json\n"
            '{"id": "b", "variant": "nope", "hand": "AS"}\n'
            '{"id": "c", "variant": "gin", "hand": "KS QS JS"}')  # no final newline
    answers = _answers(client.post("/v1/solve/stream", content=body, headers=NDJSON).text)
    assert [a["id"] for a in answers] == ["a", None, None, "b", "c"]
    assert [a["error"]["type"] for a in answers if "error" in a] == [  # type: ignore[index]
        "missing", "json_invalid", "unknown_variant"]
    assert [a["line"] for a in answers if "error" in a] == [2, 3, 4]  # each names its line


def test_an_empty_stream_gets_an_empty_answer(client: TestClient) -> None:
    response = client.post("/v1/solve/stream", content=b"", headers=NDJSON)
    assert response.status_code == 200 and response.text == ""


def test_a_line_over_the_body_limit_is_answered_and_the_stream_goes_on() -> None:
    with make_client(max_body_bytes=2_000) as small:
        long_line = json.dumps({"id": 1, "variant": "gin", "hand": ["AS"] * 500})
        body = f'{{"id": 0, "variant": "gin", "hand": "AS 2S 3S"}}\n{long_line}\n' \
               '{"id": 2, "variant": "gin", "hand": "KS QS JS"}\n'
        answers = _answers(small.post("/v1/solve/stream", content=body, headers=NDJSON).text)
    assert len(answers) == 3
    assert answers[1] == {"id": None, "line": 2, "error": {
        "type": "line_too_large", "loc": ["line"],
        "msg": "line is over 2000 bytes (RUMMY_SOLVER_MAX_BODY_BYTES)"}}
    assert answers[2]["id"] == 2 and "result" in answers[2]


def test_a_stream_over_its_limit_ends_with_one_error_line() -> None:
    with make_client(max_stream_bytes=10_000) as small:
        lines = [json.dumps({"id": i, "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"})
                 for i in range(400)]
        answers = _answers(small.post("/v1/solve/stream", content="\n".join(lines),
                                      headers=NDJSON).text)
    assert 50 < len(answers) < 400
    assert answers[-1]["error"]["type"] == "stream_too_large"  # type: ignore[index]
    assert all("result" in a for a in answers[:-1])


def test_each_line_keeps_its_own_deadline(client: TestClient) -> None:
    rng = random.Random(8)
    deck8 = [card_name(c) for c in range(52) for _ in range(8)] + ["JK"] * 8
    heavy = {"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"}, "wild_rank": "7H",
             "time_limit_ms": 100}
    lines = [json.dumps({"id": i, **heavy, "hand": rng.sample(deck8, 30)}) for i in range(5)]
    started = time.monotonic()
    answers = _answers(client.post("/v1/solve/stream", content="\n".join(lines),
                                   headers=NDJSON).text)
    took = time.monotonic() - started
    assert [a["id"] for a in answers] == list(range(5))
    assert all("result" in a for a in answers)
    assert took < 5 * (0.1 + 0.1) + 1.0, took  # each line within its 100 ms, plus margin


def test_the_stream_is_in_the_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["paths"]["/v1/solve/stream"]["post"]
    assert "application/x-ndjson" in schema["requestBody"]["content"]
    assert "application/x-ndjson" in schema["responses"]["200"]["content"]


@pytest.mark.parametrize(("content_type", "status"), [
    ("application/x-ndjson", 200), ("application/jsonl", 200), (None, 200),
    ("text/plain", 415), ("application/json", 415)])
def test_the_stream_takes_ndjson_or_no_content_type(client: TestClient, content_type: str | None,
                                                    status: int) -> None:
    """The stream's body is NDJSON: another type is refused with 415 before a line is
    read (a JSON document may span lines); no Content-Type at all is read as NDJSON."""
    headers = {} if content_type is None else {"content-type": content_type}
    lines = '{"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}\n'
    response = client.post("/v1/solve/stream", content=lines, headers=headers)
    assert response.status_code == status, response.text
    if status == 415:
        item = response.json()["detail"][0]
        assert item["type"] == "unsupported_media_type"
        assert "application/x-ndjson" in item["msg"]
    else:
        assert json.loads(response.text.splitlines()[0])["result"]["deadwood_points"] == 33


class _InstantPool:
    """A pool whose every job is answered at once (the stream's writes are under test)."""

    async def submit(self, *args: Any, **kwargs: Any) -> Outcome:
        return Outcome(200, b'{"id":null,"result":{}}', {"ok": True})


def test_a_client_that_stops_reading_is_let_go_after_the_streams_time() -> None:
    """A client that stops reading blocks the stream's writes for good; the
    stream is dropped once its time (RUMMY_SOLVER_MAX_STREAM_S) and
    ``STALLED_WRITE_S`` are up, instead of holding its connection and its
    unread lines in memory for as long as the client stays connected."""
    stream = NdjsonStream(cast(SolverPool, _InstantPool()), Settings(max_stream_s=1), "-")
    body = [{"type": "http.request", "body": b'{"variant": "gin", "hand": "AS"}\n' * 50,
             "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def run() -> float:
        reading = asyncio.Event()  # set: the client reads again (the test's end)

        receive = _body_then_silence(body)

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(dict(message))
            if len(sent) > 3:  # the client's buffers are full: the write waits for it
                await reading.wait()

        started = time.monotonic()
        task = asyncio.ensure_future(stream({"type": "http", "client": ("1.2.3.4", 5)},
                                            receive, send))
        done, _ = await asyncio.wait({task}, timeout=1 + STALLED_WRITE_S + 5)
        took = time.monotonic() - started if done else math.inf
        reading.set()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return took

    took = asyncio.run(run())
    assert 1 <= took < 1 + STALLED_WRITE_S + 1, took
    assert not any(m["type"] == "http.response.body" and not m.get("more_body") for m in sent)


def test_a_stream_whose_client_sends_nothing_more_ends_at_its_time() -> None:
    """RUMMY_SOLVER_MAX_STREAM_S bounds a stream whose client keeps its body
    open without sending another line: one ``stream_time_exceeded`` line
    ends it then (it used to be looked at only when a next line came, so
    such a stream stayed open as long as its client liked)."""
    stream = NdjsonStream(cast(SolverPool, _InstantPool()), Settings(max_stream_s=1), "-")
    body = [{"type": "http.request", "body": b'{"variant": "gin", "hand": "AS"}\n',
             "more_body": True}]
    sent: list[dict[str, Any]] = []

    async def run() -> bool:
        receive = _body_then_silence(body)

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(dict(message))

        task = asyncio.ensure_future(stream({"type": "http", "client": ("1.2.3.4", 5)},
                                            receive, send))
        done, _ = await asyncio.wait({task}, timeout=30)  # a bound on a hang, not a timing
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return bool(done)

    assert asyncio.run(run()), "the stream outlived RUMMY_SOLVER_MAX_STREAM_S"
    answers = [json.loads(line) for m in sent if m["type"] == "http.response.body"
               for line in m.get("body", b"").decode().splitlines()]
    assert [a.get("error", {}).get("type") for a in answers] == [None, "stream_time_exceeded"]
    assert answers[1]["line"] == 2
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


class _LatePool:
    """A pool whose every job overran its deadline (a 503 ``unavailable``)."""

    async def submit(self, *args: Any, **kwargs: Any) -> Outcome:
        return Outcome(503, b'{"detail":[]}', {"retry_after": 1})


def test_a_line_the_solver_could_not_answer_says_what_to_do() -> None:
    """An ``unavailable`` line's message says to send the line again, as the
    HTTP answer's says to retry (it said only that the solver failed)."""
    stream = NdjsonStream(cast(SolverPool, _LatePool()), Settings(), "-")
    body = [{"type": "http.request", "body": b'{"variant": "gin", "hand": "AS"}\n',
             "more_body": False}]
    sent: list[dict[str, Any]] = []

    receive = _body_then_silence(body)

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    asyncio.run(stream({"type": "http", "client": ("1.2.3.4", 5)}, receive, send))
    answers = [json.loads(line) for m in sent if m["type"] == "http.response.body"
               for line in m.get("body", b"").decode().splitlines()]
    assert [a["error"]["type"] for a in answers] == ["unavailable"]
    assert answers[0]["error"]["msg"].endswith("; send it again")
