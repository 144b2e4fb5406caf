"""``solve()``: check the call's arguments once, let the session answer.

The arguments are checked in one place, in this order: the engine and the
time limit (``InvalidOptionError``), the variant and rule overrides, the cut
card, the discard flag, then the cards.  The session (``solver.session``)
decides which engine answers: the quick path when it covers the call, else
an engine on the prepared hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from solver.cards import InvalidHandError, card_tokens, parse_cards
from solver.deadline import Deadline, check_deadline, check_time_limit, deadline_within
from solver.engines.base import Instance
from solver.errors import shown
from solver.results import Solution
from solver.rules import MAX_HAND_CARDS, Deal, check_hand, make_deal, make_rules
from solver.session import ENGINES as ENGINES  # the engine names, for the front ends' choices
from solver.session import Session, invalid_engine, quick_path_for


def _invalid_discard(discard: object) -> InvalidHandError:
    return InvalidHandError(f"discard must be true or false; got {shown(discard)}",
                            code="invalid_discard", field="discard")


def _instance(deal: Deal, hand: str | Iterable[object], discard: bool) -> Instance:
    """Parse and check the cards of a call into an engine ``Instance``."""
    cards = parse_cards(hand, most=MAX_HAND_CARDS)
    check_hand(cards, deal.rules)
    if discard and not cards:
        raise InvalidHandError("discard=true needs at least one card in the hand",
                               code="empty_hand", field="discard")
    return Instance(deal, tuple(sorted(cards)), discard)


def prepare(
    hand: str | Iterable[object],
    variant: str,
    wild_rank: str | None,
    discard: bool,
    rules: Mapping[str, Any] | None,
) -> Instance:
    """Parse and check a request into an engine ``Instance`` (raises
    ``InvalidHandError`` / ``InvalidRulesError`` naming what is wrong), as
    ``solve()`` does on its general path: for callers of an engine itself."""
    deal = make_deal(make_rules(variant, rules), wild_rank)
    if not isinstance(discard, bool):
        raise _invalid_discard(discard)
    return _instance(deal, hand, discard)


def solve(
    hand: str | Iterable[object],
    variant: str = "gin",
    *,
    wild_rank: str | None = None,
    discard: bool = False,
    rules: Mapping[str, Any] | None = None,
    engine: str = "auto",
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> Solution:
    """The provably optimal arrangement of ``hand`` under ``variant``.

    ``hand`` is a list of card tokens (``"AS"``, ``"10h"``, ``"JK"``) or one
    space-separated string; ``wild_rank`` the cut card (``"7"``, ``"7H"``,
    ``"JK"``); ``discard=True`` means the hand holds one card more than is kept
    and the discard is chosen jointly with the melds; ``rules`` overrides
    knobs; ``engine`` is ``auto`` (search, CP-SAT past its budget), ``search``
    or ``cpsat``.  The call returns by ``time_limit_ms`` (or ``deadline``);
    out of time it answers the best arrangement found (``optimal=False``).

    >>> solve("AS 2S 3S 7H 7D 7C KD QH 4C 9S", variant="gin").deadwood_points
    33
    """
    if engine not in ENGINES:
        raise invalid_engine(engine)
    limit_ms = None if time_limit_ms is None else check_time_limit(time_limit_ms)
    check_deadline(deadline)  # refused before the quick path, which needs none
    quick = quick_path_for(variant, rules, wild_rank, engine)
    deal = quick.deal if quick is not None else make_deal(make_rules(variant, rules), wild_rank)
    if discard is not True and discard is not False:
        raise _invalid_discard(discard)
    tokens = card_tokens(hand)  # read once: the quick path and the general one see the same
    if quick is not None:
        answer = quick.solve(tokens, discard)
        if answer is not None:
            return answer
    instance = _instance(deal, tokens, discard)
    return Session(deal, deadline_within(limit_ms, deadline), engine).answer(instance)
