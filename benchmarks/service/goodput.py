"""Goodput under overload and fair shares: the real server under ``wrk``, loopback only.

``python -m benchmarks.service.goodput [--seconds S] [--repeat R] [--json PATH]``
starts ``rummy-solver serve --workers 2`` (default settings; this checkout
first on ``PYTHONPATH``) and measures, each phase ``--repeat`` times, reporting
medians:

* **throughput** -- Debian's ``wrk`` (``apt-get install wrk``) with
  ``benchmarks/service/wrk_post.lua`` POSTs gin10 hands to ``/v1/solve`` over 32, 200
  and 1,000 keep-alive connections (2 wrk threads): answers per status,
  *goodput* (200s per second), p50 / p99 / max latency of every answer;
* **half load** -- the open-loop client of ``benchmarks.service.load`` at half the
  32-connection goodput: p99 of the 200s, latency counted from each request's
  due time (no coordinated omission), and the server's own p99 (a bound from
  its ``/metrics`` histogram: arrival in the app to answer), which tells the
  server's share of the tail from the machine's (waking an idle core, the
  client's own loop);
* **fair share** -- two clients each stream heavy solves (``/v1/solve/stream``,
  30-card gin hands holding seven ranks four times, about 2 s each) while
  light solves (indian13 and gin hands, one at a time, over 4 connections)
  run beside them: the share of light solves answered 200 and their p99.

The load generator shares the machine's cores with the server (and with
whatever else runs: the table says the load average at the start).  Never
asserts; prints a Markdown table and optionally writes JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from benchmarks.arena.core.stats import percentile
from benchmarks.service.load import Server, build_requests, run_phase
from benchmarks.speed.suites import DEFAULT_SEED, SUITES, generate
from solver.cards import card_name

LUA = Path(__file__).with_name("wrk_post.lua")
CONNECTIONS: tuple[int, ...] = (32, 200, 1000)
WRK_THREADS = 2
SETTLE_S = 2.0
"""Pause before each phase: the server finishes what the last phase left (a
thousand connections closing, collections) before it is measured again."""
_WRK_JSON = re.compile(r"^WRK_JSON (.*)$", re.MULTILINE)


def wrk_missing() -> str | None:
    """``None`` when ``wrk`` is on PATH, else how to get it."""
    return None if shutil.which("wrk") else "wrk is not installed (apt-get install wrk)"


def write_bodies(suite: str, path: Path, n: int = 200, seed: int = DEFAULT_SEED) -> None:
    """One JSON body per line: ``n`` hands of ``suite``."""
    with path.open("w", encoding="utf-8") as out:
        for case in generate(suite, n, seed):
            out.write(json.dumps(case.payload(SUITES[suite]), separators=(",", ":")) + "\n")


def run_wrk(url: str, bodies: Path, connections: int, seconds: float, route: str = "/v1/solve",
            api_key: str = "") -> dict[str, Any]:
    """One ``wrk`` run: statuses, goodput and latency percentiles (ms)."""
    threads = min(WRK_THREADS, connections)
    completed = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds:.0f}s",
         "--timeout", "10s", "-s", str(LUA), url, "--", str(bodies), route, api_key],
        capture_output=True, text=True, timeout=seconds + 60, check=False)
    found = _WRK_JSON.search(completed.stdout)
    if found is None:
        return {"connections": connections, "error": (completed.stdout + completed.stderr)[-500:]}
    raw = json.loads(found.group(1))
    seconds_run = raw["duration_us"] / 1e6
    ok = raw["statuses"].get("200", 0)
    socket_errors = sum(raw[k] for k in ("connect_errors", "read_errors", "write_errors",
                                         "timeouts"))
    return {"connections": connections, "seconds": seconds_run, "answers": raw["requests"],
            "statuses": raw["statuses"], "goodput": ok / seconds_run,
            "share_200": ok / raw["requests"] if raw["requests"] else 0.0,
            "socket_errors": socket_errors, "p50_ms": raw["p50_us"] / 1e3,
            "p99_ms": raw["p99_us"] / 1e3, "max_ms": raw["max_us"] / 1e3}


_BUCKET = re.compile(r'^rummy_solver_request_duration_seconds_bucket\{(?=[^}]*route="/v1/solve")'
                     r'[^}]*le="([^"]+)"[^}]*\} ([0-9.e+]+)$', re.MULTILINE)


def solve_latency_buckets(server: Server) -> dict[float, float]:
    """The server's own histogram of ``/v1/solve`` answer times (``/metrics``:
    from a request's arrival in the app to its answer), cumulative counts per
    upper bound in seconds."""
    text = httpx.get(server.url + "/metrics", timeout=10).text
    counts: dict[float, float] = {}
    for bound, count in _BUCKET.findall(text):
        counts[float(bound)] = counts.get(float(bound), 0.0) + float(count)
    return counts


def p99_bound_ms(before: dict[float, float], after: dict[float, float]) -> float | None:
    """The smallest histogram bound (ms) under which 99 % of the answers
    counted between two scrapes fell.

    >>> p99_bound_ms({0.001: 5, 0.005: 9, float("inf"): 10},
    ...              {0.001: 905, 0.005: 1008, float("inf"): 1010})
    5.0
    """
    total = after.get(float("inf"), 0.0) - before.get(float("inf"), 0.0)
    if total <= 0:
        return None
    for bound in sorted(after):
        if after[bound] - before.get(bound, 0.0) >= 0.99 * total:
            return bound * 1000.0
    return None


def half_load(server: Server, rate: float, seconds: float) -> dict[str, Any]:
    """p99 of the 200s at ``rate`` requests per second (open loop, 32
    connections), seen by the client and, as a bound from the server's own
    histogram, inside the server."""
    requests = build_requests("gin10", server.port)
    before = solve_latency_buckets(server)
    phase = run_phase(server.port, requests, seconds, concurrency=32, rate=rate)
    server_p99 = p99_bound_ms(before, solve_latency_buckets(server))
    return {"rate": rate, **phase.summary(), "server_p99_at_most_ms": server_p99}


def heavy_gin(shift: int) -> list[str]:
    """A 30-card gin hand holding seven ranks four times (6^7 set choices): a
    solve that uses about its whole time limit."""
    ranks = [(r + shift) % 13 for r in range(7)]
    extra = [card_name(3 * 13 + (ranks[-1] + 2) % 13), card_name(2 * 13 + (ranks[-1] + 3) % 13)]
    return [card_name(s * 13 + r) for r in ranks for s in range(4)] + extra


def _stream_body(seed: int, lines: int) -> bytes:
    return "\n".join(json.dumps({"variant": "gin", "hand": heavy_gin(seed + i),
                                 "time_limit_ms": 2000}) for i in range(lines)).encode()


def _light_bodies(n: int = 100) -> list[dict[str, Any]]:
    bodies = [case.payload(SUITES["indian13_14"]) for case in generate("indian13_14", n // 2, 7)]
    bodies += [case.payload(SUITES["gin10"]) for case in generate("gin10", n - n // 2, 7)]
    random.Random(3).shuffle(bodies)
    return bodies


def fair_share(server: Server, seconds: float, streams: int = 2,
               light_clients: int = 4) -> dict[str, Any]:
    """Light solves answered while ``streams`` heavy streams run (see the module docstring)."""
    stop = threading.Event()
    stream_lines: list[int] = []

    def heavy(seed: int) -> None:
        with httpx.Client(timeout=httpx.Timeout(5.0, read=600.0)) as client:
            while not stop.is_set():
                with client.stream("POST", server.url + "/v1/solve/stream",
                                   content=_stream_body(seed, 200),
                                   headers={"content-type": "application/x-ndjson"}) as answer:
                    for _ in answer.iter_lines():
                        stream_lines.append(1)
                        if stop.is_set():
                            break
                seed += 100

    statuses: list[int] = []
    latencies: list[float] = []
    bodies = _light_bodies()

    def light(index: int) -> None:
        with httpx.Client(timeout=10.0) as client:
            position = index
            while not stop.is_set():
                body = bodies[position % len(bodies)]
                position += light_clients
                started = time.perf_counter()
                try:
                    status = client.post(server.url + "/v1/solve", json=body).status_code
                except httpx.HTTPError:
                    status = 0
                statuses.append(status)
                if status == 200:
                    latencies.append(time.perf_counter() - started)
                time.sleep(0.01)

    heavies = [threading.Thread(target=heavy, args=(seed,), daemon=True)
               for seed in range(streams)]
    for thread in heavies:
        thread.start()
    time.sleep(1.0)  # both streams are solving
    lights = [threading.Thread(target=light, args=(i,), daemon=True) for i in range(light_clients)]
    for thread in lights:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in [*lights, *heavies]:
        thread.join(15)
    counts: dict[str, int] = {}
    for status in statuses:
        counts[str(status)] = counts.get(str(status), 0) + 1
    ordered = sorted(latencies)
    return {"streams": streams, "light_requests": len(statuses), "statuses": counts,
            "share_200": counts.get("200", 0) / len(statuses) if statuses else 0.0,
            "p99_ms": percentile(ordered, 0.99) * 1e3 if ordered else None,
            "stream_lines": len(stream_lines)}


def _median(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [row[key] for row in rows if row.get(key) is not None]
    return statistics.median(values) if values else None


def run_goodput(seconds: float = 10.0, repeat: int = 3,
                connections: Sequence[int] = CONNECTIONS, workers: int = 2,
                fair: bool = True) -> dict[str, Any]:
    """Every phase ``repeat`` times against one server (see the module docstring)."""
    missing = wrk_missing()
    if missing:
        return {"skipped": missing}
    result: dict[str, Any] = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()],
                              "cpu_count": os.cpu_count(), "seconds": seconds, "repeat": repeat}
    with tempfile.TemporaryDirectory() as scratch, Server(workers) as server:
        server.wait_ready(answers=4)
        bodies = Path(scratch) / "gin10.jsonl"
        write_bodies("gin10", bodies)
        run_wrk(server.url, bodies, 32, 3)  # warm-up
        runs: dict[int, list[dict[str, Any]]] = {c: [] for c in connections}
        halves: list[dict[str, Any]] = []
        fairness: list[dict[str, Any]] = []
        for _ in range(repeat):
            for count in connections:
                time.sleep(SETTLE_S)
                runs[count].append(run_wrk(server.url, bodies, count, seconds))
            peak = runs[connections[0]][-1].get("goodput") or 0.0
            if peak:
                time.sleep(SETTLE_S)
                halves.append(half_load(server, peak / 2, seconds))
            if fair:
                time.sleep(SETTLE_S)
                fairness.append(fair_share(server, seconds))
        result["throughput"] = [
            {"connections": count, "runs": rows,
             **{key: _median(rows, key) for key in
                ("goodput", "share_200", "p50_ms", "p99_ms", "max_ms", "socket_errors")}}
            for count, rows in runs.items()]
        result["half_load"] = {"runs": halves, "rate": _median(halves, "rate"),
                               "p99_ms": _median(halves, "p99_ms"),
                               "server_p99_at_most_ms": _median(halves, "server_p99_at_most_ms")}
        if fair:
            result["fair_share"] = {"runs": fairness, "share_200": _median(fairness, "share_200"),
                                    "p99_ms": _median(fairness, "p99_ms")}
    return result


def render(result: dict[str, Any]) -> str:
    """The Markdown tables."""
    if "skipped" in result:
        return f"goodput skipped: {result['skipped']}"

    def number(value: float | None, digits: int = 1) -> str:
        return "-" if value is None else f"{value:,.{digits}f}"

    lines = [f"load average at start {result['load_average_at_start']}, "
             f"{result['cpu_count']} cores, {result['seconds']:.0f} s per phase, "
             f"median of {result['repeat']}", "",
             "| connections | goodput (200/s) | share 200 | p50 ms | p99 ms | max ms | socket errors |",
             "|---|---|---|---|---|---|---|"]
    for row in result["throughput"]:
        lines.append(f"| {row['connections']} | {number(row['goodput'], 0)} | "
                     f"{number(row['share_200'], 3)} | {number(row['p50_ms'], 2)} | "
                     f"{number(row['p99_ms'], 2)} | {number(row['max_ms'], 0)} | "
                     f"{number(row['socket_errors'], 0)} |")
    half = result["half_load"]
    lines += ["", f"half load ({number(half['rate'], 0)} req/s, open loop): "
                  f"p99 {number(half['p99_ms'], 2)} ms at the client, "
                  f"at most {number(half.get('server_p99_at_most_ms'), 1)} ms in the server"]
    if "fair_share" in result:
        fair = result["fair_share"]
        lines.append(f"light solves beside 2 heavy streams: {number(fair['share_200'], 3)} "
                     f"answered 200, p99 {number(fair['p99_ms'], 1)} ms")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.service.goodput", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--connections", type=int, nargs="+", default=list(CONNECTIONS))
    parser.add_argument("--no-fair", action="store_true", help="skip the fair-share phase")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    result = run_goodput(args.seconds, args.repeat, args.connections, fair=not args.no_fair)
    print(render(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
