"""The review's answers and report at tables of more than two players, and the
figures a user reads off them.

What is checked: the text report (``rummy-solver review``) writes a loss the
deals turned into a gain with its sign, once; each seat's split as the answer
writes it adds up, result = edge + skill + luck + rest, to the last decimal
written (three players, Indian rummy), and as the report writes it, to one
decimal."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from api.shared.reports import format_review
from solver.errors import InvalidStateError
from solver.review import review
from solver.review.review import Review, Split
from solver.review.selfplay import at_random, follow, play

GIN_HAND = Path(__file__).resolve().parent.parent / "docs" / "examples" / "gin-hand.json"


def _gin_review() -> Review:
    return review(json.loads(GIN_HAND.read_text(encoding="utf-8")), level="novice",
                  time_limit_ms=60_000)


def test_the_report_writes_a_negative_loss_as_a_gain() -> None:
    answer = _gin_review()
    judged = list(answer.decisions)
    judged[2] = dataclasses.replace(judged[2], label="good", loss=-3.8, points_lost=-3.8)
    judged[3] = dataclasses.replace(judged[3], label="mistake", loss=3.3, points_lost=3.3)
    report = format_review(dataclasses.replace(answer, decisions=tuple(judged)))
    rows = [line for line in report.splitlines() if "[good" in line or "[mistake" in line]
    assert any("[good +3.8]" in row for row in rows), rows
    assert any("[mistake -3.3]" in row for row in rows), rows
    assert "--" not in report


def _adds_up(split: dict[str, float]) -> bool:
    """The written figures add up (in thousandths: the decimals written)."""
    terms = (split["edge"], split["skill"], split["luck"], split["rest"])
    return round(1000 * split["result"]) == sum(round(1000 * t) for t in terms)


def test_a_split_as_written_adds_up() -> None:
    record = play("indian13", [follow, at_random, follow], seed=0, players=["a", "b", "c"])
    answer = review(record, seed=0, time_limit_ms=60_000).to_dict()
    assert len(answer["split"]) == 3
    assert all(_adds_up(split) for split in answer["split"]), answer["split"]
    # each term rounds on its own: the rest is what the written terms leave
    split = Split(0, result=0.0, edge=0.0, skill=0.0004, luck=0.0004, rest=-0.0008, noise=1.0)
    assert split.to_dict()["rest"] == 0.0 and _adds_up(split.to_dict())


def test_the_reports_split_adds_up_as_shown() -> None:
    answer = _gin_review()
    split = (Split(0, result=0.0, edge=0.0, skill=0.04, luck=0.04, rest=-0.08, noise=1.0),
             Split(1, result=-110.0, edge=0.0, skill=-54.64, luck=55.54, rest=-110.9, noise=1.0))
    report = format_review(dataclasses.replace(answer, split=split))
    shown = re.findall(r"result ([-+][0-9.]+) = edge ([-+][0-9.]+) \+ skill ([-+][0-9.]+) \+ "
                       r"luck ([-+][0-9.]+) \+ rest ([-+][0-9.]+)", report)
    assert len(shown) == 2
    for figures in shown:
        result, *terms = (round(10 * float(f)) for f in figures)
        assert result == sum(terms), figures


def test_a_match_score_on_a_record_of_another_game_is_refused_by_name() -> None:
    """``score`` and ``target`` are gin's: at three players a score of three
    numbers or of two, and a target alone, are all refused as not the
    game's fields (a score of two was refused as one number short, and a
    target was dropped without a word)."""
    data = play("indian13", [follow] * 3, seed=1, level="novice").to_dict()
    for name, value in (("score", [0, 0, 0]), ("score", [0, 0]), ("target", 200)):
        with pytest.raises(InvalidStateError) as caught:
            review({**data, name: value}, time_limit_ms=1_000)
        assert caught.value.code == "field_not_for_game" and caught.value.loc == (name,)
        assert f"{name} is not a field of indian13" in caught.value.message
