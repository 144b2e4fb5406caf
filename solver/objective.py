"""Each variant's objective as one or more additive *passes* the engines solve.

A pass is a min-cost arrangement problem: every kept card costs
``hand_cost`` when unmelded and ``meld_cost`` when melded, the discard (when
asked for) costs nothing, and the melds obey the pass's *limits*: counting
constraints over the melds laid down (at least / exactly / at most so many
sets, runs, sequences, pure sequences or melds of any kind), a points
threshold, and whether every kept card must be melded.  The variant's optimum
is the cheapest pass, an earlier pass winning ties (RULES.md section 3):

* ``min_deadwood`` / ``max_net`` -- one pass (melded cards cost minus their
  points under ``max_net``); with requirements or an opening threshold, a
  *lay-down* pass that must meet them, then a *nothing* pass (no melds: every
  card counts, as for a hand that cannot open);
* ``cascade`` -- the declaration (requirements met: unmelded cards count),
  one pure sequence shown with everything else counting (``penalty_tiers``
  3), and every card counting;
* ``marriage`` -- the declaration, or at most two pure sequences shown with
  every other non-wild card counting, a tier that only applies when those
  melds do *not* declare (``Pass.unless``): its wild cards count nothing,
  which the declaration's arrangements do not get.  (In the other passes a
  lower tier never scores below the declaration's count of the same
  melds, so they need no such condition.)

Engines never name a requirement: they iterate ``Pass.limits`` through the
``Counters`` automaton below.

Costs are scaled by ``TIE_SCALE`` and increased by one per unmelded card so
that, among equal points, arrangements melding more cards win (a declarable
Indian hand beats an equally cheap one that leaves a joker loose).  An
``untied`` pass drops that unit: its optimum is the same number of points,
found without ranking the arrangements that tie on points (what a draw
hint's expectation needs).
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from solver.rules import Deal, Rules, melded_points

TIE_SCALE = 64  # > the 30-card hand limit, so the card count only breaks ties

LimitKind = Literal["set", "run", "sequence", "pure_sequence", "meld"]
LimitOp = Literal["at_least", "exactly", "at_most"]

MELD_CLASSES: tuple[tuple[str, bool], ...] = (
    ("set", False), ("run", True), ("run", False), ("tanala", True))
"""Every (kind, pure) a meld can have; ``class_of`` numbers them."""


def class_of(kind: str, pure: bool) -> int:
    """Index of a meld's (kind, pure) in ``MELD_CLASSES``."""
    return MELD_CLASSES.index((kind, pure if kind != "set" else False))


@dataclass(frozen=True, slots=True)
class Limit:
    """A counting constraint over the melds laid down."""

    kind: LimitKind
    count: int
    op: LimitOp

    def counts(self, kind: str, pure: bool) -> bool:
        """Whether a meld of ``kind`` / ``pure`` counts towards this limit."""
        if self.kind == "meld":
            return True
        if self.kind == "sequence":
            return kind != "set"
        if self.kind == "pure_sequence":
            return kind != "set" and pure
        return kind == self.kind

    def met(self, value: int) -> bool:
        """The final count satisfies the limit."""
        if self.op == "at_least":
            return value >= self.count
        if self.op == "exactly":
            return value == self.count
        return value <= self.count


@dataclass(frozen=True, slots=True)
class Pass:
    """One min-cost arrangement problem (see the module docstring)."""

    name: str
    limits: tuple[Limit, ...] = ()
    pure_only: bool = False  # only pure sequences may be melded
    min_points: int = 0  # the melds must be worth at least this
    meld_all: bool = False  # every kept card must be melded
    net: bool = False  # melded cards cost minus their points (max_net)
    wilds_exempt: bool = False  # unmelded wild cards cost nothing (marriage, low tier)
    zero_cost: bool = False  # every card costs nothing: a pure feasibility question
    tie_break: bool = True  # an unmelded card costs one unit more (see the module docstring)
    # A lower tier: the melds must not meet all of ``unless`` *and* be worth
    # ``unless_points`` or more (the declaration's requirements and threshold).
    unless: tuple[Limit, ...] | None = None
    unless_points: int = 0
    # Passes key the engines' caches, many times per search: hashed once.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((
            self.name, self.limits, self.pure_only, self.min_points, self.meld_all, self.net,
            self.wilds_exempt, self.zero_cost, self.tie_break, self.unless, self.unless_points)))

    def __hash__(self) -> int:
        return self._hash

    def hand_cost(self, card: int, deal: Deal) -> int:
        """Cost of an unmelded kept card (points, scaled, plus the tie unit)."""
        if self.zero_cost:
            return 0
        points = 0 if self.wilds_exempt and card in deal.wild else deal.points[card]
        return points * TIE_SCALE + self.tie_break

    def meld_cost(self, card: int, represents: int, deal: Deal, low_ace: bool) -> int:
        """Cost of a melded card (``represents`` -1: a wild card in some slot)."""
        if not self.net or self.zero_cost:
            return 0
        if represents < 0:
            return -deal.meld_points[card] * TIE_SCALE if deal.rules.wild_meld_value == "own" else 0
        return -melded_points(card, represents, deal, low_ace) * TIE_SCALE

    @property
    def max_melds(self) -> int | None:
        """The most melds this pass allows (None: no limit)."""
        caps = [lim.count for lim in self.limits if lim.kind == "meld" and lim.op == "at_most"]
        return min(caps) if caps else None

    @property
    def points_cap(self) -> int:
        """Meld points above this change nothing (the engines count up to it)."""
        return max(self.min_points, self.unless_points)

    @property
    def counters(self) -> Counters:
        """The counting automaton of ``limits`` and ``unless`` (built once per pass)."""
        return _counters(self.limits, self.unless, self.unless_points > 0)


class Counters:
    """The limits of a pass as a small automaton over meld classes.

    State 0 is "no meld yet"; ``step[state][cls]`` is the state after melding
    one more meld of class ``cls`` (``class_of``), or -1 when that breaks an
    exact or at-most limit; ``accept[state]`` says whether every limit is met.
    Counts are capped at what matters (an "at least 2" counter stops at 2).

    A pass's ``unless`` limits are counted alongside and never break a step.
    A state meeting them all is not accepted -- unless the pass has
    ``unless_points`` (``points``): then ``below[state]`` is true instead,
    and the melds must be worth less than those points.
    """

    def __init__(self, limits: tuple[Limit, ...], unless: tuple[Limit, ...] | None = None,
                 points: bool = False) -> None:
        self.limits = limits
        own = len(limits)
        watched = limits + (unless or ())
        caps = [lim.count + (0 if lim.op == "at_least" else 1) for lim in watched]
        states = list(itertools.product(*(range(cap + 1) for cap in caps)))
        index = {s: i for i, s in enumerate(states)}
        self.size = len(states)
        self.trivial = not limits
        declares = [unless is not None
                    and all(lim.met(v) for lim, v in zip(unless, s[own:], strict=True))
                    for s in states]
        self.accept = [all(lim.met(v) for lim, v in zip(limits, s[:own], strict=True))
                       and not (declared and not points)
                       for s, declared in zip(states, declares, strict=True)]
        self.below = [declared and points for declared in declares]
        self.step: list[list[int]] = []
        for state in states:
            row = []
            for kind, pure in MELD_CLASSES:
                after = tuple(
                    min(v + lim.counts(kind, pure), cap)
                    for lim, v, cap in zip(watched, state, caps, strict=True))
                broken = any(lim.op != "at_least" and v > lim.count
                             for lim, v in zip(limits, after[:own], strict=True))
                row.append(-1 if broken else index[after])
            self.step.append(row)
        self.counts = states
        # Pure sequences still missing for an "at least" limit, per state.
        self.pure_short = [max([0, *(lim.count - v for lim, v in zip(limits, s[:own], strict=True)
                                     if lim.kind == "pure_sequence" and lim.op == "at_least")])
                           for s in states]


@lru_cache(maxsize=256)
def _counters(limits: tuple[Limit, ...], unless: tuple[Limit, ...] | None = None,
              points: bool = False) -> Counters:
    return Counters(limits, unless, points)


def requirement_limits(rules: Rules) -> tuple[Limit, ...]:
    """The variant's requirement items as limits."""
    return tuple(Limit(r.kind, r.count, "exactly" if r.exact else "at_least")
                 for r in rules.requirements)


_NO_MELDS = (Limit("meld", 0, "at_most"),)


@lru_cache(maxsize=1024)
def passes_for(deal: Deal) -> tuple[Pass, ...]:
    """The passes whose cheapest answer is the variant's optimum, best tier first."""
    rules = deal.rules
    limits = requirement_limits(rules)
    threshold = rules.min_meld_points or 0
    if rules.objective in ("min_deadwood", "max_net"):
        net = rules.objective == "max_net"
        if rules.has_opening:
            return (Pass("lay_down", limits, min_points=threshold, meld_all=rules.lay_down_all,
                         net=net),
                    Pass("nothing", _NO_MELDS, net=net))
        return (Pass(rules.objective, net=net),)
    # The Indian tiers read the requirements and the threshold only
    # (scoring.cascade_count); lay_down_all is a lay-down knob (above).
    declared = Pass("declared", limits, min_points=threshold)
    if rules.objective == "cascade":
        if rules.penalty_tiers == 3:
            return (declared,
                    Pass("one_pure_sequence", (Limit("meld", 1, "at_most"),), pure_only=True))
        return (declared, Pass("all_cards", _NO_MELDS, pure_only=True))
    if not limits and not threshold:
        return (declared,)  # every arrangement declares: the lower tier never applies
    return (declared, Pass("two_pure_sequences", (Limit("meld", 2, "at_most"),), pure_only=True,
                           wilds_exempt=True, unless=limits, unless_points=threshold))


def untied(objective: Pass) -> Pass:
    """``objective`` without the tie unit: the same optimal points, every
    arrangement reaching them equally good."""
    return dataclasses.replace(objective, tie_break=False)


def go_out_pass(deal: Deal) -> Pass:
    """The first pass with every kept card melded: the best way to go out."""
    return dataclasses.replace(passes_for(deal)[0], name="go_out", meld_all=True)


@lru_cache(maxsize=256)
def least_deadwood_passes(deal: Deal) -> tuple[Pass, ...]:
    """The variant's passes priced by the cards kept in hand alone: their
    cheapest answer keeps the least deadwood any arrangement of the hand
    can, which is what knocking asks (RULES.md section 5.1), whatever the
    objective optimises."""
    return tuple(dataclasses.replace(p, name=f"{p.name}/deadwood", net=False)
                 for p in passes_for(deal))


def plain_pass(deal: Deal) -> Pass:
    """The objective with no requirement or threshold (a player who has
    already laid down: layoffs and later melds)."""
    net = deal.rules.objective == "max_net"
    return Pass("max_net" if net else "min_deadwood", net=net)


@lru_cache(maxsize=1024)
def pure_sequences_possible(objective: Pass) -> Pass | None:
    """A cheap necessary condition for ``objective``: can the hand show its
    required number of pure sequences at all?  None when nothing is required."""
    needed = max((lim.count for lim in objective.limits
                  if lim.kind == "pure_sequence" and lim.op != "at_most"), default=0)
    if needed == 0:
        return None
    return Pass("pure_feasibility", (Limit("pure_sequence", needed, "at_least"),),
                pure_only=True, zero_cost=True)
