"""Smoke run of ``benchmarks``: a few hands per suite, correctness only.

Never asserts on time: every answer must validate, the two engines must agree
where both proved optimality, and every hand must be proved optimal (with a
generous time limit, so a slow CI machine cannot turn this into a timing test).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmarks.__main__ import SMOKE_HANDS, correctness_problems, main, run
from benchmarks.speed.anchors import KNOWN_HAND, to_openspiel
from benchmarks.speed.runner import SEARCH_ENGINES, check_solution, engine_available, load_validator
from benchmarks.speed.suites import SUITES, generate, preset_deck, wild_cards
from solver import solve
from solver.cards import JOKER, parse_card, parse_cards

GENEROUS_LIMIT_MS = 30_000


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return run(n=SMOKE_HANDS, engines=SEARCH_ENGINES, time_limit_ms=GENEROUS_LIMIT_MS, progress=None)


def _available_engines() -> list[str]:
    return [e for e in SEARCH_ENGINES if engine_available(e) is None]


def test_every_suite_and_engine_runs(results: dict[str, Any]) -> None:
    assert [s["suite"] for s in results["suites"]] == list(SUITES)
    for suite in results["suites"]:
        assert sorted(suite["engines"]) == sorted(_available_engines())
        for summary in suite["engines"].values():
            assert summary["n"] == SMOKE_HANDS


def test_every_answer_validates(results: dict[str, Any]) -> None:
    validated = load_validator() is not None
    for suite in results["suites"]:
        for engine, summary in suite["engines"].items():
            assert summary["validated"] == validated
            assert summary["invalid"] == 0, (suite["suite"], engine, summary["problems"])


def test_engines_agree(results: dict[str, Any]) -> None:
    both = len(_available_engines()) == len(SEARCH_ENGINES)
    for suite in results["suites"]:
        assert suite["disagreements"] == 0, suite["disagreement_list"]
        if both:
            assert suite["compared"] == SMOKE_HANDS


def test_every_hand_is_proved_optimal(results: dict[str, Any]) -> None:
    for suite in results["suites"]:
        for engine, summary in suite["engines"].items():
            assert summary["optimal_share"] == 1.0, (suite["suite"], engine)
    assert correctness_problems(results) == []
    assert results["correct"]


@pytest.mark.parametrize("name", list(SUITES))
def test_generators_are_seeded_and_deal_from_the_real_deck(name: str) -> None:
    suite = SUITES[name]
    cases = generate(name, 20)
    assert cases == generate(name, 20)
    assert cases != generate(name, 20, seed=1)
    deck = Counter(preset_deck(suite.rules))
    for case in cases:
        cards = parse_cards(list(case.hand))
        assert len(cards) == suite.cards
        assert not Counter(cards) - deck, case
        if suite.variant.startswith("indian"):
            assert case.wild_rank is not None
            if case.wild_rank != "JK" and suite.rules.neighbour_jokers:
                parse_card(case.wild_rank)  # a full cut card such as "7H"
        else:
            assert case.wild_rank is None
        if name.endswith("dense_wilds"):
            assert case.wild_rank is not None and case.wild_rank != "JK"
            cut = parse_card(case.wild_rank if len(case.wild_rank) == 2 else case.wild_rank + "S")
            wild = wild_cards(suite.rules, cut)
            assert sum(c in wild or c == JOKER for c in cards) >= 4, case


def test_check_solution_flags_a_wrong_answer() -> None:
    validator = load_validator()
    if validator is None:
        pytest.skip("solver.validate not available yet")
    suite = SUITES["gin10"]
    case = generate("gin10", 1)[0]
    solution = solve(list(case.hand), "gin")
    assert check_solution(solution, case, suite, validator) == []
    wrong = dataclasses.replace(solution, deadwood_points=solution.deadwood_points + 1)
    assert check_solution(wrong, case, suite, validator)
    assert check_solution(solution, case, SUITES["gin11"], validator)  # no discard chosen


def test_openspiel_card_mapping() -> None:
    # OpenSpiel orders suits s c d h; ours are S H D C.
    assert to_openspiel(parse_cards(KNOWN_HAND)) == [0, 1, 2, 45, 32, 19, 38, 50, 16, 8]


def test_command_line_smoke_run(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    assert main(["--smoke", "--suite", "gin10", "rommy7", "--engine", "search",
                 "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert [s["suite"] for s in data["suites"]] == ["gin10", "rommy7"]
    assert data["correct"] is True


def test_contract_suite_cycles_the_seven_rounds() -> None:
    cases = generate("contract12", 14)
    assert [case.overrides() for case in cases[:7]] == [{"contract_round": r} for r in range(1, 8)]
    assert cases[7].overrides() == {"contract_round": 1}
    body = cases[2].payload(SUITES["contract12"])
    assert body["rules"] == {"contract_round": 3} and body["discard"] is True
    assert generate("kalooki14", 1)[0].overrides() is None


def test_check_solution_validates_with_the_hands_rules() -> None:
    validator = load_validator()
    if validator is None:
        pytest.skip("solver.validate not available yet")
    suite = SUITES["contract12"]
    for case in generate("contract12", 7):
        solution = solve(list(case.hand), "contract", discard=True, rules=case.overrides())
        assert check_solution(solution, case, suite, validator) == []


def test_hint_suites_answer_correctly() -> None:
    from benchmarks.speed.hints import HINT_SUITES, run_hints

    hints = run_hints(n=2, min_n=0, time_limit_ms=GENEROUS_LIMIT_MS)
    assert [r["suite"] for r in hints["runs"]] == list(HINT_SUITES)
    for run_ in hints["runs"]:
        assert run_["n"] == 2 and run_["optimal"] == 2, run_["suite"]
        assert run_["invalid"] == 0, run_["problems"]


def test_hint_checks_flag_a_wrong_hint() -> None:
    from benchmarks.speed.hints import HINT_SUITES, call_hint, check_discard, check_draw, generate_hints

    rng = random.Random(1)
    for name, checker in (("hints_gin_draw", check_draw), ("hints_indian13_draw", check_draw),
                          ("hints_gin_discard", check_discard)):
        suite = HINT_SUITES[name]
        case = generate_hints(name, 1)[0]
        hint = call_hint(suite, case, GENEROUS_LIMIT_MS)
        assert checker(suite, case, hint, rng) == []
        if suite.kind == "draw":
            wrong = dataclasses.replace(hint, take_value=hint.take_value + 1)
        else:
            first = dataclasses.replace(hint.options[0], value=hint.options[0].value + 1)
            wrong = dataclasses.replace(hint, options=(first, *hint.options[1:]))
        assert checker(suite, case, wrong, rng), name


def test_overrides_suite_keeps_the_presets_answers() -> None:
    from benchmarks.speed.overrides import run_overrides

    found = run_overrides(n=3, distinct=4)
    assert found["invalid"] == 0, found["problems"]
    assert set(found["modes"]) == {"plain", "same", "different"}
    assert len(found["cache_growth"]["snapshots"]) == 4


def test_command_line_smoke_run_with_hints_and_overrides(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    assert main(["--smoke", "--suite", "contract12", "kalooki14", "hints_gin_discard",
                 "--engine", "search", "--overrides", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert [s["suite"] for s in data["suites"]] == ["contract12", "kalooki14"]
    assert [r["suite"] for r in data["hints"]["runs"]] == ["hints_gin_discard"]
    assert data["hints"]["runs"][0]["n"] == SMOKE_HANDS
    assert data["overrides"]["invalid"] == 0
    assert data["correct"] is True
