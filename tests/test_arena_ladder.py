"""The ladder (``benchmarks.arena.core.ladder``) and its round robin
(``benchmarks.arena.core.round_robin``): the fit recovers the strengths a
known Bradley-Terry model drew results from, ties count half, the anchor
only shifts the scale, the bootstrap's intervals cover the truth and repeat
for a seed, a player that never loses stays finite, the table renders, a
run file resumes, and ``--ladder`` plays a tiny round robin end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks.arena.core.cli import players_option
from benchmarks.arena.core.ladder import (
    Pairing,
    Unit,
    bootstrap,
    build_ladder,
    by_units,
    fit,
    fit_points,
    players_of,
    render_ladder,
    win_chance,
)
from benchmarks.arena.core.round_robin import (
    LINEUPS,
    gin_units,
    pairs_of,
    rotated_units,
    run_round_robin,
)

TRUTH = {"random": 0.0, "greedy": 250.0, "careful": 400.0, "advisor": 600.0}
"""Elo ratings the synthetic results are drawn from (random the anchor)."""


def synthetic(truth: dict[str, float], units: int, seed: int, tie_share: float = 0.0
              ) -> list[Pairing]:
    """Every pair of ``truth`` playing ``units`` pairs of hands drawn from
    the Bradley-Terry model (a hand a tie with ``tie_share``, else won by
    the model's chance with ties taken out)."""
    rng = np.random.default_rng(seed)
    out = []
    for a, b in pairs_of(list(truth)):
        chance = win_chance(truth[a] - truth[b])
        drawn = []
        for _ in range(units):
            ties = int((rng.random(2) < tie_share).sum())
            a_wins = int((rng.random(2 - ties) < chance).sum())
            drawn.append(Unit(a_wins, 2 - ties - a_wins, ties, float(a_wins), float(2 - a_wins)))
        out.append(Pairing(a, b, tuple(drawn)))
    return out


def test_the_fit_recovers_known_strengths() -> None:
    pairings = synthetic(TRUTH, 400, seed=1)
    found = fit(pairings)
    assert found.rating("random") == 0.0
    for name, rating in TRUTH.items():
        assert abs(found.rating(name) - rating) < 40, (name, found.rating(name))
    assert found.chance("advisor", "random") == pytest.approx(win_chance(found.rating("advisor")))


def test_a_tie_counts_half_a_win_to_each_side() -> None:
    with_ties = [Pairing("a", "b", (Unit(10, 0, 10, 0.0, 0.0),))]
    as_wins = [Pairing("a", "b", (Unit(15, 5, 0, 0.0, 0.0),))]
    assert fit(with_ties, "b").rating("a") == pytest.approx(fit(as_wins, "b").rating("a"))
    only_ties = [Pairing("a", "b", (Unit(0, 0, 8, 0.0, 0.0),))]
    assert fit(only_ties, "b").rating("a") == pytest.approx(0.0, abs=1e-9)
    assert fit(only_ties, "b").chance("a", "b") == pytest.approx(0.5)


def test_the_anchor_shifts_every_rating_alike() -> None:
    pairings = synthetic(TRUTH, 50, seed=2)
    by_random, by_greedy, by_mean = fit(pairings), fit(pairings, "greedy"), fit(pairings, None)
    assert by_greedy.rating("greedy") == 0.0
    assert sum(by_mean.ratings) == pytest.approx(0.0, abs=1e-9)
    shift = by_random.rating("greedy")
    for name in TRUTH:
        assert by_random.rating(name) - by_greedy.rating(name) == pytest.approx(shift)
        assert by_random.rating(name) - by_mean.rating(name) == \
            pytest.approx(by_random.rating("random") - by_mean.rating("random"))
    with pytest.raises(ValueError, match="anchor 'nobody'"):
        fit(pairings, "nobody")


def test_the_bootstrap_covers_the_truth_and_repeats_for_a_seed() -> None:
    pairings = synthetic(TRUTH, 100, seed=3)
    ladder = build_ladder(pairings, replicates=300, seed=7)
    for rung in ladder.rungs:
        assert rung.low <= TRUTH[rung.player] <= rung.high, rung
        if rung.step is not None:
            truth = TRUTH[rung.player] - TRUTH[rung.step.below]
            assert rung.step.low <= truth <= rung.step.high, rung.step
            assert rung.step.distinct
    assert [r.player for r in ladder.rungs] == ["advisor", "careful", "greedy", "random"]
    assert ladder == build_ladder(pairings, replicates=300, seed=7)
    players = players_of(pairings)
    first = bootstrap(pairings, players, "random", 50, seed=7)
    assert np.array_equal(first, bootstrap(pairings, players, "random", 50, seed=7))
    assert not np.array_equal(first, bootstrap(pairings, players, "random", 50, seed=8))


def test_close_neighbours_are_not_distinct_steps() -> None:
    ladder = build_ladder(synthetic({"random": 0.0, "x": 300.0, "y": 305.0}, 40, seed=4),
                          replicates=200)
    top = ladder.rungs[0]
    assert top.step is not None and top.player in ("x", "y")
    assert not top.step.distinct
    assert top.step.low < 0 < top.step.high
    assert ladder.distinct_steps() == 1


def test_a_player_that_never_loses_stays_finite() -> None:
    pairings = [Pairing("random", "perfect", (Unit(0, 2, 0, -50.0, 50.0),) * 20),
                Pairing("random", "greedy", (Unit(1, 1, 0, 0.0, 0.0),) * 20),
                Pairing("greedy", "perfect", (Unit(0, 2, 0, -40.0, 40.0),) * 20)]
    ladder = build_ladder(pairings, replicates=100)
    top = ladder.rungs[0]
    assert top.player == "perfect"
    assert math.isfinite(top.rating) and top.rating > 400
    assert math.isfinite(top.low) and math.isfinite(top.high)
    assert 0.0 < dict(top.chances)["random"] < 0.05
    assert top.points == pytest.approx((25.0 + 20.0) / 2)  # points per hand, not per pair


def test_the_ladder_renders_and_says_what_each_level_is_for() -> None:
    pairings = synthetic(TRUTH, 30, seed=5, tie_share=0.1)
    ladder = build_ladder(pairings, replicates=100, references=("random", "greedy"))
    text = render_ladder(ladder, pairings, title="Ladder test", detail="6 pairings")
    assert text.startswith("### Ladder test\n\n6 pairings\n")
    assert "| rank | player" in text and "Elo (95 % CI)" in text
    assert "| random wins | greedy wins |" in text
    assert "0 (anchor)" in text
    assert "steps are distinct" in text
    assert "* `advisor`: `random` wins" in text and "of hands against it; by points, " in text
    assert "advisor - random" not in text and "random - advisor" in text
    data = json.loads(json.dumps(ladder.to_dict()))
    assert data["rungs"][0]["player"] == "advisor"
    assert set(data["rungs"][0]["chances"]) == {"random", "greedy"}
    assert "distinct" in data["rungs"][0]["step"]


def test_the_points_scale_fits_the_margins_and_can_order_the_ladder() -> None:
    # a wins no more hands than b but by more: 10 points a hand; b beats c by 4, a beats c by 14
    def pairing(a: str, b: str, games: int, lead: float, a_wins: int) -> Pairing:
        unit = Unit(a_wins, games - a_wins, 0, lead * games, -lead * games)
        return Pairing(a, b, (unit, unit, unit, unit))

    pairings = [pairing("a", "b", 10, 10.0, 5), pairing("b", "c", 10, 4.0, 5),
                pairing("a", "c", 10, 14.0, 5)]
    ratings = fit_points(pairings, anchor="c")
    assert ratings == pytest.approx((14.0, 4.0, 0.0))
    by_points = build_ladder(pairings, anchor="c", replicates=50, references=("c",),
                             order_by="points")
    assert [rung.player for rung in by_points.rungs] == ["a", "b", "c"]
    step = by_points.rungs[0].step
    assert step is not None and step.points_difference == pytest.approx(10.0)
    assert abs(step.difference) < 1.0  # the Elo of hands won sees no difference
    assert "`c` loses 14.0 a hand" in by_points.rungs[0].purpose
    with pytest.raises(ValueError, match="elo or points"):
        build_ladder(pairings, order_by="margin")


def test_a_unit_can_count_as_one_game_won_on_its_points() -> None:
    pairing = Pairing("a", "b", (Unit(1, 1, 0, 40.0, -40.0), Unit(0, 2, 0, -5.0, 5.0),
                                 Unit(1, 0, 1, 3.0, 3.0)))
    assert by_units([pairing])[0].units == (Unit(1, 0, 0, 20.0, -20.0), Unit(0, 1, 0, -2.5, 2.5),
                                            Unit(0, 0, 1, 1.5, 1.5))


def test_results_read_as_units() -> None:
    gin = {"hands": {"hand_points_a": [[25, -10], [0, 0], [-30, -5]]}}
    assert gin_units(gin, "a", "b") == (Unit(1, 1, 0, 15.0, -15.0), Unit(0, 0, 2, 0.0, 0.0),
                                        Unit(0, 2, 0, -35.0, 35.0))
    rotated = {"per_game": {"a": [[80.0, -20.0], [5.0, 5.0]], "b": [[-80.0, 20.0], [5.0, 1.0]]}}
    assert rotated_units(rotated, "a", "b") == (Unit(1, 1, 0, 60.0, -60.0),
                                                Unit(1, 0, 1, 10.0, 6.0))
    with pytest.raises(ValueError, match="per_game"):
        rotated_units({"per_deal": {}}, "a", "b")


def _fake_play(calls: list[tuple[str, str]]) -> Any:
    strength = {"random": 0, "greedy": 1, "careful": 2}

    def play(a: str, b: str) -> dict[str, Any]:
        calls.append((a, b))
        points = 10 if strength[a] > strength[b] else -10
        return {"hands": {"hand_points_a": [[points, points], [points, 0]]}, "violations": []}
    return play


def test_a_run_file_keeps_finished_pairings(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    calls: list[tuple[str, str]] = []
    first = run_round_robin("gin", ["random", "greedy"], size=4, seed=5000,
                            play=_fake_play(calls), units_of=gin_units, path=path)
    assert calls == [("random", "greedy")] and first.resumed == 0
    again = run_round_robin("gin", ["random", "greedy", "careful"], size=4, seed=5000,
                            play=_fake_play(calls), units_of=gin_units, path=path)
    assert calls[1:] == [("random", "careful"), ("greedy", "careful")]
    assert again.resumed == 1
    assert again.played[0] == first.played[0]
    assert [(p.a, p.b) for p in again.pairings] == pairs_of(["random", "greedy", "careful"])
    assert json.loads(path.read_text())["seed"] == 5000
    with pytest.raises(ValueError, match="seed 5000"):
        run_round_robin("gin", ["random", "greedy"], size=4, seed=5001,
                        play=_fake_play(calls), units_of=gin_units, path=path)


def test_the_default_lineups_are_registered() -> None:
    from benchmarks.arena.core.cli import ROTATED_GAMES
    from benchmarks.arena.gin.players.registry import ENTRANTS
    for game, lineup in LINEUPS.items():
        entrants = ENTRANTS if game == "gin" else ROTATED_GAMES[game].entrants
        assert set(lineup) <= set(entrants), game
        assert {"random", "greedy", "advisor_novice", "advisor", "advisor_expert"} <= set(lineup)
    assert players_option("3") == 3
    assert players_option("random, greedy") == ("random", "greedy")


@pytest.mark.parametrize(("game", "size"), [("gin", "--hands=4"), ("indian13", "--deals=2")])
def test_the_command_line_plays_a_tiny_ladder(game: str, size: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.__main__ import main
    out = tmp_path / "ladder.json"
    run = tmp_path / "run.json"
    argv = ["--ladder", game, "--players", "random,greedy", size, "--json", str(out),
            "--resume", str(run)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert f"### Ladder {game}: 2 players" in text and "0 (anchor)" in text
    data = json.loads(out.read_text())
    assert [r["player"] for r in data["ladder"]["rungs"]] == ["greedy", "random"]
    assert data["round_robin"]["seed"] == 5000 and data["violations"] == []
    assert json.loads(run.read_text())["pairings"][0]["a"] == "random"
    assert main([*argv, "--wins-by", "deal"]) == 0  # resumed: nothing left to play
    assert "1 read from" in capsys.readouterr().out
    assert json.loads(out.read_text())["wins_by"] == "deal"
    assert main(["--ladder", game, "--players", "3"]) == 2
    assert main(["--ladder", game, "--players", "random,greedy", "--anchor", "careful"]) == 2
