"""A fast player of the lay-down games: the model of every player in the advisor's playouts.

Speed over exactness: hands of a playout are small and many, so the table is
a list of *spots* (a run's suit and the coordinates of its ends, a set's rank,
its natural suits and size) and a hand's melds are found by a small search
over its natural sets and runs, the jokers then placed where they rescue most.
The advisor's own candidate moves are never built here: they come from the
exact solver (``solver.layoffs``); this module only plays the futures out.

Coordinates: a run card's rank 0 (ace) .. 12 (king), the ace also 13 (high);
a run spans ``lo .. hi`` and may not hold both aces.  Points follow the
variant's ``Values`` (Rummy 500: 2-9 face value, ten to king 10, ace 15 but
1 melded as the low ace of a run, joker 15; Rommy: 2-9 5, ace 15, joker 25;
basic: 2-9 face value, ten to king 10, ace 1, and the ace low only).
In Rommy a turn ends with a throw, so the fast player holds a card back
rather than lay its last one (``lay_keeping``).

>>> from solver.play.laydown.variant import VARIANTS
>>> player = FastPlayer(VARIANTS["rummy500"].values)
>>> melds, rest, points = player.melds([0, 1, 2, 22, 35, 48, 52])  # AS 2S 3S JH JD JC JK
>>> sorted(len(m) for m in melds), rest, points
([3, 4], [], 51)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import JOKER
from solver.play.laydown.params import LAY_DOWN_PARAMS, LayDownParams
from solver.play.laydown.variant import Values

HIGH_ACE = 13
CACHE_SIZE = 50_000
"""Hands whose melds the fast player remembers (then it forgets them all)."""


def run_points(card: int, coord: int, values: Values) -> int:
    """Points of natural ``card`` melded at run coordinate ``coord`` (0: a low ace)."""
    return values.low_ace if coord == 0 else values.hand[card]


@dataclass(slots=True)
class Spot:
    """A meld on the table as the fast player sees it: a run (``suit``,
    ``lo``, ``hi``, and ``top``, the highest coordinate it may reach: the
    high ace, or the king when the ace is low only) or a set (``rank``,
    natural ``suits`` mask, ``size``)."""

    run: bool
    suit: int
    lo: int
    hi: int
    rank: int = -1
    suits: int = 0
    size: int = 0
    top: int = HIGH_ACE

    def copy(self) -> Spot:
        """A copy to lay cards on."""
        return Spot(self.run, self.suit, self.lo, self.hi, self.rank, self.suits, self.size,
                    self.top)

    def fits(self, card: int) -> bool:
        """Whether ``card`` can be laid off here now."""
        if self.run:
            if card == JOKER:
                return self.lo > 0 or self.hi < self.top
            if card // 13 != self.suit:
                return False
            rank = card % 13
            return rank == self.lo - 1 or (self.hi < self.top
                                           and (rank if rank else HIGH_ACE) == self.hi + 1)
        if self.size >= 4:
            return False
        return card == JOKER or (card % 13 == self.rank and not self.suits >> (card // 13) & 1)

    def wanted(self) -> list[int]:
        """The natural cards that fit here now."""
        if not self.run:
            if self.size >= 4:
                return []
            return [suit * 13 + self.rank for suit in range(4) if not self.suits >> suit & 1]
        base = self.suit * 13
        out = []
        if self.lo > 0:
            out.append(base + self.lo - 1)
        if self.hi < self.top:
            out.append(base + (self.hi + 1) % 13)
        return out

    def add(self, card: int, values: Values) -> int:
        """Lay ``card`` off here (it ``fits``); the points it scores."""
        if not self.run:
            self.size += 1
            if card != JOKER:
                self.suits |= 1 << (card // 13)
            return values.hand[card]
        if card == JOKER:
            if self.hi < self.top:
                self.hi += 1
            else:
                self.lo -= 1
            return values.joker
        rank = card % 13
        if rank == self.lo - 1:
            self.lo -= 1
            return run_points(card, self.lo, values)
        self.hi += 1
        return values.hand[card]


_SET_WANTED = [[sum(1 << (suit * 13 + rank) for suit in range(4) if not suits >> suit & 1)
                for suits in range(16)] for rank in range(13)]
"""The cards a set of a rank (first index) with natural suits (second) takes."""


def wanted_mask(spots: Sequence[Spot]) -> int:
    """The natural cards one of ``spots`` takes now, as one bit mask over card
    ids (``Spot.wanted``'s rule, inline: the playouts ask it on every turn; a
    card ``fits`` a spot exactly when it is in the mask)."""
    mask = 0
    for spot in spots:
        if spot.run:
            if spot.lo > 0:
                mask |= 1 << (spot.suit * 13 + spot.lo - 1)
            if spot.hi < spot.top:
                mask |= 1 << (spot.suit * 13 + (spot.hi + 1) % 13)
        elif spot.size < 4:
            mask |= _SET_WANTED[spot.rank][spot.suits]
    return mask


def _bits(cards: Sequence[int]) -> int:
    """``cards`` as one bit mask over card ids (a copy or a joker adds nothing new)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def run_spot(suit: int, lo: int, hi: int, top: int = HIGH_ACE) -> Spot:
    """A run of ``suit`` over coordinates ``lo .. hi``, reaching ``top`` at most."""
    return Spot(True, suit, lo, hi, top=top)


def run_top(values: Values) -> int:
    """The highest run coordinate: the high ace, or the king (ace low only)."""
    return HIGH_ACE if values.ace_high else HIGH_ACE - 1


def set_spot(rank: int, suits: int, size: int) -> Spot:
    """A set of ``rank`` with natural ``suits`` (a bit mask) and ``size`` cards."""
    return Spot(False, -1, 0, 0, rank, suits, size)


@dataclass(frozen=True, slots=True)
class _Candidate:
    cards: tuple[int, ...]
    """Natural cards (a card id; with two decks a hand may hold two copies,
    and a meld both hands' copies allow is a candidate twice)."""
    points: int
    spot: Spot
    gain: int
    """What laying it adds to the net: its points and its cards' hand points."""


_Peeked = tuple[list[list[int]], list[int], int, list[Spot], int]
"""A hand's melds, the cards left, the points laid, the melds' spots, and
the cards left as a bit mask (``_bits``)."""


def _candidate(cards: tuple[int, ...], points: int, spot: Spot, values: Values) -> _Candidate:
    return _Candidate(cards, points, spot, points + sum(values.hand[c] for c in cards))


class FastPlayer:
    """The fast player's decisions (see the module docstring)."""

    def __init__(self, values: Values, deep_takes: bool = True,
                 params: LayDownParams = LAY_DOWN_PARAMS) -> None:
        self.values = values
        self.deep_takes = deep_takes
        self.link_weight = params.link_weight
        self.deep_look = params.deep_look
        self.feed_care = params.feed_care
        self.hold_left = params.hold_left
        self.search_nodes = params.search_nodes
        self._cache: dict[tuple[int, ...], _Peeked] = {}

    def melds(self, hand: Sequence[int]) -> tuple[list[list[int]], list[int], int]:
        """The melds the fast player lays from ``hand`` (best natural melds, then
        the jokers where they rescue most), the cards left and the points laid."""
        melds, rest, points, _ = self._melds(hand)
        return melds, rest, points

    def _melds(self, hand: Sequence[int]) -> tuple[list[list[int]], list[int], int, list[Spot]]:
        melds, rest, points, spots, _ = self._peek(hand)
        return [list(m) for m in melds], list(rest), points, [spot.copy() for spot in spots]

    def _find_melds(self, sorted_hand: Sequence[int]) -> tuple[list[list[int]], list[int], int,
                                                                list[Spot]]:
        naturals = [c for c in sorted_hand if c != JOKER]
        jokers = len(sorted_hand) - len(naturals)
        values = self.values
        if not _may_meld(naturals, values.ace_high):
            if not jokers:
                return [], naturals, 0, []  # no meld: most hands
            left: dict[int, int] = {}
            candidates: list[_Candidate] = []
        else:
            left = _copies(naturals)
            candidates = _natural_candidates(naturals, values, left)
        chosen: list[_Candidate] = []
        best: list[list[_Candidate]] = [[]]
        best_gain = [0]
        bound = [0] * (len(candidates) + 1)  # the most the candidates from i on can add
        for i in range(len(candidates) - 1, -1, -1):
            bound[i] = bound[i + 1] + candidates[i].gain
        _search(candidates, 0, left, chosen, 0, best, best_gain, bound, [self.search_nodes])
        rest = list(naturals)
        for cand in best[0]:
            for c in cand.cards:
                rest.remove(c)
        melds = [list(cand.cards) for cand in best[0]]
        spots = [cand.spot.copy() for cand in best[0]]
        points = sum(cand.points for cand in best[0])
        while jokers:
            pick = _joker_meld(rest, jokers, values)
            if pick is None:
                break
            cards, spot, gained = pick
            for c in cards:
                rest.remove(c)
            melds.append([*cards, *([JOKER] * (spot_cards(spot) - len(cards)))])
            jokers -= spot_cards(spot) - len(cards)
            spots.append(spot)
            points += gained
        if jokers and spots:  # a joker left over joins any new meld
            for spot in spots:
                while jokers and spot.fits(JOKER):
                    spot.add(JOKER, values)
                    jokers -= 1
                    points += values.joker
                    melds[spots.index(spot)].append(JOKER)
        rest.extend([JOKER] * jokers)
        return melds, rest, points, spots

    def _peek(self, hand: Sequence[int]) -> _Peeked:
        """The remembered melds of ``hand`` (not to be changed: ``_melds`` copies),
        and the cards left as a bit mask."""
        key = tuple(sorted(hand))
        hit = self._cache.get(key)
        if hit is None:
            melds, rest, points, spots = self._find_melds(key)
            hit = (melds, rest, points, spots, _bits(rest))
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = hit
        return hit

    def lay(self, hand: list[int], table: list[Spot], keep_one: bool = False,
            keep: int | None = None, wanted: int | None = None) -> int:
        """Lay down every meld and lay off every card that fits (the fast player
        always does); ``hand`` keeps what is left; the points laid.
        ``keep_one``: no layoff takes the last card other than ``keep`` (the
        melds must leave one: ``lay_keeping`` sees to that); ``wanted``: the
        table's ``wanted_mask`` when the caller has it."""
        melds, kept, points, spots, kept_bits = self._peek(hand)
        if not table and not melds:
            return 0
        rest = list(kept)
        if wanted is None:
            wanted = wanted_mask(table)
        table.extend([spot.copy() for spot in spots])
        fit: dict[int, Spot] = {}
        if (wanted | wanted_mask(spots)) & kept_bits:  # else no layoff: most turns
            for spot in table:
                for card in spot.wanted():
                    fit.setdefault(card, spot)
        while fit:
            pick = next((c for c in rest if c in fit), None)
            if pick is None:
                break
            spot = fit.pop(pick)
            if not spot.fits(pick):  # a full set's stale entry: another spot may take it
                other = next((sp for sp in table if sp.fits(pick)), None)
                if other is not None:
                    fit[pick] = other
                continue
            if keep_one and not _throwable_after(rest, pick, keep):
                continue  # the last card to throw stays in hand
            points += spot.add(pick, self.values)
            rest.remove(pick)
            for card in spot.wanted():
                fit.setdefault(card, spot)
        while JOKER in rest:
            if keep_one and not _throwable_after(rest, JOKER, keep):
                break
            room = next((spot for spot in table if spot.fits(JOKER)), None)
            if room is None:
                break
            points += room.add(JOKER, self.values)
            rest.remove(JOKER)
        hand[:] = rest
        return points

    def holds(self, hand: Sequence[int], table: Sequence[Spot], laid_before: bool) -> bool:
        """Whether the fast player lays nothing this turn, to go out in one
        later turn (a rummy, paid double; the caller asks only where it is):
        ``hold_left`` is 2 or more, it has laid nothing in the round
        (``laid_before`` false), and laying now would leave from 2 to
        ``hold_left`` cards."""
        if self.hold_left < 2 or laid_before:
            return False
        rest = list(hand)
        self.lay(rest, [spot.copy() for spot in table])
        return 2 <= len(rest) <= self.hold_left

    def lay_keeping(self, hand: list[int], table: list[Spot], keep: int | None) -> int:
        """``lay``, but a card other than ``keep`` (the top just taken) stays in
        hand to throw (Rommy: a turn ends with a throw): no layoff takes the
        last such card, and when the melds alone would leave none, the card
        held back is the one whose absence lays most."""
        rest = self._peek(hand)[1]
        if any(card != keep for card in rest):
            return self.lay(hand, table, keep_one=True, keep=keep)
        best: tuple[int, list[int], list[Spot], int] | None = None
        for card in sorted(set(hand)):
            if card == keep:
                continue
            rest, copies = list(hand), [spot.copy() for spot in table]
            rest.remove(card)
            laid = self.lay(rest, copies)
            net = laid - sum(self.values.hand[c] for c in rest)
            if best is None or net > best[0]:
                best = (net, [*rest, card], copies, laid)
        if best is None:
            return 0
        _, hand[:], table[:], points = best
        return points

    def wants(self, hand: Sequence[int], cards: Sequence[int], table: Sequence[Spot],
              before: int | None = None) -> int:
        """Points the cards taken from the pile (top first, the deepest last)
        add to what ``hand`` could lay now; below zero: not worth it.  The
        deepest card must be usable (else -1000); ``before``: the hand's own
        ``_net_now`` when known."""
        deepest = cards[-1]
        if (deepest != JOKER and not any(s.fits(deepest) for s in table)
                and self._peek([*hand, *cards])[4] >> deepest & 1):  # left in hand
            return -1000
        if before is None:
            before = self._net_now(list(hand), table)
        after = self._net_now([*hand, *cards], table)
        return after - before

    def _net_now(self, hand: list[int], table: Sequence[Spot]) -> int:
        """What ``lay`` lays from ``hand`` less the points it leaves there
        (``hand`` and ``table`` unchanged)."""
        _, rest, points, spots, rest_bits = self._peek(hand)
        if not rest_bits >> JOKER & 1 and not (wanted_mask(table) | wanted_mask(spots)) & rest_bits:
            return points - sum(self.values.hand[c] for c in rest)  # the melds alone
        copies = [spot.copy() for spot in table]
        points = self.lay(hand, copies)
        return points - sum(self.values.hand[c] for c in hand)

    def draw(self, hand: Sequence[int], pile: Sequence[int], table: Sequence[Spot],
             wanted: int | None = None) -> int:
        """How many pile cards to take (0: the stock); ``wanted``: the table's
        ``wanted_mask`` when the caller has it."""
        if not pile:
            return 0
        look = min(len(pile), self.deep_look if self.deep_takes else 1)
        top = pile[-1]
        if look == 1 and top != JOKER:  # most turns: a top that nothing can use
            partners = sum(map(_LINKED_OR_SELF[top].__contains__, hand))
            if (partners < 2 and not (partners and JOKER in hand)
                    and not (wanted_mask(table) if wanted is None else wanted) >> top & 1):
                return 0  # ``Held.completes`` needs two partners, or one and a joker
        best_depth, best_gain = 0, 0
        before: int | None = None
        held = Held(hand)  # the hand and the pile cards above the one looked at
        for depth in range(1, look + 1):
            deepest = pile[-depth]
            if depth > 1:
                held.add(pile[-depth + 1])
            if not (deepest == JOKER or held.completes(deepest)
                    or any(spot.fits(deepest) for spot in table)):
                continue
            if before is None:
                before = self._net_now(list(hand), table)
            gain = self.wants(hand, pile[len(pile) - depth:][::-1], table, before)
            if gain > best_gain:
                best_depth, best_gain = depth, gain
        return best_depth

    def throw(self, hand: Sequence[int], keep: int | None,
              next_hand: Sequence[int] | None = None) -> int:
        """The card to throw: most points less ``link_weight`` per link, never a
        joker while another card is left, never ``keep`` (the top just taken);
        with ``next_hand`` (the next player's) and ``feed_care``, a card that
        makes a meld with it costs ``feed_care`` points more (a hand of jokers
        only throws one whatever it feeds)."""
        naturals = [c for c in hand if c != keep and c != JOKER]
        if not naturals:  # only ``keep`` and jokers: a joker, else ``keep``
            options = [c for c in hand if c != keep] or list(hand)
            naturals = [c for c in options if c != JOKER] or options
        held = _bits(hand)
        points = self.values.hand
        weight = self.link_weight
        if held.bit_count() == len(hand):  # one copy of each card: links from one mask
            jokers = held >> JOKER & 1
            linked = [3 if c == JOKER else jokers + (held & _LINKED_MASK[c]).bit_count()
                      for c in naturals]
        else:  # two decks: count the copies
            count = [0] * (JOKER + 1)
            for c in hand:
                count[c] += 1
            copies, jokers = count.__getitem__, count[JOKER]
            linked = [3 if c == JOKER else jokers + sum(map(copies, _LINKED[c]))
                      for c in naturals]
        theirs = Held(next_hand) if self.feed_care and next_hand is not None else None
        if theirs is None:  # the most points less the links, the higher card on a tie, as one int
            return max((points[c] - weight * links_of_c) * _TIE + c
                       for c, links_of_c in zip(naturals, linked, strict=True)) % _TIE
        best: tuple[int, int] | None = None
        for c, links_of_c in zip(naturals, linked, strict=True):  # ``links(c, hand)``, fast
            score = points[c] - weight * links_of_c
            if c != JOKER and theirs.completes(c):
                score -= self.feed_care
            if best is None or (score, c) > best:
                best = (score, c)
        assert best is not None
        return best[1]


_TIE = 64
"""More than any card id (``JOKER`` is 52): ``score * _TIE + card`` orders by the
score, then the card, as the pair ``(score, card)`` does."""


def _throwable_after(rest: Sequence[int], card: int, keep: int | None) -> bool:
    """Whether ``rest`` without one ``card`` still holds a card other than ``keep``."""
    return sum(1 for c in rest if c != keep) - (card != keep) > 0


class Held:
    """Cards held (a hand and the pile cards above a card looked at), kept as
    rank bits per suit and a count per rank, to ask ``completes`` cheaply.

    >>> held = Held([13, 15])  # AH 3H
    >>> held.completes(14), held.completes(27)  # 2H fills A-2-3; 2D does not
    (True, False)
    """

    __slots__ = ("jokers", "ranks", "suits")

    def __init__(self, cards: Sequence[int]) -> None:
        self.suits = [0, 0, 0, 0]
        self.ranks = [0] * 13
        self.jokers = 0
        for card in cards:
            self.add(card)

    def add(self, card: int) -> None:
        """One more card held."""
        if card == JOKER:
            self.jokers += 1
            return
        self.suits[card // 13] |= 1 << (card % 13)
        self.ranks[card % 13] += 1

    def completes(self, card: int) -> bool:
        """Whether ``card`` makes a meld with the cards held (two of its rank,
        two neighbours of its suit in sequence -- the ace also next to the
        king --, or a joker and one such partner)."""
        rank, suit = card % 13, card // 13
        bits = self.suits[suit]
        same = self.ranks[rank] - (bits >> rank & 1)
        if same >= 2:
            return True
        bits &= ~(1 << rank)
        if bits & 1 and rank != 0:
            bits |= 1 << HIGH_ACE  # the ace also stands above the king
        shifted = bits << 2  # bit k + 2 says whether rank k is held, k from -2
        near = False
        for coord in ((0, HIGH_ACE) if rank == 0 else (rank,)):
            window = shifted >> coord
            a, b, c, d = window & 1, window >> 1 & 1, window >> 3 & 1, window >> 4 & 1
            if (b and c) or (a and b) or (c and d):
                return True
            near = near or bool(a or b or c or d)
        return self.jokers > 0 and (same >= 1 or near)


def spot_cards(spot: Spot) -> int:
    """Cards in a spot's meld."""
    return spot.hi - spot.lo + 1 if spot.run else spot.size


def links(card: int, hand: Sequence[int]) -> int:
    """Cards of ``hand`` that could meld with ``card`` (same rank, same suit
    within two ranks, a joker; a joker links to anything: 3)."""
    if card == JOKER:
        return 3
    rank, suit = card % 13, card // 13
    links = 0
    for other in hand:
        if other == card:
            continue
        if other == JOKER:
            links += 1
            continue
        o_rank = other % 13
        if o_rank == rank:
            links += 1
        elif other // 13 == suit:
            gap = abs(o_rank - rank)
            if gap <= 2 or gap >= 11:  # the ace links to the queen and king too
                links += 1
    return links


_LINKED = [tuple(other for other in range(JOKER) if other != card and links(card, (other,)))
           for card in range(JOKER)]
"""The natural cards that link to each natural card (``links``: the same rank
in another suit, or the same suit within two ranks, the ace beside the king)."""
_LINKED_MASK = [sum(1 << other for other in linked) for linked in _LINKED]
"""``_LINKED`` as bit masks over card ids."""
_LINKED_OR_SELF = [frozenset((*linked, card)) for card, linked in enumerate(_LINKED)]
"""The cards whose copies ``Held.completes`` may count as a card's partners."""


def _may_meld(naturals: Sequence[int], ace_high: bool) -> bool:
    """Whether ``naturals`` hold a natural set (3 suits of a rank) or run (3
    in sequence; ``ace_high``: the ace also above the king): the test of
    ``_distinct_candidates``, as bit operations on one mask (most hands of
    a playout hold no meld).

    >>> _may_meld([0, 13, 26], False), _may_meld([11, 12, 0], True), _may_meld([11, 12, 0], False)
    (True, True, False)
    """
    held = _bits(naturals)
    s0, s1, s2, s3 = (held & _RANKS, held >> 13 & _RANKS, held >> 26 & _RANKS,
                      held >> 39 & _RANKS)
    if s0 & s1 & (s2 | s3) or s2 & s3 & (s0 | s1):
        return True
    for bits in (s0, s1, s2, s3):
        if bits & 1 and ace_high:
            bits |= 1 << HIGH_ACE
        if bits & (bits >> 1) & (bits >> 2):
            return True
    return False


_RANKS = (1 << 13) - 1


def _copies(naturals: Sequence[int]) -> dict[int, int]:
    """How many copies of each card ``naturals`` holds (two decks: up to 2)."""
    copies = dict.fromkeys(naturals, 1)
    if len(copies) < len(naturals):
        copies = dict.fromkeys(naturals, 0)
        for c in naturals:
            copies[c] += 1
    return copies


def _natural_candidates(naturals: Sequence[int], values: Values,
                        copies: dict[int, int]) -> list[_Candidate]:
    """Every natural set (3 or 4 of a rank, suits apart) and run (3 or more in
    sequence), each as many times as the hand's ``copies`` of its cards allow
    (two decks: a second 7H 8H 9H).

    >>> from solver.play.laydown.variant import VARIANTS
    >>> hand = [20, 20, 21, 21, 22, 22, 47]  # 8H 8H 9H 9H TH TH 9C
    >>> [c.cards for c in _natural_candidates(hand, VARIANTS["rummy500"].values, _copies(hand))]
    [(20, 21, 22), (20, 21, 22)]
    """
    out = _distinct_candidates(naturals, values)
    if len(copies) == len(naturals):
        return out
    doubled: list[_Candidate] = []
    for cand in out:  # stays sorted by gain: the copies follow their original
        doubled.extend([cand] * min(copies[c] for c in cand.cards))
    return doubled


def _distinct_candidates(naturals: Sequence[int], values: Values) -> list[_Candidate]:
    """Every natural set and run of the distinct cards in ``naturals``, the
    richest first."""
    out: list[_Candidate] = []
    rank_suits = [0] * 13
    suit_ranks = [0, 0, 0, 0]
    for c in naturals:
        rank, suit = c % 13, c // 13
        rank_suits[rank] |= 1 << suit
        suit_ranks[suit] |= 1 << rank
    for rank in range(13):
        mask = rank_suits[rank]
        if mask in _THREE_OR_MORE:
            cards = [suit * 13 + rank for suit in range(4) if mask >> suit & 1]
            groups = [cards] if len(cards) == 3 else \
                [cards, *([x for x in cards if x != skip] for skip in cards)]
            points = values.hand[cards[0]]
            for group in groups:
                out.append(_candidate(tuple(group), points * len(group),
                                      set_spot(rank, sum(1 << (c // 13) for c in group),
                                               len(group)), values))
    for suit in range(4):
        bits = suit_ranks[suit]
        if bits & 1 and values.ace_high:
            bits |= 1 << HIGH_ACE
        if not bits & (bits >> 1) & (bits >> 2):
            continue
        base = suit * 13
        for lo in range(HIGH_ACE - 1):
            if not bits >> lo & 1:
                continue
            hi = lo
            points = run_points(base + lo % 13, lo, values)
            while bits >> (hi + 1) & 1 and not (lo == 0 and hi + 1 == HIGH_ACE):
                hi += 1
                points += run_points(base + hi % 13, hi, values)
                if hi - lo >= 2:
                    run = tuple(base + (k % 13) for k in range(lo, hi + 1))
                    out.append(_candidate(run, points, run_spot(suit, lo, hi, run_top(values)),
                                          values))
    out.sort(key=lambda cand: -cand.gain)
    return out


_THREE_OR_MORE = frozenset(m for m in range(16) if bin(m).count("1") >= 3)


def _search(candidates: list[_Candidate], start: int, left: dict[int, int],
            chosen: list[_Candidate], gain: int, best: list[list[_Candidate]],
            best_gain: list[int], bound: list[int], nodes: list[int]) -> None:
    """The candidates of most ``gain`` (the net a meld adds: its points melded
    plus what its cards would cost in hand) that the hand's copies allow
    together (``left``: copies of each card not used yet), depth first from
    the richest; a branch that cannot beat the best found is not entered,
    and after ``nodes`` candidates looked at the best found stands (a huge
    hand: the playouts' model need not be exact, only bounded)."""
    if gain > best_gain[0]:
        best_gain[0] = gain
        best[0] = list(chosen)
    for i in range(start, len(candidates)):
        nodes[0] -= 1
        if nodes[0] <= 0 or gain + bound[i] <= best_gain[0]:
            return
        cand = candidates[i]
        if not all(left[c] for c in cand.cards):
            continue
        for c in cand.cards:
            left[c] -= 1
        chosen.append(cand)
        _search(candidates, i + 1, left, chosen, gain + cand.gain, best, best_gain, bound, nodes)
        chosen.pop()
        for c in cand.cards:
            left[c] += 1


def _joker_meld(rest: list[int], jokers: int,
                values: Values) -> tuple[list[int], Spot, int] | None:
    """The joker-helped meld from ``rest`` that rescues most points: two
    naturals and a joker (a set, or a run with one gap), else one natural and
    two jokers; with its spot and the points it scores."""
    best: tuple[int, list[int], Spot, int] | None = None
    for i, a in enumerate(rest):
        for b in rest[i + 1:]:
            if a == b:  # two copies of one card (two decks): a set needs suits apart
                continue
            spot = _pair_spot(a, b)
            if spot is None:
                continue
            gained = _natural_points([a, b], spot, values) + values.joker
            rescue = 2 * (values.hand[a] + values.hand[b])
            if best is None or rescue > best[0]:
                best = (rescue, [a, b], spot, gained)
    if best is None and jokers >= 2 and rest:
        a = max(rest, key=lambda c: values.hand[c])
        rank, suit = a % 13, a // 13
        lo = min(rank, 10) if rank else 0
        spot = run_spot(suit, lo, lo + 2)
        points = run_points(a, 0 if rank == 0 else rank, values) + 2 * values.joker
        best = (2 * values.hand[a], [a], spot, points)
    if best is None:
        return None
    return best[1], best[2], best[3]


def _natural_points(cards: Sequence[int], spot: Spot, values: Values) -> int:
    """What natural ``cards`` score melded in ``spot`` (a low ace of a run: 1)."""
    if not spot.run:
        return sum(values.hand[c] for c in cards)
    return sum(values.low_ace if c % 13 == 0 and spot.lo == 0 else values.hand[c] for c in cards)


def _pair_spot(a: int, b: int) -> Spot | None:
    """The three-card meld ``a``, ``b`` and a joker make, if any."""
    if a % 13 == b % 13:
        return set_spot(a % 13, (1 << (a // 13)) | (1 << (b // 13)), 3)
    if a // 13 != b // 13:
        return None
    low, high = sorted((a % 13, b % 13))
    if high - low in (1, 2):
        lo = low if high - low == 2 or high < 12 else low - 1
        return run_spot(a // 13, lo, lo + 2)
    if low == 0 and high >= 11:  # Q-A or K-A high
        return run_spot(a // 13, 11, HIGH_ACE)
    return None


__all__ = ["FastPlayer", "Held", "Spot", "links", "run_spot", "run_top", "set_spot",
           "wanted_mask"]
