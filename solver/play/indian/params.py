"""The Indian rummy advisor's tuned numbers: one frozen parameters object
(``solver.play.params``).

>>> from dataclasses import replace
>>> replace(INDIAN_PARAMS, count_floor=0.5).count_floor, INDIAN_PARAMS.step(1), INDIAN_PARAMS.step(9)
(0.5, 0.244, 0.8)
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.play.params import tuned


@dataclass(frozen=True, slots=True)
class IndianParams:
    """Every number the Indian advisor was tuned with (see the module docstring)."""

    # -- the search ------------------------------------------------------------------------
    long_hand: int = tuned(
        15, "hands this long or longer (21-card Indian rummy) are dealt long_hand_share of "
            "their level's worlds", None)
    long_hand_share: float = tuned(
        1 / 3,
        "a 22-card packing and count cost about five times a 14-card one, so a 21-card "
        "decision deals this share of its level's worlds to answer in about the time of a "
        "13-card one (standard: 16 worlds at 21 cards)",
        "indian21-fewer-worlds.md")
    batch: int = tuned(8, "deals played per move between two checks of the search", None)
    drop_z: float = tuned(
        2.5, "a move stops being played when it is this many paired standard errors behind "
             "the best", None)
    least: int = tuned(16, "deals every move gets before any is dropped", None)
    settle: int = tuned(32, "with one move left after this many deals the search stops", None)
    floor: float = tuned(
        0.5, "the least standard error (points) the search assumes, so a few equal deals do "
             "not end a move", None)
    outs_levels: tuple[str, ...] = tuned(
        ("standard", "expert"),
        "the levels at which a hand's own outs (the unseen cards that help it) set its first "
        "step in the race", None)

    # -- the race and the counts ---------------------------------------------------------------
    steps: tuple[float, ...] = tuned(
        (1.0, 0.244, 0.388, 0.523, 0.614, 0.75, 0.8),
        "chance to get one card nearer a declaration in a turn, by distance 0, 1, 2 ... "
        "(two fast players over thousands of simulated turns of indian13: python -m "
        "benchmarks.speed.indian_steps)",
        "indian-race-steps.md")
    far_step: float = tuned(0.8, "the same chance for a distance past the table", None)
    horizon: int = tuned(60, "turns per player the race's laws cover (a deal rarely lasts 40)",
                         None)
    count_decay: float = tuned(
        0.03,
        "a hand's count shrinks by this share of a fresh hand's per turn played (the fast "
        "players' counts fall from about 76 at the deal to 58 by their ninth turn), down to "
        "count_floor: what a loser pays is its count when the winner declares",
        "indian-count-decay.md")
    count_floor: float = tuned(0.6, "the least share of a fresh hand's count a hand keeps "
                                    "(not measured apart from count_decay)", None)
    outs_weight: float = tuned(
        0.9, "a hand's first-step chance: this share of its outs over the unseen cards, plus "
             "pile_help", None)
    pile_help: float = tuned(0.05, "the chance the pile brings the card a hand needs", None)
    first_step_cap: float = tuned(0.95, "a first-step chance from outs is at most this", None)

    # -- the worlds ----------------------------------------------------------------------------
    threw_a_fitting_card: float = tuned(
        0.35, "likelihood factor of a deal in which a card an opponent threw fits its hand",
        None)
    passed_a_fitting_card: float = tuned(
        0.4, "likelihood factor of a deal in which a pile top it let go by fits its hand", None)
    recent: int = tuned(6, "the last throws and passes of each opponent that weigh a deal",
                        None)
    oversample: int = tuned(2, "raw deals drawn per world kept (importance resampling)", None)

    def step(self, distance: int) -> float:
        """The chance to get one card nearer this turn from ``distance``."""
        return self.steps[distance] if 0 <= distance < len(self.steps) else self.far_step


INDIAN_PARAMS = IndianParams()
"""The parameters ``advise`` plays Indian rummy with."""

__all__ = ["INDIAN_PARAMS", "IndianParams"]
