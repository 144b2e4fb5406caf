"""Figures of played gin hands: what each side did, read from the referee's
log, and one side's rates over many hands (their intervals over mirrored
pairs: ``runner``, with ``benchmarks.arena.core.stats``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from benchmarks.arena.core.stats import percentile
from benchmarks.arena.gin.cards import mask_of
from benchmarks.arena.gin.game import HandRecord
from benchmarks.arena.gin.melds import melded_cards
from benchmarks.arena.gin.protocol import ActionKind, Phase
from benchmarks.arena.gin.referee import LogEntry


@dataclass(frozen=True, slots=True)
class SideFacts:
    """What one seat did in one hand."""

    knocked: bool
    gin: bool
    undercut_suffered: bool
    turns_to_knock: int | None
    pickups: int
    pickups_without_meld: int
    discards_exposed: int
    discards_taken_next: int
    illegal: bool


def side_facts(record: HandRecord, seat: int) -> SideFacts:
    """Read one seat's facts from a hand's log and result.

    * a pickup formed no meld when the card taken is in no meld of the ten
      cards kept after that turn's discard (thrown back counts as none);
    * a discard is exposed when the opponent draws next (the hand goes on),
      and taken when that draw takes it (also by knocking at the wall).
    """
    log = record.log
    result = record.result
    knocked = result is not None and result.knocker == seat
    turns = 0
    turns_to_knock = None
    pickups = without_meld = exposed = taken_next = 0
    for index, entry in enumerate(log):
        if entry.seat != seat:
            continue
        drew = entry.action.kind in (ActionKind.TAKE_DISCARD, ActionKind.DRAW_STOCK) or (
            entry.phase == Phase.WALL and entry.action.kind == ActionKind.KNOCK)
        if drew:
            turns += 1
        if entry.action.kind == ActionKind.KNOCK and turns_to_knock is None:
            turns_to_knock = turns
        took_top = entry.action.kind == ActionKind.TAKE_DISCARD or (
            entry.phase == Phase.WALL and entry.action.kind == ActionKind.KNOCK)
        if took_top and entry.received is not None:
            pickups += 1
            kept = _kept_after(log, index, seat)
            if kept is None or not (kept >> entry.received & 1 and melded_cards(kept) >> entry.received & 1):
                without_meld += 1
        if entry.phase == Phase.DISCARD and entry.action.kind == ActionKind.DISCARD:
            following = log[index + 1] if index + 1 < len(log) else None
            if following is not None and following.seat != seat:
                exposed += 1
                if following.action.kind == ActionKind.TAKE_DISCARD or (
                        following.phase == Phase.WALL and following.action.kind == ActionKind.KNOCK):
                    taken_next += 1
    return SideFacts(
        knocked=knocked,
        gin=knocked and result is not None and result.outcome == "gin",
        undercut_suffered=knocked and result is not None and result.outcome == "undercut",
        turns_to_knock=turns_to_knock if knocked else None,
        pickups=pickups,
        pickups_without_meld=without_meld,
        discards_exposed=exposed,
        discards_taken_next=taken_next,
        illegal=record.violation is not None and record.violation.seat == seat,
    )


def _kept_after(log: Sequence[LogEntry], index: int, seat: int) -> int | None:
    """The mask of the ten cards ``seat`` kept after the discard that
    follows entry ``index`` (None if the hand stopped before it)."""
    for entry in log[index + 1:]:
        if entry.seat == seat and entry.action.kind == ActionKind.DISCARD:
            return mask_of(entry.hand_after)
    return None


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's rates over many hands."""

    hands: int
    knock_rate: float
    gin_rate: float
    undercut_rate: float
    first_knocker_rate: float
    turns_to_knock: float
    pickups: int
    pickup_without_meld_rate: float
    discards_exposed: int
    discard_taken_rate: float
    illegal_moves: int
    decisions: int
    decision_median_ms: float
    decision_p99_ms: float


def _share(part: int, whole: int) -> float:
    return part / whole if whole else math.nan


def summarize_side(facts: Sequence[SideFacts], knock_ended_hands: int,
                   decision_ns: Iterable[int]) -> SideSummary:
    """Rates of one side: knocks and gins per hand, undercuts suffered per
    knock, knocks per hand ended by a knock (who wins the race to knock),
    turns to knock, pickups without a meld, discards the opponent took."""
    times = [ns / 1e6 for ns in decision_ns]
    knocks = sum(f.knocked for f in facts)
    turns = [f.turns_to_knock for f in facts if f.turns_to_knock is not None]
    pickups = sum(f.pickups for f in facts)
    exposed = sum(f.discards_exposed for f in facts)
    return SideSummary(
        hands=len(facts),
        knock_rate=_share(knocks, len(facts)),
        gin_rate=_share(sum(f.gin for f in facts), len(facts)),
        undercut_rate=_share(sum(f.undercut_suffered for f in facts), knocks),
        first_knocker_rate=_share(knocks, knock_ended_hands),
        turns_to_knock=statistics.fmean(turns) if turns else math.nan,
        pickups=pickups,
        pickup_without_meld_rate=_share(sum(f.pickups_without_meld for f in facts), pickups),
        discards_exposed=exposed,
        discard_taken_rate=_share(sum(f.discards_taken_next for f in facts), exposed),
        illegal_moves=sum(f.illegal for f in facts),
        decisions=len(times),
        decision_median_ms=statistics.median(times) if times else math.nan,
        decision_p99_ms=percentile(times, 0.99),
    )
