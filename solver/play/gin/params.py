"""The gin advisor's tuned numbers: one frozen parameters object (``solver.play.params``).

>>> from dataclasses import replace
>>> bolder = replace(GIN_PARAMS, plain_z=2.0)
>>> bolder.plain_z, GIN_PARAMS.plain_z
(2.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.play.gin.simulate import AT_ONCE, FOR_GIN, KnockStyle
from solver.play.params import tuned
from solver.play.words import AFTER_DRAW, WALL


@dataclass(frozen=True, slots=True)
class GinParams:
    """Every number the gin advisor was tuned with (see the module docstring)."""

    # -- the search ------------------------------------------------------------------------
    plans: tuple[KnockStyle, ...] = tuned(
        (AT_ONCE, FOR_GIN),
        "the ways the advisor's side goes on after a searched discard, the first its own "
        "style: each discard is played out under each plan on the same deals and keeps the "
        "better (knock at the first chance, or play for gin); with the first plan alone the "
        "search valued playing on as knocking next turn and knocked at the first chance in "
        "more than half of the hands where a player that waits gains 5-6 points",
        "gin-knock-plans.md")
    searched_phases: tuple[str, ...] = tuned(
        (AFTER_DRAW, WALL),
        "the phases whose move the search chooses; a draw is the judgement's: in the "
        "simulated rest of a hand nobody reads what a pickup shows, so the search overrated "
        "taking a low card that makes no meld (taken in 56 % of its pickups, 4 points a hand "
        "lost to the judgement alone)",
        "gin-searched-draws.md")
    plain_z: float = tuned(
        1.0,
        "the search's best discard is recommended over the plainest one (the least deadwood "
        "kept) only when the deals favour it by this many paired standard errors",
        "gin-plain-discard.md")
    batch: int = tuned(8, "deals played per move between two checks of the search", None)
    drop_z: float = tuned(
        2.5, "a move stops being played when it is this many paired standard errors behind "
             "the best", None)
    least: int = tuned(16, "deals every searched move gets before any is dropped", None)
    settle: int = tuned(32, "with one move left after this many deals the search stops", None)
    floor_points: float = tuned(
        0.5, "the least standard error (points) the search assumes, so a few equal deals do "
             "not end a move", None)
    floor_match: float = tuned(
        0.005, "the same, in chance of winning the match (when a match score is given)", None)
    search: str = tuned(
        "flat", "how the discard is searched: flat (every shortlisted discard on the same "
                "deals, the clearly worse dropped) or ismcts (a two-level tree: the discard, "
                "then the next draw, by UCB over the deals; an experiment)",
        "gin-ismcts.md")
    ismcts_playouts: int = tuned(
        400, "ismcts: playouts of one decision (the flat search's mean over the corpus's "
             "standard discards, 398: equal work)", "gin-ismcts.md")
    ismcts_explore: float = tuned(
        12.0, "ismcts: UCB1's exploration weight, in points (the spread of a hand's outcomes)",
        "gin-ismcts.md")
    careful_slack: int = tuned(
        0, "deadwood points a simulated player gives up not to throw a card that feeds what "
           "the other took from the pile (its rank, or its suit within two): playouts where "
           "pickups are read, so a searched draw pays for what it shows (0: nobody reads the "
           "pile; 4 measured, not kept)", "gin-reading-playouts.md")
    unsearched_deals: int = tuned(
        4, "deals that give every move its figures in a phase the search does not choose (a "
           "draw, the first upcard; every phase at a level without a shortlist)", None)
    unlisted_deals: int = tuned(
        4, "deals that give the figures of a move the search's shortlist left out, in a phase "
           "it searches", "review-unlisted-deals.md")

    # -- the judgement -------------------------------------------------------------------------
    knock_risk: float = tuned(
        0.25, "the judgement knocks when it expects to gain and risks an undercut in at most "
              "this share of deals", None)
    take_edge: float = tuned(
        2.0, "deadwood points the judgement credits a pile card that goes into a meld (and "
             "charges one that does not: taking shows the opponent a card)", "gin-take-edge.md")
    lookahead: float = tuned(
        1.0, "weight of the next draw's expected improvement in judging a discard (0: "
             "today's deadwood only)", None)
    danger: float = tuned(
        4.0, "deadwood points a discard costs per unit of chance that the opponent melds it",
        None)
    odds_deals: int = tuned(
        100, "deals the judgement reads each unseen card's chance to be in the stock from",
        None)

    # -- the worlds ----------------------------------------------------------------------------
    threw_a_meld_card: float = tuned(
        0.35, "likelihood factor of a deal in which a card the opponent threw melds with its "
              "hand", None)
    passed_a_meld_card: float = tuned(
        0.25, "likelihood factor of a deal in which a card it let go by melds with its hand",
        None)
    recent: int = tuned(6, "the opponent's last throws and passes that weigh a deal", None)
    oversample: int = tuned(2, "raw deals drawn per world kept (importance resampling)", None)
    practice: int = tuned(
        14, "at most this many practice turns shape the opponent's dealt hand", None)
    practice_per_turn: float = tuned(
        1.4,
        "practice turns per turn the opponent played: a plain greedy player sheds deadwood "
        "more slowly than real players (at their sixth turn the guesses average about 20 "
        "points of deadwood, the arena's bots 19-24)",
        "gin-practised-worlds.md")
    style_prior: tuple[tuple[KnockStyle, float], ...] = tuned(
        ((AT_ONCE, 0.75), (FOR_GIN, 0.25)),
        "how the opponent may knock, with the prior chance of each; what it has not done "
        "weighs each world (one that knocks at once and has not knocked holds more than the "
        "limit)",
        "gin-opponent-style-prior.md")

    # -- the knock's melds and the defender's reply -------------------------------------------
    shown_deals: int = tuned(
        60, "deals a knock's arrangements are scored on to choose the melds it shows", None)
    shown_arrangements: int = tuned(
        64, "arrangements within the knock limit a knock chooses its melds from, at most", None)
    knocker_guesses: int = tuned(
        100, "guesses at a knocker's unshown deadwood the defender's figures average", None)
    knocker_tries: int = tuned(400, "random draws of the unseen cards tried for those guesses",
                               None)
    match_outcomes: tuple[tuple[int, float], ...] = tuned(
        ((12, 0.34), (22, 0.08), (30, 0.04), (40, 0.04)),
        "the points of a typical gin hand and their chances per side (a knock 12, an "
        "undercut 30, gin 40; from simulated hands): the match-win table's model", None)


GIN_PARAMS = GinParams()
"""The parameters ``advise`` plays gin with."""

__all__ = ["GIN_PARAMS", "GinParams"]
