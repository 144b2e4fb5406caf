"""What one pass charges, as the search reads it: ``PassCosts``.

A pass (``solver.objective.Pass``) prices every card: kept in hand, melded as
itself, melded as a wild card.  The search (``solver.engines.search``) reads
those prices, the pass's counting automaton and a few flags derived from them
(are all wild cards alike? does a spare wild card cost nothing?) in every
state, so they are worked out once per (deal, pass) here, frozen, and shared
by every search of that deal and pass.

>>> from solver.objective import passes_for
>>> from solver.rules import PRESETS, make_deal
>>> deal = make_deal(PRESETS["indian13"], "7")
>>> costs = pass_costs(deal, passes_for(deal)[0])
>>> costs.uniform, costs.priced, len(costs.hand_cost)
(True, False, 53)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solver.cards import JOKER, NUM_CARD_TYPES
from solver.engines.bounds import PureReach, meld_reach
from solver.engines.packed import BITS, FIELD
from solver.objective import Pass
from solver.rules import Deal, own_slot_scores_apart

PoolEntry = tuple[int, int, int, int]
"""A wild card in the pool: (hand cost, melded-as-wild cost, own meld points,
the card itself where some wild slot bars it (``PassCosts.barred``), else -1)."""
Pool = int | tuple[PoolEntry, ...]
"""The wild pool of a search state: a count when every wild card is alike
(``PassCosts.uniform``), else its entries sorted by ``pool_key``."""


def pool_key(entry: PoolEntry) -> tuple[int, int, int]:
    """The pool's order: by how much melding saves, then by hand cost, most
    valuable first (then by the card a barred entry names)."""
    return (entry[1] - entry[0], -entry[0], entry[3])


Settlement = tuple[tuple[PoolEntry, int, int, int], ...]
"""How a pool of unlike wild cards ends: per distinct entry, how many copies
fill the melds' wild slots, are laid off alone, and are the discard (the
rest stay in hand)."""


@lru_cache(maxsize=4096)
def settle(pool: tuple[PoolEntry, ...], melded: int, laid_off: int, owed: int,
           need: int, barred: tuple[int, ...] = ()) -> tuple[int, Settlement] | None:
    """The cheapest way for ``pool`` (sorted by ``pool_key``) to pay ``melded``
    wild slots worth at least ``need`` points together, lay ``laid_off``
    cards off alone and give ``owed`` discards, the rest staying in hand:
    (cost, settlement), or None when it cannot.  ``barred`` lists, per slot
    that bars one, the card that may not fill it (``solver.melds.barred_fillers``):
    the other cards in the slots must be enough for those slots.

    Wild cards that score differently (a joker dear in hand but worth nothing
    melded, a cut card worth more melded than in hand) are not ranked by one
    order: the discard, which costs nothing, is best spent on the card that
    would cost most in hand, which may be one that melding also suits best,
    and a points threshold may want another card in a slot.  So every split
    of each group of like cards is weighed (a few groups, a few cards)."""
    groups = tuple((entry, sum(1 for e in pool if e == entry))
                   for entry in dict.fromkeys(pool))
    best: tuple[int, Settlement] | None = None

    def split(index: int, slots: int, alone: int, thrown: int, short: int, cost: int,
              done: Settlement) -> None:
        nonlocal best
        if index == len(groups):
            if slots == alone == thrown == 0 and short <= 0 and (best is None or cost < best[0]) \
                    and all(barred.count(card) <= melded - sum(n for e, n, _, _ in done
                                                               if e[3] == card)
                            for card in barred):
                best = (cost, done)
            return
        entry, copies = groups[index]
        hand_cost, wild_cost, points, _ = entry
        for in_slots in range(min(copies, slots) + 1):
            for laid in range(min(copies - in_slots, alone) + 1):
                for out in range(min(copies - in_slots - laid, thrown) + 1):
                    kept = copies - in_slots - laid - out
                    split(index + 1, slots - in_slots, alone - laid, thrown - out,
                          short - in_slots * points,
                          cost + (in_slots + laid) * wild_cost + kept * hand_cost,
                          (*done, (entry, in_slots, laid, out)))

    split(0, melded, laid_off, owed, need, 0, ())
    return best


@dataclass(frozen=True, slots=True, eq=False)
class PassCosts:
    """The prices and flags of one pass under one deal (see the module docstring).

    * ``step`` / ``accept`` / ``pure_short``: the pass's counting automaton
      (``solver.objective.Counters``); ``pure_reach`` bounds the pure
      sequences a state can still show (``solver.engines.bounds``).
    * ``points_cap``: meld points are counted up to it; an end state needs
      ``min_points`` and, where ``below`` (a lower tier whose counts would
      declare), less than ``unless_points``.
    * ``hand_cost[c]``, ``wild_cost[c]``: card type ``c`` kept in hand, or
      melded filling a wild slot; ``wild_points[c]`` what it scores so
      (``wild_meld_value="own"``); ``stand_in`` any wild card, when a wild slot
      is worth the card it stands for.
    * ``barred``: the wild cards some wild slot bars (a priced pass only:
      ``solver.rules.own_slot_scores_apart``, a wild ace in the low-ace slot
      of its own run, natural and worth its low points there); their pool
      entries name them, so ``settle`` keeps them out of those slots.
    * ``uniform``: every wild card has the same ``uniform_entry`` (the usual
      case) and none is barred: the pool is a count and a wild card's cost is
      paid when a meld takes it.
    * ``wild_floor`` / ``card_floor[c]``: the least a wild card / card type
      can cost however it ends up used (lower bounds for the branch and bound).
    * ``priced``: meld costs and points matter (``max_net`` or a points
      threshold), so a meld's cost depends on what its wild slots stand for.
    * ``spare_wilds_free``: a wild card left over costs no more than one
      melded, so a meld never needs more wild slots than another with the
      same naturals; ``absorb_spare``: it costs more, so each meld keeps its
      fewest wild slots plus its *room* for more (both only without table
      melds, which the search decides); ``pure_beats_impure``: every limit is
      an "at least", so a pure run beats an impure one with the same naturals.
    """

    objective: Pass
    step: list[list[int]]
    accept: list[bool]
    pure_short: list[int]
    pure_reach: PureReach
    min_points: int
    below: list[bool]
    unless_points: int
    points_cap: int
    meld_all: bool
    jokers_wild: bool
    dual_types: frozenset[int]
    dual_fields: int
    hand_cost: tuple[int, ...]
    wild_cost: tuple[int, ...]
    wild_points: tuple[int, ...]
    stand_in: int | None
    barred: frozenset[int]
    uniform: bool
    uniform_entry: PoolEntry
    wild_floor: int
    card_floor: tuple[int, ...]
    priced: bool
    spare_wilds_free: bool
    absorb_spare: bool
    pure_beats_impure: bool

    def entry(self, card: int) -> PoolEntry:
        """The pool entry of wild card ``card``."""
        return (self.hand_cost[card], self.wild_cost[card], self.wild_points[card],
                card if card in self.barred else -1)


@lru_cache(maxsize=256)
def pass_costs(deal: Deal, objective: Pass) -> PassCosts:
    """The ``PassCosts`` of ``objective`` under ``deal``: built once per pair
    (tens of microseconds, which every search paid before), the last 256
    pairs kept (about 5 KB each; a hint of one deal uses a handful)."""
    counters = objective.counters
    hand_cost = tuple(objective.hand_cost(c, deal) for c in range(NUM_CARD_TYPES))
    wild_cost = tuple(objective.meld_cost(c, -1, deal, False) for c in range(NUM_CARD_TYPES))
    own = deal.rules.wild_meld_value == "own"
    # Under wild_meld_value="represented" a wild slot is worth the card it
    # stands for whatever fills it: any wild card computes it.
    stand_in = None if own or not deal.wild else min(deal.wild)
    wild_points = tuple(deal.meld_points[c] if own else 0 for c in range(NUM_CARD_TYPES))
    priced = objective.net or objective.points_cap > 0
    barred = frozenset(c for c in deal.wild if priced and own_slot_scores_apart(c, deal, True))
    profiles = {(hand_cost[c], wild_cost[c], wild_points[c], -1) for c in deal.wild}
    uniform = len(profiles) <= 1 and not barred
    uniform_entry: PoolEntry = next(iter(profiles)) if profiles else (0, 0, 0, -1)
    # The least a wild card can cost: melded as itself, or (worth the card it
    # stands for) as the most valuable card -- so the floors stay lower bounds
    # however the wild cards end up used.
    wild_floor = min([0, *(wild_cost[c] for c in deal.wild)])
    if stand_in is not None and objective.net:
        wild_floor = min([wild_floor, *(
            objective.meld_cost(stand_in, rep, deal, low)
            for rep in range(JOKER) for low in (False, True))])
    card_floor = tuple(_card_floor(card, objective, deal, wild_floor)
                       for card in range(NUM_CARD_TYPES))
    # When a spare wild card costs no more left over than melded, the
    # extra wild slots of a meld are never needed; when it costs more (the
    # tie unit), the wild cards left at the end fill the melds' room.
    plain = uniform and not priced and not objective.meld_all
    dual_types = frozenset(c for c in deal.wild if c != JOKER)
    return PassCosts(
        objective=objective,
        step=counters.step,
        accept=counters.accept,
        pure_short=counters.pure_short,
        pure_reach=meld_reach(deal.rules),
        min_points=objective.min_points,
        below=counters.below,
        unless_points=objective.unless_points,
        points_cap=objective.points_cap,
        meld_all=objective.meld_all,
        jokers_wild=JOKER in deal.wild,
        dual_types=dual_types,
        dual_fields=sum(FIELD << (BITS * c) for c in dual_types),  # every bit
        hand_cost=hand_cost,
        wild_cost=wild_cost,
        wild_points=wild_points,
        stand_in=stand_in,
        barred=barred,
        uniform=uniform,
        uniform_entry=uniform_entry,
        wild_floor=wild_floor,
        card_floor=card_floor,
        priced=priced,
        spare_wilds_free=plain and uniform_entry[0] <= uniform_entry[1],
        absorb_spare=plain and uniform_entry[0] > uniform_entry[1],
        pure_beats_impure=objective.unless is None and all(
            limit.op == "at_least" for limit in objective.limits),
    )


def _card_floor(card: int, objective: Pass, deal: Deal, wild_floor: int) -> int:
    """The least card type ``card`` can cost in the pass (a lower bound)."""
    if not objective.net:
        return 0
    fates = [0, objective.meld_cost(card, card, deal, False),
             objective.meld_cost(card, card, deal, True)]
    if card in deal.wild:
        fates.append(wild_floor)
    return min(fates)
