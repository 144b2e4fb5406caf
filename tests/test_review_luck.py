"""The review's luck against its baselines (solver.review.luck): the table's
shape, where no baseline applies, and the deal's and each draw's luck
measured against the baseline of the player's position."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.review_baselines import raw_luck
from benchmarks.speed.review import run
from solver.play import GAMES
from solver.review import luck as luck_module
from solver.review import review
from solver.review.luck import baseline_for, baselines, position_of
from solver.review.params import REVIEW_LEVEL
from solver.review.record import Record
from solver.review.review import PlayerReview, Totals, _net_luck
from solver.review.selfplay import follow, play
from tests.review_memo import Kept, judged_once

LUCK_CHECK_SEEDS = range(20_000, 21_000)
"""The seeds the luck checks of docs/REVIEW_FIGURES.md report on."""


@pytest.fixture(scope="module")
def indian_deal() -> Record:
    return play("indian13", [follow, follow], seed=5, level="novice", dealer=0)  # 4 and 3 draws


_INDIAN_DEAL_JUDGED: Kept = {}
"""The judgements of ``indian_deal``'s reviews (seed 3), shared by its tests."""


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """``indian_deal``'s five reviews (one table or another) judge each of its
    decisions once (``tests.review_memo``): 1.5 s a review."""
    judged_once(monkeypatch, _INDIAN_DEAL_JUDGED)


def _with_table(monkeypatch: pytest.MonkeyPatch, table: dict[str, Any]) -> None:
    monkeypatch.setattr(luck_module, "_table", lambda: table)


def test_every_measured_baseline_is_whole_and_was_measured_apart_from_the_luck_checks() -> None:
    levels = (REVIEW_LEVEL, "novice", "standard", "expert")
    for game, by_level in baselines().items():
        assert game in GAMES
        for level, by_count in by_level.items():
            assert level in levels
            for count, entry in by_count.items():
                assert int(count) >= 2
                assert len(entry["deal"]) == len(entry["result"]) == int(count)
                assert entry["hands"] >= 500 and entry["draws"] > 0
                measured = range(entry["seed"], entry["seed"] + entry["hands"])
                assert not set(measured) & set(LUCK_CHECK_SEEDS), (game, level, count)
                assert f"--game {game} " in entry["command"]


def test_house_rules_oklahoma_and_unmeasured_counts_have_no_baseline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _with_table(monkeypatch, {"gin": {REVIEW_LEVEL: {"2": {"deal": [1.0, 2.0],
                                                            "per_draw": 3.0, "result": [1.0, -1.0]}}}})
    assert baseline_for("gin", REVIEW_LEVEL, 2, None, False) is not None
    assert baseline_for("gin", REVIEW_LEVEL, 2, {}, False) is not None  # no knob given
    assert baseline_for("gin", REVIEW_LEVEL, 2, {"knock_limit": 5}, False) is None
    assert baseline_for("gin", REVIEW_LEVEL, 2, None, True) is None
    assert baseline_for("gin", "expert", 2, None, False) is None
    assert baseline_for("indian13", REVIEW_LEVEL, 2, None, False) is None


def test_positions_count_from_the_player_left_of_the_dealer() -> None:
    assert [position_of(seat=s, dealer=2, seats=4) for s in range(4)] == [1, 2, 3, 0]


def test_the_deal_and_each_draw_are_measured_against_the_baseline(
        monkeypatch: pytest.MonkeyPatch, indian_deal: Record, judged: None) -> None:
    """The same review with a zero baseline and with one: each seat's deal
    luck moves by its position's mean, its draws by the mean per draw."""
    zero = {"indian13": {REVIEW_LEVEL: {"2": {"deal": [0.0, 0.0], "per_draw": 0.0,
                                              "result": [0.0, 0.0]}}}}
    _with_table(monkeypatch, zero)
    plain = review(indian_deal, seed=3, time_limit_ms=60_000)
    deal, per_draw, results = [4.5, -2.25], 1.5, [2.5, -0.5]
    _with_table(monkeypatch, {"indian13": {REVIEW_LEVEL: {"2": {
        "deal": deal, "per_draw": per_draw, "result": results}}}})
    measured = review(indian_deal, seed=3, time_limit_ms=60_000)
    assert measured.to_dict()["luck_baseline"] == {"deal": deal, "per_draw": per_draw,
                                                   "result": results}
    for before, after in zip(plain.players, measured.players, strict=True):
        position = position_of(seat=after.seat, dealer=indian_deal.dealer, seats=2)
        first = next(j for j in measured.decisions if j.seat == after.seat)
        assert before.totals.deal_luck == pytest.approx(first.value)
        assert after.totals.deal_luck == pytest.approx(first.value - deal[position])
        assert after.totals.draws == before.totals.draws
        assert after.totals.draw_luck == pytest.approx(
            before.totals.draw_luck - per_draw * before.totals.draws)
    assert len(measured.split) == 2
    for before_split, after_split in zip(plain.split, measured.split, strict=True):
        position = position_of(seat=after_split.seat, dealer=indian_deal.dealer, seats=2)
        assert before_split.edge == 0.0
        assert after_split.edge == pytest.approx(results[position])
        assert after_split.result == pytest.approx(
            after_split.edge + after_split.skill + after_split.luck + after_split.rest)
        assert after_split.skill == pytest.approx(before_split.skill)


def test_a_review_without_a_baseline_says_so(monkeypatch: pytest.MonkeyPatch,
                                             indian_deal: Record, judged: None) -> None:
    _with_table(monkeypatch, {})
    answer = review(indian_deal, seed=3, time_limit_ms=60_000)
    assert answer.luck_baseline is None and answer.to_dict()["luck_baseline"] is None
    for player in answer.players:
        first = next(j for j in answer.decisions if j.seat == player.seat)
        assert player.totals.deal_luck == pytest.approx(first.value)


def test_the_measurement_reads_the_raw_values_whatever_the_table_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``benchmarks.review_baselines`` takes each seat's first decision's
    value and its draws' differences as they are, with a baseline in the
    table or none."""
    job = ("indian13", 2, REVIEW_LEVEL, "novice", 11)
    _with_table(monkeypatch, {})
    bare = raw_luck(job)
    _with_table(monkeypatch, {"indian13": {REVIEW_LEVEL: {"2": {
        "deal": [7.0, -1.0], "per_draw": 2.5, "result": [3.0, -3.0]}}}})
    for again, first in zip(raw_luck(job), bare, strict=True):
        assert again == pytest.approx(first)
    record = play("indian13", [follow, follow], seed=11, level="novice", dealer=11 % 2)
    answer = review(record, seed=11, time_limit_ms=60_000)
    for seat, (position, deal, _, _, result, exact) in enumerate(bare):
        assert position == position_of(seat=seat, dealer=record.dealer, seats=2)
        assert deal is not None
        assert deal == pytest.approx(next(j.value for j in answer.decisions if j.seat == seat))
        assert answer.result is not None and result == answer.result[seat]
        assert exact == next(j.value_exact for j in answer.decisions if j.seat == seat)


def test_the_text_report_says_what_luck_is_measured_against(
        monkeypatch: pytest.MonkeyPatch, indian_deal: Record, judged: None) -> None:
    from api.shared.reports import format_review

    _with_table(monkeypatch, {"indian13": {REVIEW_LEVEL: {"2": {
        "deal": [1.0, 0.0], "per_draw": 0.0, "result": [0.0, 0.0]}}}})
    assert "luck measured against the self-play baseline" in format_review(
        review(indian_deal, seed=3, time_limit_ms=60_000))
    _with_table(monkeypatch, {})
    assert "luck measured against 0 (no baseline measured" in format_review(
        review(indian_deal, seed=3, time_limit_ms=60_000))


def _seat(seat: int, deal_luck: float | None, draw_luck: float = 0.0) -> PlayerReview:
    """A reviewed seat with only its luck (None: it never came to a decision)."""
    totals = Totals(hands=1, decisions=0 if deal_luck is None else 1,
                    deal_luck=deal_luck or 0.0, draw_luck=draw_luck)
    return PlayerReview(seat, f"seat {seat}", totals, (), 0.0, 0.0)


@pytest.mark.parametrize(("deals", "draws", "results"), [
    # two players, a zero-sum deal worth 6 to seat 0, nothing after it: 6 and -6
    ([6.0, -6.0], [0.0, 0.0], [6.0, -6.0]),
    # the same deal, then seat 1 draws a card worth 4 to it: 2 and -2
    ([6.0, -6.0], [0.0, 4.0], [2.0, -2.0]),
    # Indian rummy at three: seats 0 and 1 drop at once (-10 each), seat 2 never decides
    ([-10.0, -10.0, None], [0.0, 0.0, 0.0], [-10.0, -10.0, 20.0]),
    # two players, the first drops at once and the other never decides
    ([-10.0, None], [0.0, 0.0], [-10.0, 10.0]),
])
def test_the_deal_counts_once_in_each_seats_net_luck(
        deals: list[float | None], draws: list[float], results: list[float]) -> None:
    """Results that the luck alone made (no error, no hidden card) are each
    seat's net luck: the deal's values sum to 0 over the seats, and reading
    one seat's good deal again as the others' bad deal counted it twice."""
    players = [_seat(seat, deal, draw) for seat, (deal, draw) in
               enumerate(zip(deals, draws, strict=True))]
    _net_luck(players)
    assert [p.totals.net_luck for p in players] == pytest.approx(results)
    assert all(p.totals.net_hands == 1 for p in players)


def test_the_luck_check_plays_a_table_of_three() -> None:
    """``benchmarks.speed.review --players 3``: every seat a follower, each
    with its figures, seat 0 playing first."""
    result = run("indian13", 1, players=3, seed=20_000)  # one hand: 0.4 s (two took 3.4 s)
    assert result["players"] == 3
    assert list(result["seats"]) == ["seat 0 follow", "seat 1 follow", "seat 2 follow"]
    assert all(seat["net_luck_playing_second"] is None
               for seat in list(result["seats"].values())[:1])
    with pytest.raises(ValueError, match="two players"):
        run("indian13", 1, pairing="follow-random", players=3)


def test_an_exact_first_value_is_measured_against_the_mean_result_an_estimate_with_hope(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A first player that drops at once has an exact value (the drop's
    cost): it is set against its position's mean result, not against a
    mean of hopeful estimates; the other seat's estimated value against the
    mean result plus the position's hope."""
    record = play("indian13", [follow, follow], seed=40_010, level="novice", dealer=1)
    _with_table(monkeypatch, {"indian13": {REVIEW_LEVEL: {"2": {
        "deal": [12.0, 4.0], "per_draw": 0.0, "result": [1.0, -1.0], "hope": [11.0, 6.0]}}}})
    answer = review(record, seed=10, time_limit_ms=60_000)
    first = answer.decisions[0]
    assert first.seat == 0 and first.value_exact and first.value == pytest.approx(-10.0)
    assert answer.players[0].totals.deal_luck == pytest.approx(-10.0 - 1.0)
    assert answer.to_dict()["luck_baseline"]["hope"] == [11.0, 6.0]
    later = next(j for j in answer.decisions if j.seat == 1)
    assert not later.value_exact
    assert answer.players[1].totals.deal_luck == pytest.approx(later.value - (-1.0 + 6.0))
    assert [s.edge for s in answer.split] == [1.0, -1.0]  # each position's mean result


def test_a_seat_that_never_decided_is_given_the_deal_luck_the_others_leave() -> None:
    players = [_seat(0, -10.0), _seat(1, None)]
    _net_luck(players)
    assert [p.totals.deal_luck for p in players] == [-10.0, 10.0]
