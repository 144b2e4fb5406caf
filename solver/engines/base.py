"""What every engine receives and returns (same signature for each engine)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.deadline import DeadlineExceeded
from solver.melds import Candidate
from solver.results import Status
from solver.rules import Deal


@dataclass(frozen=True, slots=True)
class Instance:
    """A prepared problem: the deal, the hand (sorted card ids), whether one
    card must be discarded."""

    deal: Deal
    cards: tuple[int, ...]
    discard: bool


@dataclass(frozen=True, slots=True)
class PlacedMeld:
    """An engine's chosen meld: a candidate plus the physical wild cards that
    fill its wild slots (in slot order)."""

    candidate: Candidate
    wild_cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EngineResult:
    """An engine's answer: melds, unmelded kept cards, the discard and how sure
    it is (``optimal`` only when proved).  ``cost`` is the pass cost (see
    ``solver.objective``); ``pass_name`` the tier that won."""

    melds: tuple[PlacedMeld, ...]
    deadwood: tuple[int, ...]
    discard: int | None
    cost: int
    pass_name: str
    status: Status
    optimal: bool
    nodes: int = 0


class BudgetExceeded(DeadlineExceeded):
    """The search went past its work budget (or its deadline).

    A ``DeadlineExceeded``: code that stops on one stops on the other, so a
    deadline raised anywhere below a search (the candidate generator, say)
    ends it the same way."""


INFEASIBLE = 10**12


def wild_count(cards: Sequence[int], deal: Deal) -> int:
    """Cards of ``cards`` that may fill a wild slot (the candidate wild cap)."""
    return sum(1 for c in cards if c in deal.wild)
