"""Request and response models of the HTTP API (pydantic v2), with examples.

Requests are strict (``"1"`` is not an integer, ``1`` is not a boolean; a
whole number written ``500.0`` is the integer 500, as JSON Schema reads it) and
reject unknown fields, so a typo in a field or knob name is a 422 rather than
silently ignored.  Every list and string has a size bound, so validating any
body is cheap.  Responses describe the library's ``to_dict()`` wire forms
(the solver processes send those bytes as they are); examples are real
answers (``api.shared.examples``).

Nothing here knows a game rule: the variant names, engines and knobs (with
their ranges and choices) are read from ``solver`` so the schema follows the
library.
"""

from __future__ import annotations

import enum
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    ValidationInfo,
    create_model,
    model_validator,
)
from pydantic_core import PydanticCustomError

from api.shared.errors import spelled
from api.shared.examples import REQUESTS, example
from api.shared.settings import Settings
from solver import ENGINES, PRESETS
from solver.rules import (
    CHOICES,
    INT_BOUNDS,
    KNOB_DOCS,
    KNOB_NAMES,
    LEGACY_KNOBS,
    MAX_DECK_CARDS,
    MAX_POINTS,
    MAX_REQUIREMENTS,
    NULLABLE,
    REQUIREMENT_KINDS,
)

_DEFAULTS = Settings.model_construct()
"""Documented limits are the defaults, so the OpenAPI document does not depend
on the environment of the process that generates it; a request is checked
against the settings it is validated with (``validation_context``)."""


def validation_context(settings: Settings) -> dict[str, Any]:
    """The context a request model is validated in: the limits of ``settings``."""
    return {"settings": settings}


def _settings(info: ValidationInfo) -> Settings:
    context = info.context
    settings = context.get("settings") if isinstance(context, dict) else None
    return settings if isinstance(settings, Settings) else _DEFAULTS

MAX_TOKEN = 16
MAX_HAND_STRING = 400
MAX_LIST = 64  # cards in any one list of a request (the card limits are lower)

# ---------------------------------------------------------------------------
# Shared enums: one named schema each

Variant = enum.Enum("Variant", {name: name for name in PRESETS}, type=str)  # type: ignore[misc]
Variant.__doc__ = "A rule preset (GET /v1/variants lists each one's knobs)."
# The layoff, pile and round operations take every preset, as the library does: what
# they need is a knob's value (objective, pile_pickup, round_scoring), which a house
# rule may set on any preset, so the library refuses by the knob, naming it (the two
# enums keep their names: /v1 never removes a schema).
LayoffVariant = enum.Enum("LayoffVariant", {n: n for n in PRESETS}, type=str)  # type: ignore[misc]
LayoffVariant.__doc__ = ("A rule preset. Laying off needs the objective min_deadwood or max_net "
                         "(every preset but the Indian ones, whose hands are shown complete; "
                         "the knob objective may set it), the pile hint also a pile_pickup "
                         "other than none.")
RoundVariant = enum.Enum("RoundVariant", {n: n for n in PRESETS}, type=str)  # type: ignore[misc]
RoundVariant.__doc__ = ("A rule preset, scored by its knob round_scoring (gin's, knock, is scored "
                        "knock by knock: /v1/gin/score; the knob may set another).")
Engine = enum.Enum("Engine", {name: name for name in ENGINES}, type=str)  # type: ignore[misc]
Engine.__doc__ = ("auto: the exact search, CP-SAT past its budget; search: the exact search; "
                  "cpsat: OR-Tools CP-SAT.")


def choice_type(enum_class: Any, what: str, code: str) -> Any:
    """``enum_class`` on the wire: its value as a string (strict mode takes the
    member for it), an unknown value a 422 of type ``code`` listing the choices."""
    choices = [member.value for member in enum_class]

    def check(value: object) -> object:
        if isinstance(value, enum_class) or (isinstance(value, str) and value in choices):
            return value
        raise PydanticCustomError(code, "unknown {what} {value}; choose one of {choices}",
                                  {"what": what, "value": spelled(value)[:40],  # null, not None
                                   "choices": ", ".join(choices)})

    return Annotated[enum_class, Strict(False), BeforeValidator(check)]


def _enum_of(name: str, values: tuple[str, ...], doc: str) -> Any:
    kind = enum.Enum(name, {v: v for v in values}, type=str)  # type: ignore[misc]
    kind.__doc__ = doc
    return kind


_KNOB_ENUMS: dict[str, Any] = {
    knob: choice_type(_enum_of("".join(p.title() for p in knob.split("_")), values, KNOB_DOCS[knob]),
                  f"{knob} value", "invalid_rules")
    for knob, values in CHOICES.items()
}
RequirementKind = _enum_of("RequirementKind", REQUIREMENT_KINDS,
                           "Which melds a requirement counts: set, run, sequence (runs and "
                           "tanalas) or pure_sequence (sequences with no wild card standing in).")


class AnsweredBy(enum.StrEnum):
    """The engine that produced an answer (auto answers as one of these)."""

    SEARCH = "search"
    CPSAT = "cpsat"


class SolveStatus(enum.StrEnum):
    """optimal: proved; feasible: the deadline came first, the best arrangement
    found; timeout: nothing found in time (every card kept); infeasible: no
    arrangement meets the rules."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    TIMEOUT = "timeout"
    INFEASIBLE = "infeasible"


class MeldKind(enum.StrEnum):
    """set: one rank; run: one suit in sequence; tanala: three identical cards (indian21)."""

    SET = "set"
    RUN = "run"
    TANALA = "tanala"


# ---------------------------------------------------------------------------
# Field types

CardToken = Annotated[
    str,
    StringConstraints(max_length=MAX_TOKEN),
    Field(description="a card: rank A 2-9 T (or 10) J Q K + suit S H D C (or ♠♥♦♣), or JK",
          examples=["AS", "10h", "JK"]),
]


def _split_cards(most_characters: int) -> Any:
    """Accept ``"AS 2S,3S"`` as well as ``["AS", "2S", "3S"]``.  A string
    over ``most_characters`` characters or that is not Unicode text (a lone
    surrogate) is the string's fault: ``string_too_long`` (naming its bound)
    or ``string_unicode`` at the field, as any other string field gives
    them, not at a token's index as if the cards were a list."""
    def split(value: object) -> object:
        if isinstance(value, str):
            if len(value) > most_characters:  # refused whole, never split into thousands
                raise PydanticCustomError("string_too_long",
                                          "String should have at most {max_length} characters",
                                          {"max_length": most_characters})
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise PydanticCustomError("string_unicode", "Input should be a valid string, "
                                          "unable to parse raw data as a unicode string") from None
            return value.replace(",", " ").split()
        return value
    return split


_split_hand = _split_cards(MAX_HAND_STRING)


def _within_hand_limit(cards: list[str], info: ValidationInfo) -> list[str]:
    """At most ``max_hand_cards`` cards (``RUMMY_SOLVER_MAX_HAND_CARDS``)."""
    most = _settings(info).max_hand_cards
    if len(cards) > most:
        raise PydanticCustomError(
            "hand_too_large", "{field} has {count} cards; at most {most} are allowed",
            {"field": info.field_name or "hand", "count": len(cards), "most": most})
    return cards


HandCards = Annotated[
    list[CardToken],
    Field(max_length=MAX_LIST),
    BeforeValidator(
        _split_hand,
        json_schema_input_type=Annotated[list[CardToken], Field(max_length=MAX_LIST)]
        | Annotated[str, StringConstraints(max_length=MAX_HAND_STRING)],
    ),
    AfterValidator(_within_hand_limit),
]
"""Cards as a list of tokens or one space/comma separated string, at most
``max_hand_cards`` of them."""

MAX_PILE_STRING = 4 * MAX_DECK_CARDS
"""Characters of a discard pile given as one string (every card as ``10H`` and a space)."""

PileCards = Annotated[
    list[CardToken],
    Field(max_length=MAX_DECK_CARDS),
    BeforeValidator(
        _split_cards(MAX_PILE_STRING),
        json_schema_input_type=Annotated[list[CardToken], Field(max_length=MAX_DECK_CARDS)]
        | Annotated[str, StringConstraints(max_length=MAX_PILE_STRING)],
    ),
]
"""A discard pile: cards as a list of tokens or one space/comma separated string, at most
``MAX_DECK_CARDS`` (every card of the largest deck; not ``max_hand_cards``)."""


def _time_limit_check(setting: str) -> Any:
    def check(value: int | None, info: ValidationInfo) -> int | None:
        most = getattr(_settings(info), setting)
        if value is not None and value > most:
            raise PydanticCustomError(
                "time_limit_too_large",
                "time_limit_ms is {value}; at most {most} is allowed ({variable})",
                {"value": value, "most": most, "variable": f"RUMMY_SOLVER_{setting.upper()}"})
        return value
    return check


def _time_limit_type(setting: str) -> Any:
    documented = getattr(_DEFAULTS, setting)
    return Annotated[
        Annotated[int, Field(ge=1, json_schema_extra={"maximum": documented})] | None,
        AfterValidator(_time_limit_check(setting)),
    ]


if TYPE_CHECKING:
    SolveTimeLimit = int | None
    PlayTimeLimit = int | None
else:
    SolveTimeLimit = _time_limit_type("max_time_limit_ms")
    """A solve's ``time_limit_ms``: at most ``max_time_limit_ms``."""
    PlayTimeLimit = _time_limit_type("request_budget_ms")
    """The ``time_limit_ms`` of a request that runs many solves: at most ``request_budget_ms``."""


class OperationRequest(BaseModel):
    """A request of an operation (``api.shared.operations``): strict, no unknown
    fields, every size bounded; its fields are the library call's arguments
    (``library_args``) plus ``time_limit_ms`` where the call takes a deadline."""

    def library_args(self) -> dict[str, Any]:
        """The library call's keyword arguments, as plain data (enum members as
        their values, rule overrides as the knobs set, nested models as dicts)."""
        return {name: _plain(getattr(self, name), name)
                for name in type(self).model_fields if name != "time_limit_ms"}


def _plain(value: Any, name: str = "") -> Any:
    if name == "rules" and isinstance(value, BaseModel):
        return rules_overrides(value)  # type: ignore[arg-type]  # the generated RulesOverride
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, OperationRequest):
        return value.library_args()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value

WILD_RANK_DOC = (
    "the cut card of an Indian deal: a rank ('7'), a full card ('7H': needed by indian21 for "
    "the upper/lower jokers) or 'JK' when a printed joker was cut; only for variants with a cut "
    "joker (null or absent: none)"
)
WildRank = Annotated[str, StringConstraints(max_length=MAX_TOKEN)]


def _request_config(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": list(examples)})


def _response_config(*examples: Any) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": [e for e in examples if e]})


# ---------------------------------------------------------------------------
# Rules overrides: one optional field per knob of ``solver.Rules``


class RequirementIn(BaseModel):
    """What the melds laid down must contain: at least (or exactly) ``count``
    melds of ``kind``."""

    model_config = _request_config({"kind": "pure_sequence", "count": 1},
                                   {"kind": "run", "count": 2, "exact": True})

    kind: choice_type(RequirementKind, "requirement kind", "invalid_rules")  # type: ignore[valid-type]
    count: int = Field(ge=0, le=10, description="how many melds of that kind")
    exact: bool = Field(default=False, description="exactly count (else at least count)")


RankKey = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "10", "J", "Q", "K", "JK"]
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]


class CardPointsIn(BaseModel):
    """Per-rank point overrides; ranks not listed keep the values of the point
    knobs (ace_points, pip_points, court_points, joker_points)."""

    model_config = _request_config({"hand": {"JK": 20}},
                                   {"hand": {"2": 5, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5,
                                             "8": 5, "9": 5, "T": 5}, "meld": {"A": 15},
                                    "ace_low": 1})

    hand: dict[RankKey, Points] | None = Field(
        default=None, description="points of a card left in hand, per rank (JK: printed joker)")
    meld: dict[RankKey, Points] | None = Field(
        default=None, description="points of a card melded (as itself; a wild card under "
                                  "wild_meld_value 'own'), per rank")
    ace_low: Points | None = Field(default=None,
                                   description="points of an ace melded low (A-2-3...)")


def _knob_type(knob: str, hint: Any) -> Any:
    """The wire type of a knob: its enum, integer range, list or table."""
    if knob == "requirements":
        base: Any = Annotated[list[RequirementIn], Field(max_length=MAX_REQUIREMENTS)]
    elif knob == "card_points":
        base = CardPointsIn
    elif knob in _KNOB_ENUMS:
        base = _KNOB_ENUMS[knob]
    elif knob in INT_BOUNDS:
        low, high = INT_BOUNDS[knob]
        base = Annotated[int, Field(ge=low, le=high)]
    else:
        base = bool
    return base | None if knob in NULLABLE else base


def _rules_override_fields() -> dict[str, Any]:
    hints = typing.get_type_hints(type(PRESETS["basic"]))
    fields: dict[str, Any] = {}
    for knob in KNOB_NAMES:
        if knob == "name":
            continue
        # default_factory keeps "default" out of the schema: an absent knob
        # means "the preset's value", not null.
        fields[knob] = (_knob_type(knob, hints[knob]),
                        Field(default_factory=lambda: None, description=KNOB_DOCS.get(knob)))
    for knob, doc in LEGACY_KNOBS.items():
        bounds = (0, MAX_POINTS) if knob == "opening_points" else (0, 10)
        fields[knob] = (Annotated[int, Field(ge=bounds[0], le=bounds[1])],
                        Field(default_factory=lambda: None, deprecated=True,
                              description=f"shorthand, kept for older clients: {doc}"))
    return fields


class _RulesBase(BaseModel):
    @model_validator(mode="before")
    @classmethod
    def _few_keys(cls, data: Any) -> Any:
        """Refuse a huge object before looking at each key (cheap, bounded errors)."""
        if isinstance(data, dict) and len(data) > len(KNOB_NAMES) + len(LEGACY_KNOBS):
            raise PydanticCustomError(
                "invalid_rules", "rules has {count} keys; there are only {knobs} knobs "
                "(GET /v1/variants)", {"count": len(data), "knobs": len(KNOB_NAMES) - 1})
        return data


if TYPE_CHECKING:

    class RulesOverride(BaseModel):
        """Knob overrides (static stand-in for the generated model)."""

        def __init__(self, **knobs: Any) -> None: ...

else:
    RulesOverride = create_model(
        "RulesOverride",
        __base__=_RulesBase,
        __config__=None,
        __doc__=(
            "Knob overrides applied on top of the variant's preset; every knob is optional "
            "and an absent knob keeps the preset's value (GET /v1/variants lists them all). "
            "Nullable knobs accept null explicitly (e.g. knock_limit: null = no knocking)."
        ),
        **_rules_override_fields(),
    )
    RulesOverride.model_config.update(ConfigDict(
        extra="forbid", strict=True,
        json_schema_extra={"examples": [
            {"knock_limit": 0}, {"ace": "wrap", "decks": 2},
            {"requirements": [{"kind": "run", "count": 2, "exact": True},
                              {"kind": "set", "count": 0, "exact": True}],
             "min_run_length": 4, "min_meld_points": 30}]}))
    RulesOverride.model_rebuild(force=True)


def rules_overrides(rules: RulesOverride | None) -> dict[str, Any] | None:
    """The knobs a request set explicitly (``None`` when it set none), as the
    library takes them (enum members as their values)."""
    if rules is None:
        return None
    data = rules.model_dump(exclude_unset=True, mode="json")
    if isinstance(data.get("card_points"), dict):
        data["card_points"] = {k: v for k, v in data["card_points"].items() if v is not None}
    return data or None


RULES_FIELD = Field(default=None, description="knob overrides (GET /v1/variants lists them)")
TIME_LIMIT_DOC = (
    f"the request's deadline in ms, counted from its arrival (queueing included; default and "
    f"most {_DEFAULTS.request_budget_ms}: RUMMY_SOLVER_REQUEST_BUDGET_MS); past it the answer "
    "is the best found, and says which parts are not proved"
)


# ---------------------------------------------------------------------------
# Requests


if TYPE_CHECKING:  # the enums are built from the presets at run time
    VariantIn = Any
    LayoffVariantIn = Any
    RoundVariantIn = Any
    EngineIn = Any
    RequirementKindOut = Any
else:
    VariantIn = choice_type(Variant, "variant", "unknown_variant")
    LayoffVariantIn = choice_type(LayoffVariant, "variant", "unknown_variant")
    RoundVariantIn = choice_type(RoundVariant, "variant", "unknown_variant")
    EngineIn = choice_type(Engine, "engine", "unknown_engine")
    RequirementKindOut = RequirementKind


class SolveRequest(OperationRequest):
    """One hand to split into melds and deadwood under a variant's rules."""

    model_config = _request_config(*REQUESTS["solve_hand"])

    variant: VariantIn
    hand: HandCards = Field(
        description=(
            "the cards, as a list of tokens or one space/comma separated string; "
            f"at most {_DEFAULTS.max_hand_cards} cards (RUMMY_SOLVER_MAX_HAND_CARDS)"
        ),
    )
    wild_rank: WildRank | None = Field(default=None, description=WILD_RANK_DOC)
    discard: bool = Field(
        default=False,
        description="the hand holds one card more than it keeps: also choose the best discard",
    )
    rules: RulesOverride | None = RULES_FIELD
    engine: EngineIn = Field(default=Engine("auto"), description=Engine.__doc__)
    time_limit_ms: SolveTimeLimit = Field(
        default=None,
        description=(
            "the solve's deadline in ms, counted from the request's arrival (at most "
            f"{_DEFAULTS.max_time_limit_ms}: RUMMY_SOLVER_MAX_TIME_LIMIT_MS; default "
            f"{_DEFAULTS.default_time_limit_ms}: RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS); past it the "
            "answer is the best arrangement found (optimal false, status feasible)"
        ),
    )


BatchItem = Annotated[Any, Field(json_schema_extra={"$ref": "#/components/schemas/SolveRequest"})]


def _within_batch_limit(items: list[Any], info: ValidationInfo) -> list[Any]:
    most = _settings(info).max_batch
    if len(items) > most:
        raise PydanticCustomError("batch_too_large",
                                  "batch has {count} requests; at most {most} are allowed",
                                  {"count": len(items), "most": most})
    return items


class BatchRequest(OperationRequest):
    """Several solve requests answered in one response, in order."""

    model_config = _request_config(*REQUESTS["solve_batch"])

    # Items are validated one by one in the solver process so that a bad item
    # becomes an error in its slot instead of failing the whole batch.
    requests: Annotated[list[BatchItem], AfterValidator(_within_batch_limit)] = Field(
        description=(
            f"at most {_DEFAULTS.max_batch} requests (RUMMY_SOLVER_MAX_BATCH); each item's "
            "time_limit_ms caps its own solve, and the batch as a whole has one deadline "
            "(time_limit_ms); items reached after it get a batch_budget_exceeded error"
        ),
    )
    time_limit_ms: PlayTimeLimit = Field(default=None, description=TIME_LIMIT_DOC)


def _declared_within_hand_limit(melds: list[list[str]], info: ValidationInfo) -> list[list[str]]:
    """Melds and deadwood together hold at most ``max_hand_cards`` cards."""
    most = _settings(info).max_hand_cards
    deadwood = info.data.get("deadwood") or []
    total = sum(len(meld) for meld in melds) + len(deadwood)
    if total > most:
        raise PydanticCustomError(
            "hand_too_large", "melds and deadwood hold {total} cards; at most {most} are allowed",
            {"total": total, "most": most})
    return melds


class ValidateRequest(OperationRequest):
    """A declared arrangement (melds + deadwood) to check and score."""

    model_config = _request_config(*REQUESTS["validate_hand"])

    variant: VariantIn
    wild_rank: WildRank | None = Field(default=None, description=WILD_RANK_DOC)
    rules: RulesOverride | None = RULES_FIELD
    # deadwood is read before melds: the melds' check counts both.
    deadwood: list[CardToken] = Field(default_factory=list, max_length=MAX_LIST,
                                      description="the cards kept outside the melds")
    melds: Annotated[list[Annotated[list[CardToken], Field(max_length=MAX_LIST)]],
                     AfterValidator(_declared_within_hand_limit)] = Field(
        max_length=MAX_LIST, description="the declared melds, each a list of cards")
    hand: HandCards | None = Field(
        default=None,
        description="the hand the declaration was made from (optional): its cards must match",
    )


# ---------------------------------------------------------------------------
# Responses


class MeldOut(BaseModel):
    """A meld: ``cards[i]`` is the physical card standing for ``represents[i]``."""

    model_config = _response_config(example("solve_hand", 0, "melds", 0))

    kind: MeldKind
    cards: list[str]
    represents: list[str] = Field(description="the card each physical card stands for")
    pure: bool = Field(description="no wild card stands in for another card")
    points: int = Field(description="points of the melded cards under the variant")


class GoOutOut(BaseModel):
    """The best arrangement melding every kept card (when the best-scoring one
    keeps cards back)."""

    model_config = _response_config(example("solve_hand", 2, "go_out"))

    melds: list[MeldOut]
    discard: str | None = Field(description="the card discarded with it (requests with discard)")
    meld_points: int
    net_points: int
    optimal: bool = Field(description="proved best among the arrangements that go out")


class SolveResponse(BaseModel):
    """The optimal arrangement of one hand (``solver.Solution``) plus timing."""

    model_config = _response_config(*example("solve_hand") or [])

    variant: VariantIn
    melds: list[MeldOut]
    deadwood: list[str] = Field(description="kept cards outside every meld")
    discard: str | None = Field(description="the card to discard (requests with discard: true)")
    deadwood_points: int = Field(
        description="points counting against the hand (Indian: the uncapped cascade count)"
    )
    meld_points: int
    net_points: int = Field(description="meld_points - deadwood_points")
    penalty_points: int = Field(description="what the hand pays (Indian: capped count)")
    declarable: bool = Field(
        description="a property of the hand: it may knock (gin), go out (basic, rummy500, rommy, "
                    "kalooki), show (Indian) or lay its contract down (contract)")
    can_open: bool | None = Field(
        description="under an opening (contract, kalooki, requirements or a threshold): the "
                    "melds can be laid down; null where the variant has none")
    go_out: GoOutOut | None = Field(
        description="when the best arrangement keeps cards back but another melds every kept "
                    "card: that one, with its points; else null")
    optimal: bool = Field(description="the engine proved optimality")
    engine: AnsweredBy = Field(description="the engine that produced the answer")
    status: SolveStatus = Field(
        description="optimal (proved); feasible (the deadline came first: the best arrangement "
                    "found); timeout (nothing found in time: every card kept); infeasible")
    elapsed_ms: float = Field(description="wall time spent in the solver, milliseconds")


class ErrorItem(BaseModel):
    """One error: what is wrong (``type``, a stable code), where (``loc``) and why
    (``msg``); the same item over HTTP, in a stream or bulk line (``loc`` under
    ``line``) and on the command line (``loc`` without prefix)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "invalid_card",
                    "loc": ["body", "requests", 1, "hand", 2],
                    "msg": "unknown card 'ZZ' at position 2: use rank A 2-9 T ...",
                }
            ]
        }
    )

    type: str = Field(description="stable machine-readable code, e.g. invalid_card")
    loc: list[str | int] = Field(description="path to the offending field and index")
    msg: str = Field(description="what is wrong and what is allowed")


class BatchItemError(BaseModel):
    """The slot of a batch item that could not be solved."""

    model_config = _response_config(example("solve_batch", 0, "results", 1))

    error: ErrorItem


class BatchResponse(BaseModel):
    """One result per request, in request order: a solution or an error."""

    model_config = _response_config(*example("solve_batch") or [])

    results: list[SolveResponse | BatchItemError]
    elapsed_ms: float = Field(description="wall time of the whole batch, milliseconds")


class ProblemOut(BaseModel):
    """One thing wrong with a declared arrangement."""

    model_config = _response_config(example("validate_hand", 1, "problems", 0))

    code: str = Field(description="stable machine-readable code of the problem (README lists "
                                  "them after the error codes; none is an error type)")
    message: str
    meld_index: int | None = Field(default=None, description="the declared meld concerned")
    card: str | None = Field(default=None, description="the card concerned")


class ValidateResponse(BaseModel):
    """Whether a declared arrangement is legal, why not, and what it scores."""

    model_config = _response_config(*example("validate_hand") or [])

    variant: VariantIn
    valid: bool = Field(description="every declared meld is a legal meld of the hand")
    declarable: bool = Field(description="the arrangement may be shown / knocked / gone out / "
                                         "laid down")
    problems: list[ProblemOut]
    melds: list[MeldOut | None] = Field(
        description="the reading of each declared meld (null where it is not a meld)"
    )
    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int
    elapsed_ms: float = Field(description="wall time spent checking, milliseconds")


class RequirementOut(BaseModel):
    """A requirement item of a preset."""

    model_config = _response_config({"kind": "set", "count": 2, "exact": True})

    kind: RequirementKindOut
    count: int
    exact: bool


class VariantInfo(BaseModel):
    """A rule preset: every knob with its value in the preset."""

    model_config = _response_config({"name": "contract",
                                     "knobs": PRESETS["contract"].to_dict(),
                                     "requirements": [r.to_dict() for r in
                                                      PRESETS["contract"].requirements]})

    name: VariantIn
    knobs: dict[str, Any] = Field(description="knob -> value in this preset (requirements as "
                                              "a list of {kind, count, exact})")
    requirements: list[RequirementOut] = Field(
        description="what the melds laid down must contain (empty: nothing)")


class VariantList(BaseModel):
    """Every preset, plus what each knob means."""

    model_config = _response_config({
        "variants": [{"name": "gin", "knobs": PRESETS["gin"].to_dict(), "requirements": []}],
        "knob_docs": {"knock_limit": KNOB_DOCS["knock_limit"]},
    })

    variants: list[VariantInfo]
    knob_docs: dict[str, str] = Field(description="knob -> description")


class HealthResponse(BaseModel):
    """Liveness: the process answers HTTP."""

    model_config = _response_config({"status": "ok"})

    status: Literal["ok"] = "ok"


class ReadyResponse(BaseModel):
    """Readiness: a small hand was solved correctly just now, by a solver process
    (and, with API keys counted in Redis, whether Redis answers)."""

    model_config = _response_config({"status": "ready", "elapsed_ms": 0.9, "redis": None})

    status: Literal["ready"] = "ready"
    elapsed_ms: float
    redis: Literal["ok", "unreachable"] | None = Field(default=None, description=(
        "with API keys and RUMMY_SOLVER_REDIS_URL: whether Redis took a count just now, as a "
        "keyed request's check does (a full or read-only Redis answers PING but is unreachable "
        "here). "
        "unreachable: keyed requests go on uncounted (RUMMY_SOLVER_RATE_LIMIT_FAIL=open; under "
        "closed /readyz answers 503 instead); null without Redis"))


class VersionResponse(BaseModel):
    """What is running."""

    model_config = _response_config({"package": "rummy-solver", "version": "0.2.0",
                                     "ortools": "9.15.6755", "python": "3.11.7"})

    package: str
    version: str = Field(description="the rummy-solver package version")
    ortools: str
    python: str


class ErrorResponse(BaseModel):
    """Every error answer: a list of error items (the shape of FastAPI's 422)."""

    model_config = _response_config(
        {"detail": [{"type": "invalid_card", "loc": ["body", "hand", 3],
                     "msg": "unknown card 'ZZ' at position 3: use rank A 2-9 T ..."}]})

    detail: list[ErrorItem]
