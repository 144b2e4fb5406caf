"""The README lists every error ``type`` and every setting, generated from their one place.

Codes are found where they are made: ``code="..."`` in the library, custom
pydantic errors and rejections in the front ends; each must be in
``api.shared.error_codes.ERROR_CODES``, which README's list is generated from.
"""

from __future__ import annotations

import re
from pathlib import Path

from api.server.export_docs import render
from api.shared.error_codes import ERROR_CODES, codes_table
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


def test_the_readme_lists_every_code_and_setting() -> None:
    assert codes_table() in README and settings_table() in README
    assert render(README) == README, "README is stale: run python -m api.server.export_docs"
