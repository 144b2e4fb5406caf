"""The checked-in ``openapi.json`` matches what the app generates."""

from __future__ import annotations

import difflib

from api.server.export_openapi import OPENAPI_PATH, render_openapi


def test_openapi_json_is_up_to_date() -> None:
    expected = render_openapi()
    actual = OPENAPI_PATH.read_text(encoding="utf-8") if OPENAPI_PATH.exists() else ""
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    actual.splitlines(keepends=True),
                    expected.splitlines(keepends=True),
                    "openapi.json (checked in)",
                    "openapi.json (generated)",
                )
            )[:40]
        )
        raise AssertionError(
            "openapi.json is stale: run `python -m api.server.export_openapi` and commit the result\n"
            + diff
        )


def test_response_enums_name_exactly_what_the_library_answers() -> None:
    from typing import get_args

    from api.shared.schemas import AnsweredBy, MeldKind, SolveStatus
    from solver.results import MeldKind as LibraryMeldKind
    from solver.results import Status
    from solver.solve import ENGINES

    assert {m.value for m in SolveStatus} == set(get_args(Status))
    assert {m.value for m in MeldKind} == set(get_args(LibraryMeldKind))
    assert {m.value for m in AnsweredBy} == set(ENGINES) - {"auto"}
