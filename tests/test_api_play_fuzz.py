"""Random and junk payloads against the play endpoints (gin, hints, scoring, the advisor): never a 5xx.

Same approach as ``test_api_fuzz``: a fixed seed, small time budgets, the
statuses seen printed at the end.  Plausible payloads (real variants, distinct
real cards) make many requests reach the library instead of the schema.
"""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

from api.server.main import create_app
from tests.test_api_fuzz import (
    FUZZ_SETTINGS,
    STANDARD_TOKENS,
    _post_json,
    hands,
    json_values,
    rules,
    tokens,
    variants,
    wild_ranks,
)

EXAMPLES = 500
CARDS = st.lists(st.sampled_from([*STANDARD_TOKENS, "JK"]), unique=True, max_size=14)
SOME = CARDS | hands
NET_VARIANTS = st.sampled_from(["gin", "basic", "rummy500", "rommy"]) | variants
TABLE = st.lists(st.lists(st.sampled_from(STANDARD_TOKENS), min_size=1, max_size=5), max_size=4)
OPTIONAL = {"rules": rules, "junk": json_values}
ADVISE_GAMES = st.sampled_from(["gin", "indian13", "indian21"])
LEVELS = st.sampled_from(["novice", "standard", "expert"])
SEATS = st.integers(-1, 7) | json_values
ACTIONS = st.sampled_from(["pass", "take_discard", "draw_stock", "discard", "knock", "drop",
                           "declare", "lay_off"])
EVENTS = st.lists(st.fixed_dictionaries(
    {"player": st.integers(-1, 6), "action": ACTIONS | json_values},
    optional={"card": tokens | json_values}), max_size=12)

PAYLOADS: dict[str, Any] = {
    "/v1/gin/knock": st.fixed_dictionaries(
        {"hand": SOME},
        optional={"knock_limit": st.integers(-2, 30) | json_values,
                  "upcard": st.sampled_from(STANDARD_TOKENS) | json_values, **OPTIONAL}),
    "/v1/gin/score": st.fixed_dictionaries({"knocker": SOME, "defender": SOME}, optional=OPTIONAL),
    "/v1/hints/discard": st.fixed_dictionaries(
        {"variant": NET_VARIANTS, "hand": SOME}, optional={"wild_rank": wild_ranks, **OPTIONAL}),
    "/v1/hints/draw": st.fixed_dictionaries(
        {"variant": NET_VARIANTS, "hand": SOME, "discard_top": tokens | json_values},
        optional={"seen": st.lists(tokens, max_size=6) | json_values, "wild_rank": wild_ranks,
                  **OPTIONAL}),
    "/v1/layoffs": st.fixed_dictionaries(
        {"variant": NET_VARIANTS, "hand": SOME, "table": TABLE | json_values},
        optional={"wild_rank": wild_ranks, **OPTIONAL}),
    "/v1/hints/pile": st.fixed_dictionaries(
        {"variant": st.sampled_from(["rummy500", "rommy"]) | variants, "hand": SOME,
         "table": TABLE | json_values, "discard_pile": st.lists(tokens, max_size=6) | json_values},
        optional=OPTIONAL),
    "/v1/score/round": st.fixed_dictionaries(
        {"variant": variants | st.sampled_from(["basic", "rummy500", "rommy", "indian13"]),
         "players": st.lists(
             st.fixed_dictionaries({"hand": SOME}, optional={
                 "melded": TABLE | json_values, "went_out": st.booleans() | json_values,
                 "dropped": st.sampled_from(["first", "middle", "late"]) | json_values,
                 "had_turn": st.booleans()}),
             max_size=4) | json_values},
        optional={"wild_rank": wild_ranks, **OPTIONAL}),
    "/v1/advise": st.fixed_dictionaries(
        {"hand": SOME, "upcard": tokens | json_values},
        optional={"game": ADVISE_GAMES | json_values, "history": EVENTS | json_values,
                  "me": SEATS, "dealer": SEATS, "players": SEATS,
                  "discard_pile": st.lists(tokens, max_size=6) | json_values,
                  "stock_count": st.integers(-2, 120) | json_values,
                  "score": st.fixed_dictionaries({"me": st.integers(-5, 120),
                                                  "opponent": st.integers(-5, 120)},
                                                 optional={"target": st.integers(-1, 500)})
                  | json_values,
                  "wild_rank": wild_ranks, "level": LEVELS | json_values,
                  "seed": st.integers(-3, 2**40) | json_values,
                  "oklahoma": st.booleans() | json_values, **OPTIONAL}),
}


# Requests shaped like real play, so that most reach the library: fixed table
# melds (and a knocker that can knock) with random cards around them.
TABLE_MELDS = [["5H", "6H", "7H"], ["9S", "9D", "9C"]]
KNOCKER_MELDS = ["AS", "2S", "3S", "4D", "5D", "6D", "KC", "KH", "KS"]
FREE = [t for t in STANDARD_TOKENS if t not in {*KNOCKER_MELDS, *TABLE_MELDS[0], *TABLE_MELDS[1]}]


def _deal(size: int, pool: list[str] = STANDARD_TOKENS) -> Any:
    return st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size)


PLAUSIBLE: dict[str, Any] = {
    "/v1/gin/knock": st.fixed_dictionaries({"hand": _deal(10) | _deal(11)}),
    "/v1/gin/score": _deal(11, FREE).map(
        lambda cards: {"knocker": [*KNOCKER_MELDS, cards[0]], "defender": cards[1:]}),
    "/v1/hints/discard": st.fixed_dictionaries(
        {"variant": st.sampled_from(["gin", "basic"]), "hand": _deal(11)}),
    "/v1/hints/draw": _deal(12).map(
        lambda cards: {"variant": "gin", "hand": cards[:10], "discard_top": cards[10],
                       "seen": cards[11:]}),
    "/v1/layoffs": st.tuples(st.sampled_from(["gin", "rummy500", "rommy"]), _deal(7, FREE)).map(
        lambda t: {"variant": t[0], "hand": t[1], "table": TABLE_MELDS}),
    "/v1/hints/pile": st.tuples(st.sampled_from(["rummy500", "rommy"]), _deal(10, FREE)).map(
        lambda t: {"variant": t[0], "hand": t[1][:6], "table": TABLE_MELDS,
                   "discard_pile": t[1][6:]}),
    "/v1/score/round": _deal(20).map(
        lambda cards: {"variant": "rummy500", "players": [
            {"hand": cards[:7]}, {"hand": cards[7:14]}, {"hand": cards[14:]}]}),
    "/v1/advise": st.tuples(_deal(14), st.booleans(), st.integers(2, 6), EVENTS, LEVELS).map(
        lambda t: {"hand": t[0][:10], "upcard": t[0][10], "level": t[4],
                   "history": [{"player": 0, "action": "pass"}, *t[3][:4]]} if t[1] else
        {"game": "indian13", "hand": t[0][:13], "upcard": t[0][13], "wild_rank": "7H",
         "players": t[2], "dealer": t[2] - 1, "level": t[4], "history": t[3][:3]}),
}
SEEN: Counter[tuple[str, int]] = Counter()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(FUZZ_SETTINGS), raise_server_exceptions=False) as test_client:
        yield test_client


@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(sorted(PAYLOADS)).flatmap(
    lambda path: st.tuples(st.just(path), PLAUSIBLE[path] | PAYLOADS[path] | json_values)))
def _fuzz_once(client: TestClient, case: tuple[str, Any]) -> None:
    path, payload = case
    status = _post_json(client, path, payload)
    SEEN[(path, status)] += 1
    assert status < 500, case


def test_fuzzed_play_payloads_never_get_a_5xx(client: TestClient, capsys: Any) -> None:
    SEEN.clear()
    _fuzz_once(client)
    lines = [f"API play fuzz: {sum(SEEN.values())} requests"] + [
        f"  {path:18} {status}: {count}" for (path, status), count in sorted(SEEN.items())
    ]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert all(status < 500 for _, status in SEEN)
    assert 200 in {status for _, status in SEEN}
