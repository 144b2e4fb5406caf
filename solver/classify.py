"""Is this one declared meld valid, and how does it read?

An independent checker written directly from RULES.md section 1.  It shares no
code with the engines (only the card encoding, ``Deal`` and card points), so
tests can use it to judge every meld an engine returns and ``validate`` can
use it to judge a meld a player declares.

A *reading* pairs each physical card with the card it stands for.  Cards in
``deal.wild`` are flexible: a printed joker always stands in for another card,
any other wild card (cut rank, upper/lower joker) may also stand for itself.
Every other card stands for itself.

>>> from solver.cards import parse_cards
>>> from solver.rules import PRESETS, make_deal
>>> deal = make_deal(PRESETS["rummy500"])
>>> meld = best_reading(parse_cards("AH 2H JK"), deal)
>>> meld.kind, [card_name(c) for c in meld.represents], meld.points
('run', ['AH', '2H', '3H'], 18)
>>> meld_problems(parse_cards("KH AH 2H"), deal)[0][0]
'run_wraps_around'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise

from solver.cards import JOKER, card_name, make_card, rank_of, suit_of
from solver.errors import shown
from solver.geometry import GEOMETRY
from solver.results import Meld, MeldKind
from solver.rules import AceMode, Deal, melded_points

MeldProblem = tuple[str, str, int | None]
"""``(code, message, offending card id or None)``."""

# One reading before scoring: (physical card, card it represents) in meld order.
_Pairs = list[tuple[int, int]]


# ---------------------------------------------------------------------------
# Readings


def readings(cards: Sequence[int], deal: Deal) -> list[Meld]:
    """Every valid way to read ``cards`` as one meld, most preferred first.

    Readings that agree on kind, represented cards, purity, points and number
    of wild substitutions are listed once.  Empty when the cards are no meld.
    """
    return _distinct_sorted(_all_readings(tuple(cards), deal, enforce_counts=True))


def best_reading(cards: Sequence[int], deal: Deal) -> Meld | None:
    """The preferred reading of ``cards``, or None when they are no meld.

    Preference: pure first, then most points, then a sequence over a set (an
    impure run helps an Indian declaration, a set never does), then fewest
    wild substitutions, then the smallest tuple of represented cards.
    """
    found = readings(cards, deal)
    return found[0] if found else None


def richest_reading(cards: Sequence[int], deal: Deal) -> Meld | None:
    """The reading of ``cards`` worth the most points, or None when they are
    no meld: what a player scores for a melded group (the rule book: where a
    meld reads two ways the player takes the reading worth more), as the
    solver melds it under ``max_net``.  Among equal points, the preferred one
    (``best_reading``).  In Rummy 500 with aces wild, AH 2H 3H is worth 6 as
    A-2-3 (the ace melded low) but 20 as 2-3-4 (the ace a stand-in, worth its
    own 15):

    >>> from solver.cards import parse_cards
    >>> from solver.rules import make_rules, make_deal
    >>> deal = make_deal(make_rules("rummy500", {"cut_joker": True}), "A")
    >>> cards = parse_cards("AH 2H 3H")
    >>> best_reading(cards, deal).points, richest_reading(cards, deal).points
    (6, 20)
    """
    found = readings(cards, deal)
    return richest_of(found) if found else None


def richest_of(found: Sequence[Meld]) -> Meld:
    """Of readings in order of preference (``readings``), the one worth the
    most points; among equal points, the first."""
    return max(found, key=lambda meld: meld.points)


def is_meld(cards: Sequence[int], deal: Deal) -> bool:
    """True when ``cards`` can be read as one valid meld."""
    return bool(readings(cards, deal))


def _preference(meld: Meld) -> tuple[bool, int, bool, int, tuple[int, ...], tuple[int, ...]]:
    return (
        not meld.pure, -meld.points, not meld.is_sequence, meld.wild_count,
        meld.represents, meld.cards,
    )


def _distinct_sorted(melds: Iterator[Meld]) -> list[Meld]:
    chosen: dict[tuple[object, ...], Meld] = {}
    for meld in sorted(melds, key=_preference):
        key = (meld.kind, tuple(sorted(meld.represents)), meld.pure, meld.points,
               meld.wild_count)
        chosen.setdefault(key, meld)
    return list(chosen.values())


def _all_readings(cards: tuple[int, ...], deal: Deal, enforce_counts: bool) -> Iterator[Meld]:
    """Readings of every kind; ``enforce_counts`` applies the natural/wild limits."""
    for kind, pairs in _assignments(cards, deal):
        if not enforce_counts or _within_limits(pairs, deal):
            yield _make_meld(kind, pairs, deal)


def _assignments(cards: tuple[int, ...], deal: Deal) -> Iterator[tuple[MeldKind, _Pairs]]:
    for pairs in _tanala_assignments(cards, deal):
        yield "tanala", pairs
    for rank in sorted({rank_of(c) for c in cards if c != JOKER}):
        for pairs in _set_assignments(cards, rank, deal):
            yield "set", pairs
    for suit in range(4):
        for window in run_windows(len(cards), deal.rules.ace, deal.rules.min_run_length):
            for pairs in _run_assignments(cards, window, suit, deal):
                yield "run", pairs


def _within_limits(pairs: _Pairs, deal: Deal) -> bool:
    rules = deal.rules
    naturals = sum(1 for card, stands_for in pairs if card == stands_for)
    substitutes = len(pairs) - naturals
    if naturals < rules.min_naturals_per_meld:
        return False
    return rules.max_wilds_per_meld is None or substitutes <= rules.max_wilds_per_meld


def _make_meld(kind: MeldKind, pairs: _Pairs, deal: Deal) -> Meld:
    cards = tuple(card for card, _ in pairs)
    represents = tuple(stands_for for _, stands_for in pairs)
    pure = kind != "set" and cards == represents
    # Only a run's bottom card can be a low ace: runs are listed low to high
    # and a wrapping run (K-A-2) never starts with its ace.
    points = sum(
        melded_points(card, stands_for, deal,
                      kind == "run" and i == 0 and rank_of(stands_for) == 0)
        for i, (card, stands_for) in enumerate(pairs)
    )
    return Meld(kind=kind, cards=cards, represents=represents, pure=pure, points=points)


def _subsets(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    for size in range(len(items) + 1):
        yield from combinations(items, size)


# ---------------------------------------------------------------------------
# Tanala, sets, runs


def _tanala_assignments(cards: tuple[int, ...], deal: Deal) -> Iterator[_Pairs]:
    """Three identical non-joker cards, when the variant allows tanala."""
    if (deal.rules.tanala_enabled and len(cards) == 3 and cards[0] != JOKER
            and len(set(cards)) == 1):
        yield [(card, card) for card in cards]


def _set_assignments(cards: tuple[int, ...], rank: int, deal: Deal) -> Iterator[_Pairs]:
    """Sets of ``rank``: naturals keep their suit, wilds fill the missing suits."""
    if not 3 <= len(cards) <= deal.rules.set_size_limit:
        return
    fixed = [c for c in cards if not deal.is_wild(c)]
    if any(c == JOKER or rank_of(c) != rank for c in fixed):
        return
    flexible = sorted(c for c in cards if deal.is_wild(c))
    own_rank = [i for i, c in enumerate(flexible) if c != JOKER and rank_of(c) == rank]
    for chosen in _subsets(own_rank):
        naturals = fixed + [flexible[i] for i in chosen]
        substitutes = [c for i, c in enumerate(flexible) if i not in chosen]
        suits = _substitute_suits([suit_of(c) for c in naturals], len(substitutes), deal)
        if suits is None:
            continue
        pairs = [(c, c) for c in naturals]
        pairs += [(c, make_card(rank, s)) for c, s in zip(substitutes, suits, strict=True)]
        yield sorted(pairs, key=lambda pair: (suit_of(pair[1]), pair[0]))


def _substitute_suits(natural_suits: list[int], wanted: int, deal: Deal) -> list[int] | None:
    """Suits the wild cards of a set stand for, or None when the set is impossible."""
    missing = [s for s in range(4) if s not in natural_suits]
    if deal.rules.set_allow_same_suit:
        return (missing + [s for _ in range(wanted) for s in range(4)])[:wanted]
    if len(set(natural_suits)) < len(natural_suits) or wanted > len(missing):
        return None
    return missing[:wanted]


def run_windows(length: int, ace: AceMode, min_length: int = 3) -> list[tuple[int, ...]]:
    """Rank sequences (low to high) a run of ``length`` cards may cover
    (``solver.geometry``: A-2-3 under ``low``/``high_low``/``wrap``, Q-K-A under
    ``high_low``/``high``, K-A-2 under ``wrap``); none below ``min_length``."""
    if length < max(3, min_length):
        return []
    return GEOMETRY[ace].windows(length)


def _run_assignments(
    cards: tuple[int, ...], window: tuple[int, ...], suit: int, deal: Deal
) -> Iterator[_Pairs]:
    """Runs over ``window`` in ``suit``: naturals in their slot, wilds in the rest."""
    if len(cards) != len(window):
        return
    targets = [make_card(rank, suit) for rank in window]
    slot_of = {card: i for i, card in enumerate(targets)}
    filled: dict[int, int] = {}
    for card in cards:
        if deal.is_wild(card):
            continue
        slot = slot_of.get(card)
        if slot is None or slot in filled:
            return
        filled[slot] = card
    flexible = sorted(c for c in cards if deal.is_wild(c))
    # A wild card of this suit may sit in its own slot as itself (one copy per slot).
    own_slot = sorted({c for c in flexible if c in slot_of and slot_of[c] not in filled})
    for chosen in _subsets(own_slot):
        slots = dict(filled)
        rest = list(flexible)
        for card in chosen:
            slots[slot_of[card]] = card
            rest.remove(card)
        empty = [i for i in range(len(targets)) if i not in slots]
        slots.update(zip(empty, rest, strict=True))
        yield [(slots[i], targets[i]) for i in range(len(targets))]


# ---------------------------------------------------------------------------
# Why a group of cards is not a meld


def meld_problems(cards: Sequence[int], deal: Deal) -> list[MeldProblem]:
    """Why ``cards`` are not a meld: ``(code, message, offending card or None)``.

    Empty exactly when ``readings(cards, deal)`` is non-empty.  The intended
    kind is guessed from the natural cards (one rank: a set; one suit: a run)
    and the most specific codes for it are returned.
    """
    cards = tuple(cards)
    if readings(cards, deal):
        return []
    return _diagnose(cards, deal) or [
        ("not_a_meld", f"{_names(cards)} cannot be read as a set or a run", None)
    ]


def _diagnose(cards: tuple[int, ...], deal: Deal) -> list[MeldProblem]:
    if len(cards) < 3:
        return [("too_few_cards", f"a meld needs at least 3 cards; got {len(cards)}", None)]
    if JOKER in cards and not deal.is_wild(JOKER):
        return [("joker_not_wild",
                 f"printed jokers are not wild under {deal.rules.name!r}, so JK fits no meld",
                 JOKER)]
    if all(c == JOKER for c in cards):
        return [("joker_only", "a meld needs at least one natural card; it has only jokers",
                 None)]
    unlimited = list(_all_readings(cards, deal, enforce_counts=False))
    if unlimited:
        return _count_problems(unlimited, deal)
    fixed = [c for c in cards if not deal.is_wild(c)]
    anchors = fixed or [c for c in cards if c != JOKER]
    kind = _intended_kind(anchors, len(cards))
    if kind == "set":
        return _set_problems(cards, fixed, deal)
    if kind == "run":
        return _run_problems(cards, fixed, deal)
    return [_mixed_problem(anchors)]


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _count_problems(unlimited: list[Meld], deal: Deal) -> list[MeldProblem]:
    """The shape is right but too few naturals or too many wilds."""
    rules = deal.rules
    best = min(unlimited, key=lambda meld: meld.wild_count)
    naturals = len(best.cards) - best.wild_count
    problems: list[MeldProblem] = []
    if naturals < rules.min_naturals_per_meld:
        problems.append((
            "too_few_naturals",
            f"a meld needs at least {rules.min_naturals_per_meld} cards standing for "
            f"themselves; at most {naturals} do here",
            None,
        ))
    if rules.max_wilds_per_meld is not None and best.wild_count > rules.max_wilds_per_meld:
        first_wild = next(c for c, r in zip(best.cards, best.represents, strict=True) if c != r)
        problems.append((
            "too_many_wilds",
            f"a meld may hold at most {rules.max_wilds_per_meld} wild card(s) standing in for "
            f"another card; this one needs {best.wild_count}",
            first_wild,
        ))
    return problems


def _intended_kind(anchors: list[int], size: int) -> MeldKind | None:
    """``set`` for one rank, ``run`` for one suit, None for neither."""
    one_rank = len({rank_of(c) for c in anchors}) == 1
    one_suit = len({suit_of(c) for c in anchors}) == 1
    if one_rank and one_suit:
        # Copies of one card: a set attempt when it fits in a set's size.
        return "set" if size <= 4 else "run"
    if one_rank:
        return "set"
    if one_suit:
        return "run"
    return None


def _mixed_problem(anchors: list[int]) -> MeldProblem:
    """Naturals of several ranks and several suits."""
    ranks = [rank_of(c) for c in anchors]
    if len(set(ranks)) == len(ranks):
        # Distinct ranks look like a run attempt: the suits are the problem.
        suit = Counter(suit_of(c) for c in anchors).most_common(1)[0][0]
        odd = next(c for c in anchors if suit_of(c) != suit)
        return ("mixed_suits",
                f"{_names(anchors)} are neither one rank nor one suit: a run needs one suit "
                f"and {card_name(odd)} breaks it", odd)
    rank = Counter(ranks).most_common(1)[0][0]
    odd = next(c for c in anchors if rank_of(c) != rank)
    return ("mixed_ranks",
            f"{_names(anchors)} are neither one rank nor one suit: a set needs one rank "
            f"and {card_name(odd)} breaks it", odd)


def _set_problems(cards: tuple[int, ...], fixed: list[int], deal: Deal) -> list[MeldProblem]:
    problems: list[MeldProblem] = []
    limit = deal.rules.set_size_limit
    if len(cards) > limit:
        extra = next((c for c in cards if deal.is_wild(c)), cards[-1])
        per_suit = "" if deal.rules.set_allow_same_suit else ", one per suit"
        problems.append((
            "set_too_large",
            f"a set has at most {limit} cards{per_suit} (wild cards included); got {len(cards)}",
            extra,
        ))
    if not deal.rules.set_allow_same_suit:
        seen: set[int] = set()
        for card in fixed:
            if suit_of(card) in seen:
                problems.append((
                    "set_repeats_suit",
                    f"{card_name(card)} repeats a suit: a set needs cards of different suits",
                    card,
                ))
                break
            seen.add(suit_of(card))
    return problems


def _run_problems(cards: tuple[int, ...], fixed: list[int], deal: Deal) -> list[MeldProblem]:
    if len(cards) < deal.rules.min_run_length:
        return [("run_too_short",
                 f"a run needs at least {deal.rules.min_run_length} cards under "
                 f"{deal.rules.name!r}; got {len(cards)}", None)]
    if len(cards) > 13:
        return [("run_too_long",
                 f"a run covers at most 13 ranks (one ace); got {len(cards)} cards", None)]
    repeated = [card for card, count in Counter(fixed).items() if count > 1]
    if repeated:
        card = repeated[0]
        return [("duplicate_in_run",
                 f"{card_name(card)} appears twice: a run holds each rank once", card)]
    return _gap_problems(cards, fixed, deal)


def _fits(ranks: set[int], size: int, ace: AceMode) -> bool:
    return any(ranks <= set(window) for window in run_windows(size, ace))


def _gap_problems(cards: tuple[int, ...], fixed: list[int], deal: Deal) -> list[MeldProblem]:
    """The naturals of one suit do not fit one window of consecutive ranks."""
    ranks = {rank_of(c) for c in fixed}
    size = len(cards)
    ace_mode = deal.rules.ace
    if _fits(ranks, size, ace_mode):
        return []
    ace = next((c for c in fixed if rank_of(c) == 0), None)
    if ace_mode == "low" and _fits(ranks, size, "high_low"):
        return [("ace_high_not_allowed",
                 "the ace ranks low only under ace='low': Q-K-A is not a run", ace)]
    if ace_mode == "high" and _fits(ranks, size, "high_low"):
        return [("ace_low_not_allowed",
                 "the ace ranks high only under ace='high': A-2-3 is not a run", ace)]
    if _fits(ranks, size, "wrap"):
        return [("run_wraps_around",
                 f"a run may not turn the corner K-A-2 under ace={shown(ace_mode)}", ace)]
    ordered = sorted(fixed, key=rank_of)
    gaps = [(rank_of(high) - rank_of(low), high)
            for low, high in pairwise(ordered)]
    after_gap = max(gaps, key=lambda gap: gap[0])[1] if gaps else None
    return [("not_consecutive",
             f"{_names(ordered)} are not consecutive: {size} card(s) cannot cover "
             f"the ranks between them", after_gap)]
