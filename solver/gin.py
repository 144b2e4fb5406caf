"""Gin rummy: knock eligibility and the score of a knock (RULES.md section 5).

* ``knock_check`` -- for a hand of 10 cards (or 11, before the discard): the
  least deadwood, whether it may knock, go gin or big gin, and **every**
  discard that allows a knock with its deadwood and melds (ties included:
  ``2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D`` knocks by discarding 5S (10) or 6S (9)).
* ``gin_score`` -- the knocker's and the defender's final hands scored as the
  rules say.  The defender melds and lays off onto the knocker's melds so as to
  leave the least deadwood (exact, ``solver.layoffs``; no layoffs after gin,
  the knocker never lays off).  The knocker chooses, among **all** its
  arrangements with deadwood <= the knock limit -- not only the least-deadwood
  ones, since an arrangement that blocks layoffs can score more -- the one
  that scores most against the defender's best reply (minimax), and the
  result says which arrangement and why.

The knock limit is ``rules.knock_limit`` (10), or a ``knock_limit`` given per
call, or Oklahoma: the value of the first ``upcard`` (an ace upcard gives
``oklahoma_ace_knock``, 0 by default: gin only).  A null ``knock_limit`` knob
means no knocking: only gin ends the hand.

>>> report = knock_check("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D")
>>> report.min_deadwood, [(card_name(o.discard or 0), o.deadwood_points) for o in report.options]
(9, [('6S', 9), ('5S', 10)])
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from solver.cards import (
    JOKER,
    InvalidHandError,
    card_name,
    names,
    parse_card,
    parse_cards,
    sort_key,
    without,
)
from solver.deadline import Deadline, DeadlineExceeded, Ticker, play_deadline
from solver.errors import plain_int, shown
from solver.layoffs import (
    LayoffSearch,
    Play,
    TableMeld,
    count_cards,
    place,
    wild_fillings,
)
from solver.melds import melds_led_by
from solver.results import Meld
from solver.rules import (
    KNOB_NAMES,
    MAX_HAND_CARDS,
    PRESETS,
    Deal,
    InvalidRulesError,
    base_points,
    check_copies,
    check_hand,
    make_deal,
    make_rules,
)
from solver.session import Session

Outcome = Literal["knock", "undercut", "gin", "big_gin"]
Winner = Literal["knocker", "defender"]

MAX_ALTERNATIVES = 10
MAX_ARRANGEMENTS = 200_000
_KEPT_CHOICES = 64 * (1 + MAX_ALTERNATIVES)  # choices held before the worst are dropped


# ---------------------------------------------------------------------------
# Rules, knock limit, hands


GIN_KNOBS: tuple[str, ...] = (
    "decks", "jokers_per_deck", "hand_size", "ace", "printed_jokers_wild",
    "set_allow_same_suit", "max_set_size", "min_run_length", "tanala", "min_naturals_per_meld",
    "max_wilds_per_meld", "ace_points", "ace_low_run_points", "pip_points", "court_points",
    "joker_points", "wild_cards_score_zero", "wild_meld_value", "card_points", "objective",
    "requirements", "min_meld_points", "lay_down_all", "contract_round", "knock_limit",
    "new_melds_after_opening", "gin_bonus", "big_gin_bonus", "undercut_bonus",
    "undercut_on_tie", "oklahoma_ace_knock")
"""The knobs gin plays (its deck, melds and points, the knock and its scoring).
Gin has no cut card (no call takes a ``wild_rank``), knocks rather than
declares, and scores a knock by its own table, not by ``round_scoring``: any
other knob would be ignored, so ``gin_deal`` refuses it set away from the
preset's value."""


def gin_deal(rules: Mapping[str, Any] | None = None) -> Deal:
    """The ``gin`` preset with knob ``rules`` applied (deadwood objective only;
    ``InvalidRulesError`` on a knob outside ``GIN_KNOBS`` changed from gin's value).

    >>> gin_deal({"cut_joker": True})
    Traceback (most recent call last):
    ...
    solver.errors.InvalidRulesError: knob 'cut_joker' cannot be changed in gin: gin does not play it ...
    """
    ruleset = make_rules("gin", rules)
    if ruleset.objective != "min_deadwood":
        raise InvalidRulesError(
            "objective", "gin scores deadwood: the knob objective must stay min_deadwood"
        )
    preset = PRESETS["gin"]
    for knob in KNOB_NAMES:
        value = getattr(ruleset, knob)
        if knob != "name" and knob not in GIN_KNOBS and value != getattr(preset, knob):
            raise InvalidRulesError(
                knob, f"knob {knob!r} cannot be changed in gin: gin does not play it (gin has "
                      "no cut card, knocks rather than declares and scores a knock by its own "
                      f"table); it takes the gin preset with these knobs changed: "
                      f"{', '.join(GIN_KNOBS)}")
    return make_deal(ruleset)


def resolve_knock_limit(
    deal: Deal, knock_limit: int | None = None, upcard: str | None = None
) -> tuple[int, str]:
    """The knock limit in force and where it comes from (for the explanation)."""
    rules = deal.rules
    if knock_limit is not None and upcard is not None:
        raise InvalidHandError(
            "give knock_limit or upcard (Oklahoma), not both",
            code="conflicting_knock_limit", field="upcard",
        )
    if upcard is not None:
        card = parse_card(upcard, field="upcard")
        if card == JOKER:
            raise InvalidHandError("the Oklahoma upcard must be a standard card, not JK",
                                   code="invalid_upcard", field="upcard")
        if card % 13 == 0:
            return rules.oklahoma_ace_knock, (
                f"Oklahoma: upcard {card_name(card)} is an ace, so the limit is "
                f"oklahoma_ace_knock = {rules.oklahoma_ace_knock}"
            )
        value = base_points(card, deal)
        return value, f"Oklahoma: upcard {card_name(card)} is worth {value}"
    if knock_limit is not None:
        given = plain_int(knock_limit)
        if given is None or not 0 <= given <= 200:
            raise InvalidHandError(
                f"knock_limit must be an integer from 0 to 200; got {shown(knock_limit)}",
                code="invalid_knock_limit", field="knock_limit",
            )
        return given, f"knock_limit {given} given"
    if rules.knock_limit is None:
        return rules.knock_deadwood, "the knob knock_limit is null: no knocking, only gin ends the hand"
    return rules.knock_limit, f"the knob knock_limit is {rules.knock_limit}"


def _parse_hand(tokens: str | Iterable[object], field: str, deal: Deal, sizes: tuple[int, ...]) -> list[int]:
    cards = parse_cards(tokens, field, MAX_HAND_CARDS)
    check_hand(cards, deal.rules, field)
    if len(cards) not in sizes:
        wanted = " or ".join(str(n) for n in sizes)
        raise InvalidHandError(
            f"{field} has {len(cards)} cards; gin needs {wanted} (hand_size is "
            f"{deal.rules.hand_size})",
            code="wrong_hand_size", field=field,
        )
    return cards




# ---------------------------------------------------------------------------
# Knock eligibility


@dataclass(frozen=True, slots=True)
class KnockOption:
    """One way to knock: discard ``discard`` (None for a 10-card hand) and
    keep ``melds`` with ``deadwood`` worth ``deadwood_points``."""

    discard: int | None
    deadwood_points: int
    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]
    gin: bool

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "discard": None if self.discard is None else card_name(self.discard),
            "deadwood_points": self.deadwood_points,
            "gin": self.gin,
            "melds": [m.to_dict() for m in self.melds],
            "deadwood": [card_name(c) for c in self.deadwood],
        }


@dataclass(frozen=True, slots=True)
class KnockReport:
    """Whether a gin hand may knock.

    ``min_deadwood`` is the least deadwood over every discard; ``options``
    lists every distinct discard that allows a knock, least deadwood first;
    ``big_gin`` means all 11 cards meld (``big_gin_melds``).
    """

    knock_limit: int
    limit_source: str
    can_knock: bool
    gin: bool
    big_gin: bool
    min_deadwood: int
    options: tuple[KnockOption, ...]
    big_gin_melds: tuple[Meld, ...]
    optimal: bool

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "knock_limit": self.knock_limit,
            "limit_source": self.limit_source,
            "can_knock": self.can_knock,
            "gin": self.gin,
            "big_gin": self.big_gin,
            "min_deadwood": self.min_deadwood,
            "options": [o.to_dict() for o in self.options],
            "big_gin_melds": [m.to_dict() for m in self.big_gin_melds],
            "optimal": self.optimal,
        }


def knock_check(
    hand: str | Iterable[object],
    *,
    rules: Mapping[str, Any] | None = None,
    knock_limit: int | None = None,
    upcard: str | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> KnockReport:
    """Knock eligibility of a gin ``hand`` of ``hand_size`` cards (after the
    discard) or ``hand_size + 1`` (every distinct discard is tried).

    Raises ``InvalidHandError`` / ``InvalidRulesError`` naming the bad field.
    """
    budget = play_deadline(time_limit_ms, deadline)
    deal = gin_deal(rules)
    size = deal.rules.hand_size
    cards = _parse_hand(hand, "hand", deal, (size, size + 1))
    limit, source = resolve_knock_limit(deal, knock_limit, upcard)
    hands = Session(deal, budget)
    choices: list[tuple[int | None, list[int]]]
    if len(cards) == size + 1:
        choices = [(d, without(cards, d)) for d in sorted(set(cards), key=sort_key)]
    else:
        choices = [(None, cards)]
    options: list[KnockOption] = []
    min_deadwood: int | None = None
    optimal = True
    for discard, kept in choices:
        solution = hands.solution(kept, False, go_out=False)
        optimal = optimal and solution.optimal
        dead = solution.deadwood_points
        min_deadwood = dead if min_deadwood is None else min(min_deadwood, dead)
        if dead <= limit:
            options.append(KnockOption(discard, dead, solution.melds, solution.deadwood, dead == 0))
    assert min_deadwood is not None
    options.sort(key=lambda o: (o.deadwood_points, sort_key(o.discard if o.discard is not None else 0)))
    big_gin_melds: tuple[Meld, ...] = ()
    if len(cards) == size + 1:
        whole = hands.solution(cards, False, go_out=False)
        optimal = optimal and whole.optimal
        if not whole.deadwood:
            big_gin_melds = whole.melds
    return KnockReport(
        knock_limit=limit,
        limit_source=source,
        can_knock=bool(options),
        gin=min_deadwood == 0,
        big_gin=bool(big_gin_melds),
        min_deadwood=min_deadwood,
        options=tuple(options),
        big_gin_melds=big_gin_melds,
        optimal=optimal,
    )


# ---------------------------------------------------------------------------
# Every arrangement of a hand


def arrangements(
    cards: Sequence[int], deal: Deal, max_deadwood: int, deadline: Deadline | None = None
) -> Iterator[tuple[tuple[Meld, ...], tuple[int, ...]]]:
    """Every distinct split of ``cards`` into melds + deadwood whose deadwood
    is worth at most ``max_deadwood`` (wild cards state their meaning; a
    different meaning is a different arrangement).  Raises
    ``DeadlineExceeded`` once ``deadline`` passes."""
    ticker = Ticker(deadline, 64)
    counts = count_cards(cards)
    wild_joker = JOKER in deal.wild
    types = sorted({c for c in cards if not (c == JOKER and wild_joker)})
    melds: list[Meld] = []
    deadwood: list[int] = []
    seen: set[tuple[object, ...]] = set()

    def left_wilds() -> int:
        return sum(counts[w] for w in deal.wild)

    def rec(index: int, dead_points: int) -> Iterator[tuple[tuple[Meld, ...], tuple[int, ...]]]:
        ticker.tick()
        while index < len(types) and counts[types[index]] == 0:
            index += 1
        if index == len(types):
            jokers = [JOKER] * counts[JOKER] if wild_joker else []
            total = dead_points + sum(base_points(c, deal) for c in jokers)
            if total <= max_deadwood:
                ordered = tuple(sorted(melds, key=lambda m: (m.represents, m.cards)))
                dead = tuple(sorted([*deadwood, *jokers], key=sort_key))
                key = (tuple((m.cards, m.represents) for m in ordered), dead)
                if key not in seen:
                    seen.add(key)
                    yield ordered, dead
            return
        lead = types[index]
        points = base_points(lead, deal)
        counts[lead] -= 1
        if dead_points + points <= max_deadwood:
            deadwood.append(lead)
            yield from rec(index, dead_points + points)
            deadwood.pop()
        counts[lead] += 1
        for candidate in melds_led_by(lead, counts, deal, left_wilds()):
            for card in candidate.naturals:
                counts[card] -= 1
            if all(counts[c] >= 0 for c in candidate.naturals):
                for filling in wild_fillings(candidate.wilds, counts, deal):
                    for card in filling:
                        counts[card] -= 1
                    melds.append(place(candidate, filling, deal))
                    yield from rec(index, dead_points)
                    melds.pop()
                    for card in filling:
                        counts[card] += 1
            for card in candidate.naturals:
                counts[card] += 1

    yield from rec(0, 0)


# ---------------------------------------------------------------------------
# Scoring a knock


@dataclass(frozen=True, slots=True)
class KnockerChoice:
    """One knocker arrangement and how it fares against the defender's best
    reply.  ``knocker_points`` is the score from the knocker's side (negative
    when the defender scores)."""

    discard: int | None
    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]
    deadwood_points: int
    defender: Play
    outcome: Outcome
    winner: Winner
    points: int
    knocker_points: int

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "discard": None if self.discard is None else card_name(self.discard),
            "melds": [m.to_dict() for m in self.melds],
            "deadwood": [card_name(c) for c in self.deadwood],
            "deadwood_points": self.deadwood_points,
            "defender_deadwood_points": self.defender.deadwood_points,
            "defender_laid_off": sum(len(lay.cards) for lay in self.defender.layoffs),
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker_points": self.knocker_points,
        }


@dataclass(frozen=True, slots=True)
class GinScore:
    """The score of a gin hand: the knocker's chosen arrangement, the
    defender's best reply, the outcome and the points (to ``winner``).

    ``baseline`` is how the least-deadwood arrangement ``solve`` reports would
    have fared; ``alternatives`` the best other knocker arrangements;
    ``considered`` how many arrangements were within the knock limit.
    """

    knock_limit: int
    limit_source: str
    chosen: KnockerChoice
    baseline: KnockerChoice
    alternatives: tuple[KnockerChoice, ...]
    considered: int
    explanation: str
    optimal: bool

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        chosen = self.chosen
        return {
            "knock_limit": self.knock_limit,
            "limit_source": self.limit_source,
            "outcome": chosen.outcome,
            "winner": chosen.winner,
            "points": chosen.points,
            "knocker_points": chosen.knocker_points,
            "knocker": {
                "discard": None if chosen.discard is None else card_name(chosen.discard),
                "melds": [m.to_dict() for m in chosen.melds],
                "deadwood": [card_name(c) for c in chosen.deadwood],
                "deadwood_points": chosen.deadwood_points,
            },
            "defender": {
                "melds": [m.to_dict() for m in chosen.defender.melds],
                "layoffs": [lay.to_dict() for lay in chosen.defender.layoffs],
                "deadwood": [card_name(c) for c in chosen.defender.deadwood],
                "deadwood_points": chosen.defender.deadwood_points,
            },
            "explanation": self.explanation,
            "considered": self.considered,
            "baseline": self.baseline.to_dict(),
            "alternatives": [a.to_dict() for a in self.alternatives],
            "optimal": self.optimal,
        }


def settle(
    knocker_deadwood: int, defender_deadwood: int, big_gin: bool, deal: Deal
) -> tuple[Outcome, Winner, int]:
    """Outcome, winner and points of a knock (RULES.md section 5).

    ``defender_deadwood`` is after the defender's layoffs (none after gin).
    """
    rules = deal.rules
    if big_gin:
        return "big_gin", "knocker", rules.big_gin_bonus + defender_deadwood
    if knocker_deadwood == 0:
        return "gin", "knocker", rules.gin_bonus + defender_deadwood
    if defender_deadwood < knocker_deadwood or (
        defender_deadwood == knocker_deadwood and rules.undercut_on_tie
    ):
        return ("undercut", "defender",
                knocker_deadwood - defender_deadwood + rules.undercut_bonus)
    return "knock", "knocker", defender_deadwood - knocker_deadwood


def _meld_key(melds: Sequence[Meld]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    return tuple(sorted((m.represents, m.cards) for m in melds))


class _Defender:
    """The defender's best reply to each knocker arrangement, cached."""

    def __init__(self, deal: Deal, cards: Sequence[int], budget: Deadline) -> None:
        self.deal = deal
        self.cards = tuple(sorted(cards))
        self.budget = budget
        self.replies: dict[object, Play] = {}

    def reply(self, knocker_melds: Sequence[Meld], layoffs_allowed: bool) -> Play:
        key = _meld_key(knocker_melds) if layoffs_allowed else ()
        hit = self.replies.get(key)
        if hit is not None:
            return hit
        table = [TableMeld.from_meld(i, m) for i, m in enumerate(knocker_melds)]
        search = LayoffSearch(self.deal, table if layoffs_allowed else [], self.budget)
        _, play = search.best(self.cards)
        self.replies[key] = play
        return play


def _choice(
    deal: Deal, defender: _Defender, discard: int | None, melds: tuple[Meld, ...],
    deadwood: tuple[int, ...], big_gin: bool,
) -> KnockerChoice:
    dead = sum(base_points(c, deal) for c in deadwood)
    reply = defender.reply(melds, layoffs_allowed=dead > 0 and not big_gin)
    outcome, winner, points = settle(dead, reply.deadwood_points, big_gin, deal)
    signed = points if winner == "knocker" else -points
    return KnockerChoice(discard, melds, deadwood, dead, reply, outcome, winner, points, signed)


def _rank_key(choice: KnockerChoice) -> tuple[object, ...]:
    # A defender reply cut short by the deadline is the best play found, not
    # the defender's best: its deadwood is too high, so the knocker's points
    # against it are too high too (a reply that ran out of time before any
    # arrangement keeps every card).  Choices with a proved reply come first,
    # so an unproved reply never outranks a proved one on points it may not get.
    return (
        not choice.defender.optimal,
        -choice.knocker_points,
        choice.deadwood_points,
        sort_key(choice.discard) if choice.discard is not None else (-1, -1),
        _meld_key(choice.melds),
    )


def gin_score(
    knocker: str | Iterable[object],
    defender: str | Iterable[object],
    *,
    rules: Mapping[str, Any] | None = None,
    knock_limit: int | None = None,
    upcard: str | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> GinScore:
    """Score a knock: ``knocker`` holds ``hand_size`` cards after its discard
    (or ``hand_size + 1``: the discard is chosen too, and big gin is possible),
    ``defender`` ``hand_size`` cards.  Both sides play optimally (minimax).

    Raises ``InvalidHandError`` (e.g. code ``cannot_knock`` on field
    ``knocker`` when no arrangement is within the knock limit).
    """
    budget = play_deadline(time_limit_ms, deadline)
    deal = gin_deal(rules)
    size = deal.rules.hand_size
    knocker_cards = _parse_hand(knocker, "knocker", deal, (size, size + 1))
    defender_cards = _parse_hand(defender, "defender", deal, (size,))
    check_copies([("knocker", knocker_cards), ("defender", defender_cards)], deal.rules)
    limit, source = resolve_knock_limit(deal, knock_limit, upcard)
    reply = _Defender(deal, defender_cards, budget)
    hands = Session(deal, budget)

    baseline = _baseline(deal, reply, knocker_cards, size, hands)
    # Only the best few choices are kept, ranked as they are made (within the
    # deadline): a large house hand has tens of thousands of arrangements, and
    # sorting (or merely freeing) all of them past the deadline took a tenth
    # of a second and more.
    choices: list[tuple[tuple[object, ...], int, KnockerChoice]] = []
    order = itertools.count()  # ties on the key go to the earlier choice
    replies_proved = True

    def consider(choice: KnockerChoice) -> None:
        nonlocal replies_proved
        replies_proved = replies_proved and choice.defender.optimal
        choices.append((_rank_key(choice), next(order), choice))
        if len(choices) > _KEPT_CHOICES:
            choices[:] = heapq.nsmallest(1 + MAX_ALTERNATIVES, choices)

    considered = 0
    complete = True
    if len(knocker_cards) == size + 1:
        whole = hands.solution(knocker_cards, False, go_out=False)
        if not whole.deadwood:
            consider(_choice(deal, reply, None, whole.melds, (), big_gin=True))
            considered += 1
        kept_options: list[tuple[int | None, list[int]]] = [
            (d, without(knocker_cards, d)) for d in sorted(set(knocker_cards), key=sort_key)
        ]
    else:
        kept_options = [(None, knocker_cards)]
    try:
        for discard, kept in kept_options:
            for melds, deadwood in arrangements(kept, deal, limit, budget):
                considered += 1
                if considered > MAX_ARRANGEMENTS:
                    raise DeadlineExceeded
                consider(_choice(deal, reply, discard, melds, deadwood, big_gin=False))
    except DeadlineExceeded:
        # Out of time (or past MAX_ARRANGEMENTS): the best of those seen so far,
        # and the least-deadwood arrangement, answer; the result says so.
        complete = False
        if baseline.deadwood_points <= limit or baseline.outcome == "big_gin":
            consider(baseline)
    if not choices:
        least = min(hands.solution(kept, False, go_out=False).deadwood_points
                    for _, kept in kept_options)
        raise InvalidHandError(
            f"the knocker cannot knock: its least deadwood is {least}, above the knock limit "
            f"{limit} ({source})",
            code="cannot_knock", field="knocker",
        )
    ranked = [choice for _, _, choice in heapq.nsmallest(1 + MAX_ALTERNATIVES, choices)]
    chosen = ranked[0]
    alternatives = tuple(ranked[1:])
    optimal = complete and replies_proved and baseline.defender.optimal
    return GinScore(
        knock_limit=limit,
        limit_source=source,
        chosen=chosen,
        baseline=baseline,
        alternatives=alternatives,
        considered=considered,
        explanation=_explain(chosen, baseline, considered, limit),
        optimal=optimal,
    )


def _baseline(deal: Deal, reply: _Defender, cards: list[int], size: int,
              hands: Session) -> KnockerChoice:
    """The least-deadwood arrangement ``solve`` reports, scored the same way."""
    if len(cards) == size + 1:
        whole = hands.solution(cards, False, go_out=False)
        if not whole.deadwood:
            return _choice(deal, reply, None, whole.melds, (), big_gin=True)
        solution = hands.solution(cards, True, go_out=False)
    else:
        solution = hands.solution(cards, False, go_out=False)
    return _choice(deal, reply, solution.discard, solution.melds, solution.deadwood, big_gin=False)




def _describe(choice: KnockerChoice) -> str:
    melds = ", ".join(names(m.cards) for m in choice.melds) or "no melds"
    dead = names(choice.deadwood) or "nothing"
    discard = "" if choice.discard is None else f"discard {card_name(choice.discard)}, "
    return f"{discard}melds [{melds}], deadwood {dead} ({choice.deadwood_points})"


def _reply_text(choice: KnockerChoice) -> str:
    laid = sum(len(lay.cards) for lay in choice.defender.layoffs)
    if choice.outcome in ("gin", "big_gin"):
        how = "no layoffs after gin"
    elif laid:
        how = f"the defender lays off {laid} card(s)"
    else:
        how = "the defender can lay nothing off"
    side = "knocker" if choice.winner == "knocker" else "defender"
    return (f"{how} and keeps deadwood {choice.defender.deadwood_points}: "
            f"{choice.outcome.replace('_', ' ')}, {side} scores {choice.points}")


def _explain(chosen: KnockerChoice, baseline: KnockerChoice, considered: int, limit: int) -> str:
    text = (f"Of {considered} knocker arrangement(s) with deadwood <= {limit}, the best against "
            f"the defender's best reply is {_describe(chosen)}; {_reply_text(chosen)}.")
    if chosen.knocker_points > baseline.knocker_points:
        text += (f" It beats the least-deadwood arrangement ({_describe(baseline)}), against "
                 f"which {_reply_text(baseline)}.")
    else:
        text += " The least-deadwood arrangement scores the same."
    return text
