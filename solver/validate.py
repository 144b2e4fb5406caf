"""Check a declared arrangement (melds + deadwood) and score it.

Engine-independent: meld validity comes from ``solver.classify`` and points
from ``solver.scoring``.  Every problem is reported with a stable code, not
only the first one.  Malformed input (unknown card tokens, more copies of a
card than the deck holds) raises ``InvalidHandError`` instead.

>>> report = validate([["7H", "8H", "9H"], ["KS", "KH", "KD"]], ["2C"], variant="gin")
>>> report.valid, report.declarable, report.deadwood_points
(True, True, 2)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.cards import JOKER, InvalidHandError, card_name, card_tokens, parse_card
from solver.classify import meld_problems, readings, richest_of
from solver.errors import is_list, plain_int
from solver.results import Meld, Problem, ValidationReport
from solver.rules import MAX_HAND_CARDS, Deal, Rules, check_copies, check_hand, make_deal, make_rules
from solver.scoring import meets_declaration, score_arrangement, unmet_requirements

MAX_READING_COMBINATIONS = 4096
"""Readings of the declared groups tried at most when the preferred ones miss a
requirement (a bound for a declaration of many groups that each read several ways)."""

CardToken = str | int
CardList = str | Sequence[CardToken]
"""Card tokens (``"AS"``, ``"10h"``, ``"JK"``) or card ids, or one string of
tokens separated by spaces or commas."""

_INDIAN = ("cascade", "marriage")


@dataclass(frozen=True, slots=True)
class _Declared:
    """The parsed declaration: card ids per meld, deadwood, optional hand."""

    melds: list[list[int]]
    deadwood: list[int]
    hand: list[int] | None

    @property
    def cards(self) -> list[int]:
        return [c for meld in self.melds for c in meld] + self.deadwood


def validate(
    melds: Sequence[CardList],
    deadwood: CardList,
    variant: str | Rules = "gin",
    wild_rank: str | None = None,
    rules: Mapping[str, Any] | None = None,
    hand: CardList | None = None,
) -> ValidationReport:
    """Check declared ``melds`` and ``deadwood`` under ``variant`` and score them.

    ``rules`` overrides knobs of the preset; ``wild_rank`` is the cut card as
    in ``make_deal``; ``hand`` (optional) is the full kept hand, which melds +
    deadwood must match card for card.  Raises ``InvalidHandError`` for bad
    tokens or impossible copy counts and ``InvalidRulesError`` for bad knobs.
    """
    deal = make_deal(make_rules(variant, rules), wild_rank)
    declared = _parse(melds, deadwood, hand, deal.rules)
    readings = chosen_readings(declared.melds, deal)
    problems = _meld_problems(declared.melds, readings, deal)
    problems += _count_problems(declared, deal.rules)
    valid = not problems
    valid_melds = [m for m in readings if m is not None]
    counted = [c for cards, m in zip(declared.melds, readings, strict=True) if m is None
               for c in cards] + declared.deadwood
    problems += _declaration_problems(valid_melds, declared.deadwood, deal)
    points = score_arrangement(valid_melds, counted, deal)
    return ValidationReport(
        variant=deal.rules.name,
        valid=valid,
        declarable=valid and points.declarable,
        problems=tuple(problems),
        melds=tuple(readings),
        deadwood_points=points.deadwood_points,
        meld_points=points.meld_points,
        net_points=points.net_points,
        penalty_points=points.penalty_points,
    )


def chosen_readings(groups: Sequence[Sequence[int]], deal: Deal) -> list[Meld | None]:
    """Each declared group read as a meld (None: it is none): its preferred
    reading (``classify.best_reading``; where melds score, ``max_net``, the
    reading worth most, ``classify.richest_reading``, as the solver melds
    it and a round is scored) -- unless with those the melds miss
    the declaration's requirements or opening threshold
    (``scoring.meets_declaration``: then, in the variants that score it, every
    card counts) and another reading of the groups that read several ways
    (wild cards that make a set or a run) meets them, as the solver reads
    them: then the combination that meets them with the most meld points, of
    the first ``MAX_READING_COMBINATIONS`` in order of preference."""
    options = [readings(cards, deal) for cards in groups]
    richest = deal.rules.objective == "max_net"
    preferred = [(richest_of(found) if richest else found[0]) if found else None
                 for found in options]
    ambiguous = [i for i, found in enumerate(options) if len(found) > 1]
    if not ambiguous or meets_declaration([m for m in preferred if m is not None], deal):
        return preferred
    chosen, most = preferred, -1
    for combination in itertools.islice(itertools.product(*(options[i] for i in ambiguous)),
                                        MAX_READING_COMBINATIONS):
        trial = list(preferred)
        for i, meld in zip(ambiguous, combination, strict=True):
            trial[i] = meld
        melds = [m for m in trial if m is not None]
        points = sum(m.points for m in melds)
        if points > most and meets_declaration(melds, deal):
            chosen, most = trial, points
    return chosen


# ---------------------------------------------------------------------------
# Parsing


def _parse_token(token: object, index: int, field: str) -> int:
    card = plain_int(token)
    if card is not None:
        if 0 <= card <= JOKER:
            return card
        raise InvalidHandError(
            f"card id {token} at position {index} of {field} is not a card (ids are 0-{JOKER})",
            code="invalid_card", field=field, index=index,
        )
    return parse_card(token, index, field)


def _parse_list(tokens: object, field: str) -> list[int]:
    return [_parse_token(token, j, field)
            for j, token in enumerate(card_tokens(tokens, field))]


def _parse(
    melds: Sequence[CardList], deadwood: CardList, hand: CardList | None, rules: Rules
) -> _Declared:
    if not is_list(melds):
        raise InvalidHandError(
            "melds must be a list of melds, each a list of cards like ['AS', '2S', '3S']",
            code="invalid_card", field="melds",
        )
    declared = _Declared(
        melds=[_parse_list(meld, f"melds[{i}]") for i, meld in enumerate(melds)],
        deadwood=_parse_list(deadwood, "deadwood"),
        hand=None if hand is None else _parse_list(hand, "hand"),
    )
    _check_copies(declared, rules)
    if declared.hand is not None:
        check_hand(declared.hand, rules, "hand")
    return declared


def _check_copies(declared: _Declared, rules: Rules) -> None:
    """Too many cards, or more copies of a card than the deck holds, across
    melds and deadwood (the error names the meld or deadwood and position)."""
    if len(declared.cards) > MAX_HAND_CARDS:
        raise InvalidHandError(
            f"melds and deadwood hold {len(declared.cards)} cards; at most {MAX_HAND_CARDS} "
            "are allowed", code="hand_too_large", field="melds",
        )
    check_copies([*((f"melds[{i}]", meld) for i, meld in enumerate(declared.melds)),
                  ("deadwood", declared.deadwood)], rules)


# ---------------------------------------------------------------------------
# Problems


def _meld_problems(
    melds: list[list[int]], readings: list[Meld | None], deal: Deal
) -> list[Problem]:
    problems: list[Problem] = []
    for index, (cards, reading) in enumerate(zip(melds, readings, strict=True)):
        if reading is not None:
            continue
        names = " ".join(card_name(c) for c in cards)
        for code, message, card in meld_problems(cards, deal):
            problems.append(Problem(
                code=code,
                message=f"meld {index} ({names}): {message}",
                meld_index=index,
                card=None if card is None else card_name(card),
            ))
    return problems


def _count_problems(declared: _Declared, rules: Rules) -> list[Problem]:
    if declared.hand is not None:
        return _hand_mismatch(declared)
    shown = len(declared.cards)
    if rules.objective in _INDIAN and shown != rules.hand_size:
        return [Problem(
            code="card_count_mismatch",
            message=f"a declared {rules.name} hand shows exactly {rules.hand_size} cards "
                    f"(melds plus deadwood); got {shown}",
        )]
    return []


def _hand_mismatch(declared: _Declared) -> list[Problem]:
    """Melds + deadwood must be the kept hand, card for card."""
    assert declared.hand is not None
    shown = Counter(declared.cards)
    held = Counter(declared.hand)
    problems: list[Problem] = []
    for card, extra in sorted((shown - held).items()):
        meld_index = next((i for i, meld in enumerate(declared.melds) if card in meld), None)
        problems.append(Problem(
            code="card_not_in_hand",
            message=f"{card_name(card)} is declared {extra} more time(s) than the hand holds it",
            meld_index=meld_index,
            card=card_name(card),
        ))
    for card, missing in sorted((held - shown).items()):
        problems.append(Problem(
            code="card_count_mismatch",
            message=f"{card_name(card)} from the hand is missing from the melds and deadwood "
                    f"({missing} copy/copies)",
            card=card_name(card),
        ))
    return problems


_SHORT_CODES = {"sequence": "too_few_sequences", "pure_sequence": "no_pure_sequence"}


def _requirement_code(kind: str, too_many: bool) -> str:
    if too_many:
        return f"too_many_{kind}s"
    return _SHORT_CODES.get(kind, f"too_few_{kind}s")


def _declaration_problems(melds: list[Meld], deadwood: list[int], deal: Deal) -> list[Problem]:
    """The requirements and the opening threshold, checked when the melds are a
    declaration: nothing left as deadwood, or (``declaration="lay_down"``,
    contract rummy) whenever melds are laid down."""
    rules = deal.rules
    laying_down = rules.declaration == "lay_down" and bool(melds)
    if deadwood and not laying_down:
        return []
    what = "lay-down" if rules.declaration == "lay_down" else "declaration"
    problems: list[Problem] = []
    for item, have in unmet_requirements(melds, rules):
        tanala = " (a tanala counts as one)" if rules.tanala_enabled and item.kind in (
            "sequence", "pure_sequence") else ""
        problems.append(Problem(
            code=_requirement_code(item.kind, have > item.count),
            message=f"a {rules.name} {what} needs {item.describe()}{tanala}; it has {have}",
        ))
    if rules.min_meld_points:
        worth = sum(m.points for m in melds)
        if worth < rules.min_meld_points:
            problems.append(Problem(
                code="too_few_meld_points",
                message=f"a {rules.name} {what} needs melds worth at least "
                        f"{rules.min_meld_points} points; these are worth {worth}",
            ))
    if laying_down and rules.lay_down_all and deadwood:
        problems.append(Problem(
            code="cards_left_over",
            message=f"this {rules.name} lay-down must hold every card; "
                    f"{len(deadwood)} card(s) are left over",
        ))
    return problems
