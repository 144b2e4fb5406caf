"""The /v1 promise (docs/API_STABILITY.md): ``openapi.json`` only adds to the
baseline of the last release, ``docs/api/openapi-v1-baseline.json``; and the
comparer behind that check (``api.server.openapi_compat``) on crafted before/after
documents: every kind of breaking change is caught, additions are not."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from api.server.export_openapi import OPENAPI_PATH
from api.server.openapi_compat import api_majors, breaking_changes, main

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "docs" / "api" / "openapi-v1-baseline.json"
HOW_TO_BREAK_ON_PURPOSE = (
    "If this change is deliberate: document it, then in the same commit update the baseline "
    "(python -m api.server.export_openapi && cp openapi.json docs/api/openapi-v1-baseline.json) and add "
    "a line to CHANGELOG.md under [Unreleased] saying what changed and why (docs/API_STABILITY.md). "
    "Otherwise keep the old shape: add a field or an operation beside the old one instead of "
    "removing, renaming or narrowing it."
)


def _load(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def test_openapi_json_only_adds_to_the_v1_baseline() -> None:
    baseline, current = _load(BASELINE), _load(OPENAPI_PATH)
    major = max(api_majors(baseline))
    if major not in api_majors(current) and max(api_majors(current), default=0) > major:
        pytest.skip(f"/v{major} is gone and /v{max(api_majors(current))} is out: a new major "
                    f"version may break v{major}; start its own baseline (docs/API_STABILITY.md)")
    found = breaking_changes(baseline, current)
    assert not found, (
        f"openapi.json breaks the /v{major} promise: {len(found)} backward-incompatible change(s) "
        f"against {BASELINE.relative_to(ROOT)} (the last release):\n"
        + "\n".join(f"  - {change}" for change in found[:40])
        + "\n" + HOW_TO_BREAK_ON_PURPOSE
    )


def test_the_baseline_is_a_v1_document() -> None:
    baseline = _load(BASELINE)
    assert api_majors(baseline) == {1}
    assert breaking_changes(baseline, baseline) == []


def test_a_real_removal_is_caught() -> None:
    """The real document, one response field removed: the check is not vacuous."""
    current = _load(OPENAPI_PATH)
    changed = copy.deepcopy(current)
    del changed["components"]["schemas"]["SolveResponse"]["properties"]["deadwood_points"]
    assert [str(c) for c in breaking_changes(current, changed)] == [
        "response schema SolveResponse.deadwood_points: property removed or renamed"]


# ---------------------------------------------------------------------------
# The comparer on crafted documents


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


BEFORE: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "rummy-solver", "version": "0.2.0"},
    "paths": {
        "/v1/solve": {"post": {
            "operationId": "solve_hand",
            "requestBody": {"required": True, "content": _json(_ref("SolveRequest"))},
            "responses": {
                "200": {"description": "ok", "content": _json(_ref("SolveResponse"))},
                "503": {"description": "busy", "content": _json(_ref("ErrorResponse")),
                        "headers": {"Retry-After": {"schema": {"type": "integer"}}}},
            },
        }},
        "/v1/variants/{name}": {"get": {
            "operationId": "get_variant",
            "parameters": [
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
                {"name": "verbose", "in": "query", "required": False, "schema": {"type": "boolean"}},
            ],
            "responses": {"200": {"description": "ok", "content": _json({"type": "object"})}},
        }},
        "/healthz": {"get": {"operationId": "healthz", "responses": {"200": {"description": "ok"}}}},
    },
    "components": {"schemas": {
        "SolveRequest": {
            "type": "object", "additionalProperties": False, "required": ["hand"],
            "properties": {
                "hand": {"anyOf": [
                    {"type": "array", "items": {"type": "string", "maxLength": 16}, "maxItems": 64},
                    {"type": "string", "maxLength": 400},
                ]},
                "variant": {**_ref("Variant"), "default": "gin"},
                "time_limit_ms": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 60000},
                                            {"type": "null"}]},
                "rules": {"anyOf": [_ref("RulesOverride"), {"type": "null"}]},
            },
        },
        "RulesOverride": {"type": "object", "properties": {
            "knock_limit": {"type": "integer"},
            "ratio": {"type": "number"},
            "card_points": {"type": "object", "additionalProperties": {"type": "integer"}},
        }},
        "Variant": {"type": "string", "enum": ["gin", "basic", "indian13"]},
        "SolveResponse": {
            "type": "object", "required": ["melds", "deadwood_points", "status"],
            "properties": {
                "melds": {"type": "array", "items": _ref("MeldOut")},
                "deadwood_points": {"type": "integer"},
                "status": _ref("SolveStatus"),
                "discard": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            },
        },
        "MeldOut": {"type": "object", "required": ["kind", "cards"], "properties": {
            "kind": {"type": "string", "enum": ["set", "run"]},
            "cards": {"type": "array", "items": {"type": "string"}},
        }},
        "SolveStatus": {"type": "string", "enum": ["optimal", "feasible"]},
        "ErrorResponse": {"type": "object", "required": ["detail"], "properties": {
            "detail": {"type": "array", "items": {"type": "object", "properties": {
                "type": {"type": "string"}, "msg": {"type": "string"}}}},
        }},
    }},
}

Change = Callable[[dict[str, Any]], object]
"""Edits a document in place (what it returns is ignored)."""


def _schemas(spec: dict[str, Any]) -> dict[str, Any]:
    schemas: dict[str, Any] = spec["components"]["schemas"]
    return schemas


def _request(spec: dict[str, Any]) -> dict[str, Any]:
    return _schemas(spec)["SolveRequest"]["properties"]  # type: ignore[no-any-return]


def _response(spec: dict[str, Any]) -> dict[str, Any]:
    return _schemas(spec)["SolveResponse"]  # type: ignore[no-any-return]


def _time_limit(spec: dict[str, Any]) -> dict[str, Any]:
    """The integer branch of ``SolveRequest.time_limit_ms``."""
    return _request(spec)["time_limit_ms"]["anyOf"][0]  # type: ignore[no-any-return]


def _rename_schema(spec: dict[str, Any]) -> None:
    _schemas(spec)["Status"] = _schemas(spec).pop("SolveStatus")
    _response(spec)["properties"]["status"] = _ref("Status")


def _remove_schema(spec: dict[str, Any]) -> None:
    del _schemas(spec)["ErrorResponse"]
    spec["paths"]["/v1/solve"]["post"]["responses"]["503"]["content"] = _json({"type": "object"})


def _add_required_seed(spec: dict[str, Any]) -> None:
    _request(spec)["seed"] = {"type": "integer"}
    _schemas(spec)["SolveRequest"]["required"].append("seed")


def _union_to_component(spec: dict[str, Any]) -> None:
    _schemas(spec)["Hand"] = _request(spec)["hand"]
    _request(spec)["hand"] = _ref("Hand")


def _narrow_component_union(spec: dict[str, Any]) -> None:
    _union_to_component(spec)
    _schemas(spec)["Hand"]["anyOf"].pop()


def _rename_property(spec: dict[str, Any]) -> None:
    _request(spec)["deadline_ms"] = _request(spec).pop("time_limit_ms")


BREAKING: dict[str, tuple[Change, str]] = {
    "path removed": (lambda s: s["paths"].pop("/healthz"), "/healthz: path removed"),
    "path renamed": (lambda s: s["paths"].__setitem__("/v1/variant/{name}",
                                                      s["paths"].pop("/v1/variants/{name}")),
                     "/v1/variants/{name}: path removed"),
    "operation removed": (lambda s: s["paths"]["/v1/solve"].__setitem__(
        "put", s["paths"]["/v1/solve"].pop("post")), "POST /v1/solve: operation removed"),
    "operationId renamed": (lambda s: s["paths"]["/healthz"]["get"].__setitem__("operationId", "live"),
                            "GET /healthz: operationId 'healthz' renamed to 'live'"),
    "schema removed": (_remove_schema, "components.schemas.ErrorResponse: removed or renamed"),
    "schema renamed": (_rename_schema, "components.schemas.SolveStatus: removed or renamed"),
    "response property removed": (lambda s: _response(s)["properties"].pop("discard"),
                                  "response schema SolveResponse.discard: property removed or renamed"),
    "request property renamed": (_rename_property,
                                 "request schema SolveRequest.time_limit_ms: property removed or renamed"),
    "nested property removed": (lambda s: _schemas(s)["MeldOut"]["properties"].pop("kind"),
                                "response schema MeldOut.kind: property removed or renamed"),
    "new required request field": (_add_required_seed,
                                   "request schema SolveRequest.seed: now required in requests"),
    "optional request field made required": (
        lambda s: _schemas(s)["SolveRequest"]["required"].append("variant"),
        "request schema SolveRequest.variant: now required in requests"),
    "request enum value removed": (lambda s: _schemas(s)["Variant"]["enum"].remove("indian13"),
                                   'request schema Variant: enum values removed: "indian13"'),
    "response enum value removed": (lambda s: _schemas(s)["SolveStatus"]["enum"].remove("feasible"),
                                    'response schema SolveStatus: enum values removed: "feasible"'),
    "request union narrowed": (lambda s: _request(s)["hand"]["anyOf"].pop(),
                               "request schema SolveRequest.hand: no longer accepts string (type narrowed)"),
    "request type changed": (
        lambda s: _schemas(s)["RulesOverride"]["properties"].__setitem__("knock_limit", {"type": "string"}),
        "request schema RulesOverride.knock_limit: no longer accepts integer (type narrowed)"),
    "number narrowed to integer": (
        lambda s: _schemas(s)["RulesOverride"]["properties"].__setitem__("ratio", {"type": "integer"}),
        "request schema RulesOverride.ratio: no longer accepts number (type narrowed)"),
    "null no longer accepted": (lambda s: _request(s)["time_limit_ms"]["anyOf"].pop(),
                                "request schema SolveRequest.time_limit_ms: no longer accepts null"),
    "request maximum lowered": (
        lambda s: _time_limit(s).__setitem__("maximum", 2000),
        "request schema SolveRequest.time_limit_ms: maximum lowered to 2000 (was 60000)"),
    "request minimum raised": (lambda s: _time_limit(s).__setitem__("minimum", 10),
                               "request schema SolveRequest.time_limit_ms: minimum raised to 10 (was 1)"),
    "request array item narrowed": (
        lambda s: _request(s)["hand"]["anyOf"][0]["items"].__setitem__("maxLength", 3),
        "request schema SolveRequest.hand[]: maxLength lowered to 3 (was 16)"),
    "a component union narrowed": (
        _narrow_component_union,
        "request schema SolveRequest.hand: no longer accepts string (type narrowed)"),
    "request pattern added": (lambda s: _request(s)["hand"]["anyOf"][1].__setitem__("pattern", "^[A-Z]"),
                              "request schema SolveRequest.hand: pattern changed to '^[A-Z]' (was None)"),
    "request enum added": (
        lambda s: _schemas(s)["RulesOverride"]["properties"]["knock_limit"].__setitem__("enum", [0, 10]),
        "request schema RulesOverride.knock_limit: now limited to 0, 10"),
    "request map values narrowed": (
        lambda s: _schemas(s)["RulesOverride"]["properties"]["card_points"]["additionalProperties"]
        .__setitem__("maximum", 100),
        "request schema RulesOverride.card_points{}: maximum lowered to 100 (was none)"),
    "unknown request properties refused": (
        lambda s: _schemas(s)["RulesOverride"].__setitem__("additionalProperties", False),
        "request schema RulesOverride: no longer accepts properties it does not name"),
    "request default changed": (lambda s: _request(s)["variant"].__setitem__("default", "basic"),
                                "request schema SolveRequest.variant: default changed from 'gin' to 'basic'"),
    "response field no longer required": (
        lambda s: _response(s)["required"].remove("deadwood_points"),
        "response schema SolveResponse.deadwood_points: may now be missing from responses"),
    "response field may be null": (
        lambda s: _response(s)["properties"].__setitem__(
            "deadwood_points", {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        "response schema SolveResponse.deadwood_points: may now be null, which it never was"),
    "response type changed": (
        lambda s: _response(s)["properties"].__setitem__("deadwood_points", {"type": "string"}),
        "response schema SolveResponse.deadwood_points: may now be string, which it never was"),
    "response enum opened": (lambda s: _schemas(s)["SolveStatus"].pop("enum"),
                             'response schema SolveStatus: was one of "optimal", "feasible", may now be any'),
    "parameter removed": (lambda s: s["paths"]["/v1/variants/{name}"]["get"]["parameters"].pop(),
                          "GET /v1/variants/{name} query parameter 'verbose': removed or renamed"),
    "parameter made required": (
        lambda s: s["paths"]["/v1/variants/{name}"]["get"]["parameters"][1].__setitem__("required", True),
        "GET /v1/variants/{name} query parameter 'verbose': now required"),
    "new required parameter": (
        lambda s: s["paths"]["/v1/variants/{name}"]["get"]["parameters"].append(
            {"name": "lang", "in": "query", "required": True, "schema": {"type": "string"}}),
        "GET /v1/variants/{name} query parameter 'lang': new required parameter"),
    "request media type removed": (
        lambda s: s["paths"]["/v1/solve"]["post"]["requestBody"].__setitem__(
            "content", {"application/x-ndjson": {"schema": {"type": "string"}}}),
        "POST /v1/solve request body application/json: media type removed"),
    "request body required": (
        lambda s: s["paths"]["/healthz"]["get"].__setitem__(
            "requestBody", {"required": True, "content": _json({"type": "object"})}),
        "GET /healthz request body: a body is now required"),
    "response status removed": (lambda s: s["paths"]["/v1/solve"]["post"]["responses"].pop("503"),
                                "POST /v1/solve response 503: removed"),
    "response header removed": (
        lambda s: s["paths"]["/v1/solve"]["post"]["responses"]["503"].pop("headers"),
        "POST /v1/solve response 503 header 'Retry-After': removed"),
}


def _set_many(values: dict[str, Any]) -> Change:
    def change(spec: dict[str, Any]) -> None:
        for path, value in values.items():
            *parents, last = path.split("/")
            target = spec
            for part in parents:
                target = target[part]
            target[last] = value
    return change


ADDITIVE: dict[str, Change] = {
    "new path": lambda s: s["paths"].__setitem__("/v1/gin/knock", {"post": {
        "operationId": "gin_knock", "responses": {"200": {"description": "ok"}}}}),
    "new operation": lambda s: s["paths"]["/healthz"].__setitem__(
        "head", {"operationId": "healthz_head", "responses": {"200": {"description": "ok"}}}),
    "new optional request field": lambda s: _request(s).__setitem__("seed", {"type": "integer"}),
    "new response field": lambda s: _set_many({
        "components/schemas/SolveResponse/properties/engine": {"type": "string"},
        "components/schemas/SolveResponse/required": ["melds", "deadwood_points", "status", "engine"],
    })(s),
    "new enum value in a request": lambda s: _schemas(s)["Variant"]["enum"].append("kalooki"),
    "new enum value in a response": lambda s: _schemas(s)["SolveStatus"]["enum"].append("timeout"),
    "new response status": lambda s: s["paths"]["/v1/solve"]["post"]["responses"].__setitem__(
        "413", {"description": "too large"}),
    "new optional parameter": lambda s: s["paths"]["/v1/variants/{name}"]["get"]["parameters"].append(
        {"name": "lang", "in": "query", "required": False, "schema": {"type": "string"}}),
    "new schema": lambda s: _schemas(s).__setitem__("Extra", {"type": "object"}),
    "request integer widened to number": lambda s: _schemas(s)["RulesOverride"]["properties"].__setitem__(
        "knock_limit", {"type": "number"}),
    "request accepts null too": lambda s: _schemas(s)["RulesOverride"]["properties"].__setitem__(
        "knock_limit", {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
    "request list type form": lambda s: _schemas(s)["RulesOverride"]["properties"].__setitem__(
        "knock_limit", {"type": ["integer", "null"]}),
    "request bound loosened": lambda s: _time_limit(s).__setitem__("maximum", 90000),
    "request accepts unknown properties": lambda s: _schemas(s)["SolveRequest"].pop("additionalProperties"),
    "request field made optional": lambda s: _schemas(s)["SolveRequest"]["required"].clear(),
    "response no longer null": lambda s: _response(s)["properties"].__setitem__(
        "discard", {"type": "string"}),
    "response field made required": lambda s: _response(s)["required"].append("discard"),
    "response bound changed": lambda s: _response(s)["properties"]["deadwood_points"].__setitem__(
        "maximum", 100),
    "descriptions, titles and examples": _set_many({
        "components/schemas/Variant/description": "the rule preset",
        "components/schemas/SolveResponse/title": "Solve response",
        "components/schemas/SolveRequest/examples": [{"hand": "AS 2S 3S", "variant": "gin"}],
        "info/version": "0.3.0",
    }),
    "an inline union moved to a component": _union_to_component,
    "a lone allOf wrapper": lambda s: _response(s)["properties"].__setitem__(
        "status", {"allOf": [_ref("SolveStatus")], "description": "how sure the answer is"}),
}


def _after(change: Change) -> dict[str, Any]:
    spec = copy.deepcopy(BEFORE)
    change(spec)
    return spec


@pytest.mark.parametrize("name", BREAKING)
def test_each_breaking_change_is_caught(name: str) -> None:
    change, expected = BREAKING[name]
    found = [str(c) for c in breaking_changes(BEFORE, _after(change))]
    assert any(line.startswith(expected) for line in found), found


@pytest.mark.parametrize("name", ADDITIVE)
def test_additions_are_not_breaking(name: str) -> None:
    assert breaking_changes(BEFORE, _after(ADDITIVE[name])) == []


def test_the_same_document_has_no_changes() -> None:
    assert breaking_changes(BEFORE, copy.deepcopy(BEFORE)) == []


def test_a_schema_used_many_times_is_reported_once_per_direction() -> None:
    spec = _after(lambda s: s["paths"].__setitem__("/v1/solve/again", copy.deepcopy(s["paths"]["/v1/solve"])))
    spec["paths"]["/v1/solve/again"]["post"]["operationId"] = "solve_again"
    changed = copy.deepcopy(spec)
    _response(changed)["properties"].pop("discard")
    assert [str(c) for c in breaking_changes(spec, changed)] == [
        "response schema SolveResponse.discard: property removed or renamed"]


def test_a_recursive_schema_terminates() -> None:
    before = copy.deepcopy(BEFORE)
    _schemas(before)["MeldOut"]["properties"]["parts"] = {"type": "array", "items": _ref("MeldOut")}
    after = copy.deepcopy(before)
    _schemas(after)["MeldOut"]["properties"].pop("cards")
    assert [str(c) for c in breaking_changes(before, after)] == [
        "response schema MeldOut.cards: property removed or renamed"]


def test_api_majors() -> None:
    assert api_majors(BEFORE) == {1}
    assert api_majors({"paths": {"/v2/solve": {}, "/v10": {}, "/version": {}}}) == {2, 10}


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(BEFORE))
    new.write_text(json.dumps(_after(lambda s: s["paths"].pop("/healthz"))))
    assert main([str(old), str(old)]) == 0
    assert main([str(old), str(new)]) == 1
    assert capsys.readouterr().out == "/healthz: path removed\n"
    assert main([str(old)]) == 2
