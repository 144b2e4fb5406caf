"""The real server under hostile load: every request answered by its deadline.

Starts ``rummy-solver serve`` (2 workers, each with its solver process) on a
free port and checks, over real HTTP:

* hostile bodies (the layoff listing with 16 wild cards and 20 table melds,
  29- and 30-card hints, a 50-meld pile hint, 30-card 8-deck solves, a large
  batch) answer within their ``time_limit_ms`` + 100 ms on the server's clock;
* 40 concurrent heavy solves: every one gets an HTTP answer (200, or 503 with
  ``Retry-After``) by its deadline + 100 ms, ``/healthz`` keeps answering,
  no connection error, and no worker is replaced;
* a client that disconnects stops its work: the server's CPU goes idle;
* bad input costs little: bounded 422s for a megabyte of integers and deep
  nesting;
* SIGTERM drains the request in flight, refuses new connections, exits;
  what is still running when the drain time is over gets a JSON 503 (a
  stream: a last error line), never uvicorn's plain-text 500;
* overload and fair shares: 200 connections of gin solves are all served; a
  crowd of heavy solves that cannot all start is answered 503 at once with
  Retry-After; light solves keep 95 % of their answers beside two heavy
  streams; a solve right after heavy work is not held up by garbage
  collection; clients leaving before their solve starts replace no process;
* malformed HTTP gets the JSON error shape, a body that never arrives a 408;
* kill -9 of a worker: the replacement gets its keep-alive clients back,
  and a crowd of expert advice is refused at arrival or served (slow lane:
  ``--run-slow``).

The 100 ms margins hold in the slow lane; the default run, whose server
shares the two cores with the other test worker, allows 500 ms
(``margin_ms``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.pool.solver_pool import IDLE_COLLECT_S, LATE_S
from benchmarks.service.hostile import deck as _deck
from benchmarks.service.hostile import hostile_bodies
from benchmarks.service.load import Server

MARGIN_S = 0.1  # the API answers within the deadline + 100 ms
SHARED_MARGIN_S = 0.5
"""The margin the default lane checks: there the server shares the two cores
with the other test worker (a headless browser, mypy, arenas), and a worker
that gets no CPU for a while answers late through no fault of its own; a
runaway loop or a missed deadline check still shows, as seconds. The slow
lane (``--run-slow``) and ``python -m benchmarks --deadline`` hold the
100 ms (``MARGIN_S``)."""


def margin_ms(config: pytest.Config) -> float:
    """The margin past a deadline these tests allow, in ms: ``MARGIN_S`` in the
    slow lane, ``SHARED_MARGIN_S`` in the default run."""
    return 1000 * (MARGIN_S if config.getoption("--run-slow") else SHARED_MARGIN_S)


# After a disconnect: the job stops within 100 ms, then the solver process,
# idle for api.pool.solver_pool.IDLE_COLLECT_S, runs the garbage collector once; the CPU
# is measured after that (the solve itself had seconds of work left).
IDLE_SETTLE_S = 0.1 + IDLE_COLLECT_S + 0.3
READY_TIMEOUT_S = 40.0
BODY_TIMEOUT_S = 2  # the module's server waits this long for a body (RUMMY_SOLVER_BODY_TIMEOUT_S)


def start_server(workers: int = 2, **settings: str) -> Server:
    """``rummy-solver serve`` with its access log, once every worker is likely up.
    The log has a line for every request (``access_log_per_s`` 0): the tests
    read each request's time on the server from it, and the default bound
    (100 lines a second a worker) leaves out a crowd's requests after a burst."""
    server = Server(workers, log_level="info", settings={"access_log_per_s": "0", **settings})
    try:
        server.wait_ready(answers=4, timeout_s=READY_TIMEOUT_S)
    except RuntimeError as error:
        server.close()
        pytest.fail(str(error))
    return server


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = start_server(body_timeout_s=str(BODY_TIMEOUT_S))
    try:
        yield running
    finally:
        running.stop()
    log = running.output()
    running.close()
    # uvicorn's supervisor logs "Child process [pid] died" when it replaces a worker
    assert not re.search(r"Child process \[\d+\] died", log), (
        "a worker was replaced during the tests:\n" + log[-3000:])


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    """One keep-alive client, as a game server would hold: a fresh ``httpx.post``
    builds an SSL context per call (tens of ms on this machine), which is the
    client's cost, not the server's."""
    with httpx.Client(timeout=30.0) as held:
        yield held


def post(url: str, path: str, body: Any, timeout: float = 30.0,
         client: httpx.Client | None = None) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    if client is None:
        response = httpx.post(url + path, json=body, timeout=timeout)
    else:
        response = client.post(url + path, json=body, timeout=timeout)
    return response, time.monotonic() - started


@pytest.mark.parametrize("limit_ms", [1, 300])
def test_hostile_bodies_answer_by_their_deadline(server: Server, client: httpx.Client,
                                                 limit_ms: int, pytestconfig: pytest.Config
                                                 ) -> None:
    """Each answer is sent by its deadline + the margin on the server's clock (from
    the request's arrival, as the access log records it); the client, which
    shares the two cores with the other test processes, only checks that no
    answer is far later than that (a hang)."""
    names: dict[str, str] = {}
    for index, (name, path, body) in enumerate(hostile_bodies()):
        request_id = f"hostile-{limit_ms}-{index}"
        names[request_id] = name
        started = time.monotonic()
        response = client.post(server.url + path, json={**body, "time_limit_ms": limit_ms},
                               headers={"X-Request-ID": request_id})
        took = time.monotonic() - started
        assert response.status_code in (200, 503), (name, response.text[:300])
        assert took <= limit_ms / 1000 + 1.0, (name, limit_ms, took)
        if response.status_code == 503:
            assert int(response.headers["retry-after"]) >= 1
        assert len(response.content) < 4_000_000
    time.sleep(0.3)  # the last access-log lines
    on_server = server.server_ms()
    for request_id, name in names.items():
        assert request_id in on_server, f"no access-log line for {name}"
        assert on_server[request_id] <= limit_ms + margin_ms(pytestconfig), (
            name, limit_ms, on_server[request_id])


def test_bad_input_is_cheap_and_bounded(server: Server, client: httpx.Client) -> None:
    megabyte = b'{"variant": "gin", "hand": [' + b",".join([b"12345"] * 166_000) + b"]}"
    assert len(megabyte) < 1_000_000
    deep = b"[" * 900 + b"]" * 900
    deeper = b'{"variant": "gin", "hand": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    for content in (megabyte, deep, deeper, b"\xff" * 1000):
        started = time.monotonic()
        response = client.post(server.url + "/v1/solve", content=content, timeout=10,
                              headers={"content-type": "application/json"})
        assert response.status_code == 422, response.text[:200]
        assert len(response.content) <= 64 * 1024
        # bounded, not timed: a parse that grew with the input's nesting or size took
        # seconds; a busy shared machine takes 0.6 s of what a quiet one does in 0.1
        assert time.monotonic() - started < 2.0
    oversized = httpx.post(server.url + "/v1/solve", content=b" " * 1_000_001, timeout=10,
                           headers={"content-type": "application/json"})
    assert oversized.status_code == 413


def test_forty_concurrent_heavy_solves(server: Server, pytestconfig: pytest.Config) -> None:
    """Deadlines are judged by the server's clock (from each request's arrival,
    as the access log records it): the 40 client threads share the two cores
    with the solvers, so they send and read late."""
    rng = random.Random(40)
    deck = _deck(8, 8)
    limit_ms = 1500
    bodies = [{"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"}, "wild_rank": "7H",
               "hand": rng.sample(deck, 30), "time_limit_ms": limit_ms} for _ in range(40)]
    results: dict[str, tuple[int, float, str]] = {}
    errors: list[str] = []
    probes: list[float] = []
    done = threading.Event()
    # One client for the crowd: a fresh httpx client per request costs 50 ms of
    # CPU (its TLS context), and forty of them starve the server under test.
    crowd = httpx.Client(timeout=30, limits=httpx.Limits(max_connections=len(bodies)))

    def heavy(index: int, body: dict[str, Any]) -> None:
        request_id = f"heavy-{index}"
        started = time.monotonic()
        try:
            response = crowd.post(server.url + "/v1/solve", json=body,
                                  headers={"X-Request-ID": request_id})
            results[request_id] = (response.status_code, time.monotonic() - started,
                                   response.headers.get("retry-after", ""))
        except httpx.HTTPError as error:
            errors.append(repr(error))

    def probe() -> None:
        with httpx.Client(timeout=5) as prober:  # keep-alive, as a load balancer probes
            while not done.is_set():
                started = time.monotonic()
                try:
                    assert prober.get(server.url + "/healthz").status_code == 200
                    probes.append(time.monotonic() - started)
                except (httpx.HTTPError, AssertionError) as error:
                    errors.append(f"healthz: {error!r}")
                time.sleep(0.05)

    prober = threading.Thread(target=probe)
    prober.start()
    threads = [threading.Thread(target=heavy, args=item) for item in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    crowd.close()
    done.set()
    prober.join(10)
    time.sleep(0.2)  # the last access-log lines
    assert not errors, errors[:5]
    assert len(results) == 40
    on_server = server.server_ms()
    for request_id, (status, took, retry_after) in results.items():
        assert status in (200, 503), status
        assert on_server[request_id] <= limit_ms + margin_ms(pytestconfig), (request_id, on_server)
        assert took <= limit_ms / 1000 + 5.0, took  # no hang; the deadline is judged above
        if status == 503:
            assert int(retry_after) >= 1
    assert sum(1 for status, _, _ in results.values() if status == 200) >= 2
    assert probes and max(probes) < 1.0, max(probes)


def _tree_cpu_seconds(pid: int) -> float:
    """CPU seconds used by ``pid`` and its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(stat[1]), []).append(int(entry))
    total, todo = 0.0, [pid]
    ticks = os.sysconf("SC_CLK_TCK")
    while todo:
        current = todo.pop()
        try:
            stat = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(stat[11]) + int(stat[12])) / ticks
        except OSError:
            pass
        todo.extend(children.get(current, []))
    return total


def _quietest_cpu_window(pid: int, windows: int, each_s: float) -> float:
    """The least CPU seconds ``pid``'s process tree used in any of
    ``windows`` back-to-back windows of ``each_s`` (work left running uses a
    core in every one; passing upkeep does not)."""
    used: list[float] = []
    before = _tree_cpu_seconds(pid)
    for _ in range(windows):
        time.sleep(each_s)
        after = _tree_cpu_seconds(pid)
        used.append(after - before)
        before = after
    return min(used)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_disconnect_stops_the_work(server: Server) -> None:
    # 300 dense hands: a batch that works for its whole time limit
    path, batch = next((path, body) for name, path, body in hostile_bodies() if "batch" in name)
    body = json.dumps({**batch, "time_limit_ms": 4000}).encode()
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.5)  # the batch is running
    time.sleep(IDLE_SETTLE_S)
    # Five windows end 3.65 s after the request, within the batch's 4 s: a
    # batch still running takes the whole of each window on a core. Outside
    # it the server has upkeep (a solver process replaced after the cancel),
    # slower to finish when the other core runs tests too, so the quietest
    # window is the one that tells.
    used = _quietest_cpu_window(server.process.pid, windows=5, each_s=0.5)
    assert used < 0.25, f"the server kept {used:.2f} s of CPU busy after the client left"


def _wait_until_a_solver_is_busy(url: str, within_s: float = 10.0, solvers: int = 1) -> None:
    """Until ``/metrics`` shows ``solvers`` solver processes at work (a loaded
    machine may take longer than a fixed sleep to get requests that far)."""
    busy = re.compile(r"^rummy_solver_busy_solvers(?:\{[^}]*\})? ([0-9.e+]+)$", re.MULTILINE)
    until = time.monotonic() + within_s
    while time.monotonic() < until:
        text = httpx.get(f"{url}/metrics", timeout=2).text
        if sum(float(value) for value in busy.findall(text)) >= solvers:
            return
        time.sleep(0.05)
    raise AssertionError(f"not {solvers} solvers busy within {within_s} s of the requests")


def test_sigterm_drains_in_flight_requests_and_refuses_new_ones() -> None:
    drain = start_server(workers=2, drain_s="3")
    # 300 dense hands: work for the whole time limit, so it is in flight at SIGTERM
    path, body = next((path, body) for name, path, body in hostile_bodies() if "batch" in name)
    body = {**body, "time_limit_ms": 1500}
    outcome: list[int] = []
    answers: list[str] = []  # what a refusal said, for the failure's message

    def ask() -> None:
        response = post(drain.url, path, body)[0]
        outcome.append(response.status_code)
        answers.append(response.text[:300])

    in_flight = threading.Thread(target=ask)
    in_flight.start()
    _wait_until_a_solver_is_busy(drain.url)  # the request is in flight, not still on its way
    started = time.monotonic()
    drain.process.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    host, port = drain.url.removeprefix("http://").split(":")
    refused = False
    try:
        with socket.create_connection((host, int(port)), timeout=1) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            refused = sock.recv(100) == b""  # closed without an answer: not accepted for good
    except OSError:
        refused = True
    in_flight.join(10)
    drain.process.wait(20)
    assert refused, "a connection made during the drain was accepted and left hanging"
    assert len(outcome) == 1, (outcome, drain.output()[-3000:])  # answered, not dropped
    assert time.monotonic() - started < 3 + 5
    assert drain.process.returncode == 0, drain.output()[-2000:]
    assert "Traceback" not in drain.output(), drain.output()[-3000:]
    drain.close()
    if outcome == [503] and "overran the request's deadline" in answers[0]:
        # The pool's answer when its solver is still busy LATE_S past the
        # deadline: the library's side of issue 38 item 4, as in
        # test_advice_with_limits_of_1_to_200_ms_... (a loaded machine's fresh
        # clone saw it here); the drain answered the request all the same.
        pytest.xfail(f"the library ran past the deadline + {LATE_S * 1000:.0f} ms: {answers[0]}")
    assert outcome == [200], (outcome, answers)


def test_a_stream_over_the_real_server_answers_as_bulk(server: Server,
                                                       client: httpx.Client) -> None:
    from api.shared.lines import answer_line
    from tests.test_api_stream import _mixed_lines

    lines = _mixed_lines(48, seed=11)
    response = client.post(server.url + "/v1/solve/stream", content="\n".join(lines),
                           headers={"content-type": "application/x-ndjson"})
    assert response.status_code == 200
    assert [json.loads(line) for line in response.text.splitlines()] == [
        answer_line(line, number) for number, line in enumerate(lines, 1)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stream_disconnect_stops_the_work(server: Server) -> None:
    rng = random.Random(12)
    deck8 = _deck(8, 8)
    body = "\n".join(json.dumps({"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"},
                                 "wild_rank": "7H", "hand": rng.sample(deck8, 30),
                                 "time_limit_ms": 2000, "engine": "search"})
                     for _ in range(20)).encode()
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(b"POST /v1/solve/stream HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/x-ndjson\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.5)  # lines are being solved
    time.sleep(IDLE_SETTLE_S)
    # the 20 lines have 40 s of work: every window would be busy if they ran on
    used = _quietest_cpu_window(server.process.pid, windows=3, each_s=0.5)
    assert used < 0.1, f"the server kept {used:.2f} s of CPU busy after the stream's client left"


# ---------------------------------------------------------------------------
# Overload, fair shares and the operational edges (issue: goodput and fairness)


def _gin30(shift: int = 0) -> list[str]:
    """A 30-card gin hand holding seven ranks four times: a solve that uses
    its whole time limit (6^7 set choices)."""
    from solver.cards import card_name

    ranks = [(r + shift) % 13 for r in range(7)]
    extra = [card_name(3 * 13 + (ranks[-1] + 2) % 13), card_name(2 * 13 + (ranks[-1] + 3) % 13)]
    return [card_name(s * 13 + r) for r in ranks for s in range(4)] + extra


def _light_solves(count: int, seed: int = 5) -> list[dict[str, Any]]:
    """indian13 solves (a solver process, milliseconds each)."""
    from benchmarks.speed.suites import SUITES, generate

    return [case.payload(SUITES["indian13_14"]) for case in generate("indian13_14", count, seed)]


def test_a_crowd_of_gin_solves_is_served_not_shed(server: Server) -> None:
    """200 connections, each sending its next solve at once (no Retry-After
    honoured): every answer is a 200 (the quick path needs no solver)."""
    from benchmarks.service.load import build_requests, run_phase

    phase = run_phase(server.port, build_requests("gin10", server.port), 2.0, concurrency=200)
    assert phase.errors == 0, phase.first_error
    assert len(phase.latencies) > 200


def test_a_crowd_of_heavy_solves_is_refused_at_once_with_retry_after(
        server: Server, pytestconfig: pytest.Config) -> None:
    """More heavy solves than can start in time: the ones that cannot start are
    answered 503 at once, with Retry-After the expected wait, not at their
    deadline; never a 500."""
    limit_ms = 1000
    bodies = [{"variant": "gin", "hand": _gin30(i), "time_limit_ms": limit_ms} for i in range(60)]
    results: dict[str, tuple[int, str, str]] = {}

    # One client for the crowd (each fresh httpx client costs 50 ms of CPU for
    # its TLS context: sixty of them starve the server they are measuring).
    crowd = httpx.Client(timeout=30, limits=httpx.Limits(max_connections=len(bodies)))

    def heavy(index: int) -> None:
        request_id = f"crowd-{index}"
        response = crowd.post(server.url + "/v1/solve", json=bodies[index],
                              headers={"X-Request-ID": request_id})
        results[request_id] = (response.status_code, response.headers.get("retry-after", ""),
                               response.text)

    threads = [threading.Thread(target=heavy, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    crowd.close()
    time.sleep(0.3)  # the last access-log lines
    on_server = server.server_ms()
    statuses = [status for status, _, _ in results.values()]
    assert len(results) == len(bodies) and set(statuses) <= {200, 503}, statuses
    shed = [rid for rid, (status, _, _) in results.items() if status == 503]
    assert shed, "60 one-second solves on 2 workers: some cannot start in time"
    for request_id in shed:
        _status, retry_after, text = results[request_id]
        assert json.loads(text)["detail"][0]["type"] in ("overloaded", "unavailable")
        assert int(retry_after) >= 1
    # Most are refused on arrival (a busy machine makes some estimates wrong:
    # those wait to their deadline, still answered by it + 100 ms).
    assert set(results) <= set(on_server), "every request has its access-log line"
    at_once = [rid for rid in shed if on_server[rid] < limit_ms / 2]
    assert len(at_once) >= 0.5 * len(shed), (len(at_once), len(shed))
    for request_id, ms in on_server.items():
        if request_id.startswith("crowd-"):
            assert ms <= limit_ms + margin_ms(pytestconfig), (request_id, ms)


def test_light_solves_keep_their_share_beside_two_heavy_streams(server: Server) -> None:
    """Two clients stream heavy solves while a third sends light ones: the
    streams' lines take turns with the light solves instead of going in front."""
    lines = "\n".join(json.dumps({"variant": "gin", "hand": _gin30(i), "time_limit_ms": 1500})
                      for i in range(8))
    stop = threading.Event()
    streamed: list[int] = []

    def stream() -> None:
        with httpx.Client(timeout=60) as held, held.stream(
                "POST", server.url + "/v1/solve/stream", content=lines,
                headers={"content-type": "application/x-ndjson"}) as answer:
            for _ in answer.iter_lines():
                streamed.append(1)
                if stop.is_set():
                    return

    heavy = [threading.Thread(target=stream) for _ in range(2)]
    for thread in heavy:
        thread.start()
    time.sleep(1.0)  # both streams are solving
    statuses: list[int] = []
    with httpx.Client(timeout=10) as light:
        for body in _light_solves(30):
            statuses.append(light.post(server.url + "/v1/solve", json=body).status_code)
            time.sleep(0.02)
    stop.set()
    for thread in heavy:
        thread.join(30)
    assert streamed, "the heavy streams answered nothing"
    assert statuses.count(200) >= 0.95 * len(statuses), statuses


def test_collection_never_stands_between_a_job_and_its_deadline(server: Server) -> None:
    """Right after heavy work (when a solver process has most to collect) a
    100 ms solve is still answered 200."""
    with httpx.Client(timeout=30) as held:
        for attempt in range(4):
            heavy = held.post(server.url + "/v1/solve",
                              json={"variant": "gin", "hand": _gin30(attempt), "time_limit_ms": 800})
            assert heavy.status_code == 200
            time.sleep(0.25 + 0.1 * attempt)  # when an idle process would collect
            body = {**_light_solves(1, seed=attempt)[0], "time_limit_ms": 100}
            assert held.post(server.url + "/v1/solve", json=body).status_code == 200


def test_a_client_leaving_before_its_solve_starts_replaces_no_process(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    body = json.dumps({"variant": "gin", "hand": _gin30(3), "time_limit_ms": 1000}).encode()
    before = server.output().count("replacing it")
    for _ in range(6):  # more than the solvers: some leave while still waiting
        with socket.create_connection((host, int(port))) as sock:
            sock.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    time.sleep(0.5)
    started = time.monotonic()
    assert httpx.post(server.url + "/v1/solve", json={**_light_solves(1)[0]},
                      timeout=10).status_code == 200
    assert time.monotonic() - started < 1.0
    assert server.output().count("replacing it") == before, server.output()[-2000:]


def test_malformed_http_gets_the_json_error_shape(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"application/json" in head
    assert json.loads(body)["detail"][0]["type"] == "invalid_http"


def test_a_body_that_never_arrives_gets_408(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"variant\":")
        started = time.monotonic()
        answer = b""
        while chunk := sock.recv(4096):  # the server closes the connection after its answer
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["detail"][0]["type"] == "body_timeout"
    assert time.monotonic() - started < BODY_TIMEOUT_S + 1.5


def test_the_end_of_the_drain_answers_json_503_and_ends_streams_with_a_line() -> None:
    drain = start_server(workers=1, drain_s="1")
    try:
        batch = next(body for name, _, body in hostile_bodies() if "batch" in name)
        outcome: list[httpx.Response] = []
        stream_lines: list[str] = []
        lines = "\n".join(json.dumps({"variant": "gin", "hand": _gin30(i), "time_limit_ms": 1500})
                          for i in range(20))

        def long_request() -> None:
            outcome.append(httpx.post(drain.url + "/v1/solve/batch", timeout=30,
                                      json={**batch, "time_limit_ms": 5000}))

        def long_stream() -> None:
            with httpx.Client(timeout=30) as held, held.stream(
                    "POST", drain.url + "/v1/solve/stream", content=lines,
                    headers={"content-type": "application/x-ndjson"}) as answer:
                stream_lines.extend(answer.iter_lines())

        threads = [threading.Thread(target=long_request), threading.Thread(target=long_stream)]
        for thread in threads:
            thread.start()
        # both in flight (a solver each; the worker has three), not still on
        # their way: a fixed 0.5 s sleep let a loaded CI run's SIGTERM close
        # the port before either had connected
        _wait_until_a_solver_is_busy(drain.url, solvers=2)
        drain.process.send_signal(signal.SIGTERM)
        for thread in threads:
            thread.join(20)
        drain.process.wait(20)
        log = drain.output()
    finally:
        drain.close()
    assert len(outcome) == 1 and outcome[0].status_code in (200, 503), outcome
    if outcome[0].status_code == 503:
        assert outcome[0].json()["detail"][0]["type"] == "unavailable"
        assert int(outcome[0].headers["retry-after"]) >= 1
    assert stream_lines, log[-2000:]
    last = json.loads(stream_lines[-1])
    assert last["error"]["type"] == "unavailable", stream_lines[-3:]
    assert "Internal Server Error" not in log and " 500" not in log


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry))
    return found


def _cpu_ticks(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(stat[11]) + int(stat[12])


def _workers(server: Server) -> set[int]:
    """The uvicorn workers: the supervisor's children other than multiprocessing's helpers."""
    found = set()
    for pid in _children(server.process.pid):
        with contextlib.suppress(OSError):
            if "resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_text():
                found.add(pid)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_starved_for_longer_than_uvicorns_health_check_is_not_killed(
        server: Server) -> None:
    """A worker that cannot answer the supervisor's health check for 8 s (stopped
    with SIGSTOP, as a machine with more runnable processes than cores can
    starve it) is the same worker afterwards, and the requests sent meanwhile
    are answered, none dropped: uvicorn's default wait, 5 s, killed it and
    replaced it (``serve.WORKER_HEALTHCHECK_S``).  On the module's server, whose
    end also says no worker was replaced."""
    from api.server.serve import WORKER_HEALTHCHECK_S

    stalled_s = 8.0
    assert 5 < stalled_s < WORKER_HEALTHCHECK_S
    answers: list[int] = []
    old = _workers(server)
    assert len(old) == 2, old
    victim = min(old)
    os.kill(victim, signal.SIGSTOP)
    try:
        def ask() -> None:  # a fresh connection each: either worker may accept it
            answers.append(httpx.get(server.url + "/v1/variants", timeout=30).status_code)
        askers = [threading.Thread(target=ask) for _ in range(6)]
        for asker in askers:
            asker.start()
        time.sleep(stalled_s)
    finally:
        with contextlib.suppress(ProcessLookupError):  # gone when it was killed
            os.kill(victim, signal.SIGCONT)
    for asker in askers:
        asker.join(30)
    assert _workers(server) == old, (old, _workers(server))
    assert answers == [200] * 6, answers
    assert not re.search(r"Child process \[\d+\] died", server.output()), server.output()[-3000:]


@pytest.mark.slow  # its own server and 24 s of load
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_replaced_worker_gets_its_share_of_keep_alive_clients() -> None:
    """kill -9 of a worker: its clients reconnect to the survivor; connections
    end after RUMMY_SOLVER_CONNECTION_MAX_S, so the replacement gets clients
    back within seconds.  No answer is a 500."""
    from benchmarks.service.load import build_requests, run_phase

    pair = start_server(workers=2, connection_max_s="2")
    try:
        requests = build_requests("gin10", pair.port)
        old = _workers(pair)
        assert len(old) == 2, old
        victim = min(old)
        loader = threading.Thread(target=lambda: results.append(
            run_phase(pair.port, requests, 24.0, concurrency=16)))
        results: list[Any] = []
        loader.start()
        time.sleep(1.0)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while len(_workers(pair) - old) < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        fresh = _workers(pair) - old
        assert fresh, "the dead worker was not replaced"
        (newcomer,) = fresh
        survivor = (old - {victim}).pop()
        # The newcomer imports and starts its solvers (seconds on a busy
        # machine), then connections end and come back: watch 2-second windows
        # until one shows it serving its share, or the load ends.
        windows: list[tuple[int, int]] = []
        give_up = time.monotonic() + 18
        while time.monotonic() < give_up:
            new_before, old_before = _cpu_ticks(newcomer), _cpu_ticks(survivor)
            time.sleep(2.0)
            windows.append((_cpu_ticks(newcomer) - new_before, _cpu_ticks(survivor) - old_before))
            new_used, old_used = windows[-1]
            if old_used > 0 and new_used >= 0.25 * old_used:
                break
        loader.join(30)
    finally:
        pair.close()
    assert any(old_used > 0 and new_used >= 0.25 * old_used
               for new_used, old_used in windows), windows
    phase = results[0]
    assert phase.first_error is None or "HTTP 500" not in phase.first_error, phase.first_error


def test_a_bad_body_with_a_one_ms_limit_gets_its_422(server: Server, client: httpx.Client) -> None:
    """A 1 ms limit has passed by the time a request reaches the idle solvers:
    it is still taken, and the library names what is wrong with the body
    rather than the service answering 503 ``overloaded``."""
    bodies = [
        ("/v1/solve", {"variant": "gin", "hand": "AS 2S 3S 4S 5S 6H 7H 8H 9D TD",
                       "wild_rank": "7", "time_limit_ms": 1}, "wild_rank_not_allowed"),
        ("/v1/advise", {"game": "gin", "hand": "AS 2S 3S 4S 5S 6H 7H 8H 9D TD", "upcard": "AS",
                        "time_limit_ms": 1}, None),
    ]
    overran = 0
    for path, body, code in bodies:
        for _ in range(40):
            response = client.post(server.url + path, json=body)
            if response.status_code == 503 and "overran" in response.text:
                # The solver processes run at a lower priority than the test's
                # own workers: on a machine the suite keeps busy a 1 ms job may
                # wait past the service's 65 ms reply margin for the CPU. That
                # answer is the service's contract (503 with Retry-After, not
                # overloaded); the client's retry is then answered in full.
                overran += 1
                assert response.headers["Retry-After"], response.headers
                response = client.post(server.url + path, json=body)
            assert response.status_code == 422, response.text
            if code is not None:
                assert response.json()["detail"][0]["type"] == code
    assert overran <= 4, f"{overran} of 80 one-ms requests overran on their solver"


# ---------------------------------------------------------------------------
# Advice against its deadline, and a crowd of it (issue 38, items 4 and 5)


CROWDED_TABLES = Path(__file__).resolve().parent / "corpus" / "crowded_tables.jsonl.gz"
"""Forty advice positions at crowded tables (indian21 at six players, rummy500 at
eight), the heaviest the advisor meets: recorded from arena deals with
``benchmarks.service.advise_load.advise_bodies(1, 0, game, players)``."""


def _advice_bodies(count: int, seed: int = 38) -> list[dict[str, Any]]:
    """``count`` advice requests, every other one from the crowded tables and
    the rest taking turns over every game (the advice corpus's tables of two to
    four), each at a random level and a time limit from 1 to 200 ms (evenly on
    a log scale): the heavy positions and the short limits are where an answer
    is most at risk of coming late."""
    import gzip
    import math

    from tests.advice_corpus import GAMES, positions_path, read_lines

    rng = random.Random(seed)
    with gzip.open(CROWDED_TABLES, "rt", encoding="utf-8") as lines:
        crowded = [json.loads(line) for line in lines]
    tables = [read_lines(positions_path(game)) for game in GAMES]
    bodies = []
    for index in range(count):
        position = rng.choice(crowded if index % 2 else tables[index // 2 % len(tables)])
        body = {key: value for key, value in position.items() if key != "id" and value is not None}
        body["level"] = rng.choice(["novice", "standard", "expert"])
        body["seed"] = rng.randrange(1000)
        body["time_limit_ms"] = round(math.exp(rng.uniform(0.0, math.log(200.0))))
        bodies.append(body)
    return bodies


def test_advice_with_limits_of_1_to_200_ms_is_answered_by_the_promise_never_503(
        server: Server, client: httpx.Client, pytestconfig: pytest.Config) -> None:
    """On a quiet server every advice request gets its ranking by its deadline
    + 100 ms (``complete: false`` when the search was cut short), never a 503:
    an answer the solver process gives a little after the deadline is sent, and
    the process is told to stop early enough for the way back.

    The service's side is checked strictly: every answer by the promise on
    the server's clock, no request refused (``overloaded``), and a 503 only
    where the solver was still busy 60 ms past the deadline (its log line
    says by how much; the pool waits ``LATE_S``).  A solver that busy is the
    library's side of issue 38 item 4 (advice returning by its deadline):
    while any remains the test is an expected failure naming them."""
    bodies = _advice_bodies(200)
    answers: dict[str, tuple[int, int, str]] = {}
    for index, body in enumerate(bodies):
        request_id = f"short-advice-{index}"
        response = client.post(server.url + "/v1/advise", json=body,
                               headers={"X-Request-ID": request_id})
        answers[request_id] = (response.status_code, body["time_limit_ms"], response.text[:300])
    time.sleep(0.3)  # the last access-log lines
    on_server = server.server_ms()
    for request_id, (_status, limit_ms, _text) in answers.items():
        assert on_server[request_id] <= limit_ms + margin_ms(pytestconfig), (request_id, limit_ms,
                                                                     on_server[request_id])
    refused = {rid: answer for rid, answer in answers.items() if answer[0] != 200}
    late: dict[str, float] = {}  # ms past the deadline when the solver was found busy
    answered: dict[str, float] = {}  # ... and when it answered after all
    for line in server.output().splitlines():
        if "solver process late on" in line or "past its deadline, after its 503" in line:
            entry = json.loads(line)
            words = entry["message"].split()
            if "late" in words:
                late[entry["request_id"]] = float(words[words.index("by") + 1])
            else:
                answered[entry["request_id"]] = float(words[words.index("ms") - 1])
    for request_id, (status, _limit_ms, text) in refused.items():
        assert status == 503 and json.loads(text)["detail"][0]["type"] == "unavailable", text
        # Busy at least 60 ms past the deadline: an answer arriving before then
        # would have been sent (the pool waits LATE_S), not replaced by this 503.
        assert late.get(request_id, 0.0) >= 60, (request_id, late.get(request_id))
    if refused:
        overran = [(bodies[int(rid.rsplit("-", 1)[1])]["game"], answer[1], answered.get(rid))
                   for rid, answer in refused.items()]
        pytest.xfail(f"the library ran past the deadline + {LATE_S * 1000:.0f} ms: {overran} "
                     "(game, limit in ms, ms past the deadline it answered at)")


# The crowd test's size: this many times the work two solvers do in the
# budget, at most CROWD_MAX requests (each a client thread and a connection).
OVERLOAD = 3
CROWD_MAX = 160


@pytest.mark.slow  # a load run: its own server and seconds of expert searches on both cores;
# the default run's crowd of heavy solves checks the same refusal at arrival
def test_a_crowd_of_expert_advice_is_refused_at_once_or_served(
        pytestconfig: pytest.Config) -> None:
    """A crowd of expert advice requests at once, with the default 5 s budget,
    on one worker with two solver processes: what cannot start in time is
    refused at arrival (503 ``overloaded``, Retry-After), or, where the work
    ahead overran its expected time, as soon as the pool's plan shows it
    cannot start -- never held to its deadline; what is taken is answered
    with the hand's legal moves ranked, by the deadline + the margin.  The
    pool has seen expert advice on the hand before, two at a time as the
    crowd runs, and novice advice on it last, as a running service would have
    (novice advice takes milliseconds: a pool that learnt one time for both
    queued the expert crowd and refused it at its deadline).  The crowd holds
    ``OVERLOAD`` times the work the two solvers do in the budget, from the
    time the warm-up's expert advice took here: a fraction of a second on a
    quiet machine, seconds on a busy one, so a fixed crowd overloads one and
    not the other."""
    from api.shared.examples import REQUESTS
    from api.shared.schemas_advice import AdviceResponse

    budget_ms = 5000
    body = {**REQUESTS["advise"][1], "level": "expert"}  # 11 cards, 4S taken: discard
    legal = {card for card in body["hand"].split() if card != "4S"}
    crowd = start_server(workers=1, processes="2")
    try:
        results: dict[str, httpx.Response] = {}
        pool = httpx.Client(timeout=30, limits=httpx.Limits(max_connections=CROWD_MAX))

        def before(seed: int, level: str) -> None:
            answer = pool.post(crowd.url + "/v1/advise", json={**body, "seed": seed, "level": level})
            assert answer.status_code == 200, answer.text

        started = time.monotonic()
        for seeds in ((99, 100), (101, 102)):
            pair = [threading.Thread(target=before, args=(seed, "expert")) for seed in seeds]
            for thread in pair:
                thread.start()
            for thread in pair:
                thread.join(30)
        expert_s = (time.monotonic() - started) / 2  # two rounds of two at a time
        for seed in (96, 97, 98):  # the latest requests: hints at the novice level
            before(seed, "novice")
        size = max(20, min(CROWD_MAX, round(OVERLOAD * 2 * budget_ms / 1000 / expert_s)))

        def ask(index: int) -> None:
            request_id = f"expert-{index}"
            results[request_id] = pool.post(crowd.url + "/v1/advise", json={**body, "seed": index},
                                            headers={"X-Request-ID": request_id})

        threads = [threading.Thread(target=ask, args=(index,)) for index in range(size)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        pool.close()
        time.sleep(0.3)
        on_server = crowd.server_ms()
    finally:
        crowd.close()
    assert len(results) == size
    served = {rid: r for rid, r in results.items() if r.status_code == 200}
    refused = {rid: r for rid, r in results.items() if r.status_code != 200}
    assert len(served) >= 2, {rid: r.text[:200] for rid, r in refused.items()}  # both solvers
    assert refused, f"{size} expert searches of {expert_s:.2f} s cannot all start in 5 s on two"
    for request_id, response in refused.items():
        assert response.status_code == 503, response.text
        assert response.json()["detail"][0]["type"] == "overloaded", response.text
        assert int(response.headers["retry-after"]) >= 1
        assert "until its deadline" not in response.text, response.text  # not held to it
        if on_server[request_id] >= 1000:  # not at arrival: the plan's later word
            assert "cannot start before its deadline" in response.text, response.text
            assert on_server[request_id] < budget_ms - 100, (request_id, on_server[request_id])
    for request_id, response in served.items():
        advice = AdviceResponse.model_validate(response.json())
        moves = [move.move for move in advice.moves]
        assert {move.card for move in moves} == legal and len(moves) == len(legal)
        assert all(move.action == "discard" for move in moves)
        assert advice.recommended == advice.moves[0]
        assert on_server[request_id] <= budget_ms + margin_ms(pytestconfig), (request_id,
                                                                      on_server[request_id])

