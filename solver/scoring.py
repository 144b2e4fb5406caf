"""Points of an arrangement (melds + deadwood) under a variant's objective.

Shared by ``solve`` (to report an engine's answer) and ``validate`` (to score a
declared hand); it knows nothing about engines, so tests can trust it as an
independent check of the engines' internal costs.

Requirements (``Rules.requirements``) and the opening threshold
(``min_meld_points``) are checked on the melds themselves: a set counts for
``set``, a run for ``run``, runs and tanalas for ``sequence``, those without
a stand-in for ``pure_sequence``.  Under a variant where the melds laid down
must meet them (contract rummy, Kalooki, a house variant with requirements),
melds that do not meet them cannot go down: every card then counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.results import Meld
from solver.rules import Deal, Requirement, Rules


@dataclass(frozen=True, slots=True)
class Points:
    """Points of one arrangement (see ``Solution`` for the meaning of each).

    ``opened`` is whether the melds were laid down under a variant with an
    opening (requirements or a threshold); None under one without."""

    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int
    declarable: bool
    opened: bool | None = None


def requirement_count(melds: Sequence[Meld], requirement: Requirement) -> int:
    """How many of ``melds`` count towards ``requirement``."""
    return sum(1 for m in melds if requirement.counts(m.kind, m.pure))


def unmet_requirements(melds: Sequence[Meld], rules: Rules) -> list[tuple[Requirement, int]]:
    """Each requirement item the melds miss, with the count they have."""
    out = []
    for item in rules.requirements:
        have = requirement_count(melds, item)
        if have < item.count or (item.exact and have != item.count):
            out.append((item, have))
    return out


def meets_declaration(melds: Sequence[Meld], deal: Deal) -> bool:
    """The melds meet the variant's requirements and points threshold."""
    rules = deal.rules
    if unmet_requirements(melds, rules):
        return False
    return not rules.min_meld_points or sum(m.points for m in melds) >= rules.min_meld_points


def cascade_count(melds: Sequence[Meld], deadwood: Sequence[int], deal: Deal) -> int:
    """The uncapped count an Indian hand pays for this arrangement (RULES.md §3)."""
    rules = deal.rules
    points = deal.points
    deadwood_total = sum(points[c] for c in deadwood)
    if meets_declaration(melds, deal):
        return deadwood_total
    all_cards = [c for m in melds for c in m.cards] + list(deadwood)
    if rules.objective == "marriage":
        # Every wild card and the cards of at most two shown pure sequences are exempt.
        def counted(cards: Sequence[int]) -> int:
            return sum(points[c] for c in cards if c not in deal.wild)

        pure_counted = sorted(
            (counted(m.cards) for m in melds if m.is_sequence and m.pure), reverse=True
        )
        return counted(all_cards) - sum(pure_counted[:2])
    total = sum(points[c] for c in all_cards)
    pure_points = [sum(points[c] for c in m.cards) for m in melds if m.is_sequence and m.pure]
    if pure_points and rules.penalty_tiers == 3:
        return total - max(pure_points)
    return total


def score_arrangement(melds: Sequence[Meld], deadwood: Sequence[int], deal: Deal) -> Points:
    """Points of ``melds`` + ``deadwood`` (the kept cards) under ``deal.rules``."""
    rules = deal.rules
    points = deal.points
    if rules.objective in ("cascade", "marriage"):
        meld_points = sum(m.points for m in melds)
        count = cascade_count(melds, deadwood, deal)
        penalty = count if rules.points_cap is None else min(count, rules.points_cap)
        declarable = not deadwood and meets_declaration(melds, deal)
        return Points(count, meld_points, meld_points - count, penalty, declarable)
    opened: bool | None = None
    if rules.has_opening:
        opened = bool(melds) and meets_declaration(melds, deal) and not (
            rules.lay_down_all and deadwood)
        if not opened:
            # Melds that cannot go down stay in hand: every card counts.
            deadwood = [*deadwood, *(c for m in melds for c in m.cards)]
            melds = ()
    meld_points = sum(m.points for m in melds)
    deadwood_points = sum(points[c] for c in deadwood)
    declarable = plain_declarable(melds, deadwood, deadwood_points, opened, deal)
    return Points(deadwood_points, meld_points, meld_points - deadwood_points, deadwood_points,
                  declarable, opened)


def plain_declarable(melds: Sequence[Meld], deadwood: Sequence[int], deadwood_points: int,
                     opened: bool | None, deal: Deal) -> bool:
    """RULES.md section 3 outside the Indian variants: the hand could knock
    (deadwood within the knock limit; without one, only gin: deadwood 0), lay
    its melds down (``lay_down``) or go out (nothing left over, the
    requirements met)."""
    rules = deal.rules
    if rules.declaration == "knock":
        return deadwood_points <= rules.knock_deadwood
    if rules.declaration == "lay_down":
        return bool(opened) if opened is not None else bool(melds)
    return not deadwood and (opened is not False) and meets_declaration(melds, deal)
