"""The draw hint's query of a search: a hand plus one drawn card, the card decided first.

``solver.hints.draw_hint`` asks, for every card that could be drawn, the
optimum of the hand plus that card with one card discarded; its take (the
discard-pile top, which may not go straight back) asks the same with the
drawn card kept.  ``draw_cost`` answers on a ``PassSearch`` of the hand: the
drawn card's fate is decided first -- discarded, kept unmelded, pooled (a
wild card), or in a meld with cards of the hand -- so every state searched
afterwards belongs to the hand alone and the search's memo serves every draw
of it.  ``solver.engines.passes.SearchSession.draw_value`` runs it over the
passes of a variant.
"""

from __future__ import annotations

from solver.cards import JOKER
from solver.engines.arrangement import State, discard_after
from solver.engines.base import INFEASIBLE
from solver.engines.rows import Row
from solver.engines.search import PassSearch, Root


def draw_cost(search: PassSearch, hand: Root, card: int, bound: int = INFEASIBLE,
              keep: bool = False) -> tuple[int, int | None, bool]:
    """The optimal cost of ``hand`` plus ``card`` if below ``bound`` (else a
    value >= ``bound``), the discard of an optimal arrangement, and whether
    the cost is exact (below ``bound``).  Exact, like ``PassSearch.solve``;
    among discards of equal cost the one named may differ.  ``keep``: the
    drawn card may not be the discard."""
    best_value, best_fate = _draw_fate(search, hand, card, bound, keep)
    if best_fate is None:
        return max(best_value, bound), None, False
    state, fate = best_fate
    if fate == "discard":
        return best_value, card, True
    if fate == "pool":
        return best_value, discard_after(search, state, [JOKER] * hand.jokers + [card]), True
    # Many draws end in the same state (every card kept unmelded, say):
    # its discard is walked out of the memo once.
    key = (state, hand.jokers)
    thrown = search.discards.get(key, -1)
    if thrown == -1:
        thrown = search.discards[key] = discard_after(search, state, [JOKER] * hand.jokers)
    return best_value, thrown, True


def _draw_fate(search: PassSearch, hand: Root, card: int, bound: int, keep: bool,
               ) -> tuple[int, tuple[State, str | Row] | None]:
    """The best fate of the drawn ``card`` below ``bound``: its total cost
    and (the state after it, the fate), or a value >= ``bound`` and None.

    The fates: discarded (when ``hand`` owes a discard and not ``keep``: a
    card taken from the discard pile may not go straight back), kept
    unmelded, pooled (a wild card), or in a meld with cards of the hand."""
    base_pool = search.initial_pool(hand)
    code, owed = hand.code, hand.owed
    # (cost, floor, state after the fate, wild-capable naturals left, fate)
    fates: list[tuple[int, int, State, int, str | Row]] = []
    if owed and not keep:
        fates.append((0, hand.floor, (code, base_pool, 0, False, 0, 0, 0, 0, ()), hand.dual,
                      "discard"))
    if card in search.deal.wild:
        pooled = search.add_to_pool(base_pool, card)
        floor = hand.floor + search.pool_floor(pooled, 0) - search.pool_floor(base_pool, 0)
        fates.append((0, floor, (code, pooled, 0, owed, 0, 0, 0, 0, ()), hand.dual, "pool"))
    elif not search.meld_all:
        fates.append((search.hand_cost[card], hand.floor, (code, base_pool, 0, owed, 0, 0, 0, 0, ()),
                      hand.dual, "dead"))
    if card != JOKER and search.melds_allowed:
        for row in search.through_rows(card, code):
            cstate = search.step[0][row.cls]
            if cstate < 0:
                continue
            fates.append((row.cost, hand.floor - row.floor_used,
                          (code - row.delta, base_pool, row.wilds, owed, cstate,
                           min(row.points, search.points_cap), 0, row.room, row.barred),
                          hand.dual - row.dual_used, row))
    best_value, best_fate = INFEASIBLE, None
    for cost, floor, state, dual, fate in fates:
        limit = (bound if bound < best_value else best_value) - cost
        if limit > INFEASIBLE:
            limit = INFEASIBLE
        if floor >= limit:
            continue
        search.dual_left = dual
        search.path = []
        code, pool, debt, owed, cstate, points, used, room, barred = state
        value = search.best(code, floor, pool, debt, owed, cstate, points, used, room, 0, limit,
                            barred)
        if value < limit:
            best_value, best_fate = cost + value, (state, fate)
    return best_value, best_fate
