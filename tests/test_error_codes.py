"""The README lists every error ``type`` and every setting, generated from their one place.

Codes are found where they are made: ``code="..."`` in the library, custom
pydantic errors and rejections in the front ends, and pydantic's own codes as
the request models answer wrong values in every field of every operation;
each must be in ``api.shared.error_codes.ERROR_CODES``, which README's list is
generated from.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from api.server.export_docs import render
from api.shared.error_codes import ERROR_CODES, codes_table
from api.shared.examples import REQUESTS
from api.shared.operations import OPERATIONS
from api.shared.settings import settings_table

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
