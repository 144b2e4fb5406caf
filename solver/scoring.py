"""Points of an arrangement (melds + deadwood) under a variant's objective.

Shared by ``solve`` (to report an engine's answer) and ``validate`` (to score a
declared hand); it knows nothing about engines, so tests can trust it as an
independent check of the engines' internal costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.model import Meld
from solver.rules import Deal, base_points


@dataclass(frozen=True, slots=True)
class Points:
    """Points of one arrangement (see ``Solution`` for the meaning of each)."""

    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int
    declarable: bool


def _sequence_counts(melds: Sequence[Meld]) -> tuple[int, int]:
    sequences = sum(1 for m in melds if m.is_sequence)
    pure = sum(1 for m in melds if m.is_sequence and m.pure)
    return sequences, pure


def meets_declaration(melds: Sequence[Meld], deal: Deal) -> bool:
    """The Indian sequence requirements hold for these melds."""
    rules = deal.rules
    sequences, pure = _sequence_counts(melds)
    return pure >= rules.min_pure_sequences and sequences >= rules.min_sequences


def cascade_count(melds: Sequence[Meld], deadwood: Sequence[int], deal: Deal) -> int:
    """The uncapped count an Indian hand pays for this arrangement (RULES.md §3)."""
    rules = deal.rules
    deadwood_total = sum(base_points(c, deal) for c in deadwood)
    if meets_declaration(melds, deal):
        return deadwood_total
    all_cards = [c for m in melds for c in m.cards] + list(deadwood)
    if rules.objective == "marriage":
        # Every wild card and the cards of at most two shown pure sequences are exempt.
        def counted(cards: Sequence[int]) -> int:
            return sum(base_points(c, deal) for c in cards if c not in deal.wild)

        pure_counted = sorted(
            (counted(m.cards) for m in melds if m.is_sequence and m.pure), reverse=True
        )
        return counted(all_cards) - sum(pure_counted[:2])
    total = sum(base_points(c, deal) for c in all_cards)
    pure_points = [sum(base_points(c, deal) for c in m.cards)
                   for m in melds if m.is_sequence and m.pure]
    if pure_points and rules.penalty_tiers == 3:
        return total - max(pure_points)
    return total


def score_arrangement(melds: Sequence[Meld], deadwood: Sequence[int], deal: Deal) -> Points:
    """Points of ``melds`` + ``deadwood`` (the kept cards) under ``deal.rules``."""
    rules = deal.rules
    meld_points = sum(m.points for m in melds)
    if rules.objective in ("cascade", "marriage"):
        count = cascade_count(melds, deadwood, deal)
        penalty = count if rules.points_cap is None else min(count, rules.points_cap)
        declarable = not deadwood and meets_declaration(melds, deal)
        return Points(count, meld_points, meld_points - count, penalty, declarable)
    deadwood_points = sum(base_points(c, deal) for c in deadwood)
    if rules.knock_limit is not None:
        declarable = deadwood_points <= rules.knock_limit
    else:
        declarable = not deadwood
    return Points(
        deadwood_points, meld_points, meld_points - deadwood_points, deadwood_points, declarable
    )
