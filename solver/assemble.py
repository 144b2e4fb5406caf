"""Engine answers into ``Meld`` objects, in the one display order every
engine and fast path shares."""

from __future__ import annotations

from collections.abc import Iterable

from solver.cards import SORT_KEYS
from solver.engines.base import PlacedMeld
from solver.results import Meld
from solver.rules import Deal, melded_points


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
    return Meld(cand.kind, cards, cand.represents, cand.pure, points)


def meld_order(meld: Meld) -> list[tuple[int, int]]:
    """Sort key of a meld: the display keys of the cards it stands for."""
    return [SORT_KEYS[c] for c in meld.represents]


def sorted_melds(placed: Iterable[PlacedMeld], deal: Deal) -> tuple[Meld, ...]:
    """The placed melds as ``Meld`` objects in display order (whatever the engine)."""
    return tuple(sorted((build_meld(p, deal) for p in placed), key=meld_order))
