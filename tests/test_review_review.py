"""solver.review.review: each decision judged against the advisor's best.

What is checked: every move the review names best is legal (the arena's
referee of the game plays it, sharing no rules with the advisor); the same
seed gives the same review; a player that follows the advisor loses about
nothing per decision while one that plays any listed move loses clearly
more; a label needs a loss beyond the noise; the review is anytime; the
split of a hand's result adds up; a gin reply is valued exactly."""

from __future__ import annotations

import re

import pytest

from benchmarks.arena.gin import melds as oracle
from solver.errors import SolverInputError
from solver.play.gin.hands import mask_of
from solver.play.words import DISCARD
from solver.review import REVIEW_PARAMS, Record, read_record, review
from solver.review.review import Review, label_of
from solver.review.selfplay import at_random, follow, play
from tests.review_arena import replay

GIN_HANDS = 3


@pytest.fixture(scope="module")
def gin_games() -> list[tuple[Record, Review]]:
    """Gin hands between a follower of the advisor (seat 0) and a player
    that makes any move the advisor lists (seat 1), reviewed."""
    games = []
    for seed in range(GIN_HANDS):
        record = play("gin", [follow, at_random], seed=seed, level="review",
                      players=["follower", "random"])
        games.append((record, review(record, seed=seed, time_limit_ms=60_000)))
    return games


def test_every_best_move_is_legal_by_the_gin_referee(
        gin_games: list[tuple[Record, Review]]) -> None:
    for record, answer in gin_games:
        assert answer.complete
        replay(record, {j.number: j.best for j in answer.decisions})


def _best_moves_are_legal(game: str, seed: int, decisions: int) -> None:
    # two followers play Indian deals out to a show (a random player drops early)
    policies = [follow, follow] if game.startswith("indian") else [follow, at_random]
    record = play(game, policies, seed=seed, level="novice", max_decisions=decisions)
    answer = review(record, seed=1, level="novice", time_limit_ms=60_000)
    assert answer.complete and answer.decisions
    replay(record, {j.number: j.best for j in answer.decisions})


@pytest.mark.parametrize("game", ["indian13", "rummy500"])
def test_every_best_move_is_legal_by_the_games_referee(game: str) -> None:
    _best_moves_are_legal(game, 3, 12)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["indian13", "indian21", "rummy500", "rommy", "basic"])
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_every_best_move_of_whole_games_is_legal_by_the_games_referee(game: str,
                                                                      seed: int) -> None:
    _best_moves_are_legal(game, seed, 400)


def test_the_same_seed_gives_the_same_review(gin_games: list[tuple[Record, Review]]) -> None:
    whole, _ = gin_games[0]
    record = read_record({**whole.to_dict(), "events": whole.to_dict()["events"][:10]})
    first = review(record, seed=7, time_limit_ms=60_000)
    assert first.complete and first.ending == "unfinished"
    assert review(record, seed=7, time_limit_ms=60_000).to_dict() == first.to_dict()


def test_the_follower_loses_about_nothing_the_random_player_clearly_more(
        gin_games: list[tuple[Record, Review]]) -> None:
    lost = {0: 0.0, 1: 0.0}
    decisions = {0: 0, 1: 0}
    errors = {0: 0, 1: 0}
    for _, answer in gin_games:
        for player in answer.players:
            lost[player.seat] += player.totals.points_lost
            decisions[player.seat] += player.totals.decisions
            errors[player.seat] += sum(player.totals.labels[k] for k in
                                       ("inaccuracy", "mistake", "blunder"))
    follower, randomer = lost[0] / decisions[0], lost[1] / decisions[1]
    # the follower's loss is the review's own noise: the best of several noisy
    # estimates looks better than it is (a point or two a gin decision)
    assert follower < 2.5, follower
    assert randomer > 3.0 and randomer > 1.8 * follower, (follower, randomer)
    assert errors[1] > errors[0]


def test_a_label_needs_a_loss_beyond_the_noise() -> None:
    mistake = REVIEW_PARAMS.threshold("gin", "points", "mistake")
    assert label_of(mistake + 0.1, 0.1, "gin", "points")[0] == "mistake"
    assert label_of(mistake + 0.1, mistake, "gin", "points")[0] == "good"
    assert label_of(0.5, 0.01, "gin", "points")[0] == "good"
    label, sure = label_of(30.0, 1.0, "gin", "points")
    assert label == "blunder" and sure > 0.99


def test_the_review_is_anytime(gin_games: list[tuple[Record, Review]]) -> None:
    record, answer = gin_games[1]
    cut = review(record, seed=1, time_limit_ms=40)
    assert not cut.complete
    assert len(cut.decisions) < len(answer.decisions)
    numbers = [j.number for j in cut.decisions]
    assert numbers == list(range(len(numbers)))  # the decisions played first
    assert cut.split == ()


def test_a_time_limit_counts_from_the_call_and_the_record_is_walked_once(
        gin_games: list[tuple[Record, Review]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading and checking the record is part of the time a caller gave (a
    long record and a short limit answered 503 over HTTP when the clock
    started after two walks of it): a walk that takes longer than the limit
    leaves no decision reviewed, and the wire form is walked once (audit 5)."""
    import importlib
    import time

    module = importlib.import_module("solver.review.review")

    record, _ = gin_games[1]
    walks = []

    def slow_walk(walked: Record, replay: bool = True, deadline: object = None) -> object:
        walks.append(walked)
        time.sleep(0.06)
        return real_walk(walked, replay, deadline)

    real_walk = module.walk
    monkeypatch.setattr(module, "walk", slow_walk)
    cut = module.review_game(**record.to_dict(), seed=1, time_limit_ms=40)
    assert len(walks) == 1
    assert not cut.complete and cut.decisions == ()


def test_seats_asked_for_only(gin_games: list[tuple[Record, Review]]) -> None:
    record, _ = gin_games[2]
    answer = review(record, seats=[1], seed=2, time_limit_ms=60_000)
    assert {j.seat for j in answer.decisions} == {1}
    assert [p.player for p in answer.players] == ["random"]
    with pytest.raises(SolverInputError) as caught:
        review(record, seats=[2])
    assert caught.value.loc == ("seats", 0)
    with pytest.raises(SolverInputError) as caught:
        review(record, level="grandmaster")
    assert caught.value.code == "invalid_level"


def test_a_hands_result_splits_into_skill_luck_and_a_rest(
        gin_games: list[tuple[Record, Review]]) -> None:
    for _, answer in gin_games:
        if answer.result is None:
            continue
        assert len(answer.split) == 2
        for split in answer.split:
            assert split.result == pytest.approx(split.edge + split.skill + split.luck
                                                 + split.rest)
            assert split.noise > 0
        assert answer.split[0].skill == pytest.approx(-answer.split[1].skill)


def test_the_skill_error_is_in_points_under_a_match_score(
        gin_games: list[tuple[Record, Review]]) -> None:
    """With a match score the losses are in the chance to win the match and
    the points lost the difference of the two moves' means: the skill's
    standard error (the split's noise) is that of the points lost, in
    points, not the loss's (in chance to win, a hundred times smaller)."""
    record, _ = gin_games[1]
    answer = review(read_record({**record.to_dict(), "score": [80, 90]}), seed=1,
                    time_limit_ms=60_000)
    for player in answer.players:
        behind = [j.played_error or 0.0 for j in answer.decisions
                  if j.seat == player.seat and j.units == "match" and not j.forced
                  and j.label not in (None, "best")]
        assert behind
        assert player.skill_error >= max(behind)


def test_a_gin_reply_is_valued_exactly() -> None:
    """Bob keeps 9C QC ... as deadwood where laying 6D 7D 8D and KC off is
    best: the review says how much the reply gave away, exactly."""
    from tests.test_review_record import GIN

    answer = review(GIN, seed=1, level="novice", time_limit_ms=60_000)
    reply = answer.decisions[-1]
    assert reply.phase == "layoff" and reply.kind == "layoff"
    assert reply.loss is not None and reply.loss_error == 0.0
    assert reply.played.action == "lay_off"


@pytest.mark.parametrize("score", [None, [80, 90]])
def test_a_gin_reply_that_keeps_too_much_is_charged_its_points(score: list[int] | None) -> None:
    """Bob lays nothing off and melds nothing: 31 points more deadwood than
    the best reply, charged in points (in a match too, where the advisor
    ranks by the chance to win it: a points loss is not a chance)."""
    from tests.test_review_record import GIN

    record = {**GIN, "events": [*GIN["events"][:-1], {
        "player": 1, "action": "lay_off", "melds": [],
        "deadwood": ["6S", "6H", "8H", "AC", "9C", "QC", "6D", "7D", "8D", "KC"]}]}
    if score is not None:
        record["score"] = score
    answer = review(record, seed=1, level="novice", time_limit_ms=60_000)
    reply = answer.decisions[-1]
    assert reply.units == "points" and reply.loss == reply.points_lost == 31.0
    assert reply.label == "blunder" and reply.played_value == reply.value - 31.0
    bob = next(p for p in answer.players if p.seat == 1)
    assert bob.totals.units_lost == pytest.approx(
        sum((j.loss or 0.0) / REVIEW_PARAMS.scale("gin", j.units)
            for j in answer.decisions if j.seat == 1 and not j.forced and j.loss is not None))
    assert bob.totals.units_lost < 5.0  # 31 points is 1.55 gin units, not 155 match units


def test_a_wrong_show_is_never_the_valid_show_its_throw_names() -> None:
    """Ann's 13 cards make a valid show (3H-4H-5H pure, 4D-5D-6D-7D pure,
    9C-JK-JC, QS-7S-QD with the sevens wild) but she shows them grouped
    wrongly, throwing the KS she drew: a wrong declaration, which pays 80
    (seed 003). The review keyed a declaration by its throw alone, took it
    for the advisor's valid show throwing KS, and called it the best move,
    losing nothing."""
    record = {
        "game": "indian13", "players": ["ann", "bob"], "dealer": 1,
        "deal": {"hands": [["3H", "4H", "5H", "9C", "JK", "JC", "QS", "QD", "7S", "4D", "5D",
                            "6D", "7D"],
                           ["2S", "4S", "6S", "8S", "TS", "AH", "2H", "6H", "8H", "TH", "KH",
                            "AC", "3C"]],
                 "upcard": "2C", "wild_rank": "7H"},
        "events": [
            {"player": 0, "action": "draw_stock", "drawn": "KS"},
            {"player": 0, "action": "declare", "card": "KS",
             "melds": [["3H", "4H", "5H", "9C"], ["JK", "JC", "QS", "QD"],
                       ["7S", "4D", "5D", "6D", "7D"]]}]}
    answer = review(record, seed=1, level="novice", time_limit_ms=60_000)
    assert answer.ending == "wrong_declaration" and answer.result == (-80.0, 0.0)
    show = answer.decisions[-1]
    assert show.played.action == "declare" and show.label != "best"
    assert show.played_value == -80.0 and show.confidence == "exact"
    assert show.best.action == "declare" and show.loss == pytest.approx(show.value + 80.0)
    assert "not valid" in show.reason


def test_worst_decisions_name_the_better_move(gin_games: list[tuple[Record, Review]]) -> None:
    worst = [w for _, answer in gin_games for w in answer.players[1].worst]
    assert worst
    for judged in worst:
        assert judged.label in ("inaccuracy", "mistake", "blunder")
        assert "was better than" in judged.reason


DEADWOOD_LEFT = re.compile(r"(\d+) points? of deadwood left")


def test_a_better_discard_that_keeps_more_deadwood_says_why() -> None:
    """A discard's reason quotes the deadwood its throw leaves (checked
    against the arena's own meld finder); when the better discard leaves more
    than the one played, the words say so and why, not only the bigger figure
    (a tester read "28 points of deadwood left" for the better throw against
    "26" for theirs as a contradiction: the reason was that 9D fed the opponent)."""
    dearer = 0
    for seed in (11, 12):
        record = play("gin", [follow, at_random], seed=seed, level="novice")
        for judged in review(record, seed=seed, level="novice", time_limit_ms=60_000).decisions:
            best, played = judged.best, judged.played
            if best.action != DISCARD or played.action != DISCARD or best == played:
                continue
            hand = mask_of(judged.decision.hand)
            left = [int(n) for n in DEADWOOD_LEFT.findall(judged.reason)]
            if not left:  # "... did as well on the same deals": no reasons quoted
                continue
            assert left == [oracle.min_deadwood(hand & ~(1 << (m.card or 0)))
                            for m in (best, played)], judged.reason
            if left[0] > left[1]:
                dearer += 1
                assert "more than throwing" in judged.reason and ", but " in judged.reason, \
                    judged.reason
    assert dearer
