"""openapi.json as a client developer meets it: generate a Python client with
openapi-python-client, type-check a small program using it (mypy --strict)
and run that program against the app."""

from __future__ import annotations

import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

from api.server.main import create_app
from api.shared.settings import Settings
from solver import solve
from solver.cards import card_name

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = shutil.which("openapi-python-client")

pytestmark = pytest.mark.skipif(GENERATOR is None, reason="openapi-python-client not installed "
                                                          "(pip install -e '.[test]')")

PROGRAM = '''\
"""A game back-end using the generated client: a solve, a hint, an error."""

from __future__ import annotations

from rummy_client import Client
from rummy_client.api.hints import hint_discard
from rummy_client.api.solve import solve_hand
from rummy_client.models import (
    AnsweredBy,
    DiscardHintRequest,
    DiscardHintResponse,
    ErrorResponse,
    MeldKind,
    SolveRequest,
    SolveResponse,
    SolveStatus,
    Variant,
)


def best_runs(client: Client, hand: str) -> tuple[int, list[str], bool]:
    """Deadwood points, the runs, and whether the answer is proved optimal."""
    answer = solve_hand.sync(client=client, body=SolveRequest(hand=hand, variant=Variant.GIN))
    if not isinstance(answer, SolveResponse):
        raise RuntimeError(f"no solution: {answer!r}")
    runs = [" ".join(meld.cards) for meld in answer.melds if meld.kind == MeldKind.RUN]
    proved = answer.status == SolveStatus.OPTIMAL and answer.engine in AnsweredBy
    return answer.deadwood_points, runs, proved


def first_error(client: Client, hand: list[str]) -> tuple[int, str, str]:
    """Status code, error type and the offending field of a bad request."""
    response = solve_hand.sync_detailed(
        client=client, body=SolveRequest(hand=hand, variant=Variant.GIN))
    answer = response.parsed
    if not isinstance(answer, ErrorResponse):
        raise RuntimeError("a bad card was accepted")
    item = answer.detail[0]
    return int(response.status_code), item.type_, ".".join(str(part) for part in item.loc)


def best_discard(client: Client, hand: list[str]) -> str:
    """The discard the hint ranks first."""
    answer = hint_discard.sync(
        client=client, body=DiscardHintRequest(hand=hand, variant=Variant.GIN))
    if not isinstance(answer, DiscardHintResponse):
        raise RuntimeError(f"no hint: {answer!r}")
    return answer.options[0].discard
'''


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The generated client package and the program, in one directory on sys.path."""
    where = tmp_path_factory.mktemp("client")
    assert GENERATOR is not None
    subprocess.run([GENERATOR, "generate", "--path", str(ROOT / "openapi.json"), "--meta", "none",
                    "--output-path", str(where / "rummy_client")],
                   check=True, capture_output=True, text=True, timeout=300)
    (where / "program.py").write_text(PROGRAM)
    sys.path.insert(0, str(where))
    try:
        yield where
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m.split(".")[0] in ("rummy_client", "program")]:
            del sys.modules[name]


def test_the_generated_models_have_one_name_per_concept(generated: Path) -> None:
    models = {p.stem for p in (generated / "rummy_client" / "models").glob("*.py")}
    assert {"variant", "layoff_variant", "round_variant", "engine", "answered_by",
            "solve_status", "meld_kind", "error_response", "rules_override"} <= models
    # no enum inlined per model and field (what the first schema produced)
    assert not [m for m in models if m.startswith("variant_") and m[-1].isdigit()]
    inlined = {"solution_out_engine", "solve_response_engine", "solution_out_status",
               "solve_response_status", "gin_score_response_outcome", "gin_score_response_winner",
               "knocker_choice_out_outcome", "knocker_choice_out_winner", "meld_out_kind",
               "discard_hint_response_better", "draw_hint_response_better",
               "layoffs_response_better", "pile_use_out_kind", "player_in_dropped_type_0",
               "draw_hint_response_recommendation", "fit_out_end", "player_score_out_role"}
    assert not models & inlined


@pytest.mark.slow  # mypy --strict over the generated package: 10-12 s of the default run
def test_a_program_using_the_client_type_checks_strictly(generated: Path) -> None:
    # The generated package's own client.py does not pass --strict (a template
    # matter); the program using it must, with the package's types.  The
    # default run still generates the client and runs the program against the app.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "program.py"],
        cwd=generated, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_program_runs_against_the_app(generated: Path) -> None:
    import program  # type: ignore[import-not-found]
    from rummy_client import Client  # type: ignore[import-not-found]

    with TestClient(create_app(Settings(processes=0))) as app_client:
        client = Client(base_url="http://testserver")
        client.set_httpx_client(app_client)
        deadwood, runs, proved = program.best_runs(client, "AS 2S 3S 7H 7D 7C KD QH 4C 9S")
        assert (deadwood, runs, proved) == (33, ["AS 2S 3S"], True)
        status, kind, where = program.first_error(client, ["AS", "ZZ"])
        assert (status, kind, where) == (422, "invalid_card", "body.hand.1")
        hand = "AS 2S 3S 7H 7D 7C KD QH 4C 9S 5S"
        assert program.best_discard(client, hand.split()) == card_name(
            solve(hand, "gin", discard=True).discard or 0)
