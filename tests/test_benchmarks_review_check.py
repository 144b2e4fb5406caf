"""``benchmarks.speed.review``: the luck check's interval widened by the
baseline's own error.  A seat's luck is linear in the baseline's figures;
``baseline_sensitivity`` gives the slopes, checked here against the
review itself with one figure of the baseline moved."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from benchmarks.speed.review import baseline_error, baseline_sensitivity
from solver.review import luck as luck_module
from solver.review import review
from solver.review.luck import baselines
from solver.review.selfplay import follow, play
from tests.review_memo import judged_once


def _lucks(record: Any, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[float]:
    monkeypatch.setattr(luck_module, "_table", lambda: table)
    answer = review(record, level="review", seed=1, time_limit_ms=60_000)
    return [p.totals.deal_luck + p.totals.draw_luck for p in answer.players]


@pytest.mark.parametrize("seed", [1, 3, 7, 8])  # seat 0 exact; seat 1 never decides; both; neither
def test_the_slopes_are_how_each_seats_luck_moves_with_the_baseline(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    record = play("indian13", [follow, follow], seed=seed, level="novice", dealer=1)
    judged_once(monkeypatch)  # the seven reviews judge alike: each decision judged once
    table = baselines()
    answer = review(record, level="review", seed=1, time_limit_ms=60_000)
    slopes = baseline_sensitivity(answer, dealer=1, players=2)
    before = _lucks(record, table, monkeypatch)
    for figure, position in (("result", 0), ("result", 1), ("hope", 0), ("hope", 1), ("per_draw", 0)):
        moved = copy.deepcopy(table)
        entry = moved["indian13"]["review"]["2"]
        if figure == "per_draw":
            entry[figure] += 1.0
        else:
            entry[figure][position] += 1.0
        after = _lucks(record, moved, monkeypatch)
        for seat in (0, 1):
            assert after[seat] - before[seat] == pytest.approx(
                slopes[seat].get((figure, position), 0.0), abs=1e-6), (figure, position, seat)


def test_the_baseline_error_counts_each_figure_once() -> None:
    entry = baselines()["indian21"]["review"]["2"]
    # a seat that always decides with an estimate: its mean result and its hope
    error = baseline_error("indian21", "review", 2, {("result", 0): -1.0, ("hope", 0): -1.0})
    assert error == pytest.approx((entry["result_interval"][0] ** 2
                                   + entry["hope_interval"][0] ** 2) ** 0.5)
    # two players' mean results are one figure: credited the other's, it cancels
    assert baseline_error("indian21", "review", 2, {("result", 0): -0.5, ("result", 1): -0.5}) \
        == pytest.approx(0.0)
    assert baseline_error("indian21", "review", 6, {("result", 0): -1.0}) == 0.0  # none measured
