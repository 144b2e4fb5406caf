"""A lay-down review's losses come from a check on fresh deals, not from the search's own gap.

The search's best is the move its deals favoured most, and a move it
dropped was dropped on the deals that looked worst for it, so its gap
between the two leans its way: a player who plays exactly as the review's
own level would is charged points on average.  With ``ReviewParams.checks``
the played move and the best are played again on fresh deals, both on
every one (``Game.compare``), and that gap is the loss.  Checked here: a
follower of the review's level loses nothing beyond the noise under the
check, where the search's own gaps charge it clearly; the check's figures
are the compare's of both moves on the decision's check seed; a compare
plays legal moves only, on the deals of its seed; gin, whose decisions are
played only inside its search, keeps its checks at 0."""

from __future__ import annotations

import math
import statistics
from dataclasses import replace

import pytest

from solver.deadline import Deadline
from solver.errors import InvalidStateError
from solver.play import GAMES
from solver.play.advice import Move
from solver.play.words import DISCARD
from solver.review import REVIEW_PARAMS, Record, review
from solver.review.review import CHECK_OFFSET, decision_seed, move_key
from solver.review.selfplay import at_random, follow, play
from solver.review.table import request_for, walk
from tests.review_memo import advised_once

NO_CHECKS = replace(REVIEW_PARAMS, checks=tuple((game, 0) for game, _ in REVIEW_PARAMS.checks))


def _follower_losses(records: list[Record], params: object) -> list[float]:
    lost = []
    for seed, record in enumerate(records):
        # no deadline: the default one ran out on a loaded CI run (the figures
        # are the seed's whatever the time; only completeness is at stake)
        answer = review(record, seed=seed + 100, params=params,  # type: ignore[arg-type]
                        deadline=Deadline.never())
        assert answer.complete
        lost += [j.points_lost for j in answer.decisions
                 if j.points_lost is not None and not j.forced]
    return lost


def test_a_follower_of_the_review_level_loses_nothing_beyond_the_noise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the same three games reviewed both ways (each was played twice, once a review),
    # the advisor asked once a decision (tests.review_memo): the reviews differ in their checks
    advised_once(monkeypatch)
    records = [play("basic", [follow, follow], seed=seed, level="review") for seed in range(3)]
    checked = _follower_losses(records, REVIEW_PARAMS)
    searched = _follower_losses(records, NO_CHECKS)
    mean, error = statistics.mean(checked), statistics.stdev(checked) / math.sqrt(len(checked))
    assert abs(mean) < 3 * error + 0.05, (mean, error)
    # the search's own gaps charge the same player, on the same decisions, clearly
    lean = statistics.mean(searched)
    assert lean > mean + 3 * error and lean > 1.0, (lean, mean, error)


def test_the_loss_is_the_compare_of_both_moves_on_the_check_seed() -> None:
    record = play("rummy500", [follow, follow], seed=2, level="novice", max_decisions=14)
    answer = review(record, seed=5, level="novice")
    walked = walk(record)
    model = GAMES["rummy500"]
    checked = 0
    for judged in answer.decisions:
        if judged.forced or move_key(judged.played) == move_key(judged.best):
            assert judged.loss in (0.0, None) or judged.forced
            continue
        decision = walked.decisions[judged.number]
        position = model.position(request_for(record, decision.seat, decision.hand,
                                              decision.first))
        seed = (decision_seed(5, judged.number) + CHECK_OFFSET) % (2**31 - 1)
        deals = REVIEW_PARAMS.check_deals("rummy500")
        tallies = model.compare(position, model.params, seed, Deadline.never(),
                                [judged.best, judged.played], deals)
        assert tallies is not None
        best, played = tallies
        assert len(best.points) == len(played.points) == deals
        gaps = [a - b for a, b in zip(best.points, played.points, strict=True)]
        assert judged.loss == pytest.approx(statistics.mean(gaps))
        assert judged.loss_error == pytest.approx(statistics.stdev(gaps) / math.sqrt(deals))
        checked += 1
    assert checked, "no decision where the played move and the best differ"


@pytest.mark.parametrize("game", ["basic", "indian13"])
def test_compare_plays_only_legal_moves_on_the_deals_asked_for(game: str) -> None:
    record = play(game, [follow, follow], seed=1, level="novice", max_decisions=4)
    decision = walk(record).decisions[-1]
    model = GAMES[game]
    position = model.position(request_for(record, decision.seat, decision.hand, decision.first))
    advice = model.advise(position, model.params, model.levels["novice"], 0, Deadline.never())
    moves = [m.move for m in advice.moves[:2]]
    first = model.compare(position, model.params, 9, Deadline.never(), moves, 12)
    again = model.compare(position, model.params, 9, Deadline.never(), moves, 12)
    other = model.compare(position, model.params, 10, Deadline.never(), moves, 12)
    assert first is not None and again is not None and other is not None
    assert [t.move for t in first] == moves and all(len(t.points) == 12 for t in first)
    assert [t.points for t in first] == [t.points for t in again]
    assert [t.points for t in first] != [t.points for t in other]  # another seed: other deals
    absent = next(c for c in range(52) if c not in decision.hand)
    with pytest.raises(InvalidStateError) as refused:
        model.compare(position, model.params, 9, Deadline.never(),
                      [Move(DISCARD, card=absent)], 4)
    assert refused.value.code == "illegal_move"


def test_a_game_checks_only_where_its_model_compares() -> None:
    # gin's decisions are played only inside its search (plans, a judged shortlist)
    with pytest.raises(NotImplementedError):
        GAMES["gin"].compare(None, None, 0, Deadline.never(), [], 1)
    assert dict(REVIEW_PARAMS.checks)["gin"] == 0
    assert {game for game, deals in REVIEW_PARAMS.checks if deals} == \
        {"rummy500", "rommy", "basic"}


def test_checks_asked_of_a_game_that_does_not_compare_keep_the_search_gaps() -> None:
    # Game.compare: a game that compares only in its search raises NotImplementedError,
    # and its review keeps the search's gaps (it raised out of the review)
    record = play("gin", [follow, at_random], seed=1, level="novice")
    asked = replace(REVIEW_PARAMS, checks=tuple((game, 8) for game, _ in REVIEW_PARAMS.checks))
    checked = review(record, level="novice", params=asked)
    assert checked.complete and any(j.label not in ("best", None) for j in checked.decisions)
    assert checked.to_dict() == review(record, level="novice").to_dict()
