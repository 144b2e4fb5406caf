"""The microsecond path of ``solve()``: gin and basic hands with no wild card.

Under a preset whose hands decompose (one deck, no wild rank, the plain
least-deadwood objective: ``gin``, ``basic``), the per-suit tables of the
bitmask engine (``solver.engines.bitmask``) give the optimum from four 13-bit
rank masks.  This module goes from card names to a ``Solution`` directly:
each suit mask's melds, deadwood cards and points are built once and reused,
so the common call (a hint or a check every turn, millions of recorded hands)
costs a few microseconds.  It answers exactly what the general path answers
(the tests compare them on random and dense hands); anything it does not
cover, every error in the cards included, returns None and the general path
takes over.  When it answers is decided in ``solver.session``.
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.assemble import build_meld, meld_order
from solver.cards import CANONICAL, JOKER
from solver.engines import bitmask
from solver.results import Meld, Solution, quick_solution
from solver.rules import MAX_HAND_CARDS, PRESETS, Deal, Rules, make_deal
from solver.scoring import plain_declarable

# (melds in display order, deadwood cards, melded points, deadwood points) of one suit mask
_Part = tuple[tuple[Meld, ...], tuple[int, ...], int, int]

_CARD_BITS: dict[str, int] = {
    token: 1 << card for token, card in CANONICAL.items() if card != JOKER}
"""A card name's bit in a 52-bit hand: suit ``s``'s 13 rank bits start at ``13 * s``."""
_SUIT = (1 << 13) - 1


def _first_card(meld: Meld) -> int:
    return meld.represents[0]


class QuickPath:
    """``solve`` for one table-decomposable deal, from per-suit parts."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.variant = deal.rules.name
        self._tables = bitmask.suit_tables(deal)
        self._best, self._minus_one = self._tables.best, self._tables.minus_one
        # per suit, per 13-bit mask: its part, built on first use
        self._parts: tuple[list[_Part | None], ...] = tuple([None] * (1 << 13) for _ in range(4))
        self._set_melds: dict[tuple[int, ...], Meld] = {}

    def _part(self, suit: int, mask: int) -> _Part:
        part = self._parts[suit][mask]
        if part is None:
            _, runs, dead = self._best[mask]
            melds = tuple(sorted((build_meld(bitmask.run_meld(suit, *run), self.deal)
                                  for run in runs), key=meld_order))
            points = self.deal.points
            deadwood = tuple(suit * 13 + r for r in range(13) if dead >> r & 1)
            part = (melds, deadwood, sum(m.points for m in melds),
                    sum(points[c] for c in deadwood))
            self._parts[suit][mask] = part
        return part

    def _set_meld(self, option: tuple[int, ...]) -> Meld:
        meld = self._set_melds.get(option)
        if meld is None:
            meld = self._set_melds[option] = build_meld(
                bitmask.set_meld(option[0], option[1:]), self.deal)
        return meld

    def solve(self, hand: str | Iterable[object], discard: bool) -> Solution | None:
        """The optimal ``Solution`` of these card names (a list, or one string
        as ``solve()`` takes it), or None when the general path must answer
        (an unknown token, a duplicate, a joker, too many cards, a discard from
        an empty hand)."""
        tokens = hand.replace(",", " ").split() if isinstance(hand, str) else hand
        if not isinstance(tokens, (list, tuple)):
            tokens = list(tokens)
        count = len(tokens)
        if count > MAX_HAND_CARDS or (discard and not count):
            return None  # too many cards (counted before any is read), or nothing to discard
        try:
            bits = sum(map(_CARD_BITS.__getitem__, tokens))
        except (KeyError, TypeError):
            return None
        if bits.bit_count() != count:
            return None  # a duplicate
        m0, m1, m2, m3 = bits & _SUIT, bits >> 13 & _SUIT, bits >> 26 & _SUIT, bits >> 39
        set_melds: tuple[Meld, ...] = ()
        set_points = 0
        if (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1)):  # a rank held 3+ times
            masks = (m0, m1, m2, m3)
            options = bitmask.set_options(masks)
            if options is None:
                return None
            _, sets, (m0, m1, m2, m3), suit = bitmask.best_split(self._tables, masks, discard, options)
            set_melds = tuple(self._set_meld(option) for option in sets)
            set_points = sum(meld.points for meld in set_melds)
        elif discard:
            _, suit = self._tables.cheapest_discard(m0, m1, m2, m3)
        thrown: int | None = None
        if discard:
            remaining = [m0, m1, m2, m3]
            bit = self._minus_one[remaining[suit]][1]
            remaining[suit] ^= 1 << bit
            thrown = suit * 13 + bit
            m0, m1, m2, m3 = remaining
        parts0, parts1, parts2, parts3 = self._parts
        melds0, dead0, melded0, points0 = parts0[m0] or self._part(0, m0)
        melds1, dead1, melded1, points1 = parts1[m1] or self._part(1, m1)
        melds2, dead2, melded2, points2 = parts2[m2] or self._part(2, m2)
        melds3, dead3, melded3, points3 = parts3[m3] or self._part(3, m3)
        melds = melds0 + melds1 + melds2 + melds3
        if set_melds:
            # melds of one deck never share a card: the first card orders them
            melds = tuple(sorted(set_melds + melds, key=_first_card))
        deadwood = dead0 + dead1 + dead2 + dead3
        dead = points0 + points1 + points2 + points3
        return quick_solution(self.variant, melds, deadwood, thrown, dead,
                              set_points + melded0 + melded1 + melded2 + melded3,
                              plain_declarable(melds, deadwood, dead, None, self.deal))


_PATHS: dict[str, QuickPath | None] = {}


def quick_path(variant: object) -> QuickPath | None:
    """The quick path of a preset, by name or by ``Rules`` equal to the
    preset's (None when its hands do not decompose, or ``variant`` is no
    preset)."""
    if isinstance(variant, Rules):
        preset = PRESETS.get(variant.name)
        # Interned by value, equal rules are the preset's own object -- unless
        # the interning cache let it go since: then compare.
        if preset is not variant and (preset is None or hash(preset) != hash(variant)
                                      or preset != variant):
            return None
        variant = variant.name
    try:
        return _PATHS[variant]  # type: ignore[index]
    except (KeyError, TypeError):
        if not isinstance(variant, str) or variant not in PRESETS:
            return None
    deal = make_deal(PRESETS[variant])
    path: QuickPath | None = None
    if bitmask.rules_allow(deal) and deal.rules.objective == "min_deadwood" and not deal.wild:
        path = QuickPath(deal)
    _PATHS[variant] = path
    return path
