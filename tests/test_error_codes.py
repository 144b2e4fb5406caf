"""The README lists every error ``type`` and every setting, generated from their one place.

Codes are found where they are made: ``code="..."`` in the library, custom
pydantic errors and rejections in the front ends, and pydantic's own codes as
the request models answer wrong values in every field of every operation;
each must be in ``api.shared.error_codes.ERROR_CODES``, which README's list is
generated from.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

from api.server.export_docs import render
from api.shared.error_codes import ERROR_CODES, PROBLEM_CODES, codes_table
from api.shared.examples import REQUESTS
from api.shared.operations import OPERATIONS
from api.shared.settings import settings_table
from solver.rules import REQUIREMENT_KINDS
from solver.validate import _requirement_code

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

MADE_IN_API = re.compile(
    r'(?:PydanticCustomError|RequestRejected\.one|item|error_response)\(\s*(?:\d+,\s*)?'
    r'(f?)"([a-z_{}]+)"')


def _library_codes() -> set[str]:
    codes = set()
    for path in (ROOT / "solver").rglob("*.py"):
        codes |= set(re.findall(r'code="([a-z_]+)"', path.read_text(encoding="utf-8")))
    return codes


def _front_end_codes() -> set[str]:
    codes = set()
    for path in (ROOT / "api").rglob("*.py"):
        for formatted, code in MADE_IN_API.findall(path.read_text(encoding="utf-8")):
            if formatted:  # f"{kind}_too_deep": the body and the line kinds
                codes |= {code.replace("{kind}", kind) for kind in ("body", "line")}
            else:
                codes.add(code)
    return codes


def test_every_code_made_is_listed() -> None:
    made = _library_codes() | _front_end_codes()
    assert len(made) > 60
    assert sorted(made - set(ERROR_CODES)) == []


WRONG_VALUES: tuple[object, ...] = (
    "\ud800", "", "x", 1.5, -1, 0, 2**70, 1e300, True, None, {}, [], [None], [{}], ["\ud800"],
    [""], [1.5], {"a": 1})
"""Values of every wrong kind a client may send in a field: a lone surrogate, a
float, a huge or negative number, a boolean, null, objects and lists (an empty
string in a list: a review's player id is 1 to 64 characters)."""


@pytest.mark.parametrize("operation", sorted(name for name in REQUESTS
                                             if name in OPERATIONS and OPERATIONS[name].path))
def test_every_code_the_request_models_answer_is_listed(inline_client: Any,
                                                        operation: str) -> None:
    """Every field of the request model, not only those of its example: a
    review's optional ``result`` (numbers) answered ``float_type``, a code
    README did not list."""
    base = REQUESTS[operation][0]
    path = OPERATIONS[operation].path
    answered: set[str] = set()
    for field in dict.fromkeys([*base, *OPERATIONS[operation].request.model_fields]):
        for value in WRONG_VALUES:
            body = json.dumps({**base, field: value}).encode("utf-8", "surrogatepass")
            response = inline_client.post(path, content=body,
                                          headers={"content-type": "application/json"})
            assert response.status_code in (200, 422), (field, value, response.text)
            if response.status_code == 422:
                answered |= {error["type"] for error in response.json()["detail"]}
    assert answered and sorted(answered - set(ERROR_CODES)) == []


def test_the_readme_lists_every_code_and_setting() -> None:
    assert codes_table() in README and settings_table() in README
    assert render(README) == README, "README is stale: run python -m api.server.export_docs"


def _problem_codes_made() -> set[str]:
    """Every code ``solver.validate`` can put in a report's problems: a meld's
    (``solver.classify``: tuples led by their code), the requirements' and the
    declaration's own (``Problem(code=...)``)."""
    classify = (ROOT / "solver" / "classify.py").read_text(encoding="utf-8")
    validate = (ROOT / "solver" / "validate.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'(?:return\s+|[(\[]\s*)\(\s*"([a-z_]+)",', classify))
    codes |= set(re.findall(r'Problem\(\s*code="([a-z_]+)"', validate))
    codes |= {_requirement_code(kind, many) for kind in REQUIREMENT_KINDS for many in (False, True)}
    return codes


def test_every_problem_code_is_listed_apart_from_the_error_types(inline_client: Any) -> None:
    """A declared arrangement's problems (POST /v1/validate, a 200 answer) have
    codes of their own. Four of them (card_not_in_hand, card_count_mismatch,
    cards_left_over, too_few_meld_points) were listed as error types, with
    meanings of errors no request gets, and the others not at all."""
    made = _problem_codes_made()
    assert len(made) > 20 and sorted(made ^ set(PROBLEM_CODES)) == []
    for code in set(PROBLEM_CODES) & set(ERROR_CODES):  # kept listed: never removed in /v1
        assert ERROR_CODES[code].startswith("never an error"), code
    answer = inline_client.post("/v1/validate", json={
        "variant": "gin", "melds": [["AS", "2S", "3S"]], "deadwood": ["9H"],
        "hand": "AS 2S 3S 9D"})
    assert answer.status_code == 200, answer.text
    assert {p["code"] for p in answer.json()["problems"]} == {"card_not_in_hand",
                                                            "card_count_mismatch"}


_GIN_HAND = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"
_ROUND = {"variant": "rommy", "players": [{"went_out": True}, {"hand": "KD"}]}
LIBRARY_ONLY: dict[str, tuple[str, dict[str, Any], set[str]]] = {
    "too_many_cards": ("/v1/hints/draw", {"variant": "gin", "hand": "AS", "discard_top": "2S",
                                          "seen": ["3S"] * 449}, {"too_long"}),
    "invalid_discard": ("/v1/solve", {"variant": "gin", "hand": "AS", "discard": "yes"},
                        {"bool_type"}),
    "invalid_knock_limit": ("/v1/gin/knock", {"hand": _GIN_HAND, "knock_limit": 201},
                            {"less_than_equal"}),
    "invalid_table": ("/v1/layoffs", {"variant": "rummy500", "hand": "AS", "table": "2S 3S 4S"},
                      {"list_type"}),
    "table_too_large": ("/v1/layoffs", {"variant": "rummy500", "hand": "AS",
                                        "table": [["2S", "3S", "4S"]] * 51}, {"too_long"}),
    "invalid_player": ("/v1/score/round", {**_ROUND, "players": [{"went_out": True}, 7]},
                       {"model_attributes_type"}),
    "invalid_pile_penalties": ("/v1/score/round", {**_ROUND, "players": [
        {"went_out": True}, {"hand": "KD", "pile_penalties": 101}]}, {"less_than_equal"}),
    "invalid_seed": ("/v1/advise", {"game": "gin", "hand": _GIN_HAND, "upcard": "KD",
                                    "seed": "1"}, {"int_type"}),
}
"""Library codes whose condition the request models refuse first, with another code."""


@pytest.mark.parametrize("code", sorted(LIBRARY_ONLY))
def test_a_code_no_request_gets_says_so_and_names_the_one_it_gets(inline_client: Any,
                                                                  code: str) -> None:
    """README listed these library codes as if a request could get them; a
    request with their condition gets the code its field's type gives."""
    path, body, answered = LIBRARY_ONLY[code]
    response = inline_client.post(path, json=body)
    assert response.status_code == 422, response.text
    got = {item["type"] for item in response.json()["detail"]}
    assert got == answered, got
    assert "the library called directly" in ERROR_CODES[code]
    assert all(other in ERROR_CODES[code] for other in answered), ERROR_CODES[code]


def test_library_only_codes_are_not_raised_where_a_request_could_get_them() -> None:
    """Each code a meaning says only the library gets is one (made in solver/)."""
    only = {code for code, meaning in ERROR_CODES.items() if "the library called directly" in
            meaning}
    assert set(LIBRARY_ONLY) <= only and only <= _library_codes()


def test_invalid_content_length_says_when_it_is_answered() -> None:
    """README said invalid_content_length answers 'the Content-Length header is
    not a number', and invalid_http (400) the same; the served protocol answers
    every such request 400 invalid_http (tests/test_protocol.py), so only an
    ASGI server that passes one on gets the middleware's 422."""
    from api.server.middleware import BodyGuardMiddleware

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the body guard lets a bad Content-Length through")

    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/solve",
             "headers": [(b"content-length", b"-1")], "state": {}}
    asyncio.run(BodyGuardMiddleware(app, 1000)(scope, receive, send))
    assert sent[0]["status"] == 422
    assert json.loads(sent[1]["body"])["detail"][0]["type"] == "invalid_content_length"
    meaning = ERROR_CODES["invalid_content_length"]
    assert meaning.startswith("422:") and "400 invalid_http" in meaning
