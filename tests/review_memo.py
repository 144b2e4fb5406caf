"""Each decision of a record judged (or advised) once by the tests that
review it again with only the luck's baseline (or the checks) changed.

A review judges each decision (the advisor's search at the review's seed
and level: seconds a record) before it reads any baseline, so reviews of
one record that differ only in the baseline judge every decision alike;
``judged_once`` keeps the first judgement of each and hands it to the
reviews that follow.  The rest of each review still runs: the record read
and walked, the players' totals, luck and split against its baseline.

Reviews that differ in their checks (``ReviewParams.checks``) judge apart,
but ask the advisor alike: ``advised_once`` keeps its answer at each
decision (the search at the decision's seed, with the same advisor
parameters and level), and each review still makes its own checks, losses,
labels and totals from it.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.play.advice import Advice
from solver.review.review import Judged, _Judge
from solver.review.table import Decision

Kept = dict[tuple[Any, ...], Judged | None]
"""Judgements by record, seed, level, parameters and decision."""


def judged_once(monkeypatch: pytest.MonkeyPatch, kept: Kept | None = None) -> Kept:
    """``_Judge.judge`` remembering its answers in ``kept`` (a new dict by
    default; pass one to share it between tests), for as long as
    ``monkeypatch`` lasts."""
    kept = {} if kept is None else kept
    judge = _Judge.judge

    def once(self: _Judge, number: int, decision: Decision) -> Judged | None:
        key = (self.record, self.seed, self.level.name, id(self.params), number, decision)
        if key not in kept:
            kept[key] = judge(self, number, decision)
        return kept[key]

    monkeypatch.setattr(_Judge, "judge", once)
    return kept


def advised_once(monkeypatch: pytest.MonkeyPatch, kept: dict[tuple[Any, ...], Advice] | None = None
                 ) -> dict[tuple[Any, ...], Advice]:
    """``_Judge.advise`` remembering its answers in ``kept`` (see
    ``judged_once``), by record, seed, level, advisor parameters, decision
    and whether the played move is asked to be considered."""
    kept = {} if kept is None else kept
    advise = _Judge.advise

    def once(self: _Judge, decision: Decision, number: int, consider: bool) -> Advice:
        key = (self.record, self.seed, self.level, self.advisor_params, number, decision,
               consider)
        if key not in kept:
            kept[key] = advise(self, decision, number, consider)
        return kept[key]

    monkeypatch.setattr(_Judge, "advise", once)
    return kept
