"""Candidate-meld generation, shared by every engine.

A candidate is described by the natural cards it consumes (card types, each
standing for itself), how many wild cards it needs and what each position
represents.  Which physical wild cards fill the wild slots is decided by the
engine (any wild card can fill any slot).

``melds_led_by(lead, counts, ...)`` lists the candidates whose lowest natural
card type is ``lead`` given the remaining card counts; the union over every
card type of the hand is the full candidate list (``all_candidates``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import JOKER, make_card
from solver.model import MeldKind
from solver.rules import Deal

# Ace positions in runs: 0 is the ace low; 13 (high_low only) the ace high.


@dataclass(frozen=True, slots=True)
class Candidate:
    """A meld shape: ``naturals`` (sorted card types, lead first) stand for
    themselves; ``represents`` lists every position in meld order with
    ``natural_at[i]`` telling whether position i is filled by a natural card.
    ``low_ace`` marks a natural ace at the bottom of A-2-3...
    """

    kind: MeldKind
    naturals: tuple[int, ...]
    wilds: int
    represents: tuple[int, ...]
    natural_at: tuple[bool, ...]
    low_ace: bool

    @property
    def pure(self) -> bool:
        """No wild slot: a pure sequence when it is a run or tanala."""
        return self.wilds == 0 and self.kind != "set"

    @property
    def is_sequence(self) -> bool:
        """Runs and tanalas are sequences."""
        return self.kind != "set"


def _positions(rank: int, ace: str) -> tuple[int, ...]:
    if ace == "high_low" and rank == 0:
        return (0, 13)
    return (rank,)


def _run_windows(position: int, ace: str) -> list[tuple[int, ...]]:
    """Every window of run positions (as ranks, in order) containing ``position``."""
    windows: list[tuple[int, ...]] = []
    if ace == "wrap":
        for length in range(3, 14):
            for start in range(13):
                ranks = tuple((start + i) % 13 for i in range(length))
                if position in ranks:
                    windows.append(ranks)
        return windows
    top = 13 if ace == "high_low" else 12
    for start in range(0, position + 1):
        for end in range(max(position, start + 2), min(top, start + 12) + 1):
            windows.append(tuple(q % 13 for q in range(start, end + 1)))
    return windows


def _subsets_up_to(items: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    """All subsets of ``items`` with at most ``limit`` elements."""
    result: list[tuple[int, ...]] = [()]
    for item in items:
        result += [s + (item,) for s in result if len(s) < limit]
    return result


def melds_led_by(
    lead: int,
    counts: Sequence[int],
    deal: Deal,
    wild_cap: int,
    pure_only: bool = False,
) -> list[Candidate]:
    """Candidates whose lowest natural card type is ``lead``.

    ``counts`` are the remaining copies of each card type *including* the lead
    copy being placed; only types above ``lead`` may join it (lower types are
    already decided).  At most ``wild_cap`` wild slots are used.
    """
    if lead == JOKER:
        return []
    rules = deal.rules
    cap = 0 if pure_only else wild_cap
    if rules.max_wilds_per_meld is not None:
        cap = min(cap, rules.max_wilds_per_meld)
    min_naturals = rules.min_naturals_per_meld
    out: list[Candidate] = []
    rank, suit = lead % 13, lead // 13

    if rules.tanala_enabled and counts[lead] >= 3 and min_naturals <= 3:
        out.append(Candidate("tanala", (lead, lead, lead), 0, (lead,) * 3, (True,) * 3, False))

    if not pure_only:
        out.extend(_sets_led_by(lead, counts, deal, cap))

    for position in _positions(rank, rules.ace):
        for window in _run_windows(position, rules.ace):
            optional: list[int] = []
            forced_wild = 0
            lead_index = -1
            for i, r in enumerate(window):
                card = make_card(r, suit)
                if card == lead:
                    lead_index = i  # every window holds each rank at most once
                elif card > lead and counts[card] > 0:
                    optional.append(i)
                else:
                    forced_wild += 1
            if lead_index < 0 or forced_wild > cap:
                continue
            length = len(window)
            for wild_choice in _subsets_up_to(optional, cap - forced_wild):
                wilds = forced_wild + len(wild_choice)
                if length - wilds < min_naturals:
                    continue
                natural_at = tuple(i not in wild_choice and (i == lead_index or i in optional)
                                   for i in range(length))
                naturals = tuple(sorted(make_card(window[i], suit)
                                        for i in range(length) if natural_at[i]))
                represents = tuple(make_card(r, suit) for r in window)
                low_ace = window[0] == 0 and natural_at[0]
                out.append(Candidate("run", naturals, wilds, represents, natural_at, low_ace))
    return out


def _sets_led_by(lead: int, counts: Sequence[int], deal: Deal, cap: int) -> list[Candidate]:
    rules = deal.rules
    rank, lead_suit = lead % 13, lead // 13
    out: list[Candidate] = []
    # Natural copies available per suit beyond the lead copy (types below lead are gone).
    available = []
    for s in range(4):
        card = make_card(rank, s)
        if card < lead:
            available.append(0)
        elif card == lead:
            available.append(counts[card] - 1 if rules.set_allow_same_suit else 0)
        else:
            available.append(min(counts[card], 4 if rules.set_allow_same_suit else 1))
    choices: list[list[int]] = [[]]
    for s in range(4):
        choices = [c + [s] * k for c in choices for k in range(available[s] + 1) if len(c) + k <= 3]
    for extra in choices:
        naturals_suits = [lead_suit, *extra]
        n = len(naturals_suits)
        if n < rules.min_naturals_per_meld:
            continue
        for wilds in range(0, cap + 1):
            size = n + wilds
            if size < 3:
                continue
            if size > 4:
                break
            missing = [s for s in range(4) if s not in naturals_suits]
            if len(missing) < wilds and not rules.set_allow_same_suit:
                break
            wild_suits = (missing + [lead_suit] * 4)[:wilds]
            slots = sorted([(s, True) for s in naturals_suits] + [(s, False) for s in wild_suits])
            out.append(Candidate(
                "set",
                tuple(sorted(make_card(rank, s) for s in naturals_suits)),
                wilds,
                tuple(make_card(rank, s) for s, _ in slots),
                tuple(nat for _, nat in slots),
                False,
            ))
    return out


def all_candidates(counts: Sequence[int], deal: Deal, wild_cap: int) -> list[Candidate]:
    """Every candidate meld of a hand with card ``counts`` using at most
    ``wild_cap`` wild slots, each listed once (under its lowest natural card)."""
    out: list[Candidate] = []
    for card in range(JOKER):
        if counts[card]:
            out.extend(melds_led_by(card, counts, deal, wild_cap))
    return out
