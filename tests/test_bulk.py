"""``api.bulk`` and ``api.shared.lines``: answering lines, ``rummy-solver bulk``, the
solver-pool and Ray runners.

Answers are checked against the library calls and against the REST API
itself (the same body must give the same result, less ``elapsed_ms``, and
the same error item; ``tests/test_operations.py`` compares the error bytes
of every front end); malformed lines, order, ids and line numbers, the
solver pool, deadlines, gzip and standard input, the progress bar and exit
codes.  The Ray test runs on a local instance and is skipped without ray.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import logging
import multiprocessing
import sys
import warnings
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from api.bulk import command
from api.bulk.on_pool import MAX_REFUSALS, PoolRunner, run_lines
from api.bulk.pipeline import IN_FLIGHT_PER_PROCESS, ChunkRunner, WorkersFailed, chunks, in_order
from api.pool.solver_pool import Overloaded
from api.shared.lines import Answered, Line, answer, answer_chunk, answer_line
from api.shared.operations import DEFAULT_SETTINGS, OPERATIONS
from api.shared.settings import Settings
from benchmarks.speed.bulk import preset_lines
from solver.deadline import NODES_PER_MS, Deadline
from solver.gin import knock_check
from solver.hints import discard_hint, draw_hint
from solver.review.review import Totals
from solver.solve import solve
from solver.validate import validate

GIN10 = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
GIN11 = GIN10 + " 9C"

GOOD: list[tuple[str, dict[str, Any]]] = [
    ("solve_hand", {"variant": "gin", "hand": GIN10}),
    ("solve_hand", {"variant": "gin", "hand": GIN11.split(), "discard": True, "engine": "search",
                    "time_limit_ms": 1500}),
    ("solve_hand", {"variant": "indian13", "hand": "AS 2S 3S 5H 6H JK 9C 9D 9S KD KC 4H 7S",
                    "wild_rank": "7", "rules": {"points_cap": 60}}),
    ("solve_hand", {"variant": "rummy500", "hand": "AS KS QS 2H 3H 4H 9C 9D 9S JK 5C 6D 7H"}),
    ("validate_hand", {"variant": "gin", "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]],
                       "deadwood": ["KD", "QH", "4C", "9S"], "hand": GIN10}),
    ("validate_hand", {"variant": "gin", "melds": [["AS", "2S", "4S"]]}),
    ("gin_knock", {"hand": GIN11, "knock_limit": 40}),
    ("gin_knock", {"hand": GIN10, "upcard": "5H", "rules": {"gin_bonus": 20}}),
    ("hint_discard", {"variant": "gin", "hand": GIN11}),
    ("hint_draw", {"variant": "gin", "hand": GIN10, "discard_top": "4S", "seen": ["5S", "6S"]}),
]
LIBRARY: dict[str, Callable[..., Any]] = {
    "solve_hand": solve, "validate_hand": validate, "gin_knock": knock_check,
    "hint_discard": discard_hint, "hint_draw": draw_hint}


# ---------------------------------------------------------------------------
# One line


@pytest.mark.parametrize(("op", "body"), GOOD)
def test_answer_is_the_library_result(op: str, body: dict[str, Any]) -> None:
    args = {k: v for k, v in body.items() if k != "time_limit_ms"}
    if op == "validate_hand":
        args.setdefault("deadwood", [])
    expected = LIBRARY[op](**args).to_dict()
    assert answer({"id": "x", **body}, 1, op=op) == {"id": "x", "result": expected}
    assert answer({"id": 3, "op": op, **body}, 2, op="validate_hand") == {"id": 3,
                                                                         "result": expected}


def test_older_op_names_still_work() -> None:
    for old, new in (("solve", "solve_hand"), ("validate", "validate_hand"), ("knock", "gin_knock"),
                     ("discard_hint", "hint_discard"), ("draw_hint", "hint_draw")):
        body = dict(next(b for op, b in GOOD if op == new))
        assert answer({"op": old, **body}, 1) == answer({"op": new, **body}, 1)


@pytest.fixture(scope="module")
def api_client() -> Iterator[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from api.server.main import create_app

    with TestClient(create_app(Settings(processes=0))) as client:
        yield client


@pytest.mark.parametrize(("op", "body"), GOOD)
def test_result_is_what_the_endpoint_returns(api_client: Any, op: str,
                                             body: dict[str, Any]) -> None:
    reply = api_client.post(OPERATIONS[op].path, json=body)
    assert reply.status_code == 200, reply.text
    expected = reply.json()
    del expected["elapsed_ms"]
    assert answer(body, 1, op=op)["result"] == expected


@pytest.mark.parametrize(("line", "type_"), [
    ("", "missing"),
    ("  ", "missing"),
    ("not json", "json_invalid"),
    ('{"variant": "gin", "hand": "AS"', "json_invalid"),
    ('{"id": NaN, "variant": "gin", "hand": "AS"}', "json_invalid"),
    ('{"id": 1e999, "variant": "gin", "hand": "AS"}', "json_invalid"),
    ("[" * 100_000 + "]" * 100_000, "line_too_deep"),
    ("[" * 40 + "]" * 40, "line_too_deep"),
    (b'{"variant": "gin", "hand": "A\xff"}', "line_not_utf8"),
    ("[1, 2]", "model_attributes_type"),
    ('"hand"', "model_attributes_type"),
    ("null", "model_attributes_type"),
    ('{"op": "shuffle", "hand": "AS"}', "unknown_op"),
    ('{"op": 3, "hand": "AS"}', "unknown_op"),
    ('{"op": "solve_batch", "requests": []}', "unknown_op"),
    ("x" * (DEFAULT_SETTINGS.max_body_bytes + 1), "line_too_large"),
])
def test_a_malformed_line_is_an_error_answer(line: str | bytes, type_: str) -> None:
    data = answer_line(line, 7)
    assert set(data) == {"id", "line", "error"}
    assert data["line"] == 7
    assert data["error"]["type"] == type_
    assert data["error"]["loc"][0] == "line"
    assert list(data["error"]) == ["type", "loc", "msg"]
    json.dumps(data, allow_nan=False)  # always writable


@pytest.mark.parametrize(("op", "quoted"), [
    ("null", "null"), ("true", "true"), ("3", "3"), ('["x"]', '["x"]'), ('"shuffle"', "'shuffle'"),
])
def test_an_unknown_op_is_quoted_as_the_line_wrote_it(op: str, quoted: str) -> None:
    """A line's ``"op": null`` was refused as "unknown op None" (``true``: True), in
    Python's spelling, where every other choice is quoted as the client wrote it
    (``errors.spelled``; audit of the front doors)."""
    error = answer_line('{"op": ' + op + ', "variant": "gin", "hand": "AS"}', 1)["error"]
    assert error["msg"].startswith(f"unknown op {quoted}; choose one of solve_hand, ")


def test_ids_are_echoed_as_given() -> None:
    for request_id in ("a", 7, 2.5, None, [1, "x"], {"game": 3}):
        line = json.dumps({"id": request_id, "variant": "gin", "hand": "AS"})
        assert answer_line(line, 1)["id"] == request_id
        assert answer_line(json.dumps({"id": request_id, "hand": 1}), 1)["id"] == request_id
    assert answer({"variant": "gin", "hand": "AS"}, 1)["id"] is None


def test_line_endings_bom_and_bytes() -> None:
    body = '{"id": 1, "variant": "gin", "hand": "AS 2S"}'
    expected = answer_line(body, 1)
    assert "result" in expected
    for line in (body + "\r\n", "\ufeff" + body, body.encode(), ("\ufeff" + body).encode()):
        assert answer_line(line, 1) == expected


def test_library_error_locs() -> None:
    error = answer({"variant": "gin", "melds": [["AS", "2S", "3S"], ["QQ"]]}, 4,
                   op="validate_hand")["error"]
    assert error["loc"] == ["line", "melds", 1, 0]
    error = answer({"hand": GIN10, "rules": {"objective": "max_net"}}, 1, op="gin_knock")["error"]
    assert error == {"type": "invalid_rules", "loc": ["line", "rules", "objective"],
                     "msg": error["msg"]}


@pytest.mark.parametrize(("hand", "loc"), [
    ('"\\ud800"', ["line", "hand"]), ('"AS 2S \\udfff 3S"', ["line", "hand"]),
    ('["AS", "\\ud800"]', ["line", "hand", 1]),
])
def test_a_lone_surrogate_in_a_hand_string_is_the_strings_fault(hand: str, loc: list[Any]) -> None:
    """A hand given as a string holding a lone surrogate was answered at
    ``["line", "hand", 0]``, as if the hand were a list (audit of the command line)."""
    error = answer_line('{"variant": "gin", "hand": ' + hand + "}", 1)["error"]
    assert (error["type"], error["loc"]) == ("string_unicode", loc)


def test_an_overlong_hand_string_is_refused_at_the_field_with_its_bound() -> None:
    """A hand string over 400 characters was answered ``string_too_long`` at
    ``["line", "hand", 0]`` "at most 16 characters", a card token's bound, as if
    the hand were a list of one token (audit of the command line)."""
    for hand in ("AS " * 200, "A" * 401):
        error = answer({"variant": "gin", "hand": hand}, 1)["error"]
        assert error == {"type": "string_too_long", "loc": ["line", "hand"],
                         "msg": "String should have at most 400 characters"}
    assert "result" in answer({"variant": "gin", "hand": "AS" + " " * 398}, 1)


def test_a_failure_of_the_library_is_an_error_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("oops")

    monkeypatch.setitem(OPERATIONS, "solve_hand", replace(OPERATIONS["solve_hand"], call=broken))
    error = answer({"id": 1, "variant": "gin", "hand": "AS"}, 5)
    assert error["id"] == 1 and error["line"] == 5
    assert error["error"]["type"] == "solver_error"
    assert "KeyError" in error["error"]["msg"]


# ---------------------------------------------------------------------------
# Deadlines


def _capture_deadlines(monkeypatch: pytest.MonkeyPatch) -> list[Deadline | None]:
    seen: list[Deadline | None] = []
    for name, operation in list(OPERATIONS.items()):
        def capture(*args: Any, call: Any = operation.call, **kwargs: Any) -> Any:
            seen.append(kwargs.get("deadline"))
            return call(*args, **kwargs)

        monkeypatch.setitem(OPERATIONS, name, replace(operation, call=capture))
    return seen


def test_every_line_gets_the_api_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _capture_deadlines(monkeypatch)
    budget = DEFAULT_SETTINGS.request_budget_ms
    cases = [
        ("solve_hand", {"variant": "gin", "hand": GIN10}, DEFAULT_SETTINGS.default_time_limit_ms),
        ("solve_hand", {"variant": "gin", "hand": GIN10, "time_limit_ms": 2000}, 2000),
        ("solve_hand", {"variant": "gin", "hand": GIN10, "time_limit_ms": 7}, 7),
        ("gin_knock", {"hand": GIN10}, budget),
        ("hint_discard", {"variant": "gin", "hand": GIN11, "time_limit_ms": 5000}, 5000),
        ("hint_draw", {"variant": "gin", "hand": GIN10, "discard_top": "4S",
                       "time_limit_ms": 30}, 30),
    ]
    for op, body, limit_ms in cases:
        assert "result" in answer(body, 1, op=op)
        deadline = seen.pop()
        assert deadline is not None
        assert deadline.work.left <= limit_ms * NODES_PER_MS
        assert limit_ms - 100 < deadline.remaining_ms() <= limit_ms
    assert "result" in answer({"variant": "gin", "melds": []}, 1, op="validate_hand")
    assert seen.pop() is None  # validate takes no deadline


def test_a_given_deadline_is_cut_to_the_line_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _capture_deadlines(monkeypatch)
    outer = Deadline.after_ms(60_000)
    answer({"variant": "gin", "hand": GIN10, "time_limit_ms": 50}, 1, outer)
    assert seen[-1] is not None and seen[-1].remaining_ms() <= 50
    assert seen[-1].work.parent is outer.work
    tight = Deadline.after_ms(10)
    answer({"variant": "gin", "hand": GIN10}, 1, tight)
    assert seen[-1] is not None and seen[-1].at == tight.at


def test_limits_follow_the_settings() -> None:
    settings = Settings(max_time_limit_ms=500, default_time_limit_ms=100, max_hand_cards=12)
    body = {"variant": "gin", "hand": GIN10, "time_limit_ms": 501}
    error = answer(body, 1, settings=settings)["error"]
    assert error["type"] == "time_limit_too_large" and "at most 500" in error["msg"]
    body = {"variant": "gin", "hand": GIN10 + " 5H 6H 7S"}
    assert answer(body, 1, settings=settings)["error"]["type"] == "hand_too_large"


# ---------------------------------------------------------------------------
# Many lines


def _mixed_lines(n: int) -> list[str]:
    """``n`` lines cycling through every op, bad lines among them."""
    bad: list[Any] = [{"op": "solve_hand", "variant": "gin"},
                      {"op": "hint_discard", "variant": "gin", "hand": "AS ZZ"},
                      {"op": "gin_knock", "hand": "AS", "knock_limit": 300}]
    templates: list[Any] = [{"op": op, **body} for op, body in GOOD] + bad
    templates += ["not json", [1], {"op": "nope"}]
    lines = []
    for i in range(n):
        item = templates[i % len(templates)]
        if isinstance(item, dict):
            lines.append(json.dumps({"id": i, **item}))
        else:
            lines.append(item if isinstance(item, str) else json.dumps(item))
    return lines


def test_run_lines_in_order_with_ids_in_process_and_pool() -> None:
    lines = _mixed_lines(120)
    local = list(run_lines(lines, processes=1))
    assert len(local) == len(lines)
    for number, (line, answered) in enumerate(zip(lines, local, strict=True), 1):
        data = answered.to_dict()
        assert answered.ok == ("result" in data)
        if line.startswith("{") and '"id"' in line:
            assert data["id"] == number - 1
        if not answered.ok:
            assert data["line"] == number
        assert data == answer_line(line, number)
    pooled = list(run_lines(lines, processes=2, chunk_lines=7))
    assert pooled == local
    assert multiprocessing.active_children() == []


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
    assert pulled <= (2 * IN_FLIGHT_PER_PROCESS + 1) * 5
    answers.close()
    assert multiprocessing.active_children() == []


def test_run_lines_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown op"):
        list(run_lines([], op="deal"))
    with pytest.raises(ValueError, match="processes"):
        list(run_lines([], processes=0))


class _CrashingRunner(ChunkRunner):
    """Answers chunks in this process, except that one holding ``boom`` "dies"."""

    def start(self, first: int, lines: Sequence[Line]) -> Any:
        return first, list(lines)

    def finish(self, ticket: Any) -> list[Answered] | None:
        first, lines = ticket
        if any("boom" in str(line) for line in lines):
            return None
        return answer_chunk(lines, first)


def test_a_dying_worker_costs_only_its_line() -> None:
    lines = _mixed_lines(40)
    lines[13] = '{"id": "b", "variant": "gin", "hand": "boom"}'
    answers = list(in_order(chunks(lines, 4), _CrashingRunner(), 3))
    assert len(answers) == len(lines)
    crashed = [a.to_dict() for a in answers if '"worker_crashed"' in a.text]
    assert crashed == [{"id": "b", "line": 14, "error": {
        "type": "worker_crashed", "loc": ["line"], "msg": crashed[0]["error"]["msg"]}}]
    expected = [a for i, a in enumerate(run_lines(lines, processes=1)) if i != 13]
    assert [a for i, a in enumerate(answers) if i != 13] == expected


def test_workers_that_keep_dying_stop_the_run() -> None:
    lines = [f'{{"id": {i}, "hand": "boom"}}' for i in range(10)]
    with pytest.raises(WorkersFailed):
        list(in_order(chunks(lines, 4), _CrashingRunner(), 2))


def test_a_solver_process_that_dies_is_replaced_and_only_its_line_lost() -> None:
    """The real solver pool: a line that kills its process (``tests/pool_jobs.py``)."""
    lines = _mixed_lines(24)
    lines[5] = '{"id": "b", "variant": "gin", "hand": "boom"}'
    runner = PoolRunner(2, "solve_hand", DEFAULT_SETTINGS, runner_path="tests.pool_jobs:run")
    try:
        answers = list(in_order(chunks(lines, 4), runner, runner.window))
    finally:
        runner.close()
    assert [a.to_dict().get("error", {}).get("type") for a in answers].count("worker_crashed") == 1
    expected = [a for i, a in enumerate(run_lines(lines, processes=1)) if i != 5]
    assert [a for i, a in enumerate(answers) if i != 5] == expected
    assert multiprocessing.active_children() == []


def _died(records: list[logging.LogRecord]) -> list[str]:
    """Bulk's "a worker died" messages among ``records``."""
    return [r.getMessage() for r in records if r.name == "api.bulk" and "died" in r.getMessage()]


def test_recycled_processes_lose_no_chunk(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 38.6: a plain log of every preset on 2 processes recycled every 3
    jobs (and chunks queued before any finished: nothing known of their cost)
    gets every answer, none rerun as if a process had died."""
    lines = preset_lines(800)
    settings = DEFAULT_SETTINGS.model_copy(update={"recycle_tasks": 3})
    with caplog.at_level(logging.WARNING, logger="api.bulk"):
        pooled = list(run_lines(lines, processes=2, settings=settings, chunk_lines=16))
    assert _died(caplog.records) == []
    assert [a.to_dict()["id"] for a in pooled] == [json.loads(line)["id"] for line in lines]
    assert all(a.ok for a in pooled)
    assert multiprocessing.active_children() == []


def test_a_crash_among_recycled_processes_costs_only_its_line(
        caplog: pytest.LogCaptureFixture) -> None:
    lines = preset_lines(300)
    lines[100] = '{"id": "b", "variant": "gin", "hand": "boom"}'
    settings = DEFAULT_SETTINGS.model_copy(update={"recycle_tasks": 2})
    runner = PoolRunner(2, "solve_hand", settings, runner_path="tests.pool_jobs:run")
    try:
        with caplog.at_level(logging.WARNING, logger="api.bulk"):
            answers = list(in_order(chunks(lines, 8), runner, runner.window))
    finally:
        runner.close()
    assert len(_died(caplog.records)) == 1
    errors = [(i, a.to_dict()["error"]["type"]) for i, a in enumerate(answers) if not a.ok]
    assert errors == [(100, "worker_crashed")]
    assert multiprocessing.active_children() == []


def _refusing(runner: PoolRunner, refusals: int) -> list[int]:
    """Make ``runner``'s pool refuse its next ``refusals`` jobs; the count of refusals so far."""
    real = runner.pool.submit
    refused = [0]

    async def submit(*args: Any, **kwargs: Any) -> Any:
        if refused[0] < refusals:
            refused[0] += 1
            raise Overloaded("1024 requests are already waiting", 1)
        return await real(*args, **kwargs)

    runner.pool.submit = submit  # type: ignore[method-assign]
    return refused


def test_a_refused_chunk_is_submitted_again_as_it_is(caplog: pytest.LogCaptureFixture) -> None:
    lines = _mixed_lines(40)
    runner = PoolRunner(2, "solve_hand", DEFAULT_SETTINGS)
    try:
        refused = _refusing(runner, 3)
        with caplog.at_level(logging.WARNING, logger="api.bulk"):
            answers = list(in_order(chunks(lines, 4), runner, runner.window))
    finally:
        runner.close()
    assert refused == [3] and _died(caplog.records) == []
    assert sum("refused" in r.getMessage() for r in caplog.records) == 3
    assert answers == list(run_lines(lines, processes=1))


def test_a_pool_that_keeps_refusing_stops_the_run() -> None:
    runner = PoolRunner(2, "solve_hand", DEFAULT_SETTINGS)
    try:
        _refusing(runner, 10**6)
        with pytest.raises(WorkersFailed, match=f"refused lines 1-4 {MAX_REFUSALS} times"):
            list(in_order(chunks(_mixed_lines(8), 4), runner, runner.window))
    finally:
        runner.close()


# ---------------------------------------------------------------------------
# Command line


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rummy-solver bulk")
    command.add_arguments(parser)
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
    assert command.run(_args(str(source), "-o", str(out), "--processes", "1", "--quiet")) == 1
    expected = [answer_line(line, number) for number, line in enumerate(lines, 1)]
    assert _read(out) == expected
    packed = tmp_path / "log.jsonl.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as stream:
        stream.write("\n".join(lines))  # no newline at the end
    out_gz = tmp_path / "answers.jsonl.gz"
    assert command.run(_args(str(packed), "-o", str(out_gz), "--processes", "2")) == 1
    assert _read(out_gz) == expected
    good = tmp_path / "good.jsonl"
    good.write_text('{"id": 1, "hand": "' + GIN11 + '"}\n', encoding="utf-8")
    assert command.run(_args(str(good), "-o", str(out), "--op", "knock")) == 0
    assert _read(out)[0]["result"]["min_deadwood"] == 32



@pytest.mark.parametrize("damage", ["cut", "corrupt", "not_gzip"])
def test_a_gzip_input_cut_short_or_corrupt_ends_the_run_with_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    lines = [json.dumps({"id": i, "variant": "gin", "hand": "AS 2S 3S"}) for i in range(3000)]
    packed = gzip.compress("\n".join(lines).encode() + b"\n")
    if damage == "cut":
        data = packed[:len(packed) // 2]
    elif damage == "corrupt":
        middle = len(packed) // 2
        data = packed[:middle] + bytes([packed[middle] ^ 0xFF]) + packed[middle + 1:]
    else:
        data = b"junk, not gzip"
    # The whole lines zlib itself gets out of the bytes cut short: the answers the
    # run owes before it stops (corrupt bytes may decode to garbage first).
    unpacker = zlib.decompressobj(wbits=31)
    try:
        readable = unpacker.decompress(data)
    except zlib.error:
        readable = b""
    whole = readable.count(b"\n") if damage == "cut" else None
    source, out = tmp_path / "log.jsonl.gz", tmp_path / "answers.jsonl"
    source.write_bytes(data)
    assert command.run(_args(str(source), "-o", str(out), "--processes", "2", "--quiet")) == 2
    answers = _read(out)
    err = capsys.readouterr().err
    assert f"cannot be read past line {len(answers)}: " in err and "Traceback" not in err
    if whole is not None:  # cut short: every whole line before the cut, in order
        assert [a["id"] for a in answers] == list(range(whole)) and whole > 0
    if damage == "not_gzip":
        assert answers == [] and "Not a gzipped file" in err

def test_cli_stdin_stdout(monkeypatch: pytest.MonkeyPatch, capsysbinary: Any) -> None:
    data = b'{"id": "a", "variant": "gin", "hand": "AS 2S 3S"}\r\n\xff\n{"id": "c", "op": "knock"}'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert command.run(_args("-", "--processes", "1")) == 1
    out = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert [a["id"] for a in out] == ["a", None, "c"]
    assert out[0]["result"]["deadwood_points"] == 0
    assert out[1]["error"]["type"] == "line_not_utf8"
    assert out[2] == {"id": "c", "line": 3, "error": {
        "type": "missing", "loc": ["line", "hand"], "msg": "Field required"}}


def test_a_line_without_op_missing_a_field_says_what_it_was_read_as(
        monkeypatch: pytest.MonkeyPatch, capsysbinary: Any) -> None:
    """A recorded game on a line of a solve run (no ``"op"``, no ``--op``) is
    read as a solve: its error says so, not only that ``variant`` is missing;
    a line that names its operation gets pydantic's message as it is."""
    record = {"id": "g", "game": "gin", "players": ["a", "b"], "deal": {"hands": [[], []]},
              "events": []}
    data = (json.dumps(record) + "\n" + json.dumps({"id": "k", "op": "knock"})).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert command.run(_args("-", "--processes", "1")) == 1
    first, second = (json.loads(line) for line in capsysbinary.readouterr().out.splitlines())
    assert first["error"] == {"type": "missing", "loc": ["line", "variant"],
                              "msg": 'Field required (a line without "op" is read as solve_hand)'}
    assert second["error"]["msg"] == "Field required"


def test_cli_reads_an_overlong_line_in_bounded_memory() -> None:
    stream = io.BytesIO(b"x" * 50 + b"\n" + b"y" * 10 + b"\n" + b"z" * 30)
    assert list(command.InputLines(stream, limit=20)) == [b"x" * 21, b"y" * 10, b"z" * 21]
    assert command.count_lines.__doc__


def test_cli_progress_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(_mixed_lines(20)), encoding="utf-8")
    out = str(tmp_path / "out.jsonl")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    command.run(_args(str(source), "-o", out, "--processes", "1"))
    shown = terminal.getvalue()
    assert "20/20 lines (100%)" in shown and "ETA" in shown and "lines/s" in shown
    assert "errors" in shown and shown.endswith("\n")
    packed = tmp_path / "log.jsonl.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    terminal.seek(0)
    terminal.truncate()
    command.run(_args(str(packed), "-o", out, "--processes", "1"))
    assert "20 lines" in terminal.getvalue() and "ETA" not in terminal.getvalue()
    terminal.seek(0)
    terminal.truncate()
    command.run(_args(str(source), "-o", out, "--processes", "1", "--quiet"))
    assert terminal.getvalue() == ""
    assert command.count_lines(str(source)) == 20


def test_cli_usage_errors(tmp_path: Path, capsys: Any) -> None:
    assert command.run(_args(str(tmp_path / "missing.jsonl"))) == 2
    assert "error" in capsys.readouterr().err
    source = tmp_path / "log.jsonl"
    source.write_text("{}\n", encoding="utf-8")
    for processes in ("0", "-1", "two"):
        with pytest.raises(SystemExit):
            _args(str(source), "--processes", processes)
    assert command.run(_args(str(source), "-o", str(tmp_path / "no" / "dir.jsonl"))) == 2
    assert _args("in.jsonl", "--ray").ray == ""
    assert _args("in.jsonl", "--ray=auto").ray == "auto"
    assert _args("in.jsonl", "--op", "discard_hint").op == "hint_discard"
    for unknown in ("deal", "solve_batch"):
        with pytest.raises(SystemExit):
            _args("in.jsonl", "--op", unknown)


class _FullDisk(io.BytesIO):
    """An output file on a disk that fills after ``room`` bytes: writing past
    it fails, and so does closing, which writes what is still buffered."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, data: Any) -> int:
        if self.tell() + len(data) > self.room:
            raise OSError(28, "No space left on device")
        return super().write(data)

    def close(self) -> None:
        super().close()
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize(("processes", "room"), [("1", 10_000), ("2", 10_000), ("1", 1 << 30)])
def test_an_output_on_a_full_disk_ends_the_run_with_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        processes: str, room: int) -> None:
    """Output that cannot be written (a full disk), while answering or only when
    the file is closed, ended bulk with a traceback and exit 1, the code of a line
    answered with an error, and on the pool left its workers running for half a
    minute (audit of the command line)."""
    source = tmp_path / "log.jsonl"
    line = json.dumps({"variant": "gin", "hand": "AS 2S 3S"})
    source.write_text("\n".join([line] * 2000) + "\n", encoding="utf-8")
    monkeypatch.setattr(command, "_open_output", lambda name: _FullDisk(room))
    assert command.run(_args(str(source), "-o", str(tmp_path / "out.jsonl"),
                             "--processes", processes, "--quiet")) == 2
    assert capsys.readouterr().err.count("No space left on device") == 1


def test_an_output_that_is_the_input_is_refused_before_it_is_emptied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``-o`` (or ``--summary``) naming the input, by any path, truncated it
    before a line was read: nothing answered, exit 0 (audit of the command line)."""
    source = tmp_path / "log.jsonl"
    text = "\n".join(_mixed_lines(5)) + "\n"
    source.write_text(text, encoding="utf-8")
    (tmp_path / "link.jsonl").symlink_to(source)
    for argv in (("-o", str(source)), ("-o", str(tmp_path / "link.jsonl")),
                 ("--summary", str(tmp_path / "." / "log.jsonl"))):
        assert command.run(_args(str(source), "--processes", "1", *argv)) == 2
        assert "is the input file" in capsys.readouterr().err
        assert source.read_text(encoding="utf-8") == text
    with source.open("rb") as stdin:  # rummy-solver bulk - -o log.jsonl < log.jsonl
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
        assert command.run(_args("-", "--processes", "1", "-o", str(source))) == 2
    assert source.read_text(encoding="utf-8") == text
    out = tmp_path / "out.jsonl"
    assert command.run(_args(str(source), "--processes", "1", "-o", str(out),
                             "--summary", str(out))) == 2
    assert "the same file" in capsys.readouterr().err and not out.exists()


# ---------------------------------------------------------------------------
# Ray


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[test-slow]')")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.slow  # Ray (240 MB, the test-slow extra) and its start: the slow lane
def test_ray_gives_the_local_answers(local_ray: Any, tmp_path: Path) -> None:
    from api.bulk.on_ray import run_lines_ray

    lines = _mixed_lines(150)
    local = list(run_lines(lines, processes=1))
    on_ray = list(run_lines_ray(lines, chunk_lines=16))
    assert on_ray == local
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert command.run(_args(str(source), "-o", str(out), "--ray", "--quiet")) == 1
    assert _read(out) == [a.to_dict() for a in local]
    assert local_ray.is_initialized()  # a caller's instance is left running


@pytest.mark.slow
def test_ray_runs_under_the_engine_settings(local_ray: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's tasks ran with the library's defaults in their worker processes,
    not the run's engine settings, which each process of the solver pool starts
    with: under RUMMY_SOLVER_NODE_BUDGET=1000 this kalooki hand was optimal, 83
    points, on Ray and feasible, 87, with --processes 1 or 2 (audit of the
    front doors)."""
    from api.bulk.on_ray import run_lines_ray
    from solver.config import CONFIG

    settings = DEFAULT_SETTINGS.model_copy(update={"node_budget": 1000})
    line = json.dumps({"variant": "kalooki", "engine": "search", "hand": (
        "2H 5C QC 2C JK 4H 6C 7S 6C KD 3S 8S 7D JK 4S KC TD 5D 3C 5S 8H 2H 7S KD")})
    monkeypatch.setattr(CONFIG, "node_budget", 1000)  # the command line's process: applied
    local = list(run_lines([line], processes=1, settings=settings))
    assert local[0].to_dict()["result"]["status"] == "feasible"
    assert list(run_lines_ray([line], settings=settings)) == local


def test_the_throughput_benchmark_runs() -> None:
    from benchmarks.speed.bulk import MIXED_SUITES, mixed_lines, render, run_bulk

    lines = mixed_lines(8)
    assert [json.loads(line)["variant"] for line in lines[:4]] == [
        "indian13", "indian21", "rummy500", "gin"]
    assert len(MIXED_SUITES) == 4
    results = run_bulk(n=8, processes=(1, 2), ray=False, log="presets")
    assert [r["lines"] for r in results["runs"]] == [8, 8]
    assert all(r["errors"] == 0 for r in results["runs"]) and results["disagreements"] == 0
    assert all(r["best_seconds"] <= r["seconds"] and r["round_speedup"] > 0
               for r in results["runs"])
    assert "| local, 2 processes" in render(results) and results["headroom"] > 0


@pytest.mark.slow
def test_the_review_log_is_reviewed_alike_on_one_process_and_two() -> None:
    from benchmarks.speed.bulk import render, review_lines, run_bulk

    lines = [json.loads(line) for line in review_lines(3, seed=40)]
    assert [line["op"] for line in lines] == ["review_game"] * 3
    assert [line["id"] for line in lines] == ["review-40", "review-41", "review-42"]
    results = run_bulk(n=3, processes=(1, 2), ray=False, log="reviews")
    assert all(r["errors"] == 0 and r["peak_mb"] > 0 for r in results["runs"])
    assert results["disagreements"] == 0
    assert "review_game (recorded gin hands)" in render(results)


def test_the_preset_log_deals_every_preset_shuffled() -> None:
    from solver import PRESETS

    lines = [json.loads(line) for line in preset_lines(13 * 8)]
    assert {line["variant"] for line in lines} == set(PRESETS)
    assert [line["variant"] for line in lines[:13]] != [line["variant"] for line in lines[13:26]]
    assert len({line["id"] for line in lines}) == len(lines)



def test_the_memory_benchmark_reviews_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.speed import review_memory

    assert review_memory.main(["1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 hands played; resident ")
    assert out.splitlines()[-1].startswith("| 1 | ") and review_memory.resident_mb() > 0


def test_workers_that_fail_end_the_run_with_a_json_error_under_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Workers that keep dying ended ``bulk --json`` with a plain ``error: ...``
    (audit of the command line); the answers before are written, the summary too."""
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(_mixed_lines(3)) + "\n", encoding="utf-8")

    def failing(args: argparse.Namespace, lines: Iterator[bytes],
                settings: Settings) -> Iterator[Answered]:
        yield Answered('{"id": 1, "result": {}}', True)
        raise WorkersFailed("bulk workers died on 3 lines in a row")

    monkeypatch.setattr(command, "_answers", failing)
    out = tmp_path / "out.jsonl"
    args = _args(str(source), "-o", str(out), "--summary", str(tmp_path / "s.json"))
    args.json = True
    assert command.run(args) == 2
    (line,) = capsys.readouterr().err.splitlines()
    failure = {"type": "workers_failed", "loc": [], "msg": "bulk workers died on 3 lines in a row"}
    assert json.loads(line) == {"error": failure, "errors": [failure]}
    assert len(_read(out)) == 1 and json.loads((tmp_path / "s.json").read_text()) is not None


def test_a_summary_adds_up_the_answers_written_when_the_output_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An output that could not be written (a full disk) ended the run before the
    summary was written: ``--summary`` was left an empty file, not JSON (audit of
    the command line).  It adds up the answers written before, as when the
    workers fail."""
    source = tmp_path / "log.jsonl"
    source.write_text("{}\n" * 3, encoding="utf-8")
    ann = Totals(hands=1, decisions=4, points_lost=2.0, units_lost=0.1, accuracy=380.0,
                 result=25.0, results=1)
    text = json.dumps({"id": 0, "result": {"game": "gin",
                                           "players": [{"player": "ann", **ann.to_dict()}]}})

    def reviews(args: argparse.Namespace, lines: Iterator[bytes],
                settings: Settings) -> Iterator[Answered]:
        yield from [Answered(text, True)] * 3

    monkeypatch.setattr(command, "_answers", reviews)
    monkeypatch.setattr(command, "_open_output", lambda name: _FullDisk(2 * (len(text) + 1)))
    summary = tmp_path / "players.json"
    assert command.run(_args(str(source), "-o", str(tmp_path / "out.jsonl"), "--quiet",
                             "--summary", str(summary))) == 2
    assert capsys.readouterr().err.count("No space left on device") == 1
    assert json.loads(summary.read_text(encoding="utf-8"))["reviews"] == 2


@pytest.mark.parametrize("name", ["log.jsonl", "log.JSONL.GZ", "log.gzip", "-"])
def test_gzip_input_is_known_by_its_first_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: Any, name: str) -> None:
    """gzip input was known only by a lowercase ``.gz`` name: any other name, or
    standard input, answered every line ``line_not_utf8`` (audit of the command line)."""
    lines = _mixed_lines(6)
    packed = gzip.compress(("\n".join(lines) + "\n").encode())
    expected = [answer_line(line, number) for number, line in enumerate(lines, 1)]
    if name == "-":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(packed))))
        source = "-"
    else:
        (tmp_path / name).write_bytes(packed)
        source = str(tmp_path / name)
    code = 1 if any("error" in answer for answer in expected) else 0
    assert command.run(_args(source, "--processes", "1", "--quiet")) == code
    out = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert out == expected


def test_a_summary_to_dash_is_standard_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--summary -`` wrote a file named ``-`` in the working directory, where
    every other file argument of the command line takes ``-`` for a standard
    stream (audit of the command line); beside answers on standard output it is refused."""
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join(_mixed_lines(3)) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert command.run(_args(str(source), "-o", str(out), "--processes", "1",
                             "--summary", "-")) in (0, 1)
    assert json.loads(capsys.readouterr().out) == {"reviews": 0, "incomplete": 0, "players": {}}
    assert not (tmp_path / "-").exists() and len(_read(out)) == 3
    assert command.run(_args(str(source), "--processes", "1", "--summary", "-")) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "standard output" in captured.err
    assert not (tmp_path / "-").exists()
