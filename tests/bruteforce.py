"""A tiny, slow, obviously-right reference optimiser for cross-checking solve().

Written from RULES.md alone (sections 1-3 and 8).  It shares no code with the
solver beyond the card encoding (``solver.cards``), the knob *values* of a
``Rules`` / ``Deal`` (``deal.rules.<knob>``, ``deal.wild``) and the ``Meld``
record it fills in.  Card points, meld validity, requirements, the opening
rule, the cascade and the objectives are all implemented here again, from the
rule text (no ``solver.scoring``, ``solver.melds``, ``solver.geometry``,
``deal.points``, ``rules._points``, ``Rules.set_size_limit`` or
``Rules.has_opening``).

Meld readings are found by brute force.  A reading says which standard card
each physical card stands for; it is valid when the represented cards are a
set, a run or a tanala (checked directly on the represented cards), every
non-wild card stands for itself, and the natural/substitution limits hold.

Two layers answer for a whole hand:

* ``brute_score(melds, deadwood, deal)`` scores one concrete arrangement,
  literally as the rule book says (the opening rule, the cascade ...);
* ``brute_report(hand, deal, discard)`` finds the optimum, ``declarable``,
  ``can_open`` and the go-out arrangement over every discard x every split of
  the kept cards into melds + deadwood x every reading of each meld.

Shortcuts, all plainly safe (``test_bruteforce_selftest`` checks the first two
against the literal 52-way definition, and the last two against a plain loop
over every split of the hand -- every sub-multiset tried as a meld -- scored
arrangement by arrangement with ``brute_score``):

* the represented cards of a meld are drawn from the shapes a meld can have
  (a rank with its suits, a window of consecutive ranks in one suit, three
  identical cards) instead of from all 52**n products; only shapes holding
  every non-wild card of the group are generated (a non-wild card can only
  stand for itself, so no other shape can match);
* wild cards are laid on a shape once per choice of which of them stand for
  themselves: which stand-in fills which gap changes neither purity nor
  points (``own``: a stand-in is worth its own points wherever it lies;
  ``represented``: the slot decides, whichever stand-in fills it);
* only groups whose non-wild cards share a rank or share a suit are read at
  all (every meld kind needs one of the two);
* ``brute_report`` does not list arrangements one by one: it walks the kept
  cards smallest first (the smallest card is deadwood or in a meld with some
  of the others: every split arises) and, for each multiset of cards still to
  place, keeps one arrangement per *summary*: the number of sets, pure runs,
  impure runs and tanalas, the meld points, the hand points of the melded
  cards, the number of unmelded cards and (Indian objectives only) the largest
  exemptions a pure sequence gives.  Every quantity the rule book scores an
  arrangement by -- requirements (set / run / sequence / pure_sequence
  counts), the threshold, ``lay_down_all``, deadwood, net, the cascade tiers
  -- is a function of that summary, and summaries of disjoint parts add up,
  so keeping one witness per summary loses no value.

Readings taken where the rule text leaves room (the standard published rules):

* a tanala is three identical cards whatever ``min_run_length``; it counts for
  ``sequence`` and ``pure_sequence`` requirement items, never for ``run``;
* an ace is "low" only at the bottom of a run that starts A-2-... (under
  ``wrap`` a 13-card run from the ace included; never in K-A-2 or under
  ``ace="high"``); a wild standing for that ace is worth the low-ace value
  under ``represented`` and its own points under ``own``;
* the go-out of a ``min_deadwood`` hand is never separate: it has deadwood 0,
  the optimum, so the best arrangement can be the go-out itself ("ties:
  compare values only"); ``go_out_value`` is then None;
* ``declaration="lay_down"`` without an opening rule means "some meld can be
  laid down" (no preset has that combination);
* an empty lay-down never opens, even where every requirement is "exactly 0".
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from solver.cards import JOKER, make_card, rank_of, suit_of
from solver.results import Meld, MeldKind
from solver.rules import Deal, Rules

# Hands checked against solve(), per case name; conftest prints it at the end.
CHECKED: Counter[str] = Counter()


# ---------------------------------------------------------------------------
# Card points, from RULES.md section 2 and the point knobs (section 8)

_JOKER_INDEX = 13  # card_points index of the printed joker; 0..12 = A..K


def _point_index(card: int) -> int:
    return _JOKER_INDEX if card == JOKER else rank_of(card)


def _scalar_points(index: int, rules: Rules) -> int:
    """The point knobs: ace, 2-9 (pip or face), T J Q K (court), joker."""
    if index == _JOKER_INDEX:
        return rules.joker_points
    if index == 0:
        return rules.ace_points
    if index <= 8:  # ranks 2..9
        return index + 1 if rules.pip_points is None else rules.pip_points
    return rules.court_points  # T J Q K


def _override(rules: Rules, part: str, index: int) -> int | None:
    table = rules.card_points
    if table is None:
        return None
    return dict(getattr(table, part)).get(index)


@functools.lru_cache(maxsize=4096)
def _point_tables(deal: Deal) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(points in hand, points melded as itself / own points of a stand-in,
    points of an ace melded low) -- per card type 0..52, before the
    ``wild_cards_score_zero`` rule (applied in the two functions below)."""
    rules = deal.rules
    hand = []
    meld = []
    for card in range(53):
        index = _point_index(card)
        scalar = _scalar_points(index, rules)
        in_hand = _override(rules, "hand", index)
        melded = _override(rules, "meld", index)
        hand.append(scalar if in_hand is None else in_hand)
        meld.append(scalar if melded is None else melded)
    table = rules.card_points
    if table is not None and table.ace_low is not None:
        ace_low = table.ace_low
    elif rules.ace_low_run_points is not None:
        ace_low = rules.ace_low_run_points
    else:
        ace_low = meld[0]  # the ace's meld value
    return tuple(hand), tuple(meld), ace_low


def hand_value(card: int, deal: Deal) -> int:
    """Points of ``card`` left in hand."""
    if deal.rules.wild_cards_score_zero and card in deal.wild:
        return 0
    return _point_tables(deal)[0][card]


def meld_value(card: int, represents: int, deal: Deal, low_ace: bool) -> int:
    """Points of ``card`` melded as ``represents``; ``low_ace``: that slot is
    the bottom ace of a run starting A-2-3... (not K-A-2)."""
    rules = deal.rules
    if rules.wild_cards_score_zero and card in deal.wild:
        return 0
    _, meld, ace_low = _point_tables(deal)
    if card == represents:  # natural (a wild-rank card used as itself included)
        return ace_low if low_ace else meld[card]
    if rules.wild_meld_value == "own":
        return meld[card]  # a stand-in is worth its own points, even on a low ace
    return ace_low if low_ace else meld[represents]  # "represented" (Kalooki)


def hand_points(hand: Sequence[int], deal: Deal) -> int:
    """Sum of the in-hand points of ``hand`` (handy in self-tests)."""
    return sum(hand_value(c, deal) for c in hand)


# ---------------------------------------------------------------------------
# Meld shapes, straight from RULES.md sections 1 and 8


class Shape(NamedTuple):
    """The cards a meld could represent, in meld order."""

    kind: MeldKind
    represents: tuple[int, ...]
    low_ace_slot: int | None  # slot of an ace played low (bottom of A-2-3...)


class BrutePoints(NamedTuple):
    """Points of one arrangement (same field names as ``solver.scoring.Points``).

    ``declarable``: this arrangement alone declares (knock: deadwood within
    the limit; lay_down: it opens; go_out / Indian: every kept card melded,
    requirements and threshold met, opened).  ``opened``: None unless the
    rules have an opening.  ``goes_out``: every kept card melded with the
    requirements, the threshold and (under an opening) the opening met."""

    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int
    declarable: bool
    opened: bool | None = None
    goes_out: bool = False


class Arrangement(NamedTuple):
    """One way to lay out a hand."""

    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]
    discard: int | None
    points: BrutePoints


def tanala_allowed(rules: Rules) -> bool:
    """Knob ``tanala``: None means ``decks >= 3``."""
    return rules.decks >= 3 if rules.tanala is None else rules.tanala


def set_size_ok(rules: Rules, size: int) -> bool:
    """A set holds 3..min(4, max_set_size) cards of distinct suits, or with
    ``set_allow_same_suit`` 3..max_set_size cards (None: no limit)."""
    if size < 3:
        return False
    if not rules.set_allow_same_suit:
        return size <= (4 if rules.max_set_size is None else min(4, rules.max_set_size))
    return rules.max_set_size is None or size <= rules.max_set_size


def _run_ranks(rules: Rules, size: int) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Rank sequences (low to high) a run of ``size`` cards may have, and
    whether the run starts with a low ace that is not part of a wrap."""
    if size < rules.min_run_length or size > 13:  # no rank twice: at most 13 cards
        return
    if rules.ace == "wrap":
        # K-A-2 allowed: ranks consecutive modulo 13.
        for start in range(13):
            yield tuple((start + i) % 13 for i in range(size)), start == 0
        return
    # Positions 1..14: 1 = A low, 2..13 = 2..K, 14 = A high (after the king).
    lowest = 1 if rules.ace in ("low", "high_low") else 2  # "high": no A-2-3
    highest = 14 if rules.ace in ("high_low", "high") else 13  # "low": no Q-K-A
    for start in range(lowest, highest - size + 2):
        ranks = tuple((position - 1) % 13 for position in range(start, start + size))
        if len(set(ranks)) == size:  # no rank twice, at most one ace
            yield ranks, start == 1


def _shapes(rules: Rules, size: int, fixed: Sequence[int] = ()) -> Iterator[Shape]:
    """Every represented-card shape a meld of ``size`` cards can take that
    holds the standard cards ``fixed`` (only a filter: a shape without one of
    them can never be read, because a non-wild card stands for itself)."""
    ranks = {rank_of(c) for c in fixed}
    suits = {suit_of(c) for c in fixed}
    if set_size_ok(rules, size) and len(ranks) <= 1:
        suit_choices = (
            itertools.combinations_with_replacement(range(4), size)
            if rules.set_allow_same_suit
            else itertools.combinations(range(4), size)
        )
        for suit_tuple in suit_choices:
            for rank in ranks or range(13):
                yield Shape("set", tuple(make_card(rank, s) for s in suit_tuple), None)
    if size >= 3 and len(suits) <= 1:
        for run, starts_low in _run_ranks(rules, size):
            for suit in suits or range(4):
                cards = tuple(make_card(r, suit) for r in run)
                yield Shape("run", cards, 0 if starts_low and run[0] == 0 else None)
    if size == 3 and tanala_allowed(rules) and len(set(fixed)) <= 1:
        for card in set(fixed) or range(52):
            yield Shape("tanala", (card, card, card), None)


def _check_shape(shape: Shape, rules: Rules) -> None:
    """Re-check a shape against the written rule (guards the generator above)."""
    cards = shape.represents
    assert all(0 <= c < 52 for c in cards)
    if shape.kind == "set":
        assert set_size_ok(rules, len(cards))
        assert len({rank_of(c) for c in cards}) == 1
        assert rules.set_allow_same_suit or len({suit_of(c) for c in cards}) == len(cards)
        assert shape.low_ace_slot is None
    elif shape.kind == "run":
        assert len(cards) >= max(3, rules.min_run_length) and len({suit_of(c) for c in cards}) == 1
        ranks = [rank_of(c) for c in cards]
        assert len(set(ranks)) == len(ranks)
        steps = {(b - a) % 13 for a, b in itertools.pairwise(ranks)}
        assert steps == {1}
        if rules.ace != "wrap":
            # only an ace may follow a king (Q-K-A), and nothing follows that ace
            for a, b in itertools.pairwise(ranks):
                assert b > a or (rules.ace in ("high_low", "high") and a == 12 and b == 0)
            assert 0 not in ranks[1:-1]
            if rules.ace == "high":
                assert ranks[0] != 0  # no A-2-3
        low = ranks[0] == 0 and ranks[1] == 1  # A-2-...: the ace ranks low
        assert shape.low_ace_slot == (0 if low else None)
    else:
        assert len(cards) == 3 and len(set(cards)) == 1 and tanala_allowed(rules)


# ---------------------------------------------------------------------------
# Readings of a group of cards


@functools.lru_cache(maxsize=200_000)
def _readings(cards: tuple[int, ...], deal: Deal) -> tuple[Meld, ...]:
    fixed = [c for c in cards if c not in deal.wild]  # a non-wild card is only itself
    if JOKER in fixed:
        return ()  # a printed joker that is not wild is a dead card (RULES.md 1)
    wilds = tuple(sorted(c for c in cards if c in deal.wild))
    found: dict[tuple[object, ...], Meld] = {}
    for shape in _shapes(deal.rules, len(cards), fixed):
        _check_shape(shape, deal.rules)
        order: list[int | None] = [None] * len(cards)
        for card in fixed:
            slot = next(
                (i for i, r in enumerate(shape.represents) if r == card and order[i] is None),
                None,
            )
            if slot is None:
                break
            order[slot] = card
        else:
            free = [i for i, c in enumerate(order) if c is None]
            for filling in _fillings(tuple(shape.represents[i] for i in free), wilds):
                for i, card in zip(free, filling, strict=True):
                    order[i] = card
                cards_in_order = tuple(c for c in order if c is not None)
                meld = _reading(shape, list(zip(cards_in_order, shape.represents, strict=True)),
                                deal)
                if meld is not None:
                    found[(meld.kind, meld.cards, meld.represents)] = meld
    return tuple(found.values())


def _fillings(slots: tuple[int, ...], wilds: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to lay the wild cards on the free slots (aligned with ``slots``).

    A reading scores by which cards stand for themselves, not by which
    substitute fills which gap, so this yields one filling for each set of
    slots that can get their own card while every other slot gets a stand-in.
    """
    own_able = [i for i, slot in enumerate(slots) if slot in wilds]
    for size in range(len(own_able) + 1):
        for own in itertools.combinations(own_able, size):
            left = list(wilds)
            try:
                for i in own:
                    left.remove(slots[i])  # that slot holds its own card
            except ValueError:
                continue  # not enough copies for every chosen slot
            others = [i for i in range(len(slots)) if i not in own]
            stand_ins = _stand_ins(tuple(slots[i] for i in others), tuple(sorted(left)))
            if stand_ins is None:
                continue
            filling = list(slots)
            for i, card in zip(others, stand_ins, strict=True):
                filling[i] = card
            yield tuple(filling)


@functools.lru_cache(maxsize=200_000)
def _stand_ins(slots: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """``cards`` in an order where none lies on a slot equal to itself, if any."""
    if not slots:
        return ()
    for card in sorted(set(cards)):
        if card != slots[0]:
            rest = list(cards)
            rest.remove(card)
            tail = _stand_ins(slots[1:], tuple(rest))
            if tail is not None:
                return (card, *tail)
    return None


def _reading(shape: Shape, pairs: Sequence[tuple[int, int]], deal: Deal) -> Meld | None:
    """The meld of physical cards standing for ``shape``'s cards as ``pairs``
    (card, represents) say, in any order; None if a rule forbids it."""
    rules = deal.rules
    assert sorted(r for _, r in pairs) == sorted(shape.represents)
    if any(c != r and c not in deal.wild for c, r in pairs):
        return None  # a non-wild card can only stand for itself
    if any(r == JOKER or not 0 <= r < 52 for _, r in pairs):
        return None  # a wild stands for a standard card
    naturals = sum(1 for c, r in pairs if c == r)
    substitutions = len(pairs) - naturals
    if naturals < rules.min_naturals_per_meld:
        return None
    if rules.max_wilds_per_meld is not None and substitutions > rules.max_wilds_per_meld:
        return None
    if shape.kind == "tanala" and substitutions:
        return None  # three identical cards, all natural
    # the slot of a low ace holds the only ace of its run
    low_ace = None if shape.low_ace_slot is None else shape.represents[shape.low_ace_slot]
    points = sum(meld_value(c, r, deal, r == low_ace) for c, r in pairs)
    pure = shape.kind != "set" and substitutions == 0
    in_order = sorted(pairs, key=lambda pair: shape.represents.index(pair[1]))
    return Meld(
        shape.kind,
        tuple(c for c, _ in in_order),
        tuple(r for _, r in in_order),
        pure,
        points,
    )


def is_meld_brute(cards: Sequence[int], deal: Deal) -> list[Meld]:
    """Every valid reading of the multiset ``cards`` as one set, run or tanala.

    Readings that differ only in which stand-in fills which gap score the
    same and are listed once.
    """
    return list(_readings(tuple(sorted(cards)), deal))


def meld_reading_error(meld: Meld, deal: Deal) -> str | None:
    """Why ``meld`` (e.g. from solve()) is not a valid reading, or None if it is."""
    if len(meld.cards) != len(meld.represents):
        return "cards and represents differ in length"
    if any(not 0 <= r < 52 for r in meld.represents):
        return "a represented card is not a standard card"
    pairs = list(zip(meld.cards, meld.represents, strict=True))
    reason = f"represented cards are not a valid {meld.kind}"
    for shape in _shapes(deal.rules, len(pairs)):
        if shape.kind != meld.kind or sorted(shape.represents) != sorted(meld.represents):
            continue
        reading = _reading(shape, pairs, deal)
        if reading is None:
            reason = "a non-wild card stands for another card, or a wild limit is broken"
        elif (reading.pure, reading.points) != (meld.pure, meld.points):
            reason = (
                f"pure/points should be {reading.pure}/{reading.points}, "
                f"got {meld.pure}/{meld.points}"
            )
        else:
            return None
    return reason


# ---------------------------------------------------------------------------
# Scoring one arrangement, literally (RULES.md sections 3 and 8)


def opening_rules(rules: Rules) -> bool:
    """The melds laid down must open: min_deadwood / max_net with
    requirements, a points threshold or ``lay_down_all``."""
    return rules.objective in ("min_deadwood", "max_net") and bool(
        rules.requirements or rules.min_meld_points or rules.lay_down_all)


def _requirements_hold(sets: int, runs: int, pure_runs: int, tanalas: int, rules: Rules) -> bool:
    """Every requirement item: set counts sets, run runs, sequence runs and
    tanalas, pure_sequence pure runs and tanalas; at least / exactly."""
    have = {
        "set": sets,
        "run": runs,
        "sequence": runs + tanalas,
        "pure_sequence": pure_runs + tanalas,
    }
    for item in rules.requirements:
        count = have[item.kind]
        if count < item.count or (item.exact and count != item.count):
            return False
    return True


def melds_meet_requirements(melds: Sequence[Meld], rules: Rules) -> bool:
    """``melds`` hold every requirement item."""
    return _requirements_hold(
        sum(1 for m in melds if m.kind == "set"),
        sum(1 for m in melds if m.kind == "run"),
        sum(1 for m in melds if m.kind == "run" and m.pure),
        sum(1 for m in melds if m.kind == "tanala"),
        rules,
    )


def _threshold_met(meld_points: int, rules: Rules) -> bool:
    return meld_points >= (rules.min_meld_points or 0)


def _arrangement_declares(rules: Rules, deadwood_points: int, goes_out: bool,
                          opened: bool | None, any_meld: bool) -> bool:
    """Whether one arrangement declares (the hand is declarable when one does)."""
    if rules.objective in ("cascade", "marriage"):
        return goes_out
    if rules.declaration == "knock":  # no knock limit: only gin (deadwood 0)
        return deadwood_points <= (rules.knock_limit or 0)
    if rules.declaration == "lay_down":
        # Ambiguity: "lay_down" without an opening rule is read as "some meld
        # can be laid down" (no ruleset we test has that combination).
        return bool(opened) if opened is not None else any_meld
    return goes_out


def brute_score(melds: Sequence[Meld], deadwood: Sequence[int], deal: Deal) -> BrutePoints:
    """Points of ``melds`` + ``deadwood`` (the kept cards), from the rule text.

    The melds' ``kind``, ``pure`` and ``points`` are taken as given: check
    them with ``meld_reading_error`` first."""
    rules = deal.rules
    melds = tuple(melds)
    deadwood = tuple(deadwood)
    meets = melds_meet_requirements(melds, rules) and _threshold_met(
        sum(m.points for m in melds), rules)
    if rules.objective in ("cascade", "marriage"):
        cards = [c for m in melds for c in m.cards] + list(deadwood)
        pure_sequences = [m for m in melds if m.kind != "set" and m.pure]
        if meets:
            # the declaration requirements hold: only the unmelded cards count
            count = hand_points(deadwood, deal)
        elif rules.objective == "marriage":
            # up to two pure sequences shown and every wild card are exempt
            def counted(group: Sequence[int]) -> int:
                return sum(hand_value(c, deal) for c in group if c not in deal.wild)

            shown = sorted((counted(m.cards) for m in pure_sequences), reverse=True)[:2]
            count = counted(cards) - sum(shown)
        elif pure_sequences and rules.penalty_tiers == 3:
            # a pure sequence but not the declaration: every card outside it counts
            count = hand_points(cards, deal) - max(hand_points(m.cards, deal)
                                                   for m in pure_sequences)
        else:
            count = hand_points(cards, deal)  # every card counts
        meld_points = sum(m.points for m in melds)
        penalty = count if rules.points_cap is None else min(count, rules.points_cap)
        goes_out = not deadwood and meets
        return BrutePoints(count, meld_points, meld_points - count, penalty, goes_out, None,
                           goes_out)
    opened: bool | None = None
    if opening_rules(rules):
        opened = bool(melds) and meets and not (rules.lay_down_all and deadwood)
        if not opened:
            # melds that cannot go down stay in hand: every kept card counts
            deadwood = (*deadwood, *(c for m in melds for c in m.cards))
            melds = ()
    meld_points = sum(m.points for m in melds)
    deadwood_points = hand_points(deadwood, deal)
    goes_out = not deadwood and bool(melds) and meets and opened is not False
    declares = _arrangement_declares(rules, deadwood_points, goes_out, opened, bool(melds))
    return BrutePoints(deadwood_points, meld_points, meld_points - deadwood_points,
                       deadwood_points, declares, opened, goes_out)


def objective_value(points: BrutePoints, rules: Rules) -> int:
    """The number solve() optimises: net for max_net, else deadwood/count."""
    return points.net_points if rules.objective == "max_net" else points.deadwood_points


# ---------------------------------------------------------------------------
# Splitting a hand (the plain enumeration; used by play_brute and self-tests)


def _sub_multisets(cards: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Distinct sub-multisets of a sorted tuple, as sorted tuples."""
    counts = sorted(Counter(cards).items())
    for takes in itertools.product(*(range(n + 1) for _, n in counts)):
        yield tuple(c for (c, _), k in zip(counts, takes, strict=True) for _ in range(k))


def _remove(cards: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    left = list(cards)
    for c in taken:
        left.remove(c)
    return tuple(left)


def _partitions(
    cards: tuple[int, ...], deal: Deal
) -> Iterator[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Every split of sorted ``cards`` into meldable groups + deadwood.

    The smallest card either lies in the deadwood or is in a meld with some
    of the rest; that covers every split (some are produced twice).
    """
    if not cards:
        yield (), ()
        return
    first, rest = cards[0], cards[1:]
    for melds, deadwood in _partitions(rest, deal):
        yield melds, (first, *deadwood)
    for others in _sub_multisets(rest):
        group = (first, *others)
        if len(group) >= 3 and _readings(group, deal):
            for melds, deadwood in _partitions(_remove(rest, others), deal):
                yield (group, *melds), deadwood


def _signature_readings(group: tuple[int, ...], deal: Deal) -> list[Meld]:
    """One reading per (kind, pure, points): all that scoring looks at."""
    kept: dict[tuple[object, ...], Meld] = {}
    for meld in _readings(group, deal):
        kept.setdefault((meld.kind, meld.pure, meld.points), meld)
    return list(kept.values())


def _discard_options(hand: tuple[int, ...], discard: bool
                     ) -> list[tuple[int | None, tuple[int, ...]]]:
    if not discard:
        return [(None, hand)]
    return [(c, _remove(hand, (c,))) for c in sorted(set(hand))]


def plain_arrangements(hand: Sequence[int], deal: Deal, discard: bool) -> Iterator[Arrangement]:
    """Every arrangement of ``hand`` (discard x split x reading), each scored
    with ``brute_score``: the literal search ``brute_report`` shortcuts.
    Exponential; for small hands in self-tests."""
    for thrown, kept in _discard_options(tuple(sorted(hand)), discard):
        for groups, deadwood in _partitions(kept, deal):
            for melds in itertools.product(*(_signature_readings(g, deal) for g in groups)):
                yield Arrangement(tuple(melds), deadwood, thrown,
                                  brute_score(melds, deadwood, deal))


# ---------------------------------------------------------------------------
# The report over all arrangements


class BruteReport(NamedTuple):
    """What the brute force says about a hand (compare with ``Solution``).

    * ``value`` -- the objective value as solve() reports it: ``net_points``
      for max_net, else ``deadwood_points`` (Indian: the uncapped count);
    * ``declarable`` -- a property of the hand (RULES.md sections 3, 8);
    * ``can_open`` -- under an opening (requirements / threshold /
      lay_down_all with min_deadwood or max_net): some arrangement opens;
      else None;
    * ``go_out_value`` -- None, or the objective value of the best
      arrangement melding every kept card (requirements, threshold, opening
      met) when that is *not* as good as ``value`` (the best arrangement then
      keeps cards back).  For max_net it is that arrangement's
      ``net_points``.  For min_deadwood it is always None: a go-out has
      deadwood 0, which is the optimum, so the best arrangement can be the
      go-out itself ("ties: compare values only");
    * ``can_go_out`` -- some arrangement melds every kept card as above;
    * ``witness`` -- an arrangement reaching ``value``; ``go_out_witness`` --
      the best arrangement that goes out (None when none does);
    * ``arrangements`` -- distinct summaries scored (a size measure).
    """

    value: int
    declarable: bool
    can_open: bool | None
    go_out_value: int | None
    can_go_out: bool
    witness: Arrangement
    go_out_witness: Arrangement | None
    arrangements: int


class _Summary(NamedTuple):
    """All the scoring reads of a (partial) arrangement; adds up over parts."""

    sets: int
    pure_runs: int
    impure_runs: int
    tanalas: int
    meld_points: int
    melded_hand_points: int  # in-hand points of the melded cards
    unmelded: int  # number of unmelded cards
    exemptions: tuple[int, ...]  # Indian: largest pure-sequence exemptions, best first


_EMPTY = _Summary(0, 0, 0, 0, 0, 0, 0, ())


def _exemption(meld: Meld, deal: Deal) -> int | None:
    """What showing ``meld`` exempts in the Indian cascade when the
    declaration fails: a pure sequence's cards (marriage: its non-wild
    cards); None for other melds or objectives."""
    rules = deal.rules
    if meld.kind == "set" or not meld.pure:
        return None
    if rules.objective == "cascade" and rules.penalty_tiers == 3:
        return hand_points(meld.cards, deal)
    if rules.objective == "marriage":
        return sum(hand_value(c, deal) for c in meld.cards if c not in deal.wild)
    return None


def _keep(rules: Rules) -> int:
    """How many exemptions matter: the best one (cascade), two (marriage)."""
    return 2 if rules.objective == "marriage" else 1


def _meld_summary(meld: Meld, deal: Deal) -> _Summary:
    """The summary of ``meld`` alone (no unmelded card)."""
    exemption = _exemption(meld, deal)
    return _Summary(
        int(meld.kind == "set"),
        int(meld.kind == "run" and meld.pure),
        int(meld.kind == "run" and not meld.pure),
        int(meld.kind == "tanala"),
        meld.points,
        hand_points(meld.cards, deal),
        0,
        () if exemption is None else (exemption,),
    )


def _combine(a: _Summary, b: _Summary, keep: int) -> _Summary:
    """The summary of two disjoint parts (``keep``: exemptions that matter)."""
    exemptions = a.exemptions
    if b.exemptions:
        exemptions = tuple(sorted((*a.exemptions, *b.exemptions), reverse=True)[:keep])
    return _Summary(a.sets + b.sets, a.pure_runs + b.pure_runs, a.impure_runs + b.impure_runs,
                    a.tanalas + b.tanalas, a.meld_points + b.meld_points,
                    a.melded_hand_points + b.melded_hand_points, a.unmelded + b.unmelded,
                    exemptions)


def _evaluate(s: _Summary, kept_total: int, kept_nonwild_total: int, deal: Deal) -> BrutePoints:
    """``brute_score`` of any arrangement with summary ``s`` (kept cards'
    in-hand points ``kept_total``, of which ``kept_nonwild_total`` non-wild)."""
    rules = deal.rules
    any_meld = s.sets + s.pure_runs + s.impure_runs + s.tanalas > 0
    meets = _requirements_hold(s.sets, s.pure_runs + s.impure_runs, s.pure_runs, s.tanalas,
                               rules) and _threshold_met(s.meld_points, rules)
    deadwood_points = kept_total - s.melded_hand_points
    if rules.objective in ("cascade", "marriage"):
        if meets:
            count = deadwood_points
        elif rules.objective == "marriage":
            count = kept_nonwild_total - sum(s.exemptions)
        else:
            count = kept_total - (s.exemptions[0] if s.exemptions else 0)
        penalty = count if rules.points_cap is None else min(count, rules.points_cap)
        goes_out = s.unmelded == 0 and meets
        return BrutePoints(count, s.meld_points, s.meld_points - count, penalty, goes_out, None,
                           goes_out)
    opened: bool | None = None
    meld_points = s.meld_points
    if opening_rules(rules):
        opened = any_meld and meets and not (rules.lay_down_all and s.unmelded)
        if not opened:
            deadwood_points, meld_points, any_meld = kept_total, 0, False
    goes_out = s.unmelded == 0 and any_meld and meets and opened is not False
    declares = _arrangement_declares(rules, deadwood_points, goes_out, opened, any_meld)
    return BrutePoints(deadwood_points, meld_points, meld_points - deadwood_points,
                       deadwood_points, declares, opened, goes_out)


class _Group(NamedTuple):
    """A meldable sub-multiset of the hand and its readings, prepared."""

    cards: tuple[int, ...]
    counts: tuple[tuple[int, int], ...]  # (card, copies)
    readings: tuple[tuple[Meld, _Summary], ...]  # one per (kind, pure, points)


def _candidate_groups(hand: tuple[int, ...], deal: Deal) -> dict[int, list[_Group]]:
    """Every sub-multiset of ``hand`` (3+ cards) with a reading, with its
    signature readings, indexed by its smallest card.  Groups whose non-wild
    cards share neither a rank nor a suit are skipped unread (no meld kind
    allows that); growing such a group cannot repair it, so the walk below
    prunes there."""
    counts = sorted(Counter(hand).items())
    out: dict[int, list[_Group]] = {}

    def could_meld(group: list[int]) -> bool:
        fixed = [c for c in group if c not in deal.wild]
        return len({rank_of(c) for c in fixed}) <= 1 or len({suit_of(c) for c in fixed}) <= 1

    def walk(i: int, group: list[int]) -> None:
        if i == len(counts):
            if len(group) >= 3:
                readings = _signature_readings(tuple(group), deal)
                if readings:
                    out.setdefault(group[0], []).append(_Group(
                        tuple(group), tuple(sorted(Counter(group).items())),
                        tuple((m, _meld_summary(m, deal)) for m in readings)))
            return
        card, n = counts[i]
        for k in range(n + 1):
            extended = group + [card] * k
            if k and not could_meld(extended):
                break
            walk(i + 1, extended)

    walk(0, [])
    return out


_Splits = dict[_Summary, tuple[tuple[Meld, ...], tuple[int, ...]]]


def _split_summaries(kept: tuple[int, ...], deal: Deal, groups: dict[int, list[_Group]],
                     memo: dict[tuple[int, ...], _Splits]) -> _Splits:
    """Summary -> one (melds, deadwood) with it, over every split of sorted
    ``kept`` and every reading of its melds."""
    hit = memo.get(kept)
    if hit is not None:
        return hit
    if not kept:
        memo[kept] = {_EMPTY: ((), ())}
        return memo[kept]
    keep = _keep(deal.rules)
    first, rest = kept[0], kept[1:]
    out: _Splits = {}
    # the smallest card stays unmelded ...
    for s, (melds, deadwood) in _split_summaries(rest, deal, groups, memo).items():
        out.setdefault(s._replace(unmelded=s.unmelded + 1), (melds, (first, *deadwood)))
    # ... or is in a meld with some of the others
    available = Counter(kept)
    for group in groups.get(first, ()):
        if any(available[c] < k for c, k in group.counts):
            continue
        below = _split_summaries(_remove(rest, group.cards[1:]), deal, groups, memo)
        for meld, summary in group.readings:
            for s, (melds, deadwood) in below.items():
                out.setdefault(_combine(summary, s, keep), ((meld, *melds), deadwood))
    memo[kept] = out
    return out


def brute_report(hand: Sequence[int], deal: Deal, discard: bool) -> BruteReport:
    """Everything ``solve`` answers about ``hand``, by exhaustion.

    ``discard``: one card (any) is thrown away first and only the rest is
    scored; the discard is chosen jointly with the melds.
    """
    rules = deal.rules
    maximise = rules.objective == "max_net"
    hand = tuple(sorted(hand))
    groups = _candidate_groups(hand, deal)
    memo: dict[tuple[int, ...], _Splits] = {}

    def better(a: int, b: int) -> bool:
        return a > b if maximise else a < b

    best: tuple[int, Arrangement] | None = None
    best_go: tuple[int, Arrangement] | None = None
    declarable = False
    can_open = False
    count = 0
    for thrown, kept in _discard_options(hand, discard):
        total = hand_points(kept, deal)
        nonwild = sum(hand_value(c, deal) for c in kept if c not in deal.wild)
        for s, (melds, deadwood) in _split_summaries(kept, deal, groups, memo).items():
            count += 1
            points = _evaluate(s, total, nonwild, deal)
            value = objective_value(points, rules)
            declarable = declarable or points.declarable
            can_open = can_open or bool(points.opened)
            if best is None or better(value, best[0]):
                best = (value, Arrangement(melds, deadwood, thrown, points))
            if points.goes_out and (best_go is None or better(value, best_go[0])):
                best_go = (value, Arrangement(melds, deadwood, thrown, points))
    assert best is not None
    go_out_value = None
    if (rules.objective in ("min_deadwood", "max_net") and rules.declaration != "knock"
            and best_go is not None and best_go[0] != best[0]):
        go_out_value = best_go[0]
    return BruteReport(
        value=best[0],
        declarable=declarable,
        can_open=can_open if opening_rules(rules) else None,
        go_out_value=go_out_value,
        can_go_out=best_go is not None,
        witness=best[1],
        go_out_witness=None if best_go is None else best_go[1],
        arrangements=count,
    )


def brute_optimum(hand: Sequence[int], deal: Deal, discard: bool) -> tuple[int, Arrangement]:
    """The optimal objective value of ``hand`` and one arrangement reaching it.

    ``discard``: one card (any) is thrown away first and only the rest scored.
    Maximises ``net_points`` for ``max_net``, else minimises ``deadwood_points``
    (the uncapped cascade count for the Indian objectives).
    """
    report = brute_report(hand, deal, discard)
    return report.value, report.witness
