"""The operation registry: one description per operation, one check for every front end.

The same bad request is sent as the body of its endpoint, as a line of
``/v1/solve/stream``, as a line of ``rummy-solver bulk`` and through the
command line; the error item must be the same bytes everywhere but for its
``loc`` prefix (``body`` / ``line`` / none).  Good requests must give the same
answer everywhere.  And every operation is reachable from each front end.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from api.cli.commands import build_parser, main
from api.server.main import create_app
from api.shared.examples import REQUESTS
from api.shared.lines import answer_line
from api.shared.operations import DEFAULT_SETTINGS, OPERATIONS, find, line_names
from api.shared.settings import Settings
from solver.session import quick_path_for
from solver.solve import solve

GIN10 = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"

# (operation, body, the CLI arguments giving the same body)
BAD: list[tuple[str, dict[str, Any], list[str]]] = [
    ("solve_hand", {"variant": "gin", "hand": "AS ZZ"}, ["solve", "AS ZZ"]),
    ("solve_hand", {"variant": "gin", "hand": "AS AS"}, ["solve", "AS", "AS"]),
    ("solve_hand", {"variant": "ginx", "hand": "AS"}, ["solve", "--variant", "ginx", "AS"]),
    ("solve_hand", {"variant": "gin", "hand": "AS", "engine": "x"},
     ["solve", "--engine", "x", "AS"]),
    ("solve_hand", {"variant": "gin", "hand": "AS", "rules": {"deks": 1}},
     ["solve", "AS", "--rules", '{"deks": 1}']),
    ("solve_hand", {"variant": "gin", "hand": "AS", "rules": {"decks": "2"}},
     ["solve", "AS", "--rules", '{"decks": "2"}']),
    ("solve_hand", {"variant": "gin", "hand": "AS", "rules": {"decks": 0}},
     ["solve", "AS", "--rules", '{"decks": 0}']),
    ("solve_hand", {"variant": "gin", "hand": "AS", "rules": {"ace": "sideways"}},
     ["solve", "AS", "--rules", '{"ace": "sideways"}']),
    ("solve_hand", {"variant": "gin", "hand": "AS", "rules": ["decks"]},
     ["solve", "AS", "--rules", '["decks"]']),
    ("solve_hand", {"variant": "gin", "hand": "AS",
                    "rules": {"opening_points": 5, "min_meld_points": 5}},
     ["solve", "AS", "--rules", '{"opening_points": 5, "min_meld_points": 5}']),
    ("solve_hand", {"variant": "gin", "hand": "AS", "time_limit_ms": 0},
     ["solve", "AS", "--time-limit-ms", "0"]),
    ("solve_hand", {"variant": "gin", "hand": "AS", "time_limit_ms": 2001},
     ["solve", "AS", "--time-limit-ms", "2001"]),
    ("solve_hand", {"variant": "gin", "hand": "AS", "time_limit_ms": 70_000},
     ["solve", "AS", "--time-limit-ms", "70000"]),
    ("solve_hand", {"variant": "gin", "hand": ["AS"] * 31}, ["solve", *["AS"] * 31]),
    ("solve_hand", {"variant": "gin", "hand": "AS", "wild_rank": "7"},
     ["solve", "AS", "--wild-rank", "7"]),
    ("solve_hand", {"variant": "gin"}, ["solve"]),
    ("validate_hand", {"variant": "gin", "melds": [["AS", "2S", "3S"], ["AS"]]},
     ["validate", "--meld", "AS 2S 3S", "--meld", "AS"]),
    ("validate_hand", {"variant": "gin", "melds": [["AS", "ZZ"]]}, ["validate", "--meld", "AS ZZ"]),
    ("gin_knock", {"hand": "AS", "knock_limit": 300}, ["knock", "AS", "--knock-limit", "300"]),
    ("gin_knock", {"hand": "AS"}, ["knock", "AS"]),
    ("gin_knock", {"hand": GIN10, "upcard": "4D", "knock_limit": 5},
     ["knock", GIN10, "--upcard", "4D", "--knock-limit", "5"]),
    ("gin_score", {"knocker": GIN10, "defender": "AS"},
     ["score", "--knocker", GIN10, "--defender", "AS"]),
    ("hint_discard", {"variant": "gin", "hand": "AS ZZ"}, ["hint", "discard", "AS ZZ"]),
    ("hint_draw", {"variant": "gin", "hand": "AS", "discard_top": "ZZ"},
     ["hint", "draw", "AS", "--top", "ZZ"]),
    ("hint_draw", {"variant": "gin", "hand": "AS"}, ["hint", "draw", "AS"]),
    ("hint_layoffs", {"variant": "indian13", "hand": "AS", "table": [["2S", "3S", "4S"]]},
     ["layoffs", "--variant", "indian13", "AS", "--table", "2S 3S 4S"]),
    ("hint_pile", {"variant": "gin", "hand": "8H 9H", "discard_pile": "KS"},
     ["pile", "--variant", "gin", "8H 9H", "--pile", "KS"]),
    ("score_round", {"variant": "gin", "players": [{"hand": "AS"}, {"hand": "KD"}]},
     ["round", "--variant", "gin", "--players", '[{"hand": "AS"}, {"hand": "KD"}]']),
    ("score_round", {"variant": "basic", "players": [{"hand": "AS", "went_out": 1}, {}]},
     ["round", "--variant", "basic", "--players", '[{"hand": "AS", "went_out": 1}, {}]']),
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(processes=0))) as test_client:
        yield test_client


def _without_prefix(item: dict[str, Any], prefix: str | None) -> bytes:
    """The item's bytes with the front end's ``loc`` prefix taken off."""
    loc = item["loc"]
    if prefix is not None:
        assert loc[0] == prefix, item
        loc = loc[1:]
    return json.dumps({**item, "loc": loc}, ensure_ascii=False).encode()


def _cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == 2, out
    error: dict[str, Any] = json.loads(out)["error"]
    return error


@pytest.mark.parametrize(("op", "body", "argv"), BAD, ids=lambda v: str(v)[:40])
def test_the_same_bad_request_gets_the_same_error_everywhere(
        client: TestClient, capsys: pytest.CaptureFixture[str], op: str, body: dict[str, Any],
        argv: list[str]) -> None:
    reply = client.post(OPERATIONS[op].path, json=body)
    assert reply.status_code == 422, reply.text
    http_item = reply.json()["detail"][0]
    line = json.dumps({"op": op, **body})
    streamed = client.post("/v1/solve/stream", content=line + "\n",
                           headers={"content-type": "application/x-ndjson"})
    stream_answer = json.loads(streamed.text)
    bulk_answer = answer_line(line, 1)
    assert stream_answer == bulk_answer
    assert bulk_answer["line"] == 1 and bulk_answer["id"] is None
    cli_item = _cli_error(capsys, argv)
    expected = _without_prefix(http_item, "body")
    assert _without_prefix(bulk_answer["error"], "line") == expected
    assert _without_prefix(cli_item, None) == expected


def test_malformed_lines_get_the_same_answers_from_the_stream_and_bulk(
        client: TestClient) -> None:
    """A log of malformed lines (blank, a BOM, CR LF, not UTF-8, NUL, 5,000 digits,
    over the line limit) read by ``rummy-solver bulk`` and sent to
    ``/v1/solve/stream``: the same answers, byte for byte (an overlong line's
    message did not name RUMMY_SOLVER_MAX_BODY_BYTES in bulk; audit of the
    command line)."""
    import io

    from api.bulk.command import InputLines
    from api.shared.lines import answer_chunk

    good = b'{"variant": "gin", "hand": "AS 2S 3S"}'
    log = b"\n".join([
        b"\xef\xbb\xbf" + good, b"", b"  ", good + b"\r", b"\xff\xfe", b"\x00",
        b'{"variant": "gin", "hand": "AS", "time_limit_ms": ' + b"9" * 5000 + b"}",
        b'{"id": 1, "hand": "' + b"AS " * (DEFAULT_SETTINGS.max_body_bytes // 3) + b'"}',
        good]) + b"\n"
    streamed = client.post("/v1/solve/stream", content=log,
                           headers={"content-type": "application/x-ndjson"}).text.splitlines()
    lines = InputLines(io.BytesIO(log), DEFAULT_SETTINGS.max_body_bytes)
    assert streamed == [answered.text for answered in answer_chunk(list(lines), 1)]
    assert "RUMMY_SOLVER_MAX_BODY_BYTES" in streamed[-2]


@pytest.mark.parametrize("op", list(REQUESTS))
def test_every_example_gets_the_same_answer_everywhere(client: TestClient, op: str) -> None:
    for body in REQUESTS[op]:
        reply = client.post(OPERATIONS[op].path, json=body)
        assert reply.status_code == 200, reply.text
        if not OPERATIONS[op].in_lines:
            continue
        expected = reply.json()
        expected.pop("elapsed_ms")
        assert answer_line(json.dumps({"op": op, **body}), 1)["result"] == expected


def test_every_operation_has_a_route_a_line_name_and_a_command() -> None:
    document = create_app(Settings.model_construct()).openapi()
    for name, operation in OPERATIONS.items():
        assert document["paths"][operation.path]["post"]["operationId"] == name
        schema = document["paths"][operation.path]["post"]["requestBody"]["content"][
            "application/json"]["schema"]["$ref"]
        assert schema.rsplit("/", 1)[-1] in document["components"]["schemas"]
        if operation.in_lines:
            assert name in line_names() and find(name) is operation
        for alias in operation.aliases:
            assert find(alias) is operation
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert commands is not None
    with_cli = {op.cli.words[0] for op in OPERATIONS.values() if op.cli is not None}
    assert with_cli <= set(commands)
    assert sum(op.cli is None for op in OPERATIONS.values()) == 1  # batches are HTTP only


def test_names_are_unique() -> None:
    names = [*OPERATIONS, *(a for op in OPERATIONS.values() for a in op.aliases)]
    assert len(names) == len(set(names))
    assert len({op.path for op in OPERATIONS.values()}) == len(OPERATIONS)


QUICK_CASES: list[dict[str, Any]] = [
    {"variant": "gin", "hand": GIN10},
    {"variant": "basic", "hand": "4H 5H 6H 7H 9C TC JC QC 2S KD", "discard": True},
    {"variant": "gin", "hand": GIN10, "rules": {"knock_limit": 10}},  # the preset's own value
    {"variant": "gin", "hand": GIN10, "rules": {"min_run_length": 3, "decks": 1}},
    {"variant": "gin", "hand": GIN10, "rules": {"knock_limit": 5}},
    {"variant": "basic", "hand": GIN10, "rules": {"min_run_length": 4}},
    {"variant": "gin", "hand": GIN10, "rules": {"opening_points": 5, "min_meld_points": 5}},
    {"variant": "gin", "hand": GIN10, "engine": "search"},
    {"variant": "gin", "hand": GIN10, "engine": "cpsat"},
    {"variant": "gin", "hand": GIN10, "wild_rank": "7"},
    {"variant": "rummy500", "hand": GIN10},
    {"variant": "rummy500", "hand": GIN10, "rules": {"decks": 2}},
]
"""Calls with cards the quick path takes (cards it cannot take send a call it
covers to the general path: ``tests/test_quick.py``)."""


@pytest.mark.parametrize("body", QUICK_CASES, ids=lambda body: json.dumps(body)[:60])
def test_the_quick_path_is_chosen_by_the_library(body: dict[str, Any]) -> None:
    """``solve_hand``'s quick path (answered by the HTTP worker itself) covers
    exactly the calls that ``solve()`` answers by its quick path
    (``solver.session.quick_path_for``, the one place that decides), with the
    same answer; a call it does not cover, or rules the library refuses,
    go to the general path, which answers (or refuses) them."""
    operation = OPERATIONS["solve_hand"]
    args = operation.parse(body, DEFAULT_SETTINGS).args
    try:
        covered = quick_path_for(args["variant"], args["rules"], args["wild_rank"],
                                 args["engine"]) is not None
    except ValueError:
        covered = False
    assert operation.quick is not None
    answer = operation.quick(args)
    assert (answer is not None) == covered
    if answer is not None:
        assert answer.to_dict() == solve(**args).to_dict()
