"""solver.review.summary: a player's figures added up across reviews, by its id."""

from __future__ import annotations

from solver.review import review
from solver.review.review import Totals
from solver.review.summary import Summaries
from tests.test_review_record import GIN


def test_totals_read_back_and_add_up() -> None:
    answer = review(GIN, seed=3, level="novice", time_limit_ms=60_000).to_dict()
    ann = answer["players"][0]
    totals = Totals.from_dict(ann)
    assert totals.to_dict() == {k: v for k, v in ann.items()
                                if k not in ("seat", "player", "worst", "errors")}
    twice = Totals()
    twice.add(totals)
    twice.add(totals)
    figures = twice.to_dict()
    assert figures["hands"] == 2 and figures["decisions"] == 2 * ann["decisions"]
    assert figures["accuracy"] == ann["accuracy"]
    assert figures["luck"]["total"] == round(2 * ann["luck"]["total"], 6)


def test_summaries_key_players_by_id_and_skip_other_answers() -> None:
    answer = review(GIN, seed=3, level="novice", time_limit_ms=60_000).to_dict()
    summaries = Summaries()
    assert summaries.add(answer) and summaries.add(answer)
    assert not summaries.add({"deadwood_points": 3})
    out = summaries.to_dict()
    assert out["reviews"] == 2 and list(out["players"]) == ["ann", "bob"]
    assert out["players"]["bob"]["games"] == {"gin": 2}
    assert out["players"]["bob"]["hands"] == 2
