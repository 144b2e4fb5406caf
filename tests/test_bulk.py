"""``solver.bulk``, ``rummy-solver bulk`` (``solver.bulk_cli``) and the Ray runner.

Answers are checked against the library calls and against the REST API
itself (the same body must give the same result, less ``elapsed_ms``, and
errors the same ``type`` and ``loc``); malformed lines, order and ids, the
process pool, deadlines, gzip and standard input, the progress bar and exit
codes.  The Ray test runs on a local instance and is skipped without ray.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import multiprocessing
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from solver import bulk, bulk_cli
from solver.bulk import (
    DEFAULT_LIMITS,
    OPERATIONS,
    Answered,
    Limits,
    Operation,
    answer,
    answer_line,
    run_lines,
)
from solver.deadline import NODES_PER_MS, REQUEST_BUDGET_MS, Deadline
from solver.gin import knock_check
from solver.hints import discard_hint, draw_hint
from solver.solve import solve
from solver.validate import validate

GIN10 = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
GIN11 = GIN10 + " 9C"

GOOD: list[tuple[str, str, dict[str, Any]]] = [
    ("solve", "/v1/solve", {"variant": "gin", "hand": GIN10}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": GIN11.split(), "discard": True,
                            "engine": "search", "time_limit_ms": 1500}),
    ("solve", "/v1/solve", {"variant": "indian13", "hand": "AS 2S 3S 5H 6H JK 9C 9D 9S KD KC 4H 7S",
                            "wild_rank": "7", "rules": {"points_cap": 60}}),
    ("solve", "/v1/solve", {"variant": "rummy500", "hand": "AS KS QS 2H 3H 4H 9C 9D 9S JK 5C 6D 7H"}),
    ("validate", "/v1/validate", {"variant": "gin", "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]],
                                  "deadwood": ["KD", "QH", "4C", "9S"], "hand": GIN10}),
    ("validate", "/v1/validate", {"variant": "gin", "melds": [["AS", "2S", "4S"]]}),
    ("knock", "/v1/gin/knock", {"hand": GIN11, "knock_limit": 40}),
    ("knock", "/v1/gin/knock", {"hand": GIN10, "upcard": "5H", "rules": {"gin_bonus": 20}}),
    ("discard_hint", "/v1/hints/discard", {"variant": "gin", "hand": GIN11}),
    ("draw_hint", "/v1/hints/draw", {"variant": "gin", "hand": GIN10, "discard_top": "4S",
                                     "seen": ["5S", "6S"]}),
]

BAD: list[tuple[str, str, dict[str, Any]]] = [
    ("solve", "/v1/solve", {"variant": "gin"}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "foo": 1}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": [1, "AS"]}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "discard": 1}),
    ("solve", "/v1/solve", {"variant": "ginx", "hand": "AS"}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "engine": "x"}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "rules": {"decks": 0}}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "rules": {"deks": 1}}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "rules": {"ace": "sideways"}}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "rules": []}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "time_limit_ms": 0}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "time_limit_ms": 2001}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "time_limit_ms": "5"}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": ["A" * 17]}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": ["AS"] * 65}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": ["AS"] * 31}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS AS"}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS ZZ"}),
    ("solve", "/v1/solve", {"variant": "indian13", "hand": "AS", "wild_rank": 7}),
    ("solve", "/v1/solve", {"variant": "gin", "hand": "AS", "wild_rank": "7"}),
    ("validate", "/v1/validate", {"variant": "gin", "melds": [["AS", 2]]}),
    ("validate", "/v1/validate", {"variant": "gin", "melds": [], "deadwood": "AS"}),
    ("validate", "/v1/validate", {"variant": "gin", "melds": [["AS", "2S", "3S"]], "time_limit_ms": 5}),
    ("validate", "/v1/validate", {"variant": "gin", "melds": [["AS", "2S", "3S"], ["AS"]]}),
    ("knock", "/v1/gin/knock", {"hand": "AS", "knock_limit": 300}),
    ("knock", "/v1/gin/knock", {"hand": "AS", "variant": "gin"}),
    ("knock", "/v1/gin/knock", {"hand": "AS", "time_limit_ms": 5001}),
    ("knock", "/v1/gin/knock", {"hand": "AS"}),
    ("draw_hint", "/v1/hints/draw", {"variant": "gin", "hand": "AS"}),
    ("draw_hint", "/v1/hints/draw", {"variant": "gin", "hand": "AS", "discard_top": "AS", "seen": "2S"}),
    ("draw_hint", "/v1/hints/draw", {"variant": "gin", "hand": "AS", "discard_top": "ZZ"}),
    ("discard_hint", "/v1/hints/discard", {"variant": "gin", "hand": "AS ZZ"}),
]


# ---------------------------------------------------------------------------
# One line


@pytest.mark.parametrize(("op", "body"), [(op, body) for op, _, body in GOOD])
def test_answer_is_the_library_result(op: str, body: dict[str, Any]) -> None:
    args = {k: v for k, v in body.items() if k != "time_limit_ms"}
    calls: dict[str, Callable[[], Any]] = {
        "solve": lambda: solve(**args),
        "validate": lambda: validate(**{"deadwood": [], **args}),
        "knock": lambda: knock_check(**args),
        "discard_hint": lambda: discard_hint(**args),
        "draw_hint": lambda: draw_hint(**args),
    }
    expected = calls[op]().to_dict()
    assert answer({"id": "x", **body}, op=op) == {"id": "x", "result": expected}
    assert answer({"id": 3, "op": op, **body}, op="validate") == {"id": 3, "result": expected}


@pytest.fixture(scope="module")
def api_client() -> Iterator[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from api.main import create_app
    from api.settings import Settings

    with TestClient(create_app(Settings(processes=0))) as client:
        yield client


@pytest.mark.parametrize(("op", "path", "body"), GOOD)
def test_result_is_what_the_endpoint_returns(api_client: Any, op: str, path: str,
                                             body: dict[str, Any]) -> None:
    reply = api_client.post(path, json=body)
    assert reply.status_code == 200, reply.text
    expected = reply.json()
    del expected["elapsed_ms"]
    assert answer(body, op=op)["result"] == expected


@pytest.mark.parametrize(("op", "path", "body"), BAD)
def test_error_is_what_the_endpoint_says(api_client: Any, op: str, path: str,
                                         body: dict[str, Any]) -> None:
    reply = api_client.post(path, json=body)
    assert reply.status_code == 422, reply.text
    first = reply.json()["detail"][0]
    error = answer({"id": "e", **body}, op=op)
    assert error["id"] == "e"
    assert (error["error"]["type"], error["error"]["loc"]) == (first["type"],
                                                               ["line", *first["loc"][1:]])


@pytest.mark.parametrize(("line", "type_"), [
    ("", "json_invalid"),
    ("not json", "json_invalid"),
    ('{"variant": "gin", "hand": "AS"', "json_invalid"),
    ('{"id": NaN, "variant": "gin", "hand": "AS"}', "json_invalid"),
    ('{"id": 1e999, "variant": "gin", "hand": "AS"}', "json_invalid"),
    ("[" * 100_000 + "]" * 100_000, "json_invalid"),
    (b'{"variant": "gin", "hand": "A\xff"}', "line_not_utf8"),
    ("[1, 2]", "model_attributes_type"),
    ('"hand"', "model_attributes_type"),
    ("null", "model_attributes_type"),
    ('{"op": "shuffle", "hand": "AS"}', "unknown_op"),
    ('{"op": 3, "hand": "AS"}', "unknown_op"),
    ("x" * (bulk.MAX_LINE_BYTES + 1), "line_too_large"),
])
def test_a_malformed_line_is_an_error_answer(line: str | bytes, type_: str) -> None:
    data = answer_line(line)
    assert set(data) == {"id", "error"}
    assert data["error"]["type"] == type_
    assert data["error"]["loc"][0] == "line"
    json.dumps(data, allow_nan=False)  # always writable


def test_ids_are_echoed_as_given() -> None:
    for request_id in ("a", 7, 2.5, None, [1, "x"], {"game": 3}):
        line = json.dumps({"id": request_id, "variant": "gin", "hand": "AS"})
        assert answer_line(line)["id"] == request_id
        assert answer_line(json.dumps({"id": request_id, "hand": 1}))["id"] == request_id
    assert answer({"variant": "gin", "hand": "AS"})["id"] is None


def test_line_endings_bom_and_bytes() -> None:
    body = '{"id": 1, "variant": "gin", "hand": "AS 2S"}'
    expected = answer_line(body)
    assert "result" in expected
    for line in (body + "\r\n", "\ufeff" + body, body.encode(), ("\ufeff" + body).encode()):
        assert answer_line(line) == expected


def test_loc_prefix_and_library_error_locs() -> None:
    error = answer({"variant": "gin", "melds": [["AS", "2S", "3S"], ["QQ"]]}, op="validate",
                   loc_prefix=("body", 4))["error"]
    assert error["loc"] == ["body", 4, "melds", 1, 0]
    error = answer({"hand": GIN10, "rules": {"objective": "max_net"}}, op="knock")["error"]
    assert error == {"type": "invalid_rules", "loc": ["line", "rules", "objective"],
                     "msg": error["msg"]}


def test_a_failure_of_the_library_is_an_error_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: dict[str, Any], deadline: Deadline) -> Any:
        raise KeyError("oops")

    monkeypatch.setitem(OPERATIONS, "solve", Operation(OPERATIONS["solve"].fields, broken, "solve"))
    error = answer({"id": 1, "variant": "gin", "hand": "AS"})
    assert error["id"] == 1
    assert error["error"]["type"] == "solver_error"
    assert "KeyError" in error["error"]["msg"]


# ---------------------------------------------------------------------------
# Deadlines


def _capture_deadlines(monkeypatch: pytest.MonkeyPatch) -> list[Deadline]:
    seen: list[Deadline] = []
    for op, operation in list(OPERATIONS.items()):
        def capture(args: dict[str, Any], deadline: Deadline,
                    call: Any = operation.call) -> Any:
            seen.append(deadline)
            return call(args, deadline)

        monkeypatch.setitem(OPERATIONS, op, Operation(operation.fields, capture, operation.budget))
    return seen


def test_every_line_gets_the_api_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _capture_deadlines(monkeypatch)
    cases = [
        ("solve", {"variant": "gin", "hand": GIN10}, 1000),
        ("solve", {"variant": "gin", "hand": GIN10, "time_limit_ms": 2000}, 2000),
        ("solve", {"variant": "gin", "hand": GIN10, "time_limit_ms": 7}, 7),
        ("knock", {"hand": GIN10}, REQUEST_BUDGET_MS),
        ("discard_hint", {"variant": "gin", "hand": GIN11, "time_limit_ms": 5000}, 5000),
        ("draw_hint", {"variant": "gin", "hand": GIN10, "discard_top": "4S", "time_limit_ms": 30},
         30),
    ]
    for op, body, limit_ms in cases:
        assert "result" in answer(body, op=op)
        deadline = seen.pop()
        assert deadline.work.left <= limit_ms * NODES_PER_MS
        assert limit_ms - 100 < deadline.remaining_ms() <= limit_ms
    assert "result" in answer({"variant": "gin", "melds": []}, op="validate")
    assert math.isinf(seen.pop().at)


def test_a_given_deadline_is_cut_to_the_line_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _capture_deadlines(monkeypatch)
    outer = Deadline.after_ms(60_000)
    answer({"variant": "gin", "hand": GIN10, "time_limit_ms": 50}, outer)
    assert seen[-1].remaining_ms() <= 50
    assert seen[-1].work.parent is outer.work
    tight = Deadline.after_ms(10)
    answer({"variant": "gin", "hand": GIN10}, tight)
    assert seen[-1].at == tight.at


def test_limits_follow_the_api_settings() -> None:
    limits = Limits.from_env({"RUMMY_SOLVER_MAX_TIME_LIMIT_MS": "500",
                              "RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS": "100",
                              "RUMMY_SOLVER_MAX_HAND_CARDS": "12"})
    assert limits == Limits(12, 100, 500, REQUEST_BUDGET_MS)
    assert Limits.from_env({}) == DEFAULT_LIMITS
    body = {"variant": "gin", "hand": GIN10, "time_limit_ms": 501}
    assert answer(body, limits=limits)["error"]["type"] == "time_limit_too_large"
    body = {"variant": "gin", "hand": GIN10 + " 5H 6H 7S"}
    assert answer(body, limits=limits)["error"]["type"] == "hand_too_large"
    with pytest.raises(ValueError, match="DEFAULT_TIME_LIMIT"):
        Limits.from_env({"RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS": "soon"})
    with pytest.raises(ValueError, match="must not exceed"):
        Limits(default_time_limit_ms=3000)


# ---------------------------------------------------------------------------
# Many lines


def _mixed_lines(n: int) -> list[str]:
    """``n`` lines cycling through every op, bad lines among them."""
    templates: list[Any] = [{"op": op, **body} for op, _, body in GOOD + BAD[:6]]
    templates += ["not json", [1], {"op": "nope"}]
    lines = []
    for i in range(n):
        item = templates[i % len(templates)]
        lines.append(json.dumps({"id": i, **item}) if isinstance(item, dict) else json.dumps(item)
                     if not isinstance(item, str) else item)
    return lines


def test_run_lines_in_order_with_ids_in_process_and_pool() -> None:
    lines = _mixed_lines(120)
    local = list(run_lines(lines, processes=1))
    assert len(local) == len(lines)
    for i, (line, answered) in enumerate(zip(lines, local, strict=True)):
        data = answered.to_dict()
        assert answered.ok == ("result" in data)
        if line.startswith("{") and '"id"' in line:
            assert data["id"] == i
        assert data == answer_line(line)
    pooled = list(run_lines(lines, processes=2, chunk_lines=7))
    assert pooled == local


def test_input_is_read_lazily() -> None:
    pulled = 0

    def source() -> Iterator[str]:
        nonlocal pulled
        for _ in range(10_000):
            pulled += 1
            yield '{"variant": "gin", "hand": "AS 2S 3S"}'

    answers = run_lines(source(), processes=1, chunk_lines=5)
    next(answers)
    assert pulled == 5
    answers.close()
    pulled = 0
    answers = run_lines(source(), processes=2, chunk_lines=5)
    next(answers)
    assert pulled <= (2 * bulk.IN_FLIGHT_PER_PROCESS + 1) * 5
    answers.close()
    assert multiprocessing.active_children() == []


def test_run_lines_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown op"):
        list(run_lines([], op="deal"))
    with pytest.raises(ValueError, match="processes"):
        list(run_lines([], processes=0))


def crash_on_boom(lines: Sequence[bulk.Line]) -> list[Answered]:
    """A chunk task whose process dies on a line holding ``boom`` (for the pool test)."""
    if any("boom" in str(line) for line in lines):
        os._exit(3)
    return bulk.answer_chunk(lines)


def test_a_dying_worker_costs_only_its_line() -> None:
    lines = _mixed_lines(40)
    lines[13] = '{"id": "b", "variant": "gin", "hand": "boom"}'
    answers = list(bulk._pooled(bulk.chunks(lines, 4), crash_on_boom, 2))
    assert len(answers) == len(lines)
    crashed = [a.to_dict() for a in answers if '"worker_crashed"' in a.text]
    assert crashed == [{"id": "b", "error": {"type": "worker_crashed", "loc": ["line"],
                                             "msg": crashed[0]["error"]["msg"]}}]
    expected = [a for i, a in enumerate(run_lines(lines, processes=1)) if i != 13]
    assert [a for i, a in enumerate(answers) if i != 13] == expected
    assert multiprocessing.active_children() == []


def test_workers_that_keep_dying_stop_the_run() -> None:
    lines = [f'{{"id": {i}, "hand": "boom"}}' for i in range(10)]
    with pytest.raises(bulk.WorkersFailed):
        list(bulk._pooled(bulk.chunks(lines, 4), crash_on_boom, 2))
    assert multiprocessing.active_children() == []


# ---------------------------------------------------------------------------
# Command line


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rummy-solver bulk")
    bulk_cli.add_arguments(parser)
    return parser.parse_args(argv)


def _read(path: Path) -> list[dict[str, Any]]:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_cli_files_gzip_and_exit_codes(tmp_path: Path) -> None:
    lines = _mixed_lines(30)
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "answers.jsonl"
    assert bulk_cli.run(_args(str(source), "-o", str(out), "--processes", "1", "--quiet")) == 1
    expected = [answer_line(line) for line in lines]
    assert _read(out) == expected
    packed = tmp_path / "log.jsonl.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as stream:
        stream.write("\n".join(lines))  # no newline at the end
    out_gz = tmp_path / "answers.jsonl.gz"
    assert bulk_cli.run(_args(str(packed), "-o", str(out_gz), "--processes", "2")) == 1
    assert _read(out_gz) == expected
    good = tmp_path / "good.jsonl"
    good.write_text('{"id": 1, "hand": "' + GIN11 + '"}\n', encoding="utf-8")
    assert bulk_cli.run(_args(str(good), "-o", str(out), "--op", "knock")) == 0
    assert _read(out)[0]["result"]["min_deadwood"] == 32


def test_cli_stdin_stdout(monkeypatch: pytest.MonkeyPatch, capsysbinary: Any) -> None:
    data = b'{"id": "a", "variant": "gin", "hand": "AS 2S 3S"}\r\n\xff\n{"id": "c", "op": "knock"}'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert bulk_cli.run(_args("-", "--processes", "1")) == 1
    out = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert [a["id"] for a in out] == ["a", None, "c"]
    assert out[0]["result"]["deadwood_points"] == 0
    assert out[1]["error"]["type"] == "line_not_utf8"
    assert out[2]["error"] == {"type": "missing", "msg": "Field required", "loc": ["line", "hand"]}


def test_cli_reads_an_overlong_line_in_bounded_memory() -> None:
    stream = io.BytesIO(b"x" * 50 + b"\n" + b"y" * 10 + b"\n" + b"z" * 30)
    assert list(bulk_cli.read_lines(stream, limit=20)) == [b"x" * 21, b"y" * 10, b"z" * 21]
    assert bulk_cli.count_lines.__doc__


def test_cli_progress_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(_mixed_lines(20)), encoding="utf-8")
    out = str(tmp_path / "out.jsonl")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    bulk_cli.run(_args(str(source), "-o", out, "--processes", "1"))
    shown = terminal.getvalue()
    assert "20/20 lines (100%)" in shown and "ETA" in shown and "lines/s" in shown
    assert "errors" in shown and shown.endswith("\n")
    packed = tmp_path / "log.jsonl.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    terminal.seek(0)
    terminal.truncate()
    bulk_cli.run(_args(str(packed), "-o", out, "--processes", "1"))
    assert "20 lines" in terminal.getvalue() and "ETA" not in terminal.getvalue()
    terminal.seek(0)
    terminal.truncate()
    bulk_cli.run(_args(str(source), "-o", out, "--processes", "1", "--quiet"))
    assert terminal.getvalue() == ""
    assert bulk_cli.count_lines(str(source)) == 20


def test_cli_usage_errors(tmp_path: Path, capsys: Any) -> None:
    assert bulk_cli.run(_args(str(tmp_path / "missing.jsonl"))) == 2
    assert "error" in capsys.readouterr().err
    source = tmp_path / "log.jsonl"
    source.write_text("{}\n", encoding="utf-8")
    assert bulk_cli.run(_args(str(source), "--processes", "0")) == 2
    assert bulk_cli.run(_args(str(source), "-o", str(tmp_path / "no" / "dir.jsonl"))) == 2
    assert _args("in.jsonl", "--ray").ray == ""
    assert _args("in.jsonl", "--ray=auto").ray == "auto"
    with pytest.raises(SystemExit):
        _args("in.jsonl", "--op", "deal")


# ---------------------------------------------------------------------------
# Ray


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_local_answers(local_ray: Any, tmp_path: Path) -> None:
    from solver.bulk_ray import run_lines_ray

    lines = _mixed_lines(150)
    local = list(run_lines(lines, processes=1))
    on_ray = list(run_lines_ray(lines, chunk_lines=16))
    assert on_ray == local
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert bulk_cli.run(_args(str(source), "-o", str(out), "--ray", "--quiet")) == 1
    assert _read(out) == [a.to_dict() for a in local]
    assert local_ray.is_initialized()  # a caller's instance is left running


def test_the_throughput_benchmark_runs() -> None:
    from benchmarks.bulk import MIXED_SUITES, mixed_lines, render, run_bulk

    lines = mixed_lines(8)
    assert [json.loads(line)["variant"] for line in lines[:4]] == [
        "indian13", "indian21", "rummy500", "gin"]
    assert len(MIXED_SUITES) == 4
    results = run_bulk(n=8, processes=(1, 2), ray=False)
    assert [r["lines"] for r in results["runs"]] == [8, 8]
    assert all(r["errors"] == 0 for r in results["runs"]) and results["disagreements"] == 0
    assert "| local, 2 processes" in render(results)
