"""Value types returned by the library: melds, solutions, validation reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from solver.cards import card_name

MeldKind = Literal["set", "run", "tanala"]
Status = Literal["optimal", "feasible", "timeout", "infeasible"]


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld: ``cards[i]`` is a physical card standing for ``represents[i]``.

    Cards are listed in meld order (runs low to high, sets by suit S H D C).
    ``pure`` is true when no wild card stands for another card (a wild-rank
    card used as itself keeps a run pure); sets are never pure.  ``points`` is
    what the meld's cards score when melded under the variant.
    """

    kind: MeldKind
    cards: tuple[int, ...]
    represents: tuple[int, ...]
    pure: bool
    points: int

    @property
    def is_sequence(self) -> bool:
        """Runs and tanalas count as sequences for Indian declarations."""
        return self.kind != "set"

    @property
    def wild_count(self) -> int:
        """Cards standing in for another card."""
        return sum(1 for c, r in zip(self.cards, self.represents, strict=True) if c != r)

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "kind": self.kind,
            "cards": [card_name(c) for c in self.cards],
            "represents": [card_name(c) for c in self.represents],
            "pure": self.pure,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class GoOut:
    """The best arrangement that melds every kept card (``discard`` aside)."""

    melds: tuple[Meld, ...]
    discard: int | None
    meld_points: int
    net_points: int
    optimal: bool

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "melds": [m.to_dict() for m in self.melds],
            "discard": None if self.discard is None else card_name(self.discard),
            "meld_points": self.meld_points,
            "net_points": self.net_points,
            "optimal": self.optimal,
        }


@dataclass(frozen=True, slots=True)
class Solution:
    """The optimal arrangement of a hand under one variant.

    * ``deadwood_points`` -- points of the cards that count against the hand
      (for Indian variants the uncapped cascade count);
    * ``penalty_points`` -- what the hand pays (Indian: capped count; else the
      deadwood points);
    * ``meld_points`` / ``net_points`` -- melded points and melded minus
      deadwood (the ``max_net`` objective);
    * ``declarable`` -- per RULES.md section 3: a property of the hand (it
      could declare / knock / go out / lay its contract down);
    * ``can_open`` -- under a variant with an opening (contract, Kalooki,
      requirements or a threshold): the melds can be laid down; else None;
    * ``go_out`` -- when the best arrangement keeps cards back but another
      melds every kept card (basic, rummy500, rommy, contract, Kalooki): that
      arrangement; else None;
    * ``optimal`` -- the engine proved optimality.
    """

    variant: str
    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]
    discard: int | None
    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int
    declarable: bool
    optimal: bool
    engine: str
    status: Status
    can_open: bool | None = None
    go_out: GoOut | None = None

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "variant": self.variant,
            "melds": [m.to_dict() for m in self.melds],
            "deadwood": [card_name(c) for c in self.deadwood],
            "discard": None if self.discard is None else card_name(self.discard),
            "deadwood_points": self.deadwood_points,
            "meld_points": self.meld_points,
            "net_points": self.net_points,
            "penalty_points": self.penalty_points,
            "declarable": self.declarable,
            "can_open": self.can_open,
            "go_out": None if self.go_out is None else self.go_out.to_dict(),
            "optimal": self.optimal,
            "engine": self.engine,
            "status": self.status,
        }


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a declared arrangement."""

    code: str
    message: str
    meld_index: int | None = None
    card: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {"code": self.code, "message": self.message,
                "meld_index": self.meld_index, "card": self.card}


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Result of ``validate``: every problem found plus the points.

    ``melds`` holds the reading chosen for each valid declared meld (``None``
    where the meld is invalid; its cards then count as deadwood).
    """

    variant: str
    valid: bool
    declarable: bool
    problems: tuple[Problem, ...]
    melds: tuple[Meld | None, ...]
    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {
            "variant": self.variant,
            "valid": self.valid,
            "declarable": self.declarable,
            "problems": [p.to_dict() for p in self.problems],
            "melds": [None if m is None else m.to_dict() for m in self.melds],
            "deadwood_points": self.deadwood_points,
            "meld_points": self.meld_points,
            "net_points": self.net_points,
            "penalty_points": self.penalty_points,
        }


_SOLUTION_SLOTS = tuple(getattr(Solution, name).__set__ for name in Solution.__slots__)


def quick_solution(variant: str, melds: tuple[Meld, ...], deadwood: tuple[int, ...],
                   discard: int | None, deadwood_points: int, meld_points: int,
                   declarable: bool) -> Solution:
    """A proved-optimal search ``Solution`` with nothing to open and no go-out
    alternative, built without the frozen dataclass ``__init__`` (whose
    ``object.__setattr__`` per field is half the cost of the quick path,
    ``solver.quick``).
    Equal to ``Solution(variant, melds, deadwood, discard, deadwood_points,
    meld_points, meld_points - deadwood_points, deadwood_points, declarable,
    True, "search", "optimal")``.

    >>> quick_solution("gin", (), (0,), None, 1, 0, True) == Solution(
    ...     "gin", (), (0,), None, 1, 0, -1, 1, True, True, "search", "optimal")
    True
    """
    solution = object.__new__(Solution)
    (set_variant, set_melds, set_deadwood, set_discard, set_deadwood_points, set_meld_points,
     set_net_points, set_penalty_points, set_declarable, set_optimal, set_engine, set_status,
     set_can_open, set_go_out) = _SOLUTION_SLOTS
    set_variant(solution, variant)
    set_melds(solution, melds)
    set_deadwood(solution, deadwood)
    set_discard(solution, discard)
    set_deadwood_points(solution, deadwood_points)
    set_meld_points(solution, meld_points)
    set_net_points(solution, meld_points - deadwood_points)
    set_penalty_points(solution, deadwood_points)
    set_declarable(solution, declarable)
    set_optimal(solution, True)
    set_engine(solution, "search")
    set_status(solution, "optimal")
    set_can_open(solution, None)
    set_go_out(solution, None)
    return solution
