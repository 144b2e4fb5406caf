"""Variant rules as validated frozen data, the preset registry, card points.

Every knob of the rule book (``docs/RULES.md``) is a field of ``Rules``.  A
preset is an instance in ``PRESETS``; per-call overrides go through
``make_rules(variant, overrides)``, which rejects unknown knobs and impossible
values with ``InvalidRulesError`` and *interns* the result: equal rules are
one object, so caches keyed by rules (or by a ``Deal``) hit however a request
spells its overrides.

>>> make_rules("indian13", {"penalty_tiers": 3}) is PRESETS["indian13"]
True
>>> [r.to_dict() for r in make_rules("contract", {"contract_round": 2}).requirements]
[{'kind': 'set', 'count': 1, 'exact': True}, {'kind': 'run', 'count': 1, 'exact': True}]
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, get_args

from solver.cards import (
    JOKER,
    NUM_CARD_TYPES,
    RANKS,
    InvalidHandError,
    card_name,
    make_card,
    parse_card,
    parse_rank,
    rank_of,
    suit_of,
    too_many_cards,
)
from solver.errors import InvalidRulesError, is_list, plain_int, shown
from solver.geometry import ACE_MODES, AceMode
from solver.lru import LruCache

Objective = Literal["min_deadwood", "max_net", "cascade", "marriage"]
Declaration = Literal["go_out", "knock", "lay_down"]
WildMeldValue = Literal["own", "represented"]
PilePickup = Literal["none", "must_meld", "meld_or_penalty"]
RoundScoring = Literal["collect", "net", "indian", "hand_penalty", "knock"]
RequirementKind = Literal["set", "run", "sequence", "pure_sequence"]

OBJECTIVES: tuple[str, ...] = get_args(Objective)
DECLARATIONS: tuple[str, ...] = get_args(Declaration)
WILD_MELD_VALUES: tuple[str, ...] = get_args(WildMeldValue)
PILE_PICKUPS: tuple[str, ...] = get_args(PilePickup)
ROUND_SCORINGS: tuple[str, ...] = get_args(RoundScoring)
REQUIREMENT_KINDS: tuple[str, ...] = get_args(RequirementKind)
MAX_HAND_CARDS = 30
MAX_SET_CARDS = 64
"""The most cards a set may hold under any house rule (``max_set_size``)."""
MAX_REQUIREMENTS = 4
MAX_POINTS = 1000

__all__ = [
    "ACE_MODES",
    "MAX_DECK_CARDS",
    "MAX_HAND_CARDS",
    "MAX_SET_CARDS",
    "PRESETS",
    "AceMode",
    "CardPoints",
    "Deal",
    "InvalidRulesError",
    "Requirement",
    "Rules",
    "base_points",
    "check_copies",
    "check_hand",
    "deck_copies",
    "make_deal",
    "make_rules",
    "melded_points",
    "own_slot_scores_apart",
    "refusal_by_knob",
    "request_key",
]


# ---------------------------------------------------------------------------
# Requirements and card points: the two knobs that are small records


@dataclass(frozen=True, slots=True)
class Requirement:
    """What the melds laid down must contain: ``count`` melds of ``kind`` --
    at least that many, or exactly (``exact``).

    ``set`` and ``run`` count melds of that kind; ``sequence`` counts runs and
    tanalas; ``pure_sequence`` the sequences with no wild card standing in.
    """

    kind: RequirementKind
    count: int
    exact: bool = False

    def counts(self, kind: str, pure: bool) -> bool:
        """Whether a meld of ``kind`` (``set``, ``run``, ``tanala``) counts here."""
        if self.kind == "set":
            return kind == "set"
        if self.kind == "run":
            return kind == "run"
        if self.kind == "sequence":
            return kind != "set"
        return kind != "set" and pure

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {"kind": self.kind, "count": self.count, "exact": self.exact}

    def describe(self) -> str:
        """``"exactly 2 set(s)"``, ``"at least 1 pure sequence(s)"``."""
        how = "exactly" if self.exact else "at least"
        return f"{how} {self.count} {self.kind.replace('_', ' ')}(s)"


_POINT_KEYS = (*RANKS, "JK")  # index 0..12 = rank, 13 = printed joker


@dataclass(frozen=True, slots=True)
class CardPoints:
    """Overrides of card points: ``hand`` / ``meld`` map a rank index (0 = ace
    .. 12 = king; 13 = printed joker) to its points left in hand / melded;
    ``ace_low`` is an ace melded low (A-2-3...).  Entries not given keep the
    value the other point knobs give."""

    hand: tuple[tuple[int, int], ...] = ()
    meld: tuple[tuple[int, int], ...] = ()
    ace_low: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Wire form: ``{"hand": {"A": 15, "JK": 25}, "meld": {...}, "ace_low": 1}``."""
        return {
            "hand": {_POINT_KEYS[k]: v for k, v in self.hand},
            "meld": {_POINT_KEYS[k]: v for k, v in self.meld},
            "ace_low": self.ace_low,
        }


# ---------------------------------------------------------------------------
# Rules


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset.  ``KNOB_DOCS`` documents every field (served by the API)."""

    name: str = "custom"
    # deck
    decks: int = 1
    jokers_per_deck: int = 0
    hand_size: int = 10
    # melds
    ace: AceMode = "low"
    printed_jokers_wild: bool = False
    cut_joker: bool = False
    neighbour_jokers: bool = False
    joker_cut_makes_aces_wild: bool = False
    set_allow_same_suit: bool = False
    max_set_size: int | None = 4
    min_run_length: int = 3
    tanala: bool | None = None
    min_naturals_per_meld: int = 1
    max_wilds_per_meld: int | None = None
    # points
    ace_points: int = 1
    ace_low_run_points: int | None = None
    pip_points: int | None = None
    court_points: int = 10
    joker_points: int = 0
    wild_cards_score_zero: bool = False
    wild_meld_value: WildMeldValue = "own"
    card_points: CardPoints | None = None
    # objective and declaration
    objective: Objective = "min_deadwood"
    declaration: Declaration = "go_out"
    requirements: tuple[Requirement, ...] = ()
    min_meld_points: int | None = None
    lay_down_all: bool = False
    contract_round: int | None = None
    knock_limit: int | None = None
    penalty_tiers: int = 3
    points_cap: int | None = None
    # play
    new_melds_after_opening: bool = True
    pile_pickup: PilePickup = "none"
    # gin scoring
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    oklahoma_ace_knock: int = 0
    # round scoring
    round_scoring: RoundScoring = "collect"
    rummy_doubles: bool = True
    pile_penalty: int = 50
    drop_first: int = 10
    drop_middle: int = 40
    wrong_declaration: int = 80
    value_cards: bool = False
    value_card_points: int = 10
    marriage_points: int = 100
    # derived once (not knobs): the hash, and the points table of the knobs above
    _hash: int = field(default=0, init=False, repr=False, compare=False)
    _points: tuple[tuple[int, ...], tuple[int, ...], int] = field(
        default=((), (), 0), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_rules(self)
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, k) for k in KNOB_NAMES)))
        object.__setattr__(self, "_points", _points_table(self))

    def __hash__(self) -> int:
        return self._hash

    @property
    def tanala_enabled(self) -> bool:
        """Tanala melds are allowed (explicit knob, else ``decks >= 3``)."""
        return self.decks >= 3 if self.tanala is None else self.tanala

    @property
    def set_size_limit(self) -> int:
        """Most cards a set may hold (distinct suits: 4; suits repeating and
        ``max_set_size`` null: the cards of one rank in the deck, 4 per deck)."""
        if not self.set_allow_same_suit:
            return 4 if self.max_set_size is None else min(4, self.max_set_size)
        return 4 * self.decks if self.max_set_size is None else self.max_set_size

    @property
    def knock_deadwood(self) -> int:
        """The most deadwood a knock may keep: ``knock_limit``, or 0 when it is
        null (no knocking: only gin, deadwood 0, ends the hand)."""
        return 0 if self.knock_limit is None else self.knock_limit

    @property
    def has_opening(self) -> bool:
        """The melds laid down must meet requirements or a points threshold,
        under an objective where a hand that cannot lays nothing down."""
        return self.objective in ("min_deadwood", "max_net") and bool(
            self.requirements or self.min_meld_points or self.lay_down_all)

    def to_dict(self) -> dict[str, Any]:
        """All knobs as plain (JSON-ready) data."""
        out: dict[str, Any] = {}
        for knob in KNOB_NAMES:
            value = getattr(self, knob)
            if knob == "requirements":
                value = [r.to_dict() for r in value]
            elif knob == "card_points" and value is not None:
                value = value.to_dict()
            out[knob] = value
        return out


KNOB_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules) if f.init)
LEGACY_KNOBS: dict[str, str] = {
    "min_sequences": "requirements: a 'sequence' item, at least (indian13: 2)",
    "min_pure_sequences": "requirements: a 'pure_sequence' item, at least (indian13: 1, indian21: 3)",
    "opening_points": "min_meld_points (Kalooki's name for the opening threshold)",
}
"""Knobs accepted as shorthands for a current knob (kept for existing clients)."""

KNOB_DOCS: dict[str, str] = {
    "name": "preset name (informational)",
    "decks": "standard 52-card decks in play (1-8); limits copies of each card",
    "jokers_per_deck": "printed jokers per deck (0-4)",
    "hand_size": "cards kept in a hand (the deal size; Indian validate checks declarations against it)",
    "ace": "ace order in runs: low (A-2-3 only), high_low (A-2-3 and Q-K-A), high (Q-K-A only), "
           "wrap (K-A-2 too)",
    "printed_jokers_wild": "printed jokers are wild cards",
    "cut_joker": "a cut card (wild_rank) makes every card of its rank wild",
    "neighbour_jokers": "the cards one rank above and below the cut card, in its suit, are wild",
    "joker_cut_makes_aces_wild": "when the cut card is a printed joker, aces become wild",
    "set_allow_same_suit": "a set may repeat a suit (house rule with 2+ decks; contract rummy)",
    "max_set_size": "most cards in a set, wild cards included (null: no limit beyond the deck; "
                    "without set_allow_same_suit a set is at most 4)",
    "min_run_length": "fewest cards in a run (3; contract rummy: 4)",
    "tanala": "three identical cards form a meld counting as a pure sequence (null: decks >= 3)",
    "min_naturals_per_meld": "cards in a meld that stand for themselves, at least",
    "max_wilds_per_meld": "wild cards standing in for another card in one meld, at most (null: no limit)",
    "ace_points": "points of an ace",
    "ace_low_run_points": "points of an ace melded low in A-2-3... (null: the ace's melded points, "
                          "ace_points or card_points.meld.A)",
    "pip_points": "points of each card 2-9 (null: face value)",
    "court_points": "points of T J Q K",
    "joker_points": "points of a printed joker",
    "wild_cards_score_zero": "every wild card (printed, cut rank, neighbour) is worth 0 wherever it lies",
    "wild_meld_value": "a wild card in a meld is worth its own points (own) or those of the card it "
                       "stands for (represented: Kalooki)",
    "card_points": "per-rank overrides of the point knobs: {hand: {A: 15, JK: 25, ...}, "
                   "meld: {...}, ace_low: 1}; ranks A 2-9 T J Q K and JK",
    "objective": "min_deadwood | max_net (melded minus in hand) | cascade (Indian 13) | marriage (Indian 21)",
    "declaration": "what makes a hand declarable: go_out (every kept card melded, requirements met), "
                   "knock (deadwood at most knock_limit: gin), lay_down (the requirements can be "
                   "laid down: contract rummy)",
    "requirements": "what the melds laid down must contain: [{kind: set | run | sequence | "
                    "pure_sequence, count, exact}] (at least count, or exactly)",
    "min_meld_points": "the melds laid down must be worth at least this (an opening threshold; "
                       "null: none)",
    "lay_down_all": "the lay-down must hold every kept card (contract rummy round 7)",
    "contract_round": "contract rummy round 1-7: sets requirements, hand_size and lay_down_all to "
                      "that round's contract unless given too",
    "knock_limit": "gin: a knock is allowed with deadwood at most this (null: no knocking)",
    "penalty_tiers": "cascade: 3 (pure sequence alone exempts its cards) or 2 (it does not)",
    "points_cap": "maximum count a losing hand pays, before any hand-rummy doubling (null: no cap)",
    "new_melds_after_opening": "after laying down, a player may still put down new melds (false: "
                               "only lay off, as in contract rummy)",
    "pile_pickup": "taking below the discard-pile top: none (not allowed), must_meld (the deepest "
                   "card must be used at once: rummy500), meld_or_penalty (else pile_penalty: rommy)",
    "gin_bonus": "gin: bonus for going gin",
    "big_gin_bonus": "gin: bonus for big gin (11 cards melded)",
    "undercut_bonus": "gin: bonus to the defender for an undercut",
    "undercut_on_tie": "gin: equal deadwood is an undercut",
    "oklahoma_ace_knock": "gin (Oklahoma): knock limit when the upcard is an ace (0: gin only)",
    "round_scoring": "how a round is scored: collect (basic), net (rummy500, rommy), indian "
                     "(cascade counts paid to the winner), hand_penalty (cards left in hand count "
                     "against each player: contract, kalooki), knock (gin: use /v1/gin/score)",
    "rummy_doubles": "basic: going rummy (all down in one turn) doubles the score",
    "pile_penalty": "rommy: penalty for taking the pile without melding at once",
    "drop_first": "indian: points for dropping on the first turn",
    "drop_middle": "indian: points for dropping later",
    "wrong_declaration": "indian: points for a wrong declaration",
    "value_cards": "indian21: the cut card and its neighbours are value cards settled between players",
    "value_card_points": "indian21: points for each cut/upper/lower joker held",
    "marriage_points": "indian21: points for cut + upper + lower joker of one suit",
}

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "decks": (1, 8),
    "jokers_per_deck": (0, 4),
    "hand_size": (1, MAX_HAND_CARDS),
    "max_set_size": (3, MAX_SET_CARDS),
    "min_run_length": (3, 13),
    "min_naturals_per_meld": (1, 14),
    "max_wilds_per_meld": (0, 13),
    "ace_points": (0, MAX_POINTS),
    "ace_low_run_points": (0, MAX_POINTS),
    "pip_points": (0, MAX_POINTS),
    "court_points": (0, MAX_POINTS),
    "joker_points": (0, MAX_POINTS),
    "min_meld_points": (0, MAX_POINTS),
    "contract_round": (1, 7),
    "knock_limit": (0, 200),
    "penalty_tiers": (2, 3),
    "points_cap": (0, 10_000),
    "gin_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "oklahoma_ace_knock": (0, 200),
    "pile_penalty": (0, 1000),
    "drop_first": (0, 1000),
    "drop_middle": (0, 1000),
    "wrong_declaration": (0, 1000),
    "value_card_points": (0, 1000),
    "marriage_points": (0, 10_000),
}
"""Integer knob ranges (inclusive); the API states them as JSON-schema bounds."""
MAX_DECK_CARDS = INT_BOUNDS["decks"][1] * (52 + INT_BOUNDS["jokers_per_deck"][1])
"""The most cards any rules deal from (eight decks of 52 and four printed
jokers each): the bound of a pile, a stock or the cards seen, whatever the
game's decks."""

CHOICES: dict[str, tuple[str, ...]] = {
    "ace": ACE_MODES,
    "objective": OBJECTIVES,
    "declaration": DECLARATIONS,
    "wild_meld_value": WILD_MELD_VALUES,
    "pile_pickup": PILE_PICKUPS,
    "round_scoring": ROUND_SCORINGS,
}
NULLABLE = frozenset({"tanala", "max_wilds_per_meld", "ace_low_run_points", "pip_points",
                      "knock_limit", "points_cap", "max_set_size", "min_meld_points",
                      "contract_round", "card_points"})


def knob_expectation(knob: str) -> str:
    """What a knob's value must be, in words: ``"an integer from 1 to 4"``,
    ``"one of low, high, wrap"``, ``"null or true or false"`` ..."""
    if knob in CHOICES:
        what = f"one of {', '.join(CHOICES[knob])}"
    elif knob in INT_BOUNDS:
        low, high = INT_BOUNDS[knob]
        what = f"an integer from {low} to {high}"
    elif knob in LEGACY_KNOBS:
        what = "an integer from 0 to 10" if knob != "opening_points" else \
            f"an integer from 0 to {MAX_POINTS}"
    elif knob == "requirements":
        what = f"a list of at most {MAX_REQUIREMENTS} {{kind, count, exact}} items"
    elif knob == "card_points":
        what = "an object {hand, meld, ace_low} of per-rank points"
    else:
        return "true, false or null" if knob in NULLABLE else "true or false"
    return f"null or {what}" if knob in NULLABLE else what


def did_you_mean(name: object, names: Sequence[str]) -> str:
    """" did you mean 'x'?" for the name of ``names`` closest to ``name``
    (nothing when none is close).

    >>> did_you_mean("knock_limt", KNOB_NAMES)
    " did you mean 'knock_limit'?"
    """
    close = difflib.get_close_matches(str(name), names, n=1, cutoff=0.75)
    return f" did you mean {close[0]!r}?" if close else ""


def unknown_knob_message(knob: object, knobs: Sequence[str] = KNOB_NAMES[1:]) -> str:
    """The error for a knob name that does not exist: the closest knob, if
    one is close, then every knob there is (``knobs``)."""
    return f"unknown knob {shown(knob)};{did_you_mean(knob, knobs)} knobs are: {', '.join(knobs)}"


def _check_rules(rules: Rules) -> None:
    for knob in KNOB_NAMES:
        value = getattr(rules, knob)
        if value is None:
            if knob not in NULLABLE:
                raise InvalidRulesError(knob, f"knob {knob!r} may not be null")
            continue
        if knob == "name":
            if not isinstance(value, str) or not value:
                raise InvalidRulesError("name", "knob 'name' must be a non-empty string")
        elif knob in CHOICES:
            if value not in CHOICES[knob]:
                raise InvalidRulesError(
                    knob, f"knob {knob!r} must be {knob_expectation(knob)}; got {shown(value)}")
        elif knob in INT_BOUNDS:
            low, high = INT_BOUNDS[knob]
            number = plain_int(value)
            if number is None or not low <= number <= high:
                raise InvalidRulesError(
                    knob, f"knob {knob!r} must be {knob_expectation(knob)}; got {shown(value)}")
            if type(value) is not int:  # numpy's int64 and the like: kept as the int it is
                object.__setattr__(rules, knob, number)
        elif knob == "requirements":
            checked = _check_requirements(value)
            if checked is not value:  # a count of numpy's int64 and the like: kept as an int
                object.__setattr__(rules, knob, checked)
        elif knob == "card_points":
            if not isinstance(value, CardPoints):
                raise InvalidRulesError(knob, "knob 'card_points' must be a CardPoints table")
        elif not isinstance(value, bool):
            raise InvalidRulesError(knob, f"knob {knob!r} must be {knob_expectation(knob)}; "
                                          f"got {shown(value)}")
    _check_requirements_reachable(rules)
    _check_exactly_solvable(rules)


def _check_exactly_solvable(rules: Rules) -> None:
    """Refuse the requirement items the engines cannot solve exactly.

    An exact ``pure_sequence`` count under ``cut_joker``: the engines price a
    run's wild slot without knowing which wild card fills it, and a wild-rank
    card filling the slot of its own card (7S in 5S 6S _ 8S, 7s wild) is
    natural, so the run they counted impure shows pure and the count is
    broken (an "at least" count is not affected: counting a run impure is
    then only cautious, and its all-natural reading is searched too).

    An exact count under ``marriage`` with wild cards that score: the lower
    tier (wild cards free) applies to melds that miss the requirements, and
    one more meld shown, its cards counting, misses an exact count; the
    engines only try the at most two pure sequences that tier exempts."""
    if rules.cut_joker and any(item.kind == "pure_sequence" and item.exact
                               for item in rules.requirements):
        raise InvalidRulesError(
            "requirements", "an exact pure_sequence count (exact: true) cannot be combined "
            "with cut_joker: a wild-rank card filling the slot of its own card keeps a run "
            "pure, which the engines cannot tell apart when counting exactly; give the "
            "pure_sequence item as at least (exact: false), or set cut_joker to false")
    wilds = rules.cut_joker or (rules.printed_jokers_wild and rules.jokers_per_deck > 0)
    if (rules.objective == "marriage" and wilds and not rules.wild_cards_score_zero
            and any(item.exact for item in rules.requirements)):
        raise InvalidRulesError(
            "requirements", "an exact requirement count (exact: true) cannot be combined with "
            "the marriage objective while wild cards score (wild_cards_score_zero: false): "
            "showing one more meld, its cards counting, can miss the count and so free the wild "
            "cards, which the engines do not search; give the items as at least (exact: false), "
            "or set wild_cards_score_zero to true")


def too_many_requirements(count: int) -> InvalidRulesError:
    """The refusal of ``count`` requirement items, more than ``MAX_REQUIREMENTS``."""
    return InvalidRulesError(
        "requirements", f"at most {MAX_REQUIREMENTS} requirement items; got {count}")


def _check_requirements(value: object) -> tuple[Requirement, ...]:
    """``value``, checked, its counts plain ints (``InvalidRulesError`` when bad): the
    same tuple when they are already."""
    if not isinstance(value, tuple) or not all(isinstance(r, Requirement) for r in value):
        raise InvalidRulesError("requirements", "knob 'requirements' must be a tuple of Requirement")
    if len(value) > MAX_REQUIREMENTS:
        raise too_many_requirements(len(value))
    seen: set[str] = set()
    checked: list[Requirement] = []
    for item in value:
        if item.kind not in REQUIREMENT_KINDS:
            raise InvalidRulesError(
                "requirements", f"requirement kind must be one of {', '.join(REQUIREMENT_KINDS)}; "
                f"got {shown(item.kind)}")
        count = plain_int(item.count)
        if count is None or not 0 <= count <= 10:
            raise InvalidRulesError(
                "requirements", f"requirement count must be an integer from 0 to 10; got {shown(item.count)}")
        if not isinstance(item.exact, bool):
            raise InvalidRulesError("requirements", "requirement exact must be true or false")
        if item.kind in seen:
            raise InvalidRulesError(
                "requirements", f"requirement kind {shown(item.kind)} is listed twice; give it once")
        seen.add(item.kind)
        checked.append(item if type(item.count) is int else dataclasses.replace(item, count=count))
    return value if all(new is old for new, old in zip(checked, value, strict=True)) else tuple(checked)


def _check_requirements_reachable(rules: Rules) -> None:
    """Refuse requirements no lay-down (or declaration) of ``hand_size`` cards
    can meet: items that contradict each other (a pure sequence is a
    sequence), items that forbid every meld (a lay-down holds one meld or
    more), melds no meld size allows (a set or run holds at least
    ``min_naturals_per_meld`` natural cards: a set at most
    ``set_size_limit``, and four suits or ``4 x decks`` copies of its rank,
    a run at most 13; a tanala needs 3 decks), or more melds than the kept cards can hold (a set has
    3 cards or more, a run ``min_run_length``, a tanala 3)."""
    if not rules.requirements:
        return
    naturals = rules.min_naturals_per_meld
    tanalas = rules.tanala_enabled and naturals <= 3 and rules.decks >= 3  # 3 identical cards
    set_room = min(rules.set_size_limit, 4 * rules.decks if rules.set_allow_same_suit else 4)
    set_size = max(3, naturals) if max(3, naturals) <= set_room else None
    run_length = max(3, rules.min_run_length, naturals)
    fewest = _fewest_cards(rules.requirements, tanalas, set_size,
                           run_length if run_length <= 13 else None)
    wanted = ", ".join(item.describe() for item in rules.requirements)
    if fewest is None:
        raise InvalidRulesError(
            "requirements", f"no lay-down can meet these requirements together: {wanted} "
            "(a lay-down holds one meld or more; a run or tanala is a sequence; a pure "
            "sequence is a sequence too; every meld holds min_naturals_per_meld = "
            f"{naturals} natural card(s) or more, a set at most {set_room} cards, a run 13)")
    if fewest > rules.hand_size:
        raise InvalidRulesError(
            "requirements", f"the requirements ({wanted}) need at least {fewest} cards in "
            f"melds, but hand_size is {rules.hand_size}")


@lru_cache(maxsize=256)
def _fewest_cards(items: tuple[Requirement, ...], tanalas: bool, set_size: int | None,
                  run_length: int | None) -> int | None:
    """The fewest melded cards of a lay-down of one meld or more meeting every
    item (None: no meld counts do), over the counts of sets (``set_size``
    cards each; None: no set is possible), pure runs, impure runs
    (``run_length`` cards each; None: no run is possible) and tanalas."""
    most = max(item.count for item in items) + 2
    best: int | None = None
    for sets in range(most if set_size is not None else 1):
        for pure_runs in range(most if run_length is not None else 1):
            for impure_runs in range(most if run_length is not None else 1):
                for tanala_count in range(most if tanalas else 1):
                    if not sets + pure_runs + impure_runs + tanala_count:
                        continue  # nothing laid down is no lay-down
                    have = {"set": sets, "run": pure_runs + impure_runs,
                            "sequence": pure_runs + impure_runs + tanala_count,
                            "pure_sequence": pure_runs + tanala_count}
                    if any(have[item.kind] < item.count
                           or (item.exact and have[item.kind] != item.count) for item in items):
                        continue
                    cards = (sets * (set_size or 0) + 3 * tanala_count
                             + (run_length or 0) * (pure_runs + impure_runs))
                    if best is None or cards < best:
                        best = cards
    return best


# ---------------------------------------------------------------------------
# Card points, computed once per Rules


def _points_table(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(points in hand, points melded, points of an ace melded low) per card
    type, from the point knobs and then the ``card_points`` overrides."""
    per_rank = [rules.ace_points]
    per_rank += [r + 1 if rules.pip_points is None else rules.pip_points for r in range(1, 9)]
    per_rank += [rules.court_points] * 4
    hand = [*per_rank, rules.joker_points]
    meld = list(hand)
    overrides = rules.card_points
    ace_low = rules.ace_low_run_points
    if overrides is not None:
        for key, value in overrides.hand:
            hand[key] = value
        for key, value in overrides.meld:
            meld[key] = value
        if overrides.ace_low is not None:
            ace_low = overrides.ace_low
    if ace_low is None:
        ace_low = meld[0]

    def per_card(table: list[int]) -> tuple[int, ...]:
        return tuple(table[13] if c == JOKER else table[c % 13] for c in range(NUM_CARD_TYPES))

    return per_card(hand), per_card(meld), ace_low


# ---------------------------------------------------------------------------
# Presets


CONTRACTS: dict[int, tuple[int, tuple[Requirement, ...], bool]] = {
    1: (10, (Requirement("set", 2, True), Requirement("run", 0, True)), False),
    2: (10, (Requirement("set", 1, True), Requirement("run", 1, True)), False),
    3: (10, (Requirement("set", 0, True), Requirement("run", 2, True)), False),
    4: (10, (Requirement("set", 3, True), Requirement("run", 0, True)), False),
    5: (12, (Requirement("set", 2, True), Requirement("run", 1, True)), False),
    6: (12, (Requirement("set", 1, True), Requirement("run", 2, True)), False),
    7: (12, (Requirement("set", 0, True), Requirement("run", 3, True)), True),
}
"""Contract rummy: round -> (hand size, the contract, it must hold every card)."""

PRESETS: dict[str, Rules] = {
    "basic": Rules(name="basic", hand_size=10),
    "gin": Rules(name="gin", hand_size=10, knock_limit=10, declaration="knock",
                 round_scoring="knock"),
    "rummy500": Rules(
        name="rummy500", jokers_per_deck=2, hand_size=13, ace="high_low",
        printed_jokers_wild=True, ace_points=15, ace_low_run_points=1, joker_points=15,
        objective="max_net", pile_pickup="must_meld", round_scoring="net",
    ),
    "rommy": Rules(
        name="rommy", jokers_per_deck=2, hand_size=7, ace="high_low",
        printed_jokers_wild=True, ace_points=15, pip_points=5, joker_points=25,
        objective="max_net", pile_pickup="meld_or_penalty", round_scoring="net",
    ),
    "indian13": Rules(
        name="indian13", decks=2, jokers_per_deck=1, hand_size=13, ace="high_low",
        printed_jokers_wild=True, cut_joker=True, ace_points=10, wild_cards_score_zero=True,
        objective="cascade", points_cap=80, round_scoring="indian",
        requirements=(Requirement("sequence", 2), Requirement("pure_sequence", 1)),
    ),
    "indian21": Rules(
        name="indian21", decks=3, jokers_per_deck=1, hand_size=21, ace="high_low",
        printed_jokers_wild=True, cut_joker=True, neighbour_jokers=True, ace_points=10,
        wild_cards_score_zero=True, objective="marriage", round_scoring="indian",
        requirements=(Requirement("pure_sequence", 3),), value_cards=True,
    ),
    "contract": Rules(
        name="contract", decks=2, jokers_per_deck=1, hand_size=10, ace="high_low",
        printed_jokers_wild=True, set_allow_same_suit=True, max_set_size=None, min_run_length=4,
        tanala=False, ace_points=15, joker_points=15, declaration="lay_down", contract_round=1,
        requirements=CONTRACTS[1][1], new_melds_after_opening=False,
        round_scoring="hand_penalty",
    ),
    "kalooki": Rules(
        name="kalooki", decks=2, jokers_per_deck=2, hand_size=13, ace="high_low",
        printed_jokers_wild=True, tanala=False, ace_points=11, ace_low_run_points=1, joker_points=25,
        wild_meld_value="represented", min_meld_points=51, round_scoring="hand_penalty",
    ),
}


# ---------------------------------------------------------------------------
# Overrides


_KEY_MOST = 128
"""The most entries of one container an override value is keyed with: a
well-formed one holds far fewer (every knob once, at most 4 requirement
items, a point per rank spelling), so a longer one is left unkeyed for the
knob checks to refuse rather than sorted and hashed first."""


_KEY_DEPTH = 4
"""The deepest an override value is keyed: ``{"card_points": {"hand": {"A":
15}}}`` nests 3 deep, as do the requirement items; a deeper one is left
unkeyed (and refused by the knob checks) rather than walked down."""


def _freeze(value: Any, depth: int = _KEY_DEPTH) -> Any:
    """A hashable stand-in for an override value (for the interning key);
    ``TypeError`` for a value that makes no key (unhashable, a container
    longer than ``_KEY_MOST``, or nested deeper than ``_KEY_DEPTH``)."""
    if isinstance(value, Mapping | list | tuple):
        if len(value) > _KEY_MOST or depth <= 0:
            raise TypeError("an override this long or deep is not keyed")
        if isinstance(value, Mapping):
            return ("{}", tuple(sorted((str(k), _freeze(v, depth - 1)) for k, v in value.items())))
        return ("[]", tuple(_freeze(v, depth - 1) for v in value))
    hash(value)
    return (type(value), value)  # the type, not its name: numpy's bool_ is named "bool"


_INTERNED_LIMIT = 4096
_INTERNED: LruCache[object, Rules] = LruCache(_INTERNED_LIMIT)


def _intern(rules: Rules) -> Rules:
    """The one object equal to ``rules`` (bounded: least recently used first out)."""
    return _INTERNED.put(rules, rules)


for _preset in PRESETS.values():
    _intern(_preset)

_BY_REQUEST: LruCache[object, Rules] = LruCache(_INTERNED_LIMIT)
_PLAIN_TYPES = frozenset({int, str, type(None)})
"""Override values a request's key holds as they are: among these types, equal
values have the same type (not so ``True == 1``: ``bool`` is not one)."""


def request_key(variant: object, overrides: object) -> tuple[object, ...] | None:
    """A key for the request ``make_rules(variant, overrides)`` when its
    overrides are a dict of plain values (ints, strings, None) -- the common
    call, e.g. ``{"knock_limit": 10}``, keyed in a few hundred nanoseconds --
    else None.  Equal keys are the same request, so a cache keyed by them may
    skip the request's checks."""
    if type(overrides) is not dict or type(variant) is not str:
        return None
    items = tuple(overrides.items())
    for _, value in items:
        if type(value) not in _PLAIN_TYPES:
            return None
    return (variant, items)


def make_rules(variant: str | Rules, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset ``variant`` (or a ``Rules``) with knob ``overrides`` applied.

    Raises ``InvalidRulesError`` for an unknown preset, unknown knob or bad
    value.  Equal results are the same object (interned by value).
    """
    key = request_key(variant, overrides) if overrides else None
    if key is not None:
        hit = _BY_REQUEST.get(key)
        if hit is not None:
            return hit
    if isinstance(variant, Rules):
        base = variant
    else:
        preset = PRESETS.get(variant) if isinstance(variant, str) else None
        if preset is None:
            raise InvalidRulesError(
                "variant", f"unknown variant {shown(variant)}; choose one of {', '.join(PRESETS)}",
                code="unknown_variant")
        base = preset
    if overrides is None or (isinstance(overrides, Mapping) and not overrides):
        return _intern(base)
    if not isinstance(overrides, Mapping):
        raise InvalidRulesError("rules", "rules must be an object mapping knob names to values")
    if key is None:
        # Other overrides are frozen first, their types kept (True == 1, yet
        # they are different requests); unhashable ones make no key.
        with contextlib.suppress(TypeError):
            key = (variant, _freeze(overrides))
        if key is not None:
            hit = _BY_REQUEST.get(key)
            if hit is not None:
                return hit
    try:
        rules = _intern(_apply(base, overrides))
    except InvalidRulesError as error:
        if "opening_points" in overrides and error.loc == ("rules", "min_meld_points"):
            # named as the caller wrote it: the alias
            raise InvalidRulesError("opening_points", error.message.replace(
                "'min_meld_points'", "'opening_points' (min_meld_points)")) from None
        raise
    return rules if key is None else _BY_REQUEST.put(key, rules)


def _apply(base: Rules, overrides: Mapping[str, Any]) -> Rules:
    changes: dict[str, Any] = {}
    for knob, value in overrides.items():
        if knob in LEGACY_KNOBS:
            continue
        if knob not in KNOB_NAMES or knob == "name":
            raise InvalidRulesError(str(knob), unknown_knob_message(knob))
        if knob == "requirements":
            value = parse_requirements(value)
        elif knob == "card_points":
            value = None if value is None else parse_card_points(value)
        changes[knob] = value
    if "opening_points" in overrides:
        if "min_meld_points" in overrides:
            raise InvalidRulesError(
                "opening_points", "give min_meld_points or its alias opening_points, not both")
        changes["min_meld_points"] = overrides["opening_points"]
    round_number = plain_int(changes.get("contract_round"))
    if round_number in CONTRACTS:  # others: the knob's check
        hand_size, contract, lay_down_all = CONTRACTS[round_number]
        changes.setdefault("hand_size", hand_size)
        changes.setdefault("requirements", contract)
        changes.setdefault("lay_down_all", lay_down_all)
    if "min_sequences" in overrides or "min_pure_sequences" in overrides:
        if "requirements" in overrides:
            raise InvalidRulesError(
                "min_sequences", "give requirements or the legacy min_sequences / "
                "min_pure_sequences knobs, not both")
        items = {r.kind: r for r in changes.get("requirements", base.requirements)}
        for knob, kind in (("min_sequences", "sequence"), ("min_pure_sequences", "pure_sequence")):
            if knob not in overrides:
                continue
            count = plain_int(overrides[knob])
            if count is None or not 0 <= count <= 10:
                raise InvalidRulesError(knob, f"knob {shown(knob)} must be an integer from 0 to 10; "
                                              f"got {shown(overrides[knob])}")
            items.pop(kind, None)
            if count:
                items[kind] = Requirement(kind, count)  # type: ignore[arg-type]
        changes["requirements"] = tuple(items.values())
    try:
        return dataclasses.replace(base, **changes)
    except TypeError as error:  # an unhashable value slipped into a knob
        raise InvalidRulesError("rules", f"bad knob value: {error}") from None


def refusal_by_knob(rules: Rules, knob: str, variant_message: str, knob_message: str, *,
                    variant_code: str = "invalid_rules") -> InvalidRulesError:
    """The refusal of an operation that ``rules``' value of ``knob`` rules out
    (an Indian objective has no laying off, ``pile_pickup: none`` no pile
    pickup, ``round_scoring: knock`` no round score): every operation decides
    by the knob, never by the preset's name, so a house variant that sets the
    knob is taken or refused as a preset with that value would be.

    Where the value is the preset's own, the variant is at fault
    (``variant_message`` on ``variant``, code ``variant_code``); where a
    house override set it, the knob is (``rules.<knob>``, ``invalid_rules``:
    "knob 'objective' is 'cascade': " then ``knob_message``).

    >>> refusal_by_knob(make_rules("basic", {"pile_pickup": "none"}), "pile_pickup", "v", "k").loc
    ('variant',)
    >>> error = refusal_by_knob(make_rules("rummy500", {"pile_pickup": "none"}), "pile_pickup",
    ...                         "v", "nothing is taken below the top")
    >>> error.loc, error.message
    (('rules', 'pile_pickup'), "knob 'pile_pickup' is 'none': nothing is taken below the top")
    """
    value = getattr(rules, knob)
    preset = PRESETS.get(rules.name)
    if preset is not None and getattr(preset, knob) == value:
        return InvalidRulesError("variant", variant_message, code=variant_code)
    return InvalidRulesError(knob, f"knob {shown(knob)} is {shown(value)}: {knob_message}")


def parse_requirements(value: object) -> tuple[Requirement, ...]:
    """Requirement items from their wire form ``[{"kind", "count", "exact"}]``."""
    if isinstance(value, tuple) and all(isinstance(r, Requirement) for r in value):
        return value
    if not is_list(value):
        raise InvalidRulesError(
            "requirements", "requirements must be a list of {kind, count, exact} items")
    if len(value) > MAX_REQUIREMENTS:  # before reading any: a million items are refused at once
        raise too_many_requirements(len(value))
    items: list[Requirement] = []
    for i, item in enumerate(value):
        if isinstance(item, Requirement):
            items.append(item)
            continue
        if not isinstance(item, Mapping) or set(item) - {"kind", "count", "exact"} or not {
                "kind", "count"} <= set(item):
            raise InvalidRulesError(
                "requirements", f"requirements[{i}] must be an object with kind, count and "
                "optionally exact")
        kind = item["kind"]
        if kind not in REQUIREMENT_KINDS:
            raise InvalidRulesError(
                "requirements", f"requirements[{i}].kind must be one of "
                f"{', '.join(REQUIREMENT_KINDS)}; got {shown(kind)}")
        items.append(Requirement(kind, item["count"], item.get("exact", False)))
    return tuple(items)


def parse_card_points(value: object) -> CardPoints:
    """A ``CardPoints`` from its wire form (see ``CardPoints.to_dict``)."""
    if isinstance(value, CardPoints):
        return value
    if not isinstance(value, Mapping) or set(value) - {"hand", "meld", "ace_low"}:
        raise InvalidRulesError(
            "card_points", "card_points must be an object with hand, meld and/or ace_low")

    def table(part: str) -> tuple[tuple[int, int], ...]:
        entries = value.get(part) or {}
        if not isinstance(entries, Mapping):
            raise InvalidRulesError("card_points", f"card_points.{part} must map ranks to points")
        out: dict[int, int] = {}
        for key, points in entries.items():
            token = str(key).strip().upper()
            index = 13 if token in ("JK", "JOKER") else (
                parse_rank(token, field="card_points") if token in _RANK_TOKENS else None)
            if index is None:
                raise InvalidRulesError(
                    "card_points", f"card_points.{part} key {shown(key)} is not a rank "
                    "(A 2-9 T/10 J Q K) or JK")
            points = _check_points(points, f"card_points.{part}.{key}")
            if out.get(index, points) != points:
                # "T" and "10" (or "JK" and "joker") name one rank: two values
                # for it contradict each other (and which one won depended on
                # the order of the keys, and on what the process had cached).
                raise InvalidRulesError(
                    "card_points", f"card_points.{part} gives {_POINT_KEYS[index]} two values, "
                    f"{out[index]} and {points} (key {shown(key)}); give each rank once")
            out[index] = points
        return tuple(sorted(out.items()))

    ace_low = value.get("ace_low")
    if ace_low is not None:
        ace_low = _check_points(ace_low, "card_points.ace_low")
    return CardPoints(table("hand"), table("meld"), ace_low)


_RANK_TOKENS = frozenset([*RANKS, "10"])


def _check_points(points: object, where: str) -> int:
    """``points`` as a plain int, when it is a card's points (``InvalidRulesError`` if not)."""
    number = plain_int(points)
    if number is None or not 0 <= number <= MAX_POINTS:
        raise InvalidRulesError("card_points", f"{where} must be an integer from 0 to {MAX_POINTS}; "
                                               f"got {shown(points)}")
    return number


# ---------------------------------------------------------------------------
# Wild cards for one deal


@dataclass(frozen=True, slots=True)
class Deal:
    """Rules plus the cut card of one deal: which card types are wild, and
    what each card type is worth.

    ``wild`` holds every wild card type; ``JOKER`` is in it when printed jokers
    are wild.  Every wild type except ``JOKER`` can also stand for itself.
    ``points[c]`` is card ``c``'s points in hand, ``meld_points[c]`` melded
    as itself (or, under ``wild_meld_value="own"``, as a stand-in).
    """

    rules: Rules
    wild_rank: int | None = None
    cut_card: int | None = None
    joker_cut: bool = False
    wild: frozenset[int] = field(default_factory=frozenset)
    points: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    meld_points: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    ace_low_points: int = field(default=0, init=False, repr=False, compare=False)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        hand, meld, ace_low = self.rules._points
        if self.rules.wild_cards_score_zero:
            hand = tuple(0 if c in self.wild else p for c, p in enumerate(hand))
            meld = tuple(0 if c in self.wild else p for c, p in enumerate(meld))
        object.__setattr__(self, "points", hand)
        object.__setattr__(self, "meld_points", meld)
        object.__setattr__(self, "ace_low_points", ace_low)
        object.__setattr__(self, "_hash", hash((self.rules, self.wild_rank, self.cut_card,
                                                self.joker_cut, self.wild)))

    def __hash__(self) -> int:
        return self._hash

    def is_wild(self, card: int) -> bool:
        """True when ``card`` may stand in for another card."""
        return card in self.wild

    @property
    def known_cut(self) -> int | None:
        """The cut card when it is known which card it is: the full cut card,
        or a printed joker when one was cut (``JOKER``); None for a bare rank
        (its suit is not known) or a deal without a cut card.  It lies face up
        under the stock: no player holds it and no draw brings it."""
        return JOKER if self.joker_cut else self.cut_card


_DEALS_LIMIT = 4096
_DEALS: LruCache[tuple[Rules, str | None], Deal] = LruCache(_DEALS_LIMIT)


def make_deal(rules: Rules, wild_rank: str | None = None) -> Deal:
    """Resolve ``wild_rank`` (a rank, a full cut card or ``"JK"``) under ``rules``.

    Equal arguments give the same ``Deal`` object (a bounded cache keyed by
    value).  Raises ``InvalidHandError`` (field ``wild_rank``) when the variant
    has no cut joker, the token is unknown, or ``indian21`` needs a suit.
    """
    if not isinstance(rules, Rules):
        raise InvalidRulesError("rules", f"make_deal takes the Rules of make_rules(variant, "
                                         f"overrides), not {type(rules).__name__}")
    if wild_rank is not None and not isinstance(wild_rank, str):
        return _make_deal(rules, wild_rank)  # raises the clear error
    key = (rules, wild_rank)
    hit = _DEALS.get(key)
    if hit is not None:
        return hit
    return _DEALS.put(key, _make_deal(rules, wild_rank))


def _make_deal(rules: Rules, wild_rank: str | None) -> Deal:
    wild: set[int] = set()
    if rules.printed_jokers_wild and rules.jokers_per_deck > 0:
        wild.add(JOKER)
    if wild_rank is None:
        return Deal(rules=rules, wild=frozenset(wild))
    if not rules.cut_joker:
        raise InvalidHandError(
            f"variant {rules.name!r} has no wild rank (cut joker); omit wild_rank "
            "or set the knob cut_joker",
            code="wild_rank_not_allowed", field="wild_rank",
        )
    if not isinstance(wild_rank, str):
        raise InvalidHandError(
            f"wild_rank must be a string like '7', '7H' or 'JK'; got {shown(wild_rank)}",
            code="invalid_wild_rank", field="wild_rank",
        )
    text = wild_rank.strip().upper()
    if text in ("JK", "JOKER"):
        if rules.jokers_per_deck == 0:
            raise InvalidHandError(
                "wild_rank 'JK' needs printed jokers in the deck (jokers_per_deck > 0)",
                code="invalid_wild_rank", field="wild_rank",
            )
        if rules.joker_cut_makes_aces_wild:
            wild.update(make_card(0, s) for s in range(4))
        return Deal(rules=rules, joker_cut=True, wild=frozenset(wild))
    cut_card: int | None = None
    if len(text) >= 2 and not text.isdigit():
        try:
            cut_card = parse_card(text, field="wild_rank")
        except InvalidHandError:
            raise InvalidHandError(
                f"unknown wild_rank {shown(wild_rank)}: give a rank ('7'), a cut card ('7H') or 'JK'",
                code="invalid_wild_rank", field="wild_rank",
            ) from None
        rank = rank_of(cut_card)
    else:
        try:
            rank = parse_rank(text)
        except InvalidHandError:
            raise InvalidHandError(
                f"unknown wild_rank {shown(wild_rank)}: give a rank ('7'), a cut card ('7H') or 'JK'",
                code="invalid_wild_rank", field="wild_rank",
            ) from None
    if rules.neighbour_jokers and cut_card is None:
        raise InvalidHandError(
            f"variant {rules.name!r} uses upper/lower jokers, so wild_rank must be the full "
            f"cut card with its suit (e.g. '{RANKS[rank]}H'), not {shown(wild_rank)}",
            code="wild_rank_needs_suit", field="wild_rank",
        )
    wild.update(make_card(rank, s) for s in range(4))
    if rules.neighbour_jokers and cut_card is not None:
        suit = suit_of(cut_card)
        wild.add(make_card((rank + 1) % 13, suit))
        wild.add(make_card((rank - 1) % 13, suit))
    return Deal(rules=rules, wild_rank=rank, cut_card=cut_card, wild=frozenset(wild))


def deck_copies(rules: Rules) -> list[int]:
    """Copies of each of the 53 card types in the full deck of ``rules``."""
    copies = [rules.decks] * NUM_CARD_TYPES
    copies[JOKER] = rules.decks * rules.jokers_per_deck
    return copies


def check_copies(groups: Sequence[tuple[str, Sequence[int]]], rules: Rules) -> None:
    """Raise ``InvalidHandError`` when the cards of all ``groups`` together hold
    more copies of a card than the deck has; the error names the group's field
    (``"hand"``, ``"table[2]"``, ``"discard_pile"`` ...) and the position of the
    extra copy."""
    copies = deck_copies(rules)
    seen = [0] * NUM_CARD_TYPES
    for field_name, cards in groups:
        for index, card in enumerate(cards):
            seen[card] += 1
            if seen[card] <= copies[card]:
                continue
            where = f"{field_name} position {index}"
            if card == JOKER:
                raise InvalidHandError(
                    f"too many jokers: 'JK' at {where} is joker number {seen[card]}, but "
                    f"variant {rules.name!r} has {copies[card]} "
                    f"({rules.decks} deck(s) x {rules.jokers_per_deck})",
                    code="too_many_jokers", field=field_name, index=index,
                )
            raise InvalidHandError(
                f"too many copies of {card_name(card)}: {where} is copy {seen[card]}, "
                f"but variant {rules.name!r} plays with {rules.decks} deck(s)",
                code="too_many_copies", field=field_name, index=index,
            )


def check_hand(cards: Sequence[int], rules: Rules, field_name: str = "hand") -> None:
    """Reject hands the deck cannot produce (size, copies, jokers)."""
    if len(cards) > MAX_HAND_CARDS:
        raise too_many_cards(field_name, len(cards), MAX_HAND_CARDS)
    check_copies([(field_name, cards)], rules)


def base_points(card: int, deal: Deal) -> int:
    """Points of ``card`` left in hand."""
    return deal.points[card]


def melded_points(card: int, represents: int, deal: Deal, low_ace: bool) -> int:
    """Points of ``card`` melded as ``represents``; ``low_ace`` when that
    position is the bottom ace of a run (A-2-3...)."""
    if card != represents and deal.rules.wild_meld_value == "own":
        return deal.meld_points[card]  # a stand-in worth its own points
    if deal.rules.wild_cards_score_zero and card in deal.wild:
        return 0
    if low_ace:
        return deal.ace_low_points
    return deal.meld_points[represents]


def own_slot_scores_apart(card: int, deal: Deal, low_ace: bool) -> bool:
    """Whether wild card ``card`` in the wild slot that stands for ``card``
    itself scores other than a wild card there.  It is then natural
    (RULES.md section 2.5) and scores as itself, while the engines price a
    wild slot by its filler's own points: a wild ace melded low (A-2-3...)
    is worth ``ace_low_points``, not its own 15 (``wild_meld_value="own"``).
    So that card may not fill that slot as a wild card: it is the natural
    card of the meld that holds it, which the engines weigh apart."""
    return (card != JOKER and card in deal.wild and deal.rules.wild_meld_value == "own"
            and melded_points(card, card, deal, low_ace) != deal.meld_points[card])
