"""The points of a gin knock, fast: the defender's layoffs and the outcome.

``defender_deadwood`` is the least deadwood the defender keeps after laying
off onto the knocker's melds (a set's missing fourth card; cards at either
end of a run, chained outward) and melding the rest: every choice of layoffs
is tried, and what stays is valued exactly (``GinHands``).  ``knock_points``
applies the variant's scoring (gin bonus, undercut bonus, undercut on a tie).
The library's ``gin_score`` answers the same question with every arrangement
of the knocker and explanations; this is its inner loop for simulated hands.

>>> from solver.rules import make_deal, make_rules
>>> from solver.play.gin.hands import GinHands, mask_of
>>> hands = GinHands(make_deal(make_rules("gin")))
>>> knocker = (mask_of([14, 15, 16]), mask_of([2, 28, 41]))  # 2-3-4H, 3S 3D 3C
>>> defender = mask_of([17, 18, 15, 10, 11, 12, 30, 31, 45, 46])  # 5H 6H 3H JS QS KS 5D 6D 7C 8C
>>> defender_deadwood(hands, knocker, defender)  # 5H 6H onto the run, 3H onto the set
26
>>> hands.deadwood(defender)
40
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from solver.objective import TIE_SCALE
from solver.play.gin.hands import GinHands, layoff_starts
from solver.rules import Rules


def _extensions(meld: int, defender: int) -> list[list[int]]:
    """The layoff choices one knocker meld offers the defender: per place it
    may lay off (``layoff_starts``: an end of a run, a set's missing card)
    where it holds the first card, the chains of cards it could lay there,
    shortest first (the empty choice included)."""
    ends = []
    for card, step in layoff_starts(meld):
        chain = [0]
        laid = 0
        suit_base = card - card % 13
        while defender >> card & 1:
            laid |= 1 << card
            chain.append(laid)
            card += step
            if not step or not suit_base <= card < suit_base + 13:
                break
        if laid:
            ends.append(chain)
    return ends


def defender_deadwood(hands: GinHands, knocker_melds: Sequence[int], defender: int) -> int:
    """The defender's least deadwood after its best layoffs onto ``knocker_melds``."""
    choices: list[list[int]] = []
    for meld in knocker_melds:
        choices.extend(_extensions(meld, defender))
    if not choices:
        return hands.deadwood(defender)
    best = hands.cost(defender)
    for picks in product(*choices):
        laid = 0
        for pick in picks:
            laid |= pick
        if laid:
            cost = hands.cost(defender & ~laid)
            if cost < best:
                best = cost
    return best // TIE_SCALE


def knock_points(rules: Rules, knocker: int, defender: int) -> int:
    """What the knocker scores (negative: the defender scores) when it knocks
    with ``knocker`` deadwood against ``defender`` deadwood after layoffs."""
    if knocker == 0:
        return rules.gin_bonus + defender
    if defender < knocker or (defender == knocker and rules.undercut_on_tie):
        return -(rules.undercut_bonus + knocker - defender)
    return defender - knocker
