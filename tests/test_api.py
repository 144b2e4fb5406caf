"""The HTTP API through FastAPI's TestClient: every endpoint and error path.

Error bodies are checked for FastAPI's shape ``{"detail": [{"loc", "msg",
"type"}]}`` with ``loc`` pointing at the offending field and index.
"""

from __future__ import annotations

import ast
import gzip
import inspect
import itertools
import json
import re
import subprocess
import sys
import threading
import time
import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    # Starlette 1.x prefers httpx2 for its TestClient; httpx works the same here.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

from api import API_VERSION
from api.server.main import create_app
from api.server.routes import health as health_routes
from api.server.routes import operations as operation_routes
from api.server.stream import NdjsonStream
from api.shared.operations import OPERATIONS
from api.shared.schemas import (
    BatchItemError,
    BatchRequest,
    BatchResponse,
    ErrorItem,
    ErrorResponse,
    GoOutOut,
    HealthResponse,
    MeldOut,
    ProblemOut,
    ReadyResponse,
    RulesOverride,
    SolveRequest,
    SolveResponse,
    ValidateRequest,
    ValidateResponse,
    VariantInfo,
    VariantList,
    VersionResponse,
)
from api.shared.settings import Settings, SettingsError, load_settings
from solver import PRESETS
from solver.deadline import NODES_PER_MS
from solver.rules import KNOB_DOCS

ROOT = Path(__file__).resolve().parent.parent
GIN_HAND = ["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S"]


def make_client(**limits: int) -> TestClient:
    """A client for an app built with ``Settings(**limits)`` solving in a thread
    of the test process (so the library can be patched; ``tests/test_pool.py``
    covers the solver processes); server errors surface as 5xx."""
    fields: dict[str, Any] = {"processes": 0, **limits}
    return TestClient(create_app(Settings(**fields)),
                      raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


def solve(client: TestClient, **body: Any) -> Any:
    return client.post("/v1/solve", json=body)


def patch_call(monkeypatch: pytest.MonkeyPatch, name: str, call: Any) -> None:
    """Make operation ``name`` call ``call`` instead of its library function
    (and never its quick path, which would answer without it)."""
    from dataclasses import replace

    monkeypatch.setitem(OPERATIONS, name, replace(OPERATIONS[name], call=call, quick=None))


def library_call(name: str) -> Any:
    """The library function operation ``name`` calls."""
    return OPERATIONS[name].call


def unordered_melds(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with its melds in a canonical order: the engine may list them in any."""
    return {**body, "melds": sorted(body["melds"], key=lambda meld: json.dumps(meld))}


def single_error(response: Any, status: int = 422) -> dict[str, Any]:
    """The first error item of an error response, after checking the one
    error shape every status shares."""
    assert response.status_code == status, response.text
    ErrorResponse.model_validate(response.json())
    detail = response.json()["detail"]
    assert isinstance(detail, list) and len(detail) >= 1, detail
    item: dict[str, Any] = detail[0]
    assert {"loc", "msg", "type"} <= set(item), item
    return item


# ---------------------------------------------------------------------------
# Health


def test_healthz(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.parametrize(("method", "path", "location"), [
    ("GET", "/healthz/", "/healthz"),
    ("GET", "/v1/variants/gin/?x=1", "/v1/variants/gin?x=1"),
    ("POST", "/v1/solve/", "/v1/solve"),
])
def test_a_trailing_slash_redirects_by_a_relative_location(
        client: TestClient, method: str, path: str, location: str) -> None:
    """Starlette's redirect named the scheme and host uvicorn saw: http behind a TLS proxy,
    so a client following it left https. A relative Location keeps the client's."""
    answer = client.request(method, path, follow_redirects=False,
                            json={"variant": "gin", "hand": "AS 2S 3S"} if method == "POST" else None)
    assert (answer.status_code, answer.headers["location"]) == (307, location)


@pytest.mark.parametrize(("number", "status"), [("500.0", 200), ("5e2", 200), ("500.5", 422)])
def test_a_whole_number_with_a_fraction_is_an_integer(client: TestClient, number: str,
                                                     status: int) -> None:
    """JSON Schema's integer takes 500.0, so a client checked against openapi.json sends it
    (a Python client's budget * 1000 does): it was refused as int_type."""
    body = '{"variant": "gin", "hand": "AS 2S 3S", "time_limit_ms": ' + number + "}"
    answer = client.post("/v1/solve", content=body.encode(),
                         headers={"content-type": "application/json"})
    assert answer.status_code == status, answer.text
    if status == 422:
        assert answer.json()["detail"][0]["type"] == "int_type"


def test_a_path_no_route_serves_is_named(client: TestClient) -> None:
    answer = client.get("/v1/solv/", follow_redirects=False)
    assert answer.status_code == 404
    assert answer.json()["detail"] == [{"type": "not_found", "loc": ["path"],
                                        "msg": "no route serves '/v1/solv/'"}]


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/version"])
def test_probes_answer_head_as_get_without_a_body(client: TestClient, path: str) -> None:
    """Uptime monitors probe with HEAD: a 405 there reads as the service down."""
    got, head = client.get(path), client.head(path)
    assert (head.status_code, head.content) == (got.status_code, b"")
    assert head.headers["content-type"] == got.headers["content-type"]


def test_the_first_request_finds_every_route_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """FastAPI builds a router's request and response fields on its first
    match: about 60 ms, which fell on the first client request's deadline
    (a 1 ms advice answered 503 70 ms late). The start-up builds them."""
    import fastapi.routing

    built: list[object] = []
    create = getattr(fastapi.routing, "create_model_field")  # noqa: B009 (not exported)

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return create(*args, **kwargs)

    with make_client() as fresh:
        monkeypatch.setattr(fastapi.routing, "create_model_field", counted)
        assert fresh.post("/v1/advise", json={"game": "gin"}).status_code == 422
        assert fresh.get("/v1/variants").status_code == 200
    assert built == []


def test_readyz_solves_a_hand(client: TestClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ready"
    assert body["elapsed_ms"] >= 0


def test_readyz_is_503_when_the_solver_raises(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("engine exploded")

    patch_call(monkeypatch, "solve_hand", broken)
    item = single_error(client.get("/readyz"), 503)
    assert item["type"] == "not_ready" and "HTTP 503" in item["msg"]


def test_readyz_is_503_when_the_solver_answers_wrongly(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = library_call("solve_hand")

    def wrong(*args: Any, **kwargs: Any) -> Any:
        return real(["KS", "KH"], "gin")

    patch_call(monkeypatch, "solve_hand", wrong)
    item = single_error(client.get("/readyz"), 503)
    assert "expected 33" in item["msg"]


# ---------------------------------------------------------------------------
# Variants


def test_list_variants_has_every_preset_with_all_knobs(client: TestClient) -> None:
    response = client.get("/v1/variants")
    assert response.status_code == 200
    body = response.json()
    assert [v["name"] for v in body["variants"]] == list(PRESETS)
    for variant in body["variants"]:
        rules = PRESETS[variant["name"]]
        assert variant["knobs"] == rules.to_dict()
        assert variant["requirements"] == [r.to_dict() for r in rules.requirements]
    assert body["knob_docs"] == KNOB_DOCS
    contract = next(v for v in body["variants"] if v["name"] == "contract")
    assert contract["requirements"] == [{"kind": "set", "count": 2, "exact": True},
                                        {"kind": "run", "count": 0, "exact": True}]


def test_get_variant(client: TestClient) -> None:
    response = client.get("/v1/variants/indian21")
    assert response.status_code == 200
    assert response.json() == {"name": "indian21", "knobs": PRESETS["indian21"].to_dict(),
                               "requirements": [{"kind": "pure_sequence", "count": 3,
                                                 "exact": False}]}


def test_get_unknown_variant_is_404(client: TestClient) -> None:
    item = single_error(client.get("/v1/variants/canasta"), 404)
    assert "unknown variant 'canasta'" in item["msg"] and item["type"] == "not_found"


# ---------------------------------------------------------------------------
# Solve


def test_solve_gin_hand(client: TestClient) -> None:
    response = solve(client, variant="gin", hand=GIN_HAND)
    assert response.status_code == 200, response.text
    body = response.json()
    elapsed = body.pop("elapsed_ms")
    assert isinstance(elapsed, float) and elapsed >= 0
    assert unordered_melds(body) == unordered_melds({
        "variant": "gin",
        "melds": [
            {
                "kind": "run",
                "cards": ["AS", "2S", "3S"],
                "represents": ["AS", "2S", "3S"],
                "pure": True,
                "points": 6,
            },
            {
                "kind": "set",
                "cards": ["7H", "7D", "7C"],
                "represents": ["7H", "7D", "7C"],
                "pure": False,
                "points": 21,
            },
        ],
        "deadwood": ["9S", "QH", "KD", "4C"],
        "discard": None,
        "deadwood_points": 33,
        "meld_points": 27,
        "net_points": -6,
        "penalty_points": 33,
        "declarable": False,
        "can_open": None,
        "go_out": None,
        "optimal": True,
        "engine": "search",
        "status": "optimal",
    })


def test_solve_accepts_a_hand_string(client: TestClient) -> None:
    as_list = solve(client, variant="gin", hand=GIN_HAND).json()
    as_text = solve(client, variant="gin", hand="AS 2S,3S 7h 7♦ 7C KD QH 4C 9S").json()
    as_list.pop("elapsed_ms")
    as_text.pop("elapsed_ms")
    assert as_list == as_text


def test_solve_indian_with_wild_rank(client: TestClient) -> None:
    response = solve(
        client, variant="indian13", wild_rank="9", hand="AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D"
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["declarable"] is True
    assert body["penalty_points"] == 0
    wild_meld = next(m for m in body["melds"] if "9D" in m["cards"])
    assert wild_meld["represents"] == ["4S", "5S", "6S", "7S"]
    assert wild_meld["pure"] is False


def test_solve_with_discard_rules_engine_and_time_limit(client: TestClient) -> None:
    response = solve(
        client,
        variant="gin",
        hand="AS 2S 3S 4S 7H 7D 7C KD QH 4C 9S",
        discard=True,
        rules={"knock_limit": 30},
        engine="cpsat",
        time_limit_ms=2000,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["discard"] == "KD"
    assert body["deadwood_points"] == 23
    assert body["declarable"] is True  # 23 <= knock_limit 30
    assert body["engine"] == "cpsat"


def test_solve_null_knob_override(client: TestClient) -> None:
    response = solve(client, variant="gin", hand=GIN_HAND, rules={"knock_limit": None})
    assert response.status_code == 200, response.text
    assert response.json()["declarable"] is False  # no knocking: must go out


@pytest.mark.parametrize(
    ("body", "loc", "type_"),
    [
        # domain errors from the library
        ({"hand": ["AS", "2S", "3S", "ZZ"]}, ["body", "hand", 3], "invalid_card"),
        ({"hand": "AS 2S 3S 1S"}, ["body", "hand", 3], "invalid_card"),
        ({"hand": ["AS", "2S", "AS"]}, ["body", "hand", 2], "too_many_copies"),
        (
            {"variant": "rummy500", "hand": ["JK", "JK", "JK", "AS"]},
            ["body", "hand", 2],
            "too_many_jokers",
        ),
        ({"hand": GIN_HAND, "rules": {"decks": 0}}, ["body", "rules", "decks"], "invalid_rules"),
        (
            {"hand": GIN_HAND, "rules": {"knock_limit": 5000}},
            ["body", "rules", "knock_limit"],
            "invalid_rules",
        ),
        ({"hand": GIN_HAND, "wild_rank": "7"}, ["body", "wild_rank"], "wild_rank_not_allowed"),
        (
            {"variant": "indian13", "hand": GIN_HAND, "wild_rank": "Z"},
            ["body", "wild_rank"],
            "invalid_wild_rank",
        ),
        (
            {"variant": "indian21", "hand": GIN_HAND, "wild_rank": "7"},
            ["body", "wild_rank"],
            "wild_rank_needs_suit",
        ),
        # the service's limits
        ({"hand": GIN_HAND * 3 + ["AH"]}, ["body", "hand"], "hand_too_large"),
        ({"hand": GIN_HAND, "time_limit_ms": 2001}, ["body", "time_limit_ms"], "time_limit_too_large"),
        # schema errors
        ({"hand": GIN_HAND, "rules": {"deckz": 2}}, ["body", "rules", "deckz"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"decks": "2"}}, ["body", "rules", "decks"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"ace": "sky"}}, ["body", "rules", "ace"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"requirements": [{"kind": "pair", "count": 1}]}},
         ["body", "rules", "requirements", 0, "kind"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"requirements": [{"kind": "set", "count": 11}]}},
         ["body", "rules", "requirements", 0, "count"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"requirements": [{"kind": "set", "count": 1},
                                                       {"kind": "set", "count": 2}]}},
         ["body", "rules", "requirements"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"card_points": {"hand": {"Z": 1}}}},
         ["body", "rules", "card_points", "hand", "Z", "[key]"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"card_points": {"hand": {"A": 1001}}}},
         ["body", "rules", "card_points", "hand", "A"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"card_points": {"hand": {"T": 6, "10": 5}}}},
         ["body", "rules", "card_points"], "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {"min_run_length": 2}}, ["body", "rules", "min_run_length"],
         "invalid_rules"),
        ({"hand": GIN_HAND, "rules": {f"k{i}": 1 for i in range(100)}}, ["body", "rules"],
         "invalid_rules"),
        ({"hand": GIN_HAND, "rules": ["decks"]}, ["body", "rules"], "invalid_rules"),
        ({"variant": "canasta", "hand": GIN_HAND}, ["body", "variant"], "unknown_variant"),
        ({"hand": GIN_HAND, "engine": "magic"}, ["body", "engine"], "unknown_engine"),
        ({"hand": GIN_HAND, "time_limit_ms": 0}, ["body", "time_limit_ms"], "greater_than_equal"),
        ({"hand": GIN_HAND, "time_limit_ms": "100"}, ["body", "time_limit_ms"], "int_type"),
        ({"hand": GIN_HAND, "time_limit_ms": 1.5}, ["body", "time_limit_ms"], "int_type"),
        ({"hand": GIN_HAND, "discard": "yes"}, ["body", "discard"], "bool_type"),
        ({"hand": GIN_HAND, "discard": 1}, ["body", "discard"], "bool_type"),
        ({"hand": ["AS", 2, "3S"]}, ["body", "hand", 1], "string_type"),
        ({"hand": 7}, ["body", "hand"], "list_type"),
        ({"hand": None}, ["body", "hand"], "list_type"),
        ({"hand": ["AS" * 20]}, ["body", "hand", 0], "string_too_long"),
        ({}, ["body", "hand"], "missing"),
        ({"hand": GIN_HAND, "players": 2}, ["body", "players"], "extra_forbidden"),
    ],
)
def test_solve_errors_are_422_with_loc_and_type(
    client: TestClient, body: dict[str, Any], loc: list[Any], type_: str
) -> None:
    body = {"variant": "gin", **body}
    item = single_error(solve(client, **body))
    assert item["loc"] == loc
    assert item["type"] == type_


def test_solve_domain_error_message_names_the_card(client: TestClient) -> None:
    item = single_error(solve(client, variant="gin", hand=["AS", "2S", "3S", "ZZ"]))
    assert "'ZZ'" in item["msg"] and "position 3" in item["msg"]


def test_missing_variant_is_422(client: TestClient) -> None:
    item = single_error(client.post("/v1/solve", json={"hand": GIN_HAND}))
    assert item["loc"] == ["body", "variant"]
    assert item["type"] == "missing"


@pytest.mark.parametrize(
    ("content", "content_type", "type_"),
    [
        (b'{"variant": "gin", "hand": [', "application/json", "json_invalid"),
        (b"[1, 2, 3]", "application/json", "model_attributes_type"),
        (b'"gin"', "application/json", "model_attributes_type"),
        (b"\xff\xfe\x00junk", "application/json; charset=utf-8", "body_not_utf8"),
        (b"\xff\xfe\x00junk", "application/json", "body_not_utf8"),
        (b"[" * 40 + b"]" * 40, "application/json", "body_too_deep"),
        (b"[" * 5000 + b"]" * 5000, "application/json", "body_too_deep"),
    ],
)
def test_malformed_bodies_are_422(
    client: TestClient, content: bytes, content_type: str, type_: str
) -> None:
    response = client.post("/v1/solve", content=content, headers={"content-type": content_type})
    item = single_error(response)
    assert item["type"] == type_


@pytest.mark.parametrize(("path", "template"), [
    ("/v1/solve", '{"variant": "basic", "hand": ["AS", DEEP]}'),
    ("/v1/solve", '{"variant": "basic", "hand": ["AS"], "rules": {"knock_limit": DEEP}}'),
    ("/v1/solve", '{"variant": "basic", "hand": ["AS"], "rules": {"requirements": [{"kind": '
                  '"set", "count": DEEP}]}}'),
    ("/v1/validate", '{"variant": "basic", "melds": [DEEP], "deadwood": []}'),
])
def test_a_value_nested_100000_deep_is_a_4xx(client: TestClient, path: str, template: str) -> None:
    """The library refuses a card, meld or knob nested 100,000 deep with its
    input error (tests/test_solver_errors.py); over HTTP the body is a 4xx,
    never a 500."""
    for deep in ("[" * 100_000 + "]" * 100_000, '{"a": ' * 100_000 + "1" + "}" * 100_000):
        response = client.post(path, content=template.replace("DEEP", deep).encode(),
                               headers={"content-type": "application/json"})
        assert 400 <= response.status_code < 500, response.text[:300]
        ErrorResponse.model_validate(response.json())


@pytest.mark.parametrize(("text", "deep"), [
    ('{"a": "' + "[" * 40 + '"}', False),               # brackets inside a string do not nest
    ('{"a": "\\\\' + "[" * 40 + '"}', False),           # nor after an escaped backslash
    ('["\\"' + "[" * 40 + '"]', False),                 # nor after an escaped quote
    ('["\\\\", ' + "[" * 40 + "]" * 40 + "]", True),    # the string ended: these nest
])
def test_the_nesting_check_skips_strings_with_their_escapes(text: str, deep: bool) -> None:
    from api.shared.decode import depth_exceeds

    json.loads(text)  # valid JSON, as the check assumes
    assert depth_exceeds(text.encode()) is deep


@pytest.mark.parametrize("number", [b"9" * 5000, b"-" + b"1" * 4301])
def test_an_integer_of_too_many_digits_is_refused_in_the_clients_words(
        client: TestClient, number: bytes) -> None:
    body = b'{"variant": "gin", "hand": ["AS"], "time_limit_ms": ' + number + b"}"
    response = client.post("/v1/solve", content=body,
                           headers={"content-type": "application/json"})
    item = single_error(response)
    assert item["type"] == "json_invalid"
    assert "digits (at most 4,300)" in item["msg"]
    assert "sys." not in item["msg"]  # nothing about the server's Python


@pytest.mark.parametrize(("value", "said"), [(None, "null"), (True, "true"), ("zz", "'zz'")])
def test_an_unknown_choice_is_quoted_as_the_client_wrote_it(
        client: TestClient, value: object, said: str) -> None:
    response = client.post("/v1/solve", json={"hand": ["AS", "2S"], "variant": "gin",
                                              "engine": value})
    item = single_error(response)
    assert item["type"] == "unknown_engine" and item["loc"][-1] == "engine"
    assert item["msg"].startswith(f"unknown engine {said};")


@pytest.mark.parametrize(("knob", "value", "said"), [
    ("knock_limit", 10**30, "1000000000000000000000000000000"),
    ("decks", -(10**20), "-100000000000000000000"),
    ("knock_limit", True, "true"),
    ("decks", None, "null"),
    ("ace", False, "false"),
    ("knock_limit", [None, "x"], '[null, "x"]'),
    ("knock_limit", "x", "'x'"),
])
def test_a_knobs_value_is_quoted_as_the_client_wrote_it(
        client: TestClient, knob: str, value: object, said: str) -> None:
    """A huge integer given a knob was quoted as a string ("got '1000...'"),
    and null and true in Python's spelling ("got None"), where a choice says
    them as JSON does."""
    response = client.post("/v1/solve", json={"hand": ["AS", "2S"], "variant": "gin",
                                              "rules": {knob: value}})
    item = single_error(response)
    assert (item["type"], item["loc"]) == ("invalid_rules", ["body", "rules", knob])
    assert item["msg"].endswith(f"; got {said}")


ADVISE_BODY = {"game": "gin", "hand": " ".join(GIN_HAND), "upcard": "4S", "level": "novice"}


@pytest.mark.parametrize("path", ["/v1/solve", "/v1/advise", "/v1/hints/discard"])
@pytest.mark.parametrize("content_type", [
    "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x", "application/x-ndjson", "application/jsonx", "json"])
def test_a_body_labelled_as_another_type_is_415(client: TestClient, path: str,
                                                content_type: str) -> None:
    """A body that says it is not JSON is refused before it is read, valid JSON or not."""
    body = json.dumps({"variant": "gin", "hand": GIN_HAND} if path != "/v1/advise"
                      else ADVISE_BODY)
    response = client.post(path, content=body, headers={"content-type": content_type})
    assert response.status_code == 415, response.text
    item = single_error(response, 415)
    assert item["type"] == "unsupported_media_type"
    assert item["loc"] == ["header", "content-type"]
    assert "application/json" in item["msg"]


@pytest.mark.parametrize("path", ["/v1/solve", "/v1/hints/discard", "/v1/solve/stream"])
@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate", "gzip, identity"])
def test_a_compressed_body_is_415_naming_its_content_encoding(
        client: TestClient, path: str, encoding: str) -> None:
    """The service does not decompress: a gzip body used to get 422
    body_not_utf8 at byte 1, which did not say why."""
    body = gzip.compress(json.dumps({"variant": "gin", "hand": GIN_HAND}).encode())
    content_type = "application/x-ndjson" if path.endswith("stream") else "application/json"
    response = client.post(path, content=body, headers={"content-type": content_type,
                                                        "content-encoding": encoding})
    item = single_error(response, 415)
    assert item["type"] == "unsupported_media_type"
    assert item["loc"] == ["header", "content-encoding"]
    assert encoding in item["msg"] and "uncompressed" in item["msg"]


def test_an_identity_content_encoding_is_read(client: TestClient) -> None:
    response = client.post("/v1/solve", json={"variant": "gin", "hand": GIN_HAND},
                           headers={"content-encoding": "identity"})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("content_type", [
    None, "", "application/json", "Application/JSON; charset=UTF-8",
    "application/problem+json", "application/vnd.rummy.v1+json"])
def test_a_json_body_and_one_without_a_content_type_are_read_as_json(
        client: TestClient, content_type: str | None) -> None:
    """No Content-Type at all is read as JSON (clients written before the check may
    leave it out); JSON by any of its names is JSON."""
    headers = {} if content_type is None else {"content-type": content_type}
    for path, body in (("/v1/solve", {"variant": "gin", "hand": GIN_HAND}),
                       ("/v1/advise", ADVISE_BODY)):
        request = client.build_request("POST", path, content=json.dumps(body), headers=headers)
        assert request.headers.get("content-type") == content_type
        response = client.send(request)
        assert response.status_code == 200, (path, response.text[:300])


GIN_ADVICE_KNOBS = ("knock_limit", "gin_bonus", "undercut_bonus", "undercut_on_tie",
                    "oklahoma_ace_knock", "ace_points", "pip_points", "court_points", "card_points")


def test_an_unknown_knob_gets_the_librarys_whole_message(client: TestClient) -> None:
    """The near miss and every knob there is, not a message cut at 120 characters."""
    from solver.rules import unknown_knob_message

    item = single_error(client.post("/v1/solve", json={"variant": "gin", "hand": GIN_HAND,
                                                       "rules": {"knock_limt": 10}}))
    assert item["type"] == "invalid_rules" and item["loc"] == ["body", "rules", "knock_limt"]
    assert item["msg"] == unknown_knob_message("knock_limt")
    assert "did you mean 'knock_limit'?" in item["msg"]
    assert item["msg"].endswith(", marriage_points")  # the last knob: the list is whole


@pytest.mark.parametrize(("game", "knob", "value", "last"), [
    ("gin", "knock_limt", 10, "card_points"),  # a typo: the game's near miss, the game's knobs
    ("gin", "cut_joker", True, "card_points"),  # another game's knob
    ("gin", "jokers_per_deck", 2, "card_points"),
    ("indian13", "knock_limit", 2, "marriage_points"),
    ("indian13", "cut_jocker", True, "marriage_points"),
])
def test_an_advice_knob_the_game_does_not_take_is_named_with_the_games_knobs(
        client: TestClient, game: str, knob: str, value: object, last: str) -> None:
    from solver.play import GAMES

    body: dict[str, Any] = {**ADVISE_BODY, "game": game, "rules": {knob: value}}
    if game != "gin":
        body.update(hand="AS 2S 3S 7H 7D 7C KD QH 4C 9S 3D 4D 5D", wild_rank="7H")
    item = single_error(client.post("/v1/advise", json=body))
    assert item["type"] == "invalid_rules" and item["loc"] == ["body", "rules", knob]
    assert f"{knob!r} is not a knob of the {game} advisor" in item["msg"], item["msg"]
    assert item["msg"].endswith(", ".join(GAMES[game].knobs)), item["msg"]
    assert item["msg"].endswith(last)
    if knob == "knock_limt":
        assert "did you mean 'knock_limit'?" in item["msg"]
        assert "decks" not in item["msg"]  # the gin advisor's knobs, not every preset's
    if knob == "cut_jocker":
        assert "did you mean 'cut_joker'?" in item["msg"]
    if game == "gin":
        assert tuple(GAMES["gin"].knobs) == GIN_ADVICE_KNOBS


@pytest.mark.parametrize(("given", "whole"), [
    ({"me": 40}, {"me": 40, "opponent": 0, "target": 100}),
    ({"opponent": 65}, {"me": 0, "opponent": 65, "target": 100}),
    ({}, {"me": 0, "opponent": 0, "target": 100}),
])
def test_a_match_score_side_not_given_has_no_points_yet(
        client: TestClient, given: dict[str, int], whole: dict[str, int]) -> None:
    """A side of the match score left out has 0 points (no hand won yet), as
    in the library (``advise(..., score={"me": 40})``); the wire required both."""
    def advice(score: dict[str, int]) -> dict[str, Any]:
        response = client.post("/v1/advise", json={**ADVISE_BODY, "score": score})
        assert response.status_code == 200, response.text
        return {k: v for k, v in response.json().items() if k != "elapsed_ms"}

    assert advice(given) == advice(whole)


def test_an_advice_without_a_level_plays_the_games_default_level(client: TestClient) -> None:
    """The request model's one default (for every game) is the library's, not a second
    "standard": a game whose default level differed would be played at another level
    over HTTP than in Python."""
    from solver.play import GAMES

    assert {game.default_level for game in GAMES.values()} == {"standard"}
    body = {k: v for k, v in ADVISE_BODY.items() if k != "level"}
    response = client.post("/v1/advise", json=body)
    assert response.status_code == 200 and response.json()["level"] == GAMES["gin"].default_level


@pytest.mark.parametrize("path", ["/v1/solve", "/v1/advise"])
def test_a_huge_unknown_knob_name_is_echoed_bounded(client: TestClient, path: str) -> None:
    body: dict[str, Any] = ({"variant": "gin", "hand": GIN_HAND} if path == "/v1/solve"
                            else dict(ADVISE_BODY))
    body["rules"] = {"k" * 100_000: 1}
    item = single_error(client.post(path, json=body))
    assert item["type"] == "invalid_rules"
    assert len(item["loc"][-1]) < 200
    assert 200 < len(item["msg"]) < 2_000, item["msg"]


def test_the_media_type_is_only_checked_on_operations(client: TestClient) -> None:
    assert client.get("/v1/variants", headers={"content-type": "text/plain"}).status_code == 200
    response = client.post("/v1/nothing", content=b"x", headers={"content-type": "text/plain"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        b'{"variant": "gin", "hand": NaN}',
        b'{"variant": "gin", "hand": ["AS"], "time_limit_ms": Infinity}',
        b'{"variant": "gin", "hand": ["AS"], "rules": {"decks": -Infinity}}',
        b'{"variant": "\\ud800", "hand": ["AS"]}',
        b'{"variant": "gin", "hand": ["\\ud800"]}',
        b'{"variant": "gin", "hand": ["AS"], "rules": {"\\ud800": 1}}',
    ],
)
def test_unrenderable_input_is_echoed_safely(client: TestClient, body: bytes) -> None:
    """NaN, infinities and lone surrogates in a bad request still get a JSON 422:
    NaN and infinities are not JSON (the whole body is refused, as a bulk line
    is), a lone surrogate is a bad value (a batch item's slot error)."""
    response = client.post("/v1/solve", content=body, headers={"content-type": "application/json"})
    single_error(response)
    batch = b'{"requests": [' + body + b"]}"
    response = client.post(
        "/v1/solve/batch", content=batch, headers={"content-type": "application/json"}
    )
    if b"Infinity" in body or b"NaN" in body:
        assert single_error(response)["type"] == "json_invalid"
        return
    assert response.status_code == 200, response.text
    assert "error" in response.json()["results"][0]


def test_undecodable_json_body_is_422(client: TestClient) -> None:
    response = client.post(
        "/v1/solve", content=b"\xff\xfe\x00junk", headers={"content-type": "application/json"}
    )
    assert single_error(response)["type"] == "body_not_utf8"


def test_bad_input_costs_little_and_says_little(client: TestClient) -> None:
    """Hostile bodies get small 422s, built without walking their whole input."""
    cases = [
        {"variant": "gin", "hand": list(range(120_000))},
        {"variant": "gin", "hand": ["AS"] * 100_000},
        {"variant": "gin", "hand": "AS", "rules": {f"knob{i}": [1] * 10 for i in range(20_000)}},
        {"requests": [[1] * 30] * 20_000},
        {"variant": "gin", "melds": [["AS"] * 60] * 60, "deadwood": ["X" * 15] * 64},
        {"variant": "gin", "hand": [[[[[[["AS"]]]]]]] * 10_000},
    ]
    paths = ["/v1/solve", "/v1/solve", "/v1/solve", "/v1/solve/batch", "/v1/validate",
             "/v1/solve"]
    for path, body in zip(paths, cases, strict=True):
        started = time.perf_counter()
        response = client.post(path, json=body)
        took = time.perf_counter() - started
        assert response.status_code in (413, 422), (path, response.status_code)
        assert len(response.content) <= 64 * 1024
        assert len(response.json()["detail"]) <= 21
        assert took < 2.0, (path, took)


def test_empty_body_is_422(client: TestClient) -> None:
    item = single_error(client.post("/v1/solve"))
    assert item["loc"] == ["body"]
    assert item["type"] == "missing"


def test_hand_limit_follows_settings() -> None:
    with make_client(max_hand_cards=5) as small:
        item = single_error(solve(small, variant="gin", hand=GIN_HAND[:6]))
        assert item["type"] == "hand_too_large"
        assert "at most 5" in item["msg"]
        assert solve(small, variant="gin", hand=GIN_HAND[:5]).status_code == 200


def test_time_limit_cap_follows_settings() -> None:
    with make_client(max_time_limit_ms=50, default_time_limit_ms=50) as small:
        item = single_error(solve(small, variant="gin", hand=GIN_HAND, time_limit_ms=51))
        assert item["type"] == "time_limit_too_large"
        assert solve(small, variant="gin", hand=GIN_HAND, time_limit_ms=50).status_code == 200


def test_default_time_limit_is_passed_to_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solve's deadline buys the work budget of its time limit, whatever the clock says."""
    seen: list[float] = []
    real = library_call("solve_hand")

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["deadline"].work.left / NODES_PER_MS)
        return real(*args, **kwargs)

    patch_call(monkeypatch, "solve_hand", spy)
    # Limits long enough that a loaded machine still answers in time; a rules
    # override keeps the call off the quick path (answered without the solver pool).
    rules = {"min_run_length": 3}
    with make_client(default_time_limit_ms=1230) as small:
        assert solve(small, variant="gin", hand=GIN_HAND, rules=rules).status_code == 200
        assert solve(small, variant="gin", hand=GIN_HAND, rules=rules,
                     time_limit_ms=770).status_code == 200
    assert seen == [1230, 770]


# ---------------------------------------------------------------------------
# Body size


def test_oversized_body_by_content_length_is_413() -> None:
    with make_client(max_body_bytes=1000) as small:
        body = json.dumps({"variant": "gin", "hand": ["AS"] * 400}).encode()
        response = small.post(
            "/v1/solve", content=body, headers={"content-type": "application/json"}
        )
        item = single_error(response, 413)
        assert "limit is 1000" in item["msg"] and item["type"] == "body_too_large"


def test_oversized_chunked_body_is_413() -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"variant": "gin", "hand": ['
        for _ in range(200):
            yield b'"AS", '
        yield b'"AS"]}'

    with make_client(max_body_bytes=1000) as small:
        # A generator body is sent chunked, without Content-Length.
        response = small.post(
            "/v1/solve", content=chunks(), headers={"content-type": "application/json"}
        )
        assert response.status_code == 413


def test_body_under_the_limit_is_served() -> None:
    with make_client(max_body_bytes=1000) as small:
        assert solve(small, variant="gin", hand=GIN_HAND).status_code == 200


def test_default_body_limit_is_a_megabyte(client: TestClient) -> None:
    response = client.post(
        "/v1/solve",
        content=b'{"variant": "gin", "hand": "' + b" " * 1_000_001 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413


# ---------------------------------------------------------------------------
# Batch


def test_batch_results_in_order_with_errors_in_their_slots(client: TestClient) -> None:
    response = client.post(
        "/v1/solve/batch",
        json={
            "requests": [
                {"variant": "gin", "hand": GIN_HAND},
                {"variant": "gin", "hand": "AS 2S ZZ"},
                42,
                {"variant": "gin"},
                {"variant": "gin", "hand": GIN_HAND, "time_limit_ms": 99_999},
                {"variant": "rommy", "hand": "AS 2S 3S JK"},
                {"variant": "gin", "hand": GIN_HAND, "rules": {"decks": 99}},
            ]
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["elapsed_ms"] >= 0
    results = body["results"]
    assert len(results) == 7
    assert results[0]["deadwood_points"] == 33
    assert results[1] == {
        "error": {
            "type": "invalid_card",
            "msg": results[1]["error"]["msg"],
            "loc": ["body", "requests", 1, "hand", 2],
        }
    }
    assert results[2]["error"]["loc"] == ["body", "requests", 2]
    assert results[2]["error"]["type"] == "model_attributes_type"  # as a body that is not an object
    assert results[3]["error"]["loc"] == ["body", "requests", 3, "hand"]
    assert results[3]["error"]["type"] == "missing"
    assert results[4]["error"]["type"] == "time_limit_too_large"
    assert results[4]["error"]["loc"] == ["body", "requests", 4, "time_limit_ms"]
    assert results[5]["variant"] == "rommy"
    assert results[6]["error"]["loc"] == ["body", "requests", 6, "rules", "decks"]
    assert results[6]["error"]["type"] == "invalid_rules"


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("/v1/solve/batch", {"requests": [], "rules": {"decks": 2}}, ["body", "rules"]),
        ("/v1/score/round", {"variant": "basic", "players": [
            {"went_out": True, "rules": {"decks": 2}}, {"hand": "KS"}]},
         ["body", "players", 0, "rules"]),
    ],
)
def test_a_rules_field_where_there_is_none_is_extra_not_bad_rules(
    client: TestClient, path: str, body: dict[str, Any], loc: list[Any]
) -> None:
    # Not "rules must be an object" for an object: the request has no such field.
    item = single_error(client.post(path, json=body))
    assert (item["type"], item["loc"]) == ("extra_forbidden", loc)


def test_empty_batch(client: TestClient) -> None:
    response = client.post("/v1/solve/batch", json={"requests": []})
    assert response.status_code == 200
    assert response.json()["results"] == []


def test_batch_of_the_maximum_size_is_served(client: TestClient) -> None:
    hands = [{"variant": "gin", "hand": GIN_HAND}] * 1000
    response = client.post("/v1/solve/batch", json={"requests": hands})
    assert response.status_code == 200
    assert len(response.json()["results"]) == 1000


def test_oversized_batch_is_422(client: TestClient) -> None:
    hands = [{"variant": "gin", "hand": ["AS"]}] * 1001
    item = single_error(client.post("/v1/solve/batch", json={"requests": hands}))
    assert item["loc"] == ["body", "requests"]
    assert item["type"] == "batch_too_large"


def test_batch_limit_follows_settings() -> None:
    with make_client(max_batch=2) as small:
        hands = [{"variant": "gin", "hand": ["AS"]}] * 3
        item = single_error(small.post("/v1/solve/batch", json={"requests": hands}))
        assert item["type"] == "batch_too_large"


@pytest.mark.parametrize(
    ("body", "loc", "type_"),
    [
        ({}, ["body", "requests"], "missing"),
        ({"requests": {"variant": "gin"}}, ["body", "requests"], "list_type"),
        ({"requests": [], "parallel": True}, ["body", "parallel"], "extra_forbidden"),
    ],
)
def test_batch_shape_errors(
    client: TestClient, body: dict[str, Any], loc: list[Any], type_: str
) -> None:
    item = single_error(client.post("/v1/solve/batch", json=body))
    assert item["loc"] == loc
    assert item["type"] == type_


def test_batch_deadline_stops_later_items(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch has one deadline (its time_limit_ms, else the request budget)."""
    real = library_call("solve_hand")

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.04)
        return real(*args, **kwargs)

    patch_call(monkeypatch, "solve_hand", slow)
    # A budget a loaded machine still starts the batch within (it counts from arrival);
    # the item running at the deadline ends within the pool's grace (LATE_S).
    with make_client(request_budget_ms=100) as small:
        hands = [{"variant": "gin", "hand": GIN_HAND}] * 4
        answered = small.post("/v1/solve/batch", json={"requests": hands})
        assert answered.status_code == 200, answered.text
        results = answered.json()["results"]
        assert "deadwood_points" in results[0]
        assert results[3]["error"]["type"] == "batch_budget_exceeded"
        assert results[3]["error"]["loc"] == ["body", "requests", 3]
        shorter = small.post("/v1/solve/batch", json={"requests": hands, "time_limit_ms": 30})
        assert shorter.json()["results"][1]["error"]["type"] == "batch_budget_exceeded"
        item = single_error(small.post("/v1/solve/batch",
                                       json={"requests": hands, "time_limit_ms": 101}))
        assert item["type"] == "time_limit_too_large"


# ---------------------------------------------------------------------------
# Validate


def test_validate_a_declarable_indian_hand(client: TestClient) -> None:
    response = client.post(
        "/v1/validate",
        json={
            "variant": "indian13",
            "wild_rank": "9",
            "melds": [
                ["AH", "2H", "3H"],
                ["4S", "5S", "9D", "7S"],
                ["KC", "KD", "KS"],
                ["5D", "6D", "7D"],
            ],
            "deadwood": [],
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["valid"] is True and body["declarable"] is True
    assert body["problems"] == []
    assert body["melds"][1]["represents"] == ["4S", "5S", "6S", "7S"]
    assert body["penalty_points"] == 0


def test_validate_reports_problems(client: TestClient) -> None:
    response = client.post(
        "/v1/validate",
        json={
            "variant": "gin",
            "melds": [["AS", "2S", "4S"], ["7H", "7D", "7S"]],
            "deadwood": ["KD", "QH", "4C", "9S"],
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["valid"] is False
    assert body["melds"][0] is None
    assert body["problems"][0]["meld_index"] == 0
    assert body["problems"][0]["code"]
    assert body["deadwood_points"] == 40


def test_validate_against_the_hand(client: TestClient) -> None:
    response = client.post(
        "/v1/validate",
        json={
            "variant": "gin",
            "melds": [["AS", "2S", "3S"], ["7H", "7D", "7S"]],
            "deadwood": ["KD", "QH", "4C", "9S"],
            "hand": "AS 2S 3S 7H 7D 7S KD QH 4C 9C",
        },
    )
    assert response.status_code == 200, response.text
    codes = {p["code"] for p in response.json()["problems"]}
    assert "card_not_in_hand" in codes


@pytest.mark.parametrize(
    ("body", "loc", "type_"),
    [
        ({"melds": [["AS", "2S", "3S"], ["7H", "QQ"]]}, ["body", "melds", 1, 1], "invalid_card"),
        ({"melds": [["AS", "2S", "3S"]], "deadwood": ["4S", "XX"]}, ["body", "deadwood", 1],
         "invalid_card"),
        ({"melds": [["AS", "2S", "3S"], ["AS", "AH", "AD"]]}, ["body", "melds", 1, 0],
         "too_many_copies"),
        ({"melds": [], "rules": {"decks": 9}}, ["body", "rules", "decks"], "invalid_rules"),
        ({"melds": [], "rules": {"colour": 1}}, ["body", "rules", "colour"], "invalid_rules"),
        ({"melds": [], "wild_rank": "7"}, ["body", "wild_rank"], "wild_rank_not_allowed"),
        ({"melds": [GIN_HAND, GIN_HAND, GIN_HAND, ["AH"]]}, ["body", "melds"], "hand_too_large"),
        ({"melds": [], "hand": GIN_HAND * 3 + ["AH"]}, ["body", "hand"], "hand_too_large"),
        ({"melds": "AS 2S 3S"}, ["body", "melds"], "list_type"),
        ({"melds": [["AS", 2]]}, ["body", "melds", 0, 1], "string_type"),
        ({"melds": [], "deadwood": None}, ["body", "deadwood"], "list_type"),
        ({}, ["body", "melds"], "missing"),
        ({"melds": [], "discard": True}, ["body", "discard"], "extra_forbidden"),
    ],
)
def test_validate_errors_are_422_with_loc_and_type(
    client: TestClient, body: dict[str, Any], loc: list[Any], type_: str
) -> None:
    body = {"variant": "gin", **body}
    item = single_error(client.post("/v1/validate", json=body))
    assert item["loc"] == loc
    assert item["type"] == type_


# ---------------------------------------------------------------------------
# Never a 500


def test_solver_crash_is_503_not_500(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("bug")

    patch_call(monkeypatch, "solve_hand", broken)
    patch_call(monkeypatch, "validate_hand", broken)
    crashed = solve(client, variant="gin", hand=GIN_HAND)
    item = single_error(crashed, 503)
    assert "logged as" in item["msg"] and item["type"] == "solver_error"
    # every 503 says when to retry, as openapi.json declares (it had no Retry-After)
    assert crashed.headers["retry-after"] == "1"
    response = client.post("/v1/validate", json={"variant": "gin", "melds": []})
    assert response.status_code == 503 and response.headers["retry-after"] == "1"
    results = client.post(
        "/v1/solve/batch", json={"requests": [{"variant": "gin", "hand": GIN_HAND}]}
    ).json()["results"]
    assert results[0]["error"]["type"] == "solver_error"


def test_unserialisable_solution_is_503(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Odd:
        def to_dict(self) -> dict[str, Any]:
            return {"variant": "gin", "status": "confused"}

    class Nan:
        def to_dict(self) -> dict[str, Any]:
            return {"variant": "gin", "points": float("nan")}

    patch_call(monkeypatch, "solve_hand", lambda *args, **kwargs: Nan())
    assert solve(client, variant="gin", hand=GIN_HAND).status_code == 503
    del Odd


def test_error_escaping_every_handler_is_503(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("outside the service's own guards")

    monkeypatch.setattr(operation_routes, "answer", broken)
    import api.server.quick_lane

    monkeypatch.setattr(api.server.quick_lane, "quick_answer", broken)
    with make_client() as fresh:
        routed = solve(fresh, variant="gin", hand=GIN_HAND, rules={"min_run_length": 3})
        quick = solve(fresh, variant="gin", hand=GIN_HAND)  # the quick lane (api.server.quick_lane)
    for response in (routed, quick):
        item = single_error(response, 503)
        assert "logged as" in item["msg"]
        assert response.headers["retry-after"] == "1"


def test_unknown_route_and_method(client: TestClient) -> None:
    assert single_error(client.get("/v1/nothing"), 404)["type"] == "not_found"
    assert single_error(client.get("/v1/solve"), 405)["type"] == "method_not_allowed"


# ---------------------------------------------------------------------------
# The event loop stays free while solving


def test_handlers_only_await_the_solver_pool() -> None:
    """Every handler is a coroutine that checks the request and awaits a
    solver process: none computes an answer on the event loop."""
    endpoints = {route.path: route.endpoint  # type: ignore[attr-defined]
                 for route in operation_routes.router.routes}
    assert len(endpoints) == len(OPERATIONS)
    for path, handler in endpoints.items():
        assert inspect.iscoroutinefunction(handler), path
    source = inspect.getsource(operation_routes.endpoint)
    assert "await answer(" in source and "operation.parse(" in source
    assert "self.pool.submit(" in inspect.getsource(NdjsonStream._answer)
    assert inspect.iscoroutinefunction(health_routes.healthz)


def test_healthz_answers_while_a_solve_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    real = library_call("solve_hand")
    started = threading.Event()

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.set()
        time.sleep(1.0)
        return real(*args, **kwargs)

    patch_call(monkeypatch, "solve_hand", slow)
    with make_client() as fresh:
        worker = threading.Thread(target=lambda: solve(fresh, variant="gin", hand=GIN_HAND))
        worker.start()
        assert started.wait(5)
        begin = time.perf_counter()
        assert fresh.get("/healthz").status_code == 200
        health_seconds = time.perf_counter() - begin
        worker.join()
    assert health_seconds < 0.5


# ---------------------------------------------------------------------------
# Settings


def test_settings_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    def read(**environ: str) -> Settings:
        for name in list(__import__("os").environ):
            if name.startswith("RUMMY_SOLVER_") or name == "PROMETHEUS_MULTIPROC_DIR":
                monkeypatch.delenv(name)
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        return load_settings()

    settings = read(RUMMY_SOLVER_MAX_BATCH="10", RUMMY_SOLVER_MAX_BODY_BYTES="2_000", OTHER="x")
    assert settings.max_batch == 10
    assert settings.max_body_bytes == 2000
    assert settings.max_hand_cards == 30
    assert read() == Settings.model_construct()
    assert read(RUMMY_SOLVER_BATCH_BUDGET_MS="700").request_budget_ms == 700
    assert read(RUMMY_SOLVER_BATCH_BUDGET_MS="700",
                RUMMY_SOLVER_REQUEST_BUDGET_MS="900").request_budget_ms == 900
    assert read(RUMMY_SOLVER_TIME_LIMIT_MS="300").default_time_limit_ms == 300
    assert read(RUMMY_SOLVER_CORS_ORIGINS="https://a.example, *").origins == [
        "https://a.example", "*"]
    assert read(DEFAULT_TIME_LIMIT_MS="7").default_time_limit_ms == 1000  # prefix required


@pytest.mark.parametrize(
    "environ",
    [
        {"RUMMY_SOLVER_MAX_BATCH": "many"},
        {"RUMMY_SOLVER_MAX_BATCH": "0"},
        {"RUMMY_SOLVER_MAX_HAND_CARDS": "31"},
        {"RUMMY_SOLVER_MAX_TIME_LIMIT_MS": "600000"},
        {"RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS": "3000"},
        {"RUMMY_SOLVER_PROCESSES": "-1"},
        {"RUMMY_SOLVER_QUEUE_SIZE": "0"},
        {"RUMMY_SOLVER_REQUEST_BUDGET_MS": "9999999"},
        {"RUMMY_SOLVER_LOG_LEVEL": "loud"},
        {"RUMMY_SOLVER_NODE_BUDGET": "5"},
    ],
)
def test_bad_settings_are_rejected(environ: dict[str, str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=next(iter(environ))):
        load_settings()


def _environment_reads(path: Path) -> list[int]:
    """Lines of ``path`` that touch the process environment (``os.environ``,
    ``os.getenv`` ... or those names imported from ``os``)."""
    names = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            touches = node.attr in names and isinstance(node.value, ast.Name) \
                and node.value.id == "os"
        elif isinstance(node, ast.ImportFrom):
            touches = node.module == "os" and any(alias.name in names for alias in node.names)
        else:
            continue
        if touches:
            found.append(node.lineno)
    return found


def test_only_the_settings_read_the_environment() -> None:
    """Every setting is read through ``Settings`` (``api.shared.settings``, the one
    place settings are defined): no other module of ``api`` reads a variable
    of its own, nor writes one (``export`` hands settings to child processes)."""
    settings = ROOT / "api" / "shared" / "settings.py"
    readers = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "api").rglob("*.py"))
               if path != settings and (lines := _environment_reads(path))}
    assert readers == {}
    assert _environment_reads(settings)  # the check does find what it looks for


def test_create_app_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY_SOLVER_MAX_BATCH", "2")
    monkeypatch.setenv("RUMMY_SOLVER_PROCESSES", "0")
    with TestClient(create_app()) as env_client:
        hands = [{"variant": "gin", "hand": ["AS"]}] * 3
        item = single_error(env_client.post("/v1/solve/batch", json={"requests": hands}))
    assert item["type"] == "batch_too_large"


# ---------------------------------------------------------------------------
# OpenAPI document


def test_operation_ids_are_stable_and_unique() -> None:
    document = create_app(Settings.model_construct()).openapi()
    ids = [op["operationId"] for path in document["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert sorted(ids) == sorted(
        [
            "healthz",
            "readyz",
            "version",
            "metrics",
            "list_variants",
            "get_variant",
            "solve_hand",
            "solve_batch",
            "solve_stream",
            "validate_hand",
            "gin_knock",
            "gin_score",
            "hint_discard",
            "hint_draw",
            "hint_layoffs",
            "hint_pile",
            "score_round",
            "review_game",
            "review_openspiel",
            "advise",
        ]
    )


def test_every_schema_has_an_example() -> None:
    document = create_app(Settings.model_construct()).openapi()
    missing = [
        name for name, schema in document["components"]["schemas"].items()
        if not schema.get("examples") and "enum" not in schema  # an enum lists its values
    ]
    assert missing == []


MODELS = [
    BatchItemError, BatchRequest, BatchResponse, ErrorItem, ErrorResponse, GoOutOut,
    HealthResponse, MeldOut, ProblemOut, ReadyResponse, RulesOverride, SolveRequest,
    SolveResponse, ValidateRequest, ValidateResponse, VariantInfo, VariantList, VersionResponse,
]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_examples_are_valid_instances(model: Any) -> None:
    examples = model.model_config["json_schema_extra"]["examples"]
    assert examples
    for example in examples:
        model.model_validate(example)


@pytest.mark.parametrize(
    ("path", "model"),
    [("/v1/solve", SolveRequest), ("/v1/validate", ValidateRequest),
     ("/v1/solve/batch", BatchRequest)],
)
def test_request_examples_are_served(
    client: TestClient, path: str, model: Any
) -> None:
    for example in model.model_config["json_schema_extra"]["examples"]:
        response = client.post(path, json=example)
        assert response.status_code == 200, response.text


def test_response_examples_are_the_real_answers() -> None:
    """``api/shared/examples.json`` holds what the service answers to every request
    example today (``python -m api.server.export_examples`` regenerates it)."""
    from api.server import export_examples
    from api.shared import examples

    assert export_examples.render(export_examples.build()) == \
        examples.EXAMPLES_PATH.read_text(encoding="utf-8"), (
            "api/shared/examples.json is stale: run python -m api.server.export_examples")


def test_api_version_is_the_package_version() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert tomllib.load(f)["project"]["version"] == API_VERSION


def test_docs_are_served_without_a_cdn(client: TestClient) -> None:
    for page in ("/docs", "/redoc"):
        html = client.get(page).text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert assets, page
        for asset in assets:
            assert asset.startswith("/"), (page, asset)  # served here, not from a CDN
            assert client.get(asset).status_code == 200, asset
        assert "fonts.googleapis" not in html
    assert client.get("/openapi.json").json()["info"]["title"] == "rummy-solver"


def test_version_matches_the_package(client: TestClient) -> None:
    body = client.get("/version").json()
    assert body["version"] == API_VERSION and body["package"] == "rummy-solver"
    assert body["ortools"] and body["python"]


def test_request_ids_are_echoed_or_made(client: TestClient) -> None:
    given = client.get("/healthz", headers={"X-Request-ID": "game-42.turn-7"})
    assert given.headers["x-request-id"] == "game-42.turn-7"
    made = client.post("/v1/solve", json={"variant": "gin", "hand": "AS"})
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["x-request-id"])
    odd = client.get("/healthz", headers={"X-Request-ID": "no spaces please"})
    assert odd.headers["x-request-id"] != "no spaces please"


def test_made_request_ids_are_random_not_a_count(client: TestClient) -> None:
    """An id the service makes tells nothing of its volume: no shared prefix,
    no sequence (issue 38 item 8: it was a worker's prefix and a counter)."""
    made = [client.get("/healthz").headers["x-request-id"] for _ in range(40)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", made_id) for made_id in made)
    assert len(set(made)) == len(made)
    assert len({made_id[:8] for made_id in made}) == len(made)  # 2**-32 odds per pair
    steps = {int(after, 16) - int(before, 16) for before, after in itertools.pairwise(made)}
    assert len(steps) == len(made) - 1  # a counter advances by one step


def test_a_forked_process_makes_other_request_ids() -> None:
    """A child forked with part of the parent's batch of random bytes left
    does not repeat the parent's next ids."""
    import os

    from api.server.middleware import RandomIds

    ids = RandomIds()
    ids.next()
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        os.write(writer, ids.next().encode())
        os._exit(0)
    os.close(writer)
    os.waitpid(child, 0)
    with os.fdopen(reader) as pipe:
        assert pipe.read() != ids.next()


def test_metrics_count_requests_and_solves(client: TestClient) -> None:
    solve(client, variant="gin", hand=GIN_HAND)
    text = client.get("/metrics").text
    assert 'rummy_solver_requests_total{method="POST",route="/v1/solve",status="200"}' in text
    assert 'rummy_solver_solves_total{engine="search",status="optimal",variant="gin"}' in text
    assert "rummy_solver_request_duration_seconds_bucket" in text
    assert "rummy_solver_queue_depth" in text and "rummy_solver_deadline_hits_total" in text


def test_an_answer_cut_short_by_its_deadline_is_a_deadline_hit(client: TestClient) -> None:
    """``rummy_solver_deadline_hits_total`` counts "requests whose deadline cut
    the work short": an advice or a review answered ``complete: false`` at its
    deadline is one, as a solve answered ``optimal: false`` is (the advice and
    the review have no ``optimal`` field, and were not counted)."""
    record = json.loads((ROOT / "docs" / "examples" / "gin-hand.json").read_text(encoding="utf-8"))
    answer = client.post("/v1/review", json={**record, "time_limit_ms": 1})
    assert answer.status_code == 200 and answer.json()["complete"] is False
    text = client.get("/metrics").text
    assert 'rummy_solver_deadline_hits_total{route="/v1/review"}' in text


def test_a_request_using_a_deprecated_field_is_told_so(client: TestClient) -> None:
    """docs/API_STABILITY.md: a response to a request that uses a deprecated
    field carries ``Deprecation`` (RFC 9745, the date as a Structured Field
    Date) and a ``Link`` with rel="deprecation"; the quick lane (a gin
    solve), a solver process (Indian rummy) and a batch's items alike, and
    no request that uses none."""
    indian = {"variant": "indian13", "wild_rank": "7",
              "hand": "AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D"}
    gin = {"variant": "gin", "hand": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"}
    told = [client.post("/v1/solve", json={**indian, "rules": {"min_pure_sequences": 1}}),
            client.post("/v1/solve", json={**gin, "rules": {"opening_points": 0}}),
            client.post("/v1/solve/batch", json={"requests": [
                gin, {**indian, "rules": {"min_sequences": 2}}]})]
    for answer in told:
        assert answer.status_code == 200
        assert answer.headers["deprecation"] == "@1795996800"  # 2026-11-30T00:00:00Z
        assert 'rel="deprecation"' in answer.headers["link"]
    for body in (indian, gin, {**indian, "rules": {"requirements": [
            {"kind": "pure_sequence", "count": 1}]}}):
        answer = client.post("/v1/solve", json=body)
        assert answer.status_code == 200 and "deprecation" not in answer.headers
    refused = client.post("/v1/solve", json={**indian, "hand": "AH ZZ", "rules": {
        "min_pure_sequences": 1}})  # the library's refusal answers the request too
    assert refused.status_code == 422 and refused.headers["deprecation"] == "@1795996800"


def test_methods_clients_make_up_do_not_grow_the_metrics(client: TestClient) -> None:
    """Every method the HTTP parser lets through (PURGE, PROPFIND ...) counts
    as one ``other`` label: a client cannot add series by inventing calls."""
    for method in ("PURGE", "PROPFIND", "MKCALENDAR", "LOCK"):
        client.request(method, "/v1/solve")
    text = client.get("/metrics").text
    assert 'rummy_solver_requests_total{method="other",route="/v1/solve",status="405"}' in text
    assert "PROPFIND" not in text and "PURGE" not in text


def test_the_services_own_messages_are_whole_and_quoted_input_is_cut(
        client: TestClient) -> None:
    """An error message of the service's words is not cut at the input
    preview's length; the input it quotes (a path segment) is."""
    long_name = "v" * 5000
    answer = client.get(f"/v1/variants/{long_name}")
    message = answer.json()["detail"][0]["msg"]
    assert answer.status_code == 404 and len(message) < 400
    assert "choose one of" in message and "gin" in message.split("choose one of")[1]


def test_cors_follows_the_setting() -> None:
    with make_client() as closed:
        response = closed.options("/v1/solve", headers={
            "Origin": "https://game.example", "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in response.headers
    app = create_app(Settings(processes=0, cors_origins="https://game.example"))
    with TestClient(app) as open_client:
        preflight = open_client.options("/v1/solve", headers={
            "Origin": "https://game.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == "https://game.example"
        simple = open_client.post("/v1/solve", json={"variant": "gin", "hand": GIN_HAND},
                                  headers={"Origin": "https://game.example"})
        assert simple.headers["access-control-allow-origin"] == "https://game.example"
        assert "x-request-id" in simple.headers["access-control-expose-headers"].lower()
        other = open_client.post("/v1/solve", json={"variant": "gin", "hand": GIN_HAND},
                                 headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_a_refused_cors_preflight_is_a_json_error() -> None:
    """A preflight the CORS setting refuses answers 403 ``cors_refused`` in the
    one error shape, an item per refused part (issue 38 item 8: it was a
    plain-text 400)."""
    app = create_app(Settings(processes=0, cors_origins="https://game.example"))
    with TestClient(app) as client:
        origin = client.options("/v1/solve", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
        assert origin.status_code == 403
        assert origin.headers["content-type"] == "application/json"
        assert origin.json()["detail"] == [{
            "type": "cors_refused", "loc": ["header", "origin"],
            "msg": "the origin 'https://evil.example' may not call this service "
                   "(RUMMY_SOLVER_CORS_ORIGINS lists those that may)"}]
        both = client.options("/v1/solve", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "DELETE"})
        assert both.status_code == 403
        assert [(i["type"], i["loc"]) for i in both.json()["detail"]] == [
            ("cors_refused", ["header", "origin"]),
            ("cors_refused", ["header", "access-control-request-method"])]
        assert "GET, POST, OPTIONS" in both.json()["detail"][1]["msg"]
        assert "access-control-allow-origin" not in both.headers
        assert "x-request-id" in both.headers  # answered inside the request context


def test_cors_refused_says_what_a_preflight_is_refused_for() -> None:
    """``cors_refused``'s meaning (README, error_codes.py) is what the CORS
    middleware refuses: an origin not listed or a method it does not allow,
    never a request header (it allows every one); it promised refusals of
    headers that RUMMY_SOLVER_CORS_ORIGINS, which lists only origins, "does not
    allow"."""
    from api.shared.error_codes import ERROR_CODES

    app = create_app(Settings(processes=0, cors_origins="https://game.example"))
    with TestClient(app) as client:
        asked = client.options("/v1/solve", headers={
            "Origin": "https://game.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-any-header, authorization"})
        assert asked.status_code == 200  # no header is refused
        allowed = [m.strip() for m in asked.headers["access-control-allow-methods"].split(",")]
    meaning = ERROR_CODES["cors_refused"]
    assert f"{', '.join(allowed[:-1])} and {allowed[-1]}" in meaning, (allowed, meaning)
    assert "every request header is allowed" in meaning


# ---------------------------------------------------------------------------
# Layering


def test_solver_imports_no_web_stack() -> None:
    """``solver`` and every module in it import without fastapi & co."""
    code = (
        "import importlib, pkgutil, sys, solver\n"
        "for info in pkgutil.walk_packages(solver.__path__, 'solver.'):\n"
        "    importlib.import_module(info.name)\n"
        "web = {'fastapi', 'pydantic', 'pydantic_core', 'starlette', 'uvicorn', 'api'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in web))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout
