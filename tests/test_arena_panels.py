"""The opponent panels (``benchmarks.arena.core.panels``): every bot is a
registered entrant, the halves share no bot and no style, the seeds are
split, every new bot plays legal games under the referees, each keeps the
style its module describes, and ``--panel`` makes its table."""

from __future__ import annotations

import math
from typing import Any

import pytest

from benchmarks.arena.core.cli import ROTATED_GAMES
from benchmarks.arena.core.panel_table import Target, panel_row, render_panel, run_panel
from benchmarks.arena.core.panels import (
    HELD_OUT,
    HELD_OUT_SEEDS,
    PANELS,
    TUNING,
    TUNING_SEEDS,
    check_seed,
)
from benchmarks.arena.gin.cards import mask_of, parse_card
from benchmarks.arena.gin.melds import min_deadwood
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer
from benchmarks.arena.gin.players.noisy import NoisyPlayer
from benchmarks.arena.gin.players.random_player import RandomPlayer
from benchmarks.arena.gin.players.registry import ENTRANTS as GIN_ENTRANTS
from benchmarks.arena.gin.players.styles import (
    HUNT_STOCK,
    LOW_KNOCK,
    CarefulPlayer,
    GinHunterPlayer,
    LowKnockerPlayer,
    opponent_let_go,
)
from benchmarks.arena.gin.protocol import DRAW_STOCK, PASS, TAKE_DISCARD, ActionKind, Phase
from benchmarks.arena.gin.referee import GinHand
from benchmarks.arena.indian.runner import run_indian21_arena, run_indian_arena
from benchmarks.arena.laydown.runner import run_basic_arena, run_rommy_arena, run_rummy500_arena
from benchmarks.reference import arena_panel_section
from tests.test_arena_players import games
from tests.test_arena_referee import deal

NEW_INDIAN = ("careful", "greedy_noisy", "distance_noisy", "careful_noisy")
NEW_LAY_DOWN = ("hoarder", "greedy_noisy", "careful_noisy", "hoarder_noisy")


def entrants_of(game: str) -> dict[str, Any]:
    return dict(GIN_ENTRANTS) if game == "gin" else dict(ROTATED_GAMES[game].entrants)


@pytest.mark.parametrize("game", sorted(PANELS))
def test_every_panel_bot_is_registered_with_a_description(game: str) -> None:
    panel = PANELS[game]
    entrants = entrants_of(game)
    for name in (*panel.tuning, *panel.held_out):
        assert name in entrants, (game, name)
        assert entrants[name].description
    assert set(panel.matches) <= set(panel.held_out)


@pytest.mark.parametrize("game", sorted(PANELS))
def test_the_halves_share_no_bot_and_no_style(game: str) -> None:
    panel = PANELS[game]
    assert not set(panel.tuning) & set(panel.held_out)
    assert "advisor" not in (*panel.tuning, *panel.held_out)
    entrants = entrants_of(game)
    models = {"eaai_noisy": "eaai_simple"}
    for half, other in ((panel.tuning, panel.held_out), (panel.held_out, panel.tuning)):
        for name in half:
            if name.endswith("_noisy"):  # a noisy bot sits with its model
                model = models.get(name, name.removesuffix("_noisy"))
                assert model in entrants and model not in other, (game, name)
    assert panel.half(TUNING) == panel.tuning and panel.half(HELD_OUT) == panel.held_out
    with pytest.raises(ValueError, match="unknown half"):
        panel.half("both")


def test_the_seeds_are_split_in_two() -> None:
    assert not set(TUNING_SEEDS) & set(HELD_OUT_SEEDS)
    check_seed(1000, TUNING)
    check_seed(5999, HELD_OUT)
    with pytest.raises(ValueError, match="not a held-out seed"):
        check_seed(1000, HELD_OUT)
    with pytest.raises(ValueError, match="not a tuning seed"):
        check_seed(20240601, TUNING)


# -- the new bots play legal games ------------------------------------------------------------
@pytest.mark.parametrize("deals", [1, pytest.param(3, marks=pytest.mark.slow)])  # slow: more
@pytest.mark.parametrize("name", NEW_INDIAN)
def test_the_new_indian_bots_play_legal_deals(name: str, deals: int) -> None:
    for run in (run_indian_arena, run_indian21_arena):
        results = run([name, "greedy"], deals, seed=11, progress=False)
        assert results["violations"] == [] and results["wrong_declarations"] == 0, name


@pytest.mark.parametrize("name", NEW_LAY_DOWN)
def test_the_new_lay_down_bots_play_legal_rounds(name: str) -> None:
    for run in (run_rummy500_arena, run_rommy_arena, run_basic_arena):
        results = run([name, "careful", "greedy_noisy"], 1, seed=12, progress=False)
        assert results["violations"] == [], name
        assert results["illegal_actions"] == 0


# -- each keeps its style -----------------------------------------------------------------------
def test_the_low_knocker_knocks_only_low() -> None:
    knocks = 0
    for seat, record in games(LowKnockerPlayer(), EaaiSimplePlayer(), 16, seed=200):
        for entry in record.log:
            if entry.seat == seat and entry.phase == Phase.DISCARD \
                    and entry.action.kind == ActionKind.KNOCK:
                knocks += 1
                result = record.result
                assert result is not None and result.knocker == seat
                assert result.deadwood is not None and result.deadwood[seat] <= LOW_KNOCK
    assert knocks > 0


def test_the_gin_hunter_knocks_for_gin_until_the_stock_runs_low() -> None:
    for seat, record in games(GinHunterPlayer(), EaaiSimplePlayer(), 16, seed=210):
        for entry in record.log:
            if entry.seat == seat and entry.phase == Phase.DISCARD \
                    and entry.action.kind == ActionKind.KNOCK:
                result = record.result
                assert result is not None
                assert result.outcome == "gin" or entry.stock_size <= HUNT_STOCK


def test_the_careful_player_keeps_what_the_opponent_collects() -> None:
    # seat 1 took 7H from the pile; the careful seat 0 then holds 7S (same
    # rank) and 8H (its suit neighbour) beside dearer cards it can throw
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 8H", "8S TH QH AD 3D 5D 7D 9D JD KD", "7H"))
    hand.apply(PASS)
    hand.apply(TAKE_DISCARD)
    hand.apply(next(a for a in hand.legal_actions() if a.card == parse_card("KD")))
    hand.apply(DRAW_STOCK)
    view = hand.view(0)
    player = CarefulPlayer()
    player.start_hand(0, 1)
    hand_mask = mask_of(view.hand)
    seven, eight = parse_card("7S"), parse_card("8H")
    assert player.score(view, hand_mask, seven) == min_deadwood(hand_mask ^ (1 << seven)) + 6
    action = player.act(view)
    assert action.kind == ActionKind.DISCARD and action.card not in (seven, eight)
    assert parse_card("KD") in opponent_let_go(view)
    assert parse_card("7H") not in opponent_let_go(view)  # seat 0 passed it: its own


def test_a_noisy_player_plays_legal_hands_and_without_noise_is_its_model() -> None:
    always = NoisyPlayer(EaaiSimplePlayer(), "eaai_always", noise=1.0)
    for _ in games(always, RandomPlayer(), 6, seed=230):
        pass
    quiet = [r.log for _, r in games(NoisyPlayer(EaaiSimplePlayer(), "quiet", noise=0.0),
                                     EaaiSimplePlayer(), 4, seed=240)]
    plain = [r.log for _, r in games(EaaiSimplePlayer(), EaaiSimplePlayer(), 4, seed=240)]
    assert quiet == plain


# -- the table ------------------------------------------------------------------------------------
def test_a_target_reads_its_figure() -> None:
    target = Target("points", 6.0, 4.0)
    assert target.met({"mean": 6.5, "half_width": 2.0}) is True
    assert target.met({"mean": 6.5, "half_width": 3.0}) is False
    assert target.met({"mean": 5.0, "half_width": 0.1}) is False
    assert target.met({"mean": math.nan, "half_width": 0.1}) is None
    assert Target("matches", 0.73).text() == "≥ 73 % of matches"


def _fake_gin(a: str, b: str, **options: Any) -> dict[str, Any]:
    pairs = options["hands"] // 2
    hands = {"hands": 2 * pairs, "pairs": pairs, "points_a": {"mean": 7.0, "half_width": 1.5},
             "points_a_by_end": {"a knock": 9.0, "b knock": -2.0}, "sides": None}
    matches = {"matches": options["matches"], "win_rate_a": {"mean": 0.8, "half_width": 0.05}} \
        if options["matches"] else None
    return {"hands": hands, "matches": matches, "violations": [], "cross_check": None}


def test_the_panel_plays_every_bot_of_a_half_and_reads_the_targets() -> None:
    def rotated(lineup: list[str], deals: int, **_: Any) -> dict[str, Any]:
        raise AssertionError("gin only")

    results = run_panel("gin", seed=5000, hands=10, matches=4, play_gin=_fake_gin,
                        play_rotated=rotated, describe=lambda bot: f"the {bot}")
    assert results["bots"] == list(PANELS["gin"].held_out)
    rows = {row["bot"]: row for row in results["rows"]}
    assert rows["eaai_simple"]["matches"] == 4 and rows["low_knocker"]["matches"] == 0
    assert [t["met"] for t in rows["marjj_style"]["targets"]] == [True, True]
    text = render_panel(results)
    assert "| low_knocker" in text and "a knock" in text
    section = "\n".join(arena_panel_section([{
        "name": "panel-gin", "kind": "arena_panel", "command": "python -m benchmarks ...",
        "commit": "abc1234", "date": "2026-12-05 00:00 UTC", "cores": 2, "source": "run",
        "data": results}]))
    assert "`eaai_simple`" in section and "80.0 % ± 5.0 %" in section and "met" in section


def test_a_rotated_row_reads_the_paired_difference() -> None:
    run = {"deals": 12, "players": {"advisor": {"points_per_deal": {"mean": 5.0,
                                                                    "half_width": 1.0}}},
           "differences": {"advisor - greedy": {"mean": 10.0, "half_width": 3.0}}}
    row = panel_row("indian13", "greedy", "today's hints", run)
    assert row["difference"]["mean"] == 10.0
    assert row["targets"] == [{"target": "difference ≥ +8, lower end > +5", "met": True}]
