"""Random and junk payloads against the POST endpoints: never a 5xx.

Hypothesis runs with a fixed seed (``derandomize``) so the run is repeatable;
the app is built with small time limits and batch size so the whole run
stays well under a minute.  The statuses seen are printed at the end.
"""

from __future__ import annotations

import itertools
import json
import warnings
from collections import Counter
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

import pytest

from api.server.main import create_app
from api.shared.settings import Settings
from solver import ENGINES, PRESETS
from solver.rules import KNOB_NAMES

EXAMPLES = 400
ENDPOINTS = ("/v1/solve", "/v1/validate", "/v1/solve/batch")
FUZZ_SETTINGS = Settings(
    max_batch=5, max_time_limit_ms=200, default_time_limit_ms=100, request_budget_ms=300,
    processes=0,
)

RANKS = "A23456789TJQK"
SUITS = "SHDC"
GOOD_TOKENS = [r + s for r in RANKS for s in SUITS] + ["JK", "10h", "♥7", "7♦", "joker"]
JUNK_TOKENS = ["", " ", "ZZ", "1S", "11H", "AX", "JKR", "🃏🃏", "A", "S", "null", "{}", "\ud800"]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
tokens = st.sampled_from(GOOD_TOKENS) | st.sampled_from(JUNK_TOKENS) | st.text(max_size=4)
hands = (
    st.lists(tokens, max_size=34)
    | st.lists(tokens, max_size=34).map(" ".join)
    | json_values
)
variants = st.sampled_from([*PRESETS, "canasta", "", "GIN", "\ud83c"]) | json_values
knob_values = (
    st.booleans()
    | st.integers(min_value=-5, max_value=120)
    | st.sampled_from(["low", "high_low", "wrap", "cascade", "max_net"])
    | st.none()
    | json_values
)
rules = st.none() | st.dictionaries(
    st.sampled_from([*KNOB_NAMES, "colour", "\udfff"]), knob_values, max_size=4
) | json_values
wild_ranks = st.sampled_from(["7", "7H", "JK", "10", "A", "KC", "x", ""]) | json_values
optional_solve_fields = {
    "wild_rank": wild_ranks,
    "discard": st.booleans() | json_values,
    "rules": rules,
    "engine": st.sampled_from([*ENGINES, "magic"]) | json_values,
    "time_limit_ms": st.integers(min_value=-10, max_value=300) | json_values,
    "junk": json_values,
}
solve_payloads: st.SearchStrategy[dict[str, Any]] = st.fixed_dictionaries(
    {"variant": variants, "hand": hands}, optional=optional_solve_fields
)
validate_payloads = st.fixed_dictionaries(
    {"variant": variants, "melds": st.lists(st.lists(tokens, max_size=6), max_size=6) | json_values},
    optional={
        "deadwood": st.lists(tokens, max_size=8) | json_values,
        "hand": hands,
        "wild_rank": wild_ranks,
        "rules": rules,
        "junk": json_values,
    },
)
batch_payloads = st.fixed_dictionaries(
    {"requests": st.lists(solve_payloads | json_values, max_size=7) | json_values},
    optional={"junk": json_values},
)
# Plausible requests: real variants and distinct real cards, so that many
# reach the solver (200s) instead of stopping at the schema.
STANDARD_TOKENS = [r + s for r in RANKS for s in SUITS]
distinct_cards = st.lists(st.sampled_from([*STANDARD_TOKENS, "JK"]), unique=True, max_size=30)
plausible_knobs = st.dictionaries(
    st.sampled_from(["knock_limit", "ace", "decks", "set_allow_same_suit", "points_cap"]),
    st.integers(min_value=0, max_value=12) | st.sampled_from(["low", "high_low", "wrap"])
    | st.booleans() | st.none(),
    max_size=2,
)
plausible_solve = st.fixed_dictionaries(
    {"variant": st.sampled_from(list(PRESETS)), "hand": distinct_cards},
    optional={
        "wild_rank": st.sampled_from(["7", "7H", "JK", "AS", "K"]),
        "discard": st.booleans(),
        "rules": plausible_knobs,
        "engine": st.sampled_from(ENGINES),
        "time_limit_ms": st.integers(min_value=1, max_value=200),
    },
)


def _split(cards: list[str], cuts: list[int]) -> dict[str, Any]:
    points = sorted({0, *cuts, len(cards)})
    chunks = [cards[a:b] for a, b in itertools.pairwise(points)]
    return {"melds": chunks[:-1], "deadwood": chunks[-1] if chunks else []}


plausible_validate = st.tuples(
    st.sampled_from(list(PRESETS)),
    distinct_cards.flatmap(
        lambda cards: st.tuples(
            st.just(cards), st.lists(st.integers(0, len(cards)), max_size=6)
        )
    ),
    st.sampled_from([None, None, None, "7", "7H", "JK"]),
).map(
    lambda t: {"variant": t[0], **_split(*t[1]), **({"wild_rank": t[2]} if t[2] else {})}
)
solve_payloads = plausible_solve | solve_payloads
validate_payloads = plausible_validate | validate_payloads
batch_payloads = st.fixed_dictionaries(
    {"requests": st.lists(solve_payloads | json_values, max_size=7) | json_values},
    optional={"junk": json_values},
)

structured = st.sampled_from(ENDPOINTS).flatmap(
    lambda path: st.tuples(
        st.just(path),
        {
            "/v1/solve": solve_payloads,
            "/v1/validate": validate_payloads,
            "/v1/solve/batch": batch_payloads,
        }[path]
        | json_values,
    )
)


def _encode(payload: Any) -> bytes:
    return json.dumps(payload, allow_nan=True).encode()


raw_bodies = st.tuples(
    st.sampled_from(ENDPOINTS),
    st.binary(max_size=300)
    | structured.map(lambda pair: _encode(pair[1])[: len(_encode(pair[1])) // 2]),
    st.sampled_from(
        [None, "application/json", "text/plain", "application/x-www-form-urlencoded",
         "multipart/form-data; boundary=x", "application/vnd.api+json"]
    ),
)

SEEN: Counter[tuple[str, int]] = Counter()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(FUZZ_SETTINGS), raise_server_exceptions=False) as test_client:
        yield test_client


def _post_json(client: TestClient, path: str, payload: Any) -> int:
    response = client.post(
        path, content=_encode(payload), headers={"content-type": "application/json"}
    )
    return _status(response)


def _status(response: Any) -> int:
    """The status, but a 503 ``overloaded`` with ``Retry-After`` counts as 429:
    a time limit of a millisecond or two can pass before the request reaches
    a solver (the pool then refuses it at once, as documented), which is load
    shedding, not a failure; every other 5xx stays a failure."""
    status = cast(int, response.status_code)  # starlette's TestClient answers Any
    if status == 503 and response.headers.get("retry-after"):
        items = response.json().get("detail", [])
        if items and all(item.get("type") == "overloaded" for item in items):
            return 429
    return status


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    case=structured.map(lambda pair: ("json", *pair)) | raw_bodies.map(lambda t: ("raw", *t))
)
def _fuzz_once(client: TestClient, case: tuple[Any, ...]) -> None:
    if case[0] == "json":
        _, path, payload = case
        status = _post_json(client, path, payload)
    else:
        _, path, body, content_type = case
        headers = {} if content_type is None else {"content-type": content_type}
        status = _status(client.post(path, content=body, headers=headers))
    SEEN[(path, status)] += 1
    assert status < 500, (path, case)


def test_fuzzed_payloads_never_get_a_5xx(client: TestClient, capsys: Any) -> None:
    SEEN.clear()
    _fuzz_once(client)
    total = sum(SEEN.values())
    lines = [f"API fuzz: {total} requests"] + [
        f"  {path:18} {status}: {count}" for (path, status), count in sorted(SEEN.items())
    ]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    statuses = {status for _, status in SEEN}
    assert all(status < 500 for status in statuses)
    # The fuzz must reach the solver, not only the schema checks.
    assert 200 in statuses and 422 in statuses
