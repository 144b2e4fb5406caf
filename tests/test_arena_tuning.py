"""The tuner (``benchmarks.arena.core.tuning``): a study on a made-up game
plays today's numbers once, pairs every trial with them unit by unit, stops
trials clearly behind, is refused or resumed by name, and writes its
experiment file; the games' benches play a unit the same way twice and with
today's numbers as the arena's advisor does."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import optuna
import pytest

from benchmarks.arena.core.panels import PANELS
from benchmarks.arena.core.tuning import (
    Dimension,
    PairedPruner,
    TuningSpec,
    apply,
    paired,
    render_experiment,
    run_study,
    schedule,
)
from benchmarks.arena.gin.runner import Arena
from benchmarks.arena.gin.tuning import SPEC as GIN_SPEC
from benchmarks.arena.indian.tuning import SPECS as INDIAN_SPECS
from benchmarks.arena.laydown.tuning import SPECS as LAY_DOWN_SPECS
from solver.play import GAMES


@dataclass(frozen=True, slots=True)
class Knobs:
    """A made-up parameters object: the best ``edge`` is 3."""

    edge: float = 1.0
    other: int = 2


@dataclass(frozen=True, slots=True)
class Quadratic:
    """A made-up game: a unit is worth less the farther ``edge`` is from 3,
    plus the unit's own luck (the same for every arm)."""

    def play_unit(self, params: object, opponent: str, seed: int, index: int) -> float:
        assert isinstance(params, Knobs)
        luck = (index * 7919 + seed) % 13 - 6
        return luck - (params.edge - 3.0) ** 2 + (0.5 if index % 2 else -0.5)


SPACE = (Dimension("edge", 0.0, 6.0), Dimension("other", 1, 4, integer=True))
SPEC = TuningSpec("gin", Quadratic(), SPACE, Knobs(), "hand pair", 12, "points per hand")


def test_apply_replaces_the_fields_drawn() -> None:
    assert apply(Knobs(), SPACE, {"edge": 2.5}) == Knobs(2.5, 2)
    built = Dimension("edge", 0, 1, build=lambda x: 10 * x)
    assert apply(Knobs(), (built,), {"edge": 0.5}) == Knobs(5.0, 2)


def test_units_go_round_the_tuning_half() -> None:
    assert schedule(("a", "b", "c"), 2, 6) == [(2, "c"), (3, "a"), (4, "b"), (5, "c")]
    figure = paired([1.0, 3.0])
    assert figure["mean"] == 2.0 and figure["n"] == 2


def test_a_study_pairs_trials_with_todays_numbers_and_is_resumed_by_name(tmp_path: Path) -> None:
    result = run_study(SPEC, study_name="t", trials=6, units=12, held_out_units=5,
                       folder=tmp_path)
    assert (tmp_path / "gin-t.db").exists()
    assert len(result["trials"]) == 6
    for row in result["trials"]:
        if row["state"] == "complete":  # the luck cancels: only edge's cost is left
            edge = row["params"]["edge"]
            assert row["difference"]["mean"] == pytest.approx(4.0 - (edge - 3.0) ** 2)
            assert row["difference"]["half_width"] == pytest.approx(0.0, abs=1e-9)
    best = result["best"]
    held = result["held_out"]
    assert held["trial"] == best["number"] and held["units"] == 5
    assert held["opponents"] == list(PANELS["gin"].held_out)
    assert held["difference"]["mean"] == pytest.approx(best["difference"]["mean"])
    with pytest.raises(ValueError, match="exists"):
        run_study(SPEC, study_name="t", trials=6, units=12, folder=tmp_path)
    with pytest.raises(ValueError, match="other settings"):
        run_study(SPEC, study_name="t", trials=6, units=15, resume=True, folder=tmp_path)
    with pytest.raises(ValueError, match="not a tuning seed"):
        run_study(SPEC, study_name="u", trials=1, seed=5000, folder=tmp_path)
    more = run_study(SPEC, study_name="t", trials=8, units=12, held_out_units=5, resume=True,
                     folder=tmp_path)
    assert len(more["trials"]) == 8
    text = render_experiment(more, "python -m benchmarks --tune gin --study t")
    assert text.startswith("# gin: the advisor's numbers tuned on the tuning half")
    for part in ("**Decision:**", "## Re-run", "## Figures", "## Why", "`edge`",
                 "On the held-out half"):
        assert part in text
    json.dumps(more)  # plain data


def test_the_pruner_stops_a_trial_clearly_behind() -> None:
    study = optuna.create_study(direction="maximize")
    pruner = PairedPruner(least=4, z=2.0, floor=0.5)

    def reported(mean: float, error: float, step: int = 6) -> optuna.trial.FrozenTrial:
        trial = study.ask()
        trial.set_user_attr(f"se:{step}", error)
        trial.report(mean, step)
        return study.trials[-1]  # the pruner's view of it

    assert not pruner.prune(study, reported(-0.5, 0.5))   # within 2 errors of today
    assert pruner.prune(study, reported(-1.5, 0.2))       # behind by 3 floors
    assert not pruner.prune(study, reported(-9.0, 1.0, step=3))  # too early to say
    done = study.ask()
    study.tell(done, 5.0)
    assert pruner.prune(study, reported(2.0, 1.0))        # clearly behind the best trial


@pytest.mark.parametrize("spec", [GIN_SPEC, *INDIAN_SPECS.values(), *LAY_DOWN_SPECS.values()],
                         ids=lambda spec: spec.game)
def test_a_tuning_space_names_fields_of_todays_parameters(spec: TuningSpec) -> None:
    fields = {f.name for f in dataclasses.fields(spec.params)}
    assert {d.field for d in spec.space} <= fields
    assert spec.params is GAMES[spec.game].params
    # today's values are reported as numbers a trial draws (a built field, gin's
    # style prior, as the share it is built from), plain JSON for the study's file
    today = {d.field: d.number(getattr(spec.params, d.field)) for d in spec.space}
    json.dumps(today)
    for d in spec.space:
        share = today[d.field]
        if d.build is not None:
            assert isinstance(share, float) and d.low <= share <= d.high
            assert d.value(share) == getattr(spec.params, d.field)


@pytest.mark.parametrize("spec", [pytest.param(GIN_SPEC, marks=pytest.mark.slow),
                                  INDIAN_SPECS["indian13"],
                                  pytest.param(LAY_DOWN_SPECS["basic"], marks=pytest.mark.slow)],
                         ids=lambda spec: spec.game)
def test_a_bench_unit_is_the_same_twice(spec: TuningSpec) -> None:
    """(A basic rummy unit, a deal in both rotations, takes 8 s: the slow lane.
    A gin unit, 3 s, too: by default the test below plays one and finds the
    arena's own pair on its seed, which a unit that changed from run to run
    would not be; the rotated games' bench unit is checked here by Indian rummy.)"""
    opponent = PANELS[spec.game].tuning[0]
    first = spec.bench.play_unit(spec.params, opponent, 1000, 0)
    assert spec.bench.play_unit(spec.params, opponent, 1000, 0) == first


def test_the_gin_bench_with_todays_numbers_is_the_arenas_advisor() -> None:
    unit = GIN_SPEC.bench.play_unit(GIN_SPEC.params, "careful", 1000, 3)
    pair = Arena("advisor", "careful", seed=1000, cross_check=False).play_pair(3)
    assert unit == sum(pair.points_for_a()) / 2


def test_a_tried_change_is_paired_with_today_on_the_same_units() -> None:
    from benchmarks.arena.core.trial import changed_params, render_try, try_params

    result = try_params(SPEC, ["edge=3"], units=12)
    # the units' luck is the same for both arms: the paired difference is exact
    assert result["changes"] == {"edge": 3.0}
    assert result["difference"]["mean"] == pytest.approx(4.0)
    assert result["difference"]["se"] == pytest.approx(0.0)
    assert result["seed"] == 1000 and result["half"] == "tuning"
    assert sum(f["n"] for f in result["by_opponent"].values()) == 12
    assert set(result["by_opponent"]) == set(PANELS["gin"].tuning)
    assert "**+4.00 ± 0.00**" in render_try(result)
    held = try_params(SPEC, ["other=3"], half="held_out", units=4)
    assert held["seed"] == 5000 and set(held["by_opponent"]) == set(PANELS["gin"].held_out)
    with pytest.raises(ValueError, match="did you mean 'edge'"):
        changed_params(Knobs(), ["edg=1"])
    with pytest.raises(ValueError, match="other must be of type int"):
        changed_params(Knobs(), ["other=two"])
    with pytest.raises(ValueError, match="not a tuning seed"):
        try_params(SPEC, ["edge=2"], seed=5000)
