"""Each variant's objective as one or more additive *passes* the engines solve.

A pass is a min-cost arrangement problem: every kept card costs
``hand_cost`` when unmelded and ``meld_cost`` when melded, the discard (when
asked for) costs nothing, and the melds obey the pass's limits (pure
sequences only, at most N melds, at least so many (pure) sequences).  The
variant's optimum is the cheapest pass (RULES.md §3):

* ``min_deadwood`` -- one pass;  ``max_net`` -- one pass with melded cards
  costing minus their points;
* ``cascade`` -- tier 3 (declaration requirements met: unmelded cards count),
  tier 2 (one pure sequence shown, everything else counts; only with
  ``penalty_tiers`` = 3) and tier 1 (every card counts);
* ``marriage`` -- 3+ pure sequences (unmelded count), or at most two pure
  sequences shown with every other non-wild card counting.

Costs are scaled by ``TIE_SCALE`` and increased by one per unmelded card so
that, among equal points, arrangements melding more cards win (a declarable
Indian hand beats an equally cheap one that leaves a joker loose).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.rules import Deal, base_points, melded_points

TIE_SCALE = 64  # > the 30-card hand limit, so the card count only breaks ties


@dataclass(frozen=True, slots=True)
class Pass:
    """One min-cost arrangement problem (see the module docstring)."""

    name: str
    pure_only: bool
    max_melds: int | None
    min_sequences: int
    min_pure: int
    net: bool  # melded cards cost minus their points (max_net)
    wilds_exempt: bool  # unmelded wild cards cost nothing (marriage, low tier)
    zero_cost: bool = False  # every card costs nothing: a pure feasibility question

    def hand_cost(self, card: int, deal: Deal) -> int:
        """Cost of an unmelded kept card (points, scaled, plus the tie unit)."""
        if self.zero_cost:
            return 0
        points = 0 if self.wilds_exempt and card in deal.wild else base_points(card, deal)
        return points * TIE_SCALE + 1

    def meld_cost(self, card: int, represents: int, deal: Deal, low_ace: bool) -> int:
        """Cost of a melded card."""
        if not self.net or self.zero_cost:
            return 0
        return -melded_points(card, represents, deal, low_ace) * TIE_SCALE


def pure_sequences_possible(objective: Pass) -> Pass | None:
    """A cheap necessary condition for ``objective``: can the hand show its
    required number of pure sequences at all?  None when nothing is required."""
    if objective.min_pure == 0:
        return None
    return Pass("pure_feasibility", True, None, 0, objective.min_pure, False, False, True)


def passes_for(deal: Deal) -> tuple[Pass, ...]:
    """The passes whose cheapest answer is the variant's optimum, best tier first."""
    rules = deal.rules
    if rules.objective == "min_deadwood":
        return (Pass("min_deadwood", False, None, 0, 0, False, False),)
    if rules.objective == "max_net":
        return (Pass("max_net", False, None, 0, 0, True, False),)
    declared = Pass("declared", False, None, rules.min_sequences, rules.min_pure_sequences,
                    False, False)
    if rules.objective == "cascade":
        if rules.penalty_tiers == 3:
            return (declared, Pass("one_pure_sequence", True, 1, 0, 0, False, False))
        return (declared, Pass("all_cards", True, 0, 0, 0, False, False))
    return (declared, Pass("two_pure_sequences", True, 2, 0, 0, False, True))
