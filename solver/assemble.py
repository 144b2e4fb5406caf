"""Engine answers into ``Meld`` objects, in the one display order every
engine and fast path shares, and into a scored ``Solution``."""

from __future__ import annotations

from collections.abc import Iterable

from solver.cards import SORT_KEYS
from solver.engines.base import EngineResult, PlacedMeld
from solver.results import GoOut, Meld, Solution
from solver.rules import Deal, melded_points
from solver.scoring import score_arrangement


def build_meld(placed: PlacedMeld, deal: Deal) -> Meld:
    """Turn an engine's placed candidate into a ``Meld`` with physical cards."""
    cand = placed.candidate
    wilds = iter(placed.wild_cards)
    cards = tuple(rep if natural else next(wilds)
                  for rep, natural in zip(cand.represents, cand.natural_at, strict=True))
    points = sum(
        melded_points(card, rep, deal, cand.low_ace and i == 0)
        for i, (card, rep) in enumerate(zip(cards, cand.represents, strict=True))
    )
    # A wild slot filled by the very card it stands for (7S in 5S 6S * with 7s
    # wild) holds a natural card: a run of such cards is pure (RULES.md 2.5).
    pure = cand.pure or (cand.kind == "run" and cards == cand.represents)
    return Meld(cand.kind, cards, cand.represents, pure, points)


def meld_order(meld: Meld) -> list[tuple[int, int]]:
    """Sort key of a meld: the display keys of the cards it stands for."""
    return [SORT_KEYS[c] for c in meld.represents]


def sorted_melds(placed: Iterable[PlacedMeld], deal: Deal) -> tuple[Meld, ...]:
    """The placed melds as ``Meld`` objects in display order (whatever the engine)."""
    return tuple(sorted((build_meld(p, deal) for p in placed), key=meld_order))


def build_solution(result: EngineResult, deal: Deal, engine: str,
                   go_out: GoOut | None = None, *, knocks: bool = False) -> Solution:
    """Score an engine's arrangement with ``solver.scoring`` into a ``Solution``
    (``engine``: the engine that answered; ``go_out`` / ``knocks``: another
    arrangement of the hand goes out / knocks, so the hand is declarable)."""
    melds = sorted_melds(result.melds, deal)
    deadwood = tuple(sorted(result.deadwood, key=SORT_KEYS.__getitem__))
    points = score_arrangement(melds, deadwood, deal)
    return Solution(
        variant=deal.rules.name,
        melds=melds,
        deadwood=deadwood,
        discard=result.discard,
        deadwood_points=points.deadwood_points,
        meld_points=points.meld_points,
        net_points=points.net_points,
        penalty_points=points.penalty_points,
        declarable=points.declarable or go_out is not None or knocks,
        optimal=result.optimal,
        engine=engine,
        status=result.status,
        can_open=points.opened,
        go_out=go_out,
    )
