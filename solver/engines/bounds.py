"""A lower bound on the deadwood of a search state: its *isolated* cards.

A card that no meld can hold -- given the other cards still to be placed and
the wild cards that could still fill slots -- ends unmelded (or is the
discard), whatever the search decides.  The search (``solver.engines.search``)
adds their hand cost as a floor and cuts a state whose floor already reaches
its bound.  The test works on the search's packed count code (``BITS`` per
card type) with whole-hand bit operations: presence per card type, sets from
the number of suits (or copies) holding a rank, runs from a per-suit table of
the ranks some window of the geometry can hold with at most ``w`` gaps,
built lazily per (rules, suit pattern, gaps).

>>> from solver.rules import PRESETS
>>> from solver.cards import card_name, parse_card
>>> melds = MeldReach(PRESETS["gin"], pure_only=False)
>>> hand = [parse_card(t) for t in "5H 6H 7H KS 2C".split()]
>>> code = sum(1 << (BITS * c) for c in hand)
>>> sorted(card_name(c) for c in melds.isolated_types(code, 0))
['2C', 'KS']
>>> sorted(card_name(c) for c in melds.isolated_types(code, 1))
['2C', 'KS']
>>> hand = [parse_card(t) for t in "5H 7H KS KD".split()]
>>> code = sum(1 << (BITS * c) for c in hand)
>>> sorted(card_name(c) for c in melds.isolated_types(code, 1))
[]
"""

from __future__ import annotations

from solver.engines.packed import BITS, FIELD_LOW, RANK_LOW, SUIT_BITS, SUIT_MASK, presence
from solver.geometry import GEOMETRY, MAX_RUN_CARDS
from solver.rules import Rules

_SUIT_BITS = SUIT_BITS
_FIELD_LOW = FIELD_LOW
_RANK_LOW = RANK_LOW
_SUIT_MASK = SUIT_MASK


def _spread(pattern: int) -> int:
    """A 13-bit rank pattern as field bits of one suit."""
    out = 0
    for rank in range(13):
        if pattern >> rank & 1:
            out |= 1 << (BITS * rank)
    return out


class MeldReach:
    """Which held card types some meld could still hold (see the module
    docstring), for one meld rule set; ``pure_only``: no wild slot and no
    set (the pure-sequence passes)."""

    def __init__(self, rules: Rules, pure_only: bool) -> None:
        self.pure_only = pure_only
        self.min_naturals = max(1, rules.min_naturals_per_meld)
        self.sets = not pure_only and rules.set_size_limit >= 3
        self.same_suit_sets = rules.set_allow_same_suit
        self.set_limit = rules.set_size_limit
        self.tanala = rules.tanala_enabled and self.min_naturals <= 3
        geometry = GEOMETRY[rules.ace]
        windows: set[tuple[int, int]] = set()
        for length in range(max(1, rules.min_run_length), MAX_RUN_CARDS + 1):
            for ranks in geometry.windows(length):
                mask = 0
                for rank in ranks:
                    mask |= 1 << rank
                windows.add((mask, length))
        self.windows = tuple(sorted(windows))
        # The fewest wild slots that let a card meld alone: from there on
        # every card is reachable and the bound is zero.
        alone = [rules.min_run_length - 1] if self.min_naturals <= 1 and not pure_only else []
        if self.sets and self.min_naturals <= 1:
            alone.append(2)
        self.alone_gaps = min(alone, default=1_000)
        self.min_run_length = max(1, rules.min_run_length)
        self.runs: dict[tuple[int, int], int] = {}

    def _run_reach(self, spaced: int, gaps: int) -> int:
        """Field bits of the ranks of one suit some run can hold, ``spaced``
        being the suit's presence bits and ``gaps`` the wild slots at most."""
        key = (spaced, gaps)
        hit = self.runs.get(key)
        if hit is not None:
            return hit
        pattern = 0
        for rank in range(13):
            if spaced >> (BITS * rank) & 1:
                pattern |= 1 << rank
        reach = 0
        for mask, length in self.windows:
            held = mask & pattern
            naturals = held.bit_count()
            if naturals >= self.min_naturals and length - naturals <= gaps:
                reach |= held
        spread = _spread(reach)
        self.runs[key] = spread
        return spread

    def reachable(self, code: int, gaps: int) -> int:
        """Field bits (bit 0 of each card type's field) of the held types that
        some meld of the held cards can hold with at most ``gaps`` wild slots."""
        present = presence(code)
        if self.pure_only:
            gaps = 0
        reach = 0
        suits = [(present >> (_SUIT_BITS * s)) & _SUIT_MASK for s in range(4)]
        for s in range(4):
            if suits[s]:
                reach |= self._run_reach(suits[s], gaps) << (_SUIT_BITS * s)
        if self.sets:
            needed = max(3 - gaps, self.min_naturals)
            if self.same_suit_sets:
                counts = [0] * 13
                for s in range(4):
                    for rank in range(13):
                        counts[rank] += (code >> (BITS * (13 * s + rank))) & 31
                ranks = sum(1 << (BITS * r) for r in range(13) if counts[r] >= needed)
            else:
                suits_holding = suits[0] + suits[1] + suits[2] + suits[3]  # per field 0..4
                ranks = ((suits_holding + (16 - needed) * _RANK_LOW) >> 4) & _RANK_LOW
            for s in range(4):
                reach |= (suits[s] & ranks) << (_SUIT_BITS * s)
        if self.tanala:
            reach |= (code >> 2 | code >> 3 | code >> 4 | (code >> 1 & code)) & _FIELD_LOW
        return reach

    def pure_sequences_at_most(self, code: int) -> int:
        """An upper bound on how many disjoint pure sequences the held cards
        can form: per suit, the copies some pure run can hold over the
        shortest run length, plus the tanalas their copies allow."""
        present = presence(code)
        total = 0
        for s in range(4):
            spaced = (present >> (_SUIT_BITS * s)) & _SUIT_MASK
            if not spaced:
                continue
            reach = self._run_reach(spaced, 0) << (_SUIT_BITS * s)
            copies = 0
            while reach:
                low = reach & -reach
                copies += (code >> (low.bit_length() - 1)) & 31
                reach ^= low
            total += copies // self.min_run_length
        if self.tanala:
            triples = (code >> 2 | code >> 3 | code >> 4 | (code >> 1 & code)) & _FIELD_LOW
            while triples:
                low = triples & -triples
                total += ((code >> (low.bit_length() - 1)) & 31) // 3
                triples ^= low
        return total

    def isolated_types(self, code: int, gaps: int, exclude: int = 0) -> list[int]:
        """Held card types no meld can hold (every copy of them), leaving out
        the types whose field bits are in ``exclude``."""
        lonely = presence(code) & ~self.reachable(code, gaps) & ~exclude
        out = []
        while lonely:
            low = lonely & -lonely
            out.append((low.bit_length() - 1) // BITS)
            lonely ^= low
        return out


_REACH: dict[tuple[object, ...], MeldReach] = {}


def meld_reach(rules: Rules, pure_only: bool) -> MeldReach:
    """The shared ``MeldReach`` of the meld rules of ``rules`` (its run tables
    fill once per rule set)."""
    key = (rules.ace, rules.tanala_enabled, rules.set_allow_same_suit, rules.set_size_limit,
           rules.min_run_length, rules.min_naturals_per_meld, pure_only)
    hit = _REACH.get(key)
    if hit is None:
        hit = _REACH[key] = MeldReach(rules, pure_only)
    return hit
