"""docs/RULES.md against the code: every knob, preset and choice is named, the
knob, preset and contract tables match ``solver.rules``, every ``>>>`` example
runs as a doctest, and every REST request body shown is a valid request whose
quoted answer the service really gives."""

from __future__ import annotations

import doctest
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from solver import solve
from solver.results import Status
from solver.rules import (
    CHOICES,
    CONTRACTS,
    INT_BOUNDS,
    KNOB_DOCS,
    KNOB_NAMES,
    LEGACY_KNOBS,
    NULLABLE,
    PRESETS,
    REQUIREMENT_KINDS,
    Requirement,
    Rules,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "RULES.md"
TEXT = DOC.read_text(encoding="utf-8")
DEFAULTS = Rules()


def _section(title: str) -> str:
    """The text of the ``## title`` section (up to the next ``## `` heading)."""
    start = TEXT.index(f"\n## {title}\n")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start:] if end < 0 else TEXT[start:end]


def _rows(text: str) -> Iterator[list[str]]:
    """The cells of every Markdown table row of ``text``."""
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            yield [cell.strip() for cell in line.strip().strip("|").split("|")]


def _requirements(items: tuple[Requirement, ...]) -> str:
    return ",".join(f"{r.kind}{'==' if r.exact else '>='}{r.count}" for r in items)


def _short(knob: str, value: Any) -> str:
    """A knob value as the preset table writes it (``requirements=set==2,run==0``)."""
    if knob == "requirements":
        return _requirements(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_every_knob_preset_and_choice_is_named() -> None:
    names = [*KNOB_NAMES, *KNOB_DOCS, *LEGACY_KNOBS, *PRESETS, *REQUIREMENT_KINDS, *get_args(Status)]
    names += [choice for choices in CHOICES.values() for choice in choices]
    missing = sorted({name for name in names if f"`{name}`" not in TEXT})
    assert not missing, f"docs/RULES.md never names {missing}"


def test_knob_table_matches_the_rules() -> None:
    table = {cells[0].strip("`"): cells for cells in _rows(_section("12. Every knob"))
             if len(cells) == 4 and cells[0].startswith("`")}
    assert set(table) == set(KNOB_NAMES)
    for knob, (_, kind, default, meaning) in table.items():
        value = getattr(DEFAULTS, knob)
        wire = [r.to_dict() for r in value] if knob == "requirements" else value
        assert default == f"`{json.dumps(wire)}`", knob
        assert ("or null" in kind) == (knob in NULLABLE), knob
        if knob in INT_BOUNDS:
            low, high = INT_BOUNDS[knob]
            assert kind.startswith(f"int {low}-{high}"), knob
        elif knob in CHOICES:
            assert kind == "one of " + " ".join(f"`{c}`" for c in CHOICES[knob]), knob
        elif isinstance(value, bool) or knob == "tanala":
            assert kind.startswith("bool"), knob
        assert meaning, knob


def test_preset_table_matches_the_presets() -> None:
    section = _section("11. Presets")
    table = section[section.index("| preset | knobs that differ from the defaults |"):]
    found = {cells[0].strip("`"): set(re.findall(r"`([a-z_]+=[^`]*)`", cells[1]))
             for cells in _rows(table) if cells[0].strip("`") in PRESETS}
    assert set(found) == set(PRESETS)
    for name, preset in PRESETS.items():
        expected = {f"{k}={_short(k, getattr(preset, k))}" for k in KNOB_NAMES
                    if k != "name" and getattr(preset, k) != getattr(DEFAULTS, k)}
        assert found[name] == expected, name


def test_contract_table_matches_the_contracts() -> None:
    rows = [cells for cells in _rows(_section("6. Contract rummy and Kalooki"))
            if len(cells) == 5 and cells[0].isdigit()]
    assert [int(cells[0]) for cells in rows] == sorted(CONTRACTS)
    for round_cells in rows:
        hand_size, items, lay_down_all = CONTRACTS[int(round_cells[0])]
        assert round_cells[1] == str(hand_size)
        assert round_cells[3] == f"`{_requirements(items)}`"
        assert round_cells[4] == ("true" if lay_down_all else "false")


def test_every_python_block_is_a_doctest() -> None:
    blocks = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
    assert blocks
    for block in blocks:
        assert block.startswith(">>> "), f"a python block that is not a doctest:\n{block}"


def test_examples_give_the_answers_shown() -> None:
    result = doctest.testfile(str(DOC), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 50
    assert result.failed == 0


def _requests() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each ``curl ... -d '{...}'`` body of the page with the answer fields its
    ``# ...`` comment quotes."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", TEXT, flags=re.S):
        body = re.search(r"-d '(.*?)'", block, flags=re.S)
        assert body is not None, block
        quoted = "".join(line for line in block.splitlines() if line.startswith("#"))
        fields = {key: json.loads(value) for key, value in re.findall(
            r'"(\w+)":(\[[^\]]*\]|"[^"]*"|true|false|null|-?\d+)', quoted)}
        assert fields, block
        out.append((json.loads(body.group(1)), fields))
    return out


REQUESTS = _requests()


@pytest.mark.parametrize(("body", "fields"), REQUESTS)
def test_request_bodies_match_the_library(body: dict[str, Any], fields: dict[str, Any]) -> None:
    answer = solve(**body).to_dict()
    for key, value in fields.items():
        assert answer[key] == value, key


def test_request_bodies_are_answered_by_the_service() -> None:
    testclient = pytest.importorskip("fastapi.testclient")
    from api.server.main import create_app
    from api.shared.settings import Settings

    assert len(REQUESTS) >= 3
    client = testclient.TestClient(create_app(Settings(processes=0)), raise_server_exceptions=False)
    with client:
        for body, fields in REQUESTS:
            response = client.post("/v1/solve", json=body)
            assert response.status_code == 200, response.text
            answer = response.json()
            for key, value in fields.items():
                assert answer[key] == value, key


def test_a_bad_knob_gets_the_type_the_knob_section_says() -> None:
    """Section 12 said an unknown knob is ``extra_forbidden`` over REST; the
    service answers ``invalid_rules`` for it, as for a bad value (and as the
    README's list of codes says), with ``loc`` ending at the knob."""
    testclient = pytest.importorskip("fastapi.testclient")
    from api.server.main import create_app
    from api.shared.settings import Settings

    section = " ".join(_section("12. Every knob").split())
    said = re.search(r"`type` is `(\w+)`, for an unknown knob as for a bad value", section)
    assert said is not None, "section 12 no longer says which type a bad knob gets"
    client = testclient.TestClient(create_app(Settings(processes=0)), raise_server_exceptions=False)
    with client:
        for knob, value in (("nonsense", 1), ("name", "x"), ("decks", 9), ("decks", "x")):
            response = client.post("/v1/solve", json={"variant": "gin", "hand": "AS",
                                                      "rules": {knob: value}})
            assert response.status_code == 422, response.text
            item = response.json()["detail"][0]
            assert (item["type"], item["loc"][-1]) == (said.group(1), knob), item
