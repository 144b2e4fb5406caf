"""solver.session: which engine answers.

* A ``solve()`` whose overrides equal a preset's values takes the preset's
  quick path, like a call without overrides (the path taken is observed, not
  the time); the quick path answers what the general path answers.
* ``engine="auto"``: the search on a share of the deadline and of its work
  budget, CP-SAT past it with the work left, never an answer worse than the
  search's; CP-SAT is not loaded cold without ``CPSAT_IMPORT_MS`` left, nor
  started without ``CPSAT_MIN_MS``.  The engines are replaced by fakes here,
  so each rule is checked on its own.
* The bitmask engine answers before any search is built; a session of many
  hands answers at once when out of time.
* The modules that used to choose an engine themselves now only ask the session.
"""

from __future__ import annotations

import ast
import importlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from solver import solve
from solver.cards import card_name, parse_cards
from solver.config import CONFIG
from solver.deadline import NODES_PER_MS, Deadline, DeadlineExceeded
from solver.engines.base import INFEASIBLE, BudgetExceeded, EngineResult, Instance
from solver.quick import QuickPath, quick_path
from solver.results import Status
from solver.rules import PRESETS, make_deal, make_rules
from solver.solve import prepare

session = importlib.import_module("solver.session")
ROOT = Path(__file__).resolve().parent.parent


def _gin_hands(count: int, size: int = 10, seed: str = "session") -> list[list[str]]:
    rng = random.Random(seed)
    return [[card_name(c) for c in rng.sample(range(52), size)] for _ in range(count)]


@pytest.fixture
def paths(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts the calls answered by the quick path and those run by an engine."""
    taken = {"quick": 0, "engine": 0}
    quick_solve = QuickPath.solve
    run_engine = session.run_engine

    def counted_quick(self: QuickPath, hand: Any, discard: bool) -> Any:
        taken["quick"] += 1
        return quick_solve(self, hand, discard)

    def counted_engine(*args: Any, **kwargs: Any) -> Any:
        taken["engine"] += 1
        return run_engine(*args, **kwargs)

    monkeypatch.setattr(QuickPath, "solve", counted_quick)
    monkeypatch.setattr(session, "run_engine", counted_engine)
    return taken


# ---------------------------------------------------------------------------
# The quick path


@pytest.mark.parametrize(("variant", "overrides"), [
    ("gin", {"knock_limit": 10}),                 # the gin preset's own value
    ("gin", {"knock_limit": 10, "decks": 1}),
    ("gin", {}),
    ("basic", {"ace": PRESETS["basic"].ace}),
])
def test_overrides_equal_to_the_preset_take_the_quick_path(
        variant: str, overrides: dict[str, Any], paths: dict[str, int]) -> None:
    assert make_rules(variant, overrides) is PRESETS[variant]
    for hand in _gin_hands(20):
        for engine in ("auto", "search"):
            with_rules = solve(hand, variant, rules=overrides, engine=engine)
            assert with_rules == solve(hand, variant, engine=engine)
    assert paths == {"quick": 80, "engine": 0}


def test_other_overrides_and_engines_take_the_general_path(paths: dict[str, int]) -> None:
    # OR-Tools loaded first: a process that has not imported it yet gives a
    # short deadline's CP-SAT call to the search (one engine call more), so
    # the count would depend on which tests ran before in this process
    importlib.import_module("solver.engines.cpsat")
    hand = _gin_hands(1)[0]
    solve(hand, "gin", rules={"knock_limit": 5})
    solve(hand, "gin", rules={"knock_limit": 5})  # the session's answer per request is kept too
    solve(hand, "gin", engine="cpsat")
    assert paths == {"quick": 0, "engine": 2 + 1}


def test_a_request_seen_before_is_still_checked_when_bad(paths: dict[str, int]) -> None:
    from solver import InvalidRulesError

    for _ in range(2):  # bad requests are never kept
        with pytest.raises(InvalidRulesError):
            solve("AS 2S 3S", "gin", rules={"knock_limit": True})
        with pytest.raises(InvalidRulesError):
            solve("AS 2S 3S", "gin", rules={"knock_limit": -1})
    assert solve("AS 2S 3S", "gin", rules={"knock_limit": 1}).deadwood_points == 0
    with pytest.raises(InvalidRulesError):  # True == 1, yet a different request
        solve("AS 2S 3S", "gin", rules={"knock_limit": True})


@pytest.mark.parametrize("variant", ["gin", "basic"])
def test_the_quick_path_answers_what_the_general_path_answers(variant: str) -> None:
    quick = quick_path(variant)
    assert quick is not None
    rng = random.Random(f"general-{variant}")
    for i in range(300):
        size = rng.choice([1, 3, 7, 10, 11, 16, 22])
        hand = [card_name(c) for c in rng.sample(range(52), size)]
        discard = i % 3 == 0
        fast = quick.solve(hand, discard)
        if fast is None:
            continue
        instance = prepare(hand, variant, None, discard, None)
        general = session.Session(instance.deal, Deadline.never(), "search").answer(instance)
        assert fast == general, hand


# ---------------------------------------------------------------------------
# engine="auto", with fake engines


HAND = "7S 7H 7D 7C 6H 8H JK JK AS 3S 5S 9S 2H TH KH 4D JD QD 3C 9C 5C 8C"


def _instance() -> Instance:
    return prepare(HAND, "indian21", "7H", True, None)


def _result(cost: int, optimal: bool, pass_name: str = "declare") -> EngineResult:
    status: Status = "optimal" if optimal else "feasible"
    return EngineResult((), (), None, cost, pass_name, status, optimal)


class FakeEngines:
    """Stands in for the search and CP-SAT: records what each was given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, search: Callable[[Deadline], EngineResult],
                 cpsat: Callable[..., EngineResult] | None, loaded: bool = True) -> None:
        self.search_deadlines: list[Deadline] = []
        self.cpsat_calls: list[dict[str, Any]] = []
        cpsat_module = importlib.import_module("solver.engines.cpsat")

        def fake_search(instance: Instance, node_budget: int, deadline: Deadline,
                        passes: Any = None) -> EngineResult:
            self.search_deadlines.append(deadline)
            return search(deadline)

        def fake_cpsat(instance: Instance, **kwargs: Any) -> EngineResult:
            self.cpsat_calls.append(kwargs)
            if cpsat is None:
                raise AssertionError("CP-SAT must not run here")
            return cpsat(**kwargs)

        monkeypatch.setattr(session, "solve_search", fake_search)
        monkeypatch.setattr(cpsat_module, "solve_cpsat", fake_cpsat)
        monkeypatch.setattr(session, "cpsat_loaded", lambda: loaded)


def test_auto_answers_the_search_when_it_proves_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    engines = FakeEngines(monkeypatch, lambda _: _result(50, True), None)
    result, engine = session.run_engine(_instance(), "auto", Deadline.after_ms(2000))
    assert (result.cost, result.optimal, engine) == (50, True, "search")
    assert not engines.cpsat_calls


def test_auto_gives_the_search_a_share_and_cpsat_the_work_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def search(share: Deadline) -> EngineResult:
        share.work.spend(10_000)  # charged to the request's budget too
        return _result(50, False)

    engines = FakeEngines(monkeypatch, search, lambda **_: _result(40, True))
    deadline = Deadline.after_ms(2000)
    result, engine = session.run_engine(_instance(), "auto", deadline)
    assert (result.cost, engine) == (40, "cpsat")
    share = engines.search_deadlines[0]
    assert share.work.parent is deadline.work
    assert share.remaining_ms() <= min(1000, CONFIG.auto_search_ms)
    [call] = engines.cpsat_calls
    assert call["hint"].cost == 50  # warm-started with the search's best
    assert call["work_s"] == pytest.approx((2000 * NODES_PER_MS - 10_000) / NODES_PER_MS / 1000)


@pytest.mark.parametrize("cpsat", [
    lambda **_: _result(50, False),   # no better, not proved
    lambda **_: _result(60, False),   # worse (cannot happen: it is given the hint; still)
])
def test_auto_never_answers_worse_than_the_search_had(
        monkeypatch: pytest.MonkeyPatch, cpsat: Callable[..., EngineResult]) -> None:
    FakeEngines(monkeypatch, lambda _: _result(50, False), cpsat)
    result, engine = session.run_engine(_instance(), "auto", Deadline.after_ms(2000))
    assert result.cost <= 50
    if result.cost == 50:
        assert engine == "search"


def test_auto_keeps_the_search_answer_when_cpsat_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def late(**_: Any) -> EngineResult:
        raise DeadlineExceeded

    FakeEngines(monkeypatch, lambda _: _result(50, False), late)
    result, engine = session.run_engine(_instance(), "auto", Deadline.after_ms(2000))
    assert (result.cost, engine) == (50, "search")


def test_auto_falls_back_to_cpsat_when_the_search_finds_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(_: Deadline) -> EngineResult:
        raise BudgetExceeded

    engines = FakeEngines(monkeypatch, nothing, lambda **_: _result(70, True))
    result, engine = session.run_engine(_instance(), "auto", Deadline.after_ms(2000))
    assert (result.cost, engine) == (70, "cpsat")
    assert engines.cpsat_calls[0]["hint"] is None


def test_engine_search_never_starts_cpsat(monkeypatch: pytest.MonkeyPatch) -> None:
    FakeEngines(monkeypatch, lambda _: _result(50, False), None)
    result, engine = session.run_engine(_instance(), "search", Deadline.after_ms(2000))
    assert (result.cost, engine) == (50, "search")


def test_engine_search_out_of_time_keeps_every_card(monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(_: Deadline) -> EngineResult:
        raise BudgetExceeded

    FakeEngines(monkeypatch, nothing, None)
    result, engine = session.run_engine(_instance(), "search", Deadline.after_ms(2000))
    assert (result.status, result.cost, engine) == ("timeout", INFEASIBLE, "search")
    assert len(result.deadwood) == len(parse_cards(HAND)) - 1 and result.discard is not None


# ---------------------------------------------------------------------------
# The CP-SAT import guard and minimum time


def test_cpsat_is_not_loaded_cold_without_the_time_to_load_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engines = FakeEngines(monkeypatch, lambda _: _result(50, False), None, loaded=False)
    deadline = Deadline.after_ms(session.CPSAT_IMPORT_MS / 2)
    result, engine = session.run_engine(_instance(), "auto", deadline)
    assert (result.cost, engine) == (50, "search")
    # the search got the whole deadline, not auto's share
    assert engines.search_deadlines[0] is deadline


def test_cpsat_by_name_without_the_time_to_load_runs_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engines = FakeEngines(monkeypatch, lambda _: _result(50, True), None, loaded=False)
    result, engine = session.run_engine(_instance(), "cpsat",
                                        Deadline.after_ms(session.CPSAT_IMPORT_MS / 2))
    assert (result.cost, engine) == (50, "search")
    assert len(engines.search_deadlines) == 1


def test_cpsat_is_loaded_when_there_is_time(monkeypatch: pytest.MonkeyPatch) -> None:
    engines = FakeEngines(monkeypatch, lambda _: _result(50, False), lambda **_: _result(40, True),
                          loaded=False)
    result, engine = session.run_engine(_instance(), "auto",
                                        Deadline.after_ms(session.CPSAT_IMPORT_MS * 3))
    assert (result.cost, engine) == (40, "cpsat")
    assert len(engines.cpsat_calls) == 1


def test_cpsat_is_not_started_without_its_minimum_time(monkeypatch: pytest.MonkeyPatch) -> None:
    FakeEngines(monkeypatch, lambda _: _result(50, False), None)
    result, engine = session.run_engine(_instance(), "cpsat",
                                        Deadline.after_ms(session.CPSAT_MIN_MS / 4))
    assert (result.cost, engine) == (50, "search")


# ---------------------------------------------------------------------------
# The bitmask engine and sessions of many hands


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("no search may be built")

    monkeypatch.setattr(session, "SearchSession", refuse)


def test_the_bitmask_engine_answers_before_any_search(no_search: None) -> None:
    # gin with the ace high and low: not the preset (no quick path), still one
    # deck without wild cards
    for engine in ("auto", "search"):
        solution = solve("QH KH AH AS 2S 3S 9C 9D 9S 4D", "gin", rules={"ace": "high_low"},
                         engine=engine)
        assert (solution.deadwood_points, solution.optimal, solution.engine) == (4, True, "search")


def test_a_session_of_many_hands_answers_at_once_out_of_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    deal = make_deal(PRESETS["indian13"], "7")
    spent = Deadline.after_ms(1)
    spent.work.spend(10**9)
    hands = session.Session(deal, spent, "search", wild_cap=2)

    def refuse(*args: Any) -> None:
        raise AssertionError("out of time: no search")

    monkeypatch.setattr(hands._searches, "solve", refuse)
    cards = parse_cards("3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C")
    result, engine = hands.result(hands.instance(cards, True))
    assert (result.status, engine) == ("timeout", "search")


def test_a_draw_out_of_time_builds_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # A draw hint asks one draw per card type (53 with jokers); with many wild
    # cards building one draw's meld rows alone costs about a millisecond, so
    # once the deadline is spent each draw must answer at once (it overran a
    # 5 ms hint by 40 to 90 ms and made the service answer 503 unavailable).
    deal = make_deal(make_rules("rummy500", {"decks": 8, "jokers_per_deck": 4}), None)
    spent = Deadline.after_ms(1)
    spent.work.spend(10**9)
    hands = session.Session(deal, spent, "search", wild_cap=8)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("out of time: no draw searched")

    assert hands._draws is not None
    monkeypatch.setattr(hands._draws, "draw_value", refuse)
    cards = sorted(parse_cards("JK JK JK 5H 6H 8H 9S 9D QC QC 2D 3D 4S"))
    assert hands.draw_cost(cards, parse_cards("JK")[0]) == (INFEASIBLE, None, False)


def test_a_session_of_many_hands_runs_the_search_only() -> None:
    deal = make_deal(PRESETS["indian13"], "7")
    with pytest.raises(ValueError, match="search"):
        session.Session(deal, Deadline.never(), "auto", wild_cap=2)


# ---------------------------------------------------------------------------
# One place chooses


def _imports(module: str) -> Iterator[str]:
    path = ROOT / (module.replace(".", "/") + ".py")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


@pytest.mark.parametrize("module", ["solver.solve", "solver.hints", "solver.gin",
                                    "solver.layoffs", "solver.round_scoring"])
def test_callers_ask_the_session_and_run_no_engine(module: str) -> None:
    engines = {name for name in _imports(module)
               if name.startswith("solver.engines.") and not name.startswith("solver.engines.base")}
    assert not engines, f"{module} imports {sorted(engines)}: ask solver.session instead"
