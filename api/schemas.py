"""Request and response models of the HTTP API (pydantic v2), with examples.

Requests are strict (``"1"`` is not an integer, ``1`` is not a boolean) and
reject unknown fields, so a typo in a field or knob name is a 422 rather than
silently ignored.  Responses mirror ``Solution.to_dict()`` and
``ValidationReport.to_dict()`` of the library.

Nothing here knows a game rule: the variant names, engines and knobs are read
from ``solver`` so the schema follows the library.
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
    create_model,
)
from pydantic_core import PydanticCustomError

from api.settings import Settings
from solver import ENGINES, PRESETS, Rules
from solver.model import MeldKind, Status
from solver.rules import KNOB_DOCS

_DEFAULTS = Settings()
"""Documented limits are the defaults, so the OpenAPI document does not depend
on the environment of the process that generates it."""

# ---------------------------------------------------------------------------
# Field types


CardToken = Annotated[
    str,
    StringConstraints(max_length=16),
    Field(description="a card: rank A 2-9 T (or 10) J Q K + suit S H D C (or ♠♥♦♣), or JK"),
]


def _split_hand(value: object) -> object:
    """Accept ``"AS 2S,3S"`` as well as ``["AS", "2S", "3S"]``."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    return value


HandCards = Annotated[
    list[CardToken],
    BeforeValidator(
        _split_hand,
        json_schema_input_type=list[CardToken] | Annotated[str, StringConstraints(max_length=400)],
    ),
]


def _check_variant(value: str) -> str:
    if value not in PRESETS:
        raise PydanticCustomError(
            "unknown_variant",
            "unknown variant {variant}; choose one of {choices}",
            {"variant": repr(value), "choices": ", ".join(PRESETS)},
        )
    return value


VariantName = Annotated[
    str,
    AfterValidator(_check_variant),
    WithJsonSchema(
        {"type": "string", "enum": list(PRESETS), "description": "rule preset (see /v1/variants)"}
    ),
]


def _check_engine(value: str) -> str:
    if value not in ENGINES:
        raise PydanticCustomError(
            "unknown_engine",
            "unknown engine {engine}; choose one of {choices}",
            {"engine": repr(value), "choices": ", ".join(ENGINES)},
        )
    return value


EngineName = Annotated[
    str,
    AfterValidator(_check_engine),
    WithJsonSchema(
        {
            "type": "string",
            "enum": list(ENGINES),
            "default": "auto",
            "description": "auto picks the engine; search = exact search, cpsat = OR-Tools CP-SAT",
        }
    ),
]

WildRank = Annotated[
    str,
    StringConstraints(max_length=16),
    Field(
        description=(
            "the cut card of an Indian deal: a rank ('7'), a full card ('7H': needed by "
            "indian21 for the upper/lower jokers) or 'JK' when a printed joker was cut; "
            "only for variants with a cut joker"
        ),
    ),
]

_REQUEST_CONFIG = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------
# Rules overrides: one optional field per knob of ``solver.Rules``


def _rules_override_fields() -> dict[str, Any]:
    hints = typing.get_type_hints(Rules)
    fields: dict[str, Any] = {}
    for knob, hint in hints.items():
        if knob == "name":
            continue
        # default_factory keeps "default" out of the schema: an absent knob
        # means "the preset's value", not null.
        fields[knob] = (hint, Field(default_factory=lambda: None, description=KNOB_DOCS.get(knob)))
    return fields


if TYPE_CHECKING:

    class RulesOverride(BaseModel):
        """Knob overrides (static stand-in for the generated model)."""

        def __init__(self, **knobs: Any) -> None: ...

else:
    RulesOverride = create_model(
        "RulesOverride",
        __config__=ConfigDict(
            extra="forbid",
            strict=True,
            json_schema_extra={"examples": [{"knock_limit": 0}, {"ace": "wrap", "decks": 2}]},
        ),
        __doc__=(
            "Knob overrides applied on top of the variant's preset; every knob is optional "
            "and an absent knob keeps the preset's value (GET /v1/variants lists them all). "
            "Nullable knobs accept null explicitly (e.g. knock_limit: null = no knocking)."
        ),
        **_rules_override_fields(),
    )


def rules_overrides(rules: RulesOverride | None) -> dict[str, Any] | None:
    """The knobs a request set explicitly (``None`` when it set none)."""
    if rules is None:
        return None
    return rules.model_dump(exclude_unset=True) or None


# ---------------------------------------------------------------------------
# Requests


class SolveRequest(BaseModel):
    """One hand to split into melds and deadwood under a variant's rules."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"variant": "gin", "hand": ["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S"]},
                {
                    "variant": "indian13",
                    "wild_rank": "9",
                    "hand": "AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D",
                },
                {
                    "variant": "gin",
                    "hand": "AS 2S 3S 4S 7H 7D 7C KD QH 4C 9S",
                    "discard": True,
                    "rules": {"knock_limit": 10},
                    "engine": "auto",
                    "time_limit_ms": 500,
                },
            ]
        },
    )

    variant: VariantName
    hand: HandCards = Field(
        description=(
            "the cards, as a list of tokens or one space/comma separated string; "
            f"at most {_DEFAULTS.max_hand_cards} cards (RUMMY_SOLVER_MAX_HAND_CARDS)"
        ),
    )
    wild_rank: WildRank | None = None
    discard: bool = Field(
        default=False,
        description="the hand holds one card more than it keeps: also choose the best discard",
    )
    rules: RulesOverride | None = Field(default=None, description="knob overrides")
    engine: EngineName = "auto"
    time_limit_ms: int | None = Field(
        default=None,
        ge=1,
        description=(
            "solver time limit; at most "
            f"{_DEFAULTS.max_time_limit_ms} (RUMMY_SOLVER_MAX_TIME_LIMIT_MS), default "
            f"{_DEFAULTS.default_time_limit_ms} (RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS)"
        ),
    )


class BatchRequest(BaseModel):
    """Several solve requests answered in one response, in order."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "requests": [
                        {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"},
                        {"variant": "gin", "hand": "AS 2S ZZ"},
                    ]
                }
            ]
        },
    )

    # Items are validated one by one in the handler so that a bad item becomes
    # an error in its slot instead of failing the whole batch.
    requests: list[Annotated[Any, WithJsonSchema({"$ref": "#/components/schemas/SolveRequest"})]] = Field(
        description=(
            f"at most {_DEFAULTS.max_batch} requests (RUMMY_SOLVER_MAX_BATCH); the batch as a "
            f"whole may spend {_DEFAULTS.batch_budget_ms} ms solving "
            "(RUMMY_SOLVER_BATCH_BUDGET_MS), later items get a batch_budget_exceeded error"
        ),
    )


class ValidateRequest(BaseModel):
    """A declared arrangement (melds + deadwood) to check and score."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "variant": "indian13",
                    "wild_rank": "9",
                    "melds": [
                        ["AH", "2H", "3H"],
                        ["4S", "5S", "9D", "7S"],
                        ["KC", "KD", "KS"],
                        ["5D", "6D", "7D"],
                    ],
                    "deadwood": [],
                },
                {
                    "variant": "gin",
                    "melds": [["AS", "2S", "4S"], ["7H", "7D", "7S"]],
                    "deadwood": ["KD", "QH", "4C", "9S"],
                },
            ]
        },
    )

    variant: VariantName
    wild_rank: WildRank | None = None
    rules: RulesOverride | None = Field(default=None, description="knob overrides")
    melds: list[list[CardToken]] = Field(description="the declared melds, each a list of cards")
    deadwood: list[CardToken] = Field(default_factory=list, description="the cards kept outside the melds")
    hand: HandCards | None = Field(
        default=None,
        description="the hand the declaration was made from (optional): its cards must match",
    )


# ---------------------------------------------------------------------------
# Responses

_MELD_EXAMPLE: dict[str, Any] = {
    "kind": "run",
    "cards": ["AS", "2S", "3S"],
    "represents": ["AS", "2S", "3S"],
    "pure": True,
    "points": 6,
}


class MeldOut(BaseModel):
    """A meld: ``cards[i]`` is the physical card standing for ``represents[i]``."""

    model_config = ConfigDict(json_schema_extra={"examples": [_MELD_EXAMPLE]})

    kind: MeldKind
    cards: list[str]
    represents: list[str] = Field(description="the card each physical card stands for")
    pure: bool = Field(description="no wild card stands in for another card")
    points: int = Field(description="points of the melded cards under the variant")


_SOLUTION_EXAMPLE: dict[str, Any] = {
    "variant": "gin",
    "melds": [
        _MELD_EXAMPLE,
        {
            "kind": "set",
            "cards": ["7H", "7D", "7C"],
            "represents": ["7H", "7D", "7C"],
            "pure": False,
            "points": 21,
        },
    ],
    "deadwood": ["9S", "QH", "KD", "4C"],
    "discard": None,
    "deadwood_points": 33,
    "meld_points": 27,
    "net_points": -6,
    "penalty_points": 33,
    "declarable": False,
    "optimal": True,
    "engine": "search",
    "status": "optimal",
    "elapsed_ms": 0.84,
}


class SolveResponse(BaseModel):
    """The optimal arrangement of one hand (``solver.Solution``) plus timing."""

    model_config = ConfigDict(json_schema_extra={"examples": [_SOLUTION_EXAMPLE]})

    variant: str
    melds: list[MeldOut]
    deadwood: list[str] = Field(description="kept cards outside every meld")
    discard: str | None = Field(description="the card to discard (requests with discard: true)")
    deadwood_points: int = Field(
        description="points counting against the hand (Indian: the uncapped cascade count)"
    )
    meld_points: int
    net_points: int = Field(description="meld_points - deadwood_points")
    penalty_points: int = Field(description="what the hand pays (Indian: capped count)")
    declarable: bool = Field(description="the hand may knock / go out / declare")
    optimal: bool = Field(description="the engine proved optimality")
    engine: str = Field(description="the engine that produced the answer")
    status: Status
    elapsed_ms: float = Field(description="wall time spent in the solver, milliseconds")


class ErrorItem(BaseModel):
    """One error, in the shape of FastAPI's validation errors."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "invalid_card",
                    "msg": "unknown card 'ZZ' at position 2: use rank A 2-9 T ...",
                    "loc": ["body", "requests", 1, "hand", 2],
                }
            ]
        }
    )

    type: str = Field(description="stable machine-readable code, e.g. invalid_card")
    msg: str
    loc: list[str | int] = Field(description="path to the offending field and index")


class BatchItemError(BaseModel):
    """The slot of a batch item that could not be solved."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "error": {
                        "type": "invalid_card",
                        "msg": "unknown card 'ZZ' at position 2: use rank A 2-9 T ...",
                        "loc": ["body", "requests", 1, "hand", 2],
                    }
                }
            ]
        }
    )

    error: ErrorItem


class BatchResponse(BaseModel):
    """One result per request, in request order: a solution or an error."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "results": [
                        _SOLUTION_EXAMPLE,
                        {
                            "error": {
                                "type": "invalid_card",
                                "msg": "unknown card 'ZZ' at position 2: use rank A 2-9 T ...",
                                "loc": ["body", "requests", 1, "hand", 2],
                            }
                        },
                    ],
                    "elapsed_ms": 1.7,
                }
            ]
        }
    )

    results: list[SolveResponse | BatchItemError]
    elapsed_ms: float = Field(description="wall time of the whole batch, milliseconds")


_PROBLEM_EXAMPLE: dict[str, Any] = {
    "code": "not_consecutive",
    "message": "meld 0 (AS 2S 4S): AS 2S 4S are not consecutive: 3 card(s) cannot cover "
    "the ranks between them",
    "meld_index": 0,
    "card": "4S",
}


class ProblemOut(BaseModel):
    """One thing wrong with a declared arrangement."""

    model_config = ConfigDict(json_schema_extra={"examples": [_PROBLEM_EXAMPLE]})

    code: str = Field(description="stable machine-readable code")
    message: str
    meld_index: int | None = Field(default=None, description="the declared meld concerned")
    card: str | None = Field(default=None, description="the card concerned")


class ValidateResponse(BaseModel):
    """Whether a declared arrangement is legal, why not, and what it scores."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "variant": "indian13",
                    "valid": True,
                    "declarable": True,
                    "problems": [],
                    "melds": [
                        {
                            "kind": "run",
                            "cards": ["AH", "2H", "3H"],
                            "represents": ["AH", "2H", "3H"],
                            "pure": True,
                            "points": 15,
                        },
                        {
                            "kind": "run",
                            "cards": ["4S", "5S", "9D", "7S"],
                            "represents": ["4S", "5S", "6S", "7S"],
                            "pure": False,
                            "points": 16,
                        },
                        {
                            "kind": "set",
                            "cards": ["KS", "KD", "KC"],
                            "represents": ["KS", "KD", "KC"],
                            "pure": False,
                            "points": 30,
                        },
                        {
                            "kind": "run",
                            "cards": ["5D", "6D", "7D"],
                            "represents": ["5D", "6D", "7D"],
                            "pure": True,
                            "points": 18,
                        },
                    ],
                    "deadwood_points": 0,
                    "meld_points": 79,
                    "net_points": 79,
                    "penalty_points": 0,
                },
                {
                    "variant": "gin",
                    "valid": False,
                    "declarable": False,
                    "problems": [_PROBLEM_EXAMPLE],
                    "melds": [
                        None,
                        {
                            "kind": "set",
                            "cards": ["7S", "7H", "7D"],
                            "represents": ["7S", "7H", "7D"],
                            "pure": False,
                            "points": 21,
                        },
                    ],
                    "deadwood_points": 40,
                    "meld_points": 21,
                    "net_points": -19,
                    "penalty_points": 40,
                },
            ]
        }
    )

    variant: str
    valid: bool = Field(description="every declared meld is a legal meld of the hand")
    declarable: bool = Field(description="the arrangement may be shown / knocked / gone out")
    problems: list[ProblemOut]
    melds: list[MeldOut | None] = Field(
        description="the reading of each declared meld (null where it is not a meld)"
    )
    deadwood_points: int
    meld_points: int
    net_points: int
    penalty_points: int


class VariantInfo(BaseModel):
    """A rule preset: every knob with its value in the preset."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"name": "gin", "knobs": PRESETS["gin"].to_dict()}]}
    )

    name: str
    knobs: dict[str, Any] = Field(description="knob -> value in this preset")


class VariantList(BaseModel):
    """Every preset, plus what each knob means."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "variants": [{"name": "gin", "knobs": PRESETS["gin"].to_dict()}],
                    "knob_docs": {"knock_limit": KNOB_DOCS["knock_limit"]},
                }
            ]
        }
    )

    variants: list[VariantInfo]
    knob_docs: dict[str, str] = Field(description="knob -> description")


class HealthResponse(BaseModel):
    """Liveness: the process answers HTTP."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ok"}]})

    status: Literal["ok"] = "ok"


class ReadyResponse(BaseModel):
    """Readiness: a small hand was solved correctly just now."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ready", "elapsed_ms": 0.9}]})

    status: Literal["ready"] = "ready"
    elapsed_ms: float


class NotReadyResponse(BaseModel):
    """Readiness failed: the self-check solve raised or answered wrongly."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"status": "not_ready", "detail": "self-check solve failed"}]}
    )

    status: Literal["not_ready"] = "not_ready"
    detail: str


class MessageResponse(BaseModel):
    """An error that concerns the request as a whole (404, 413, 503)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"detail": "request body is 2000000 bytes; the limit is 1000000"}]}
    )

    detail: str


class ValidationErrorResponse(BaseModel):
    """422: FastAPI's validation error shape, also used for domain errors."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "detail": [
                        {
                            "loc": ["body", "hand", 3],
                            "msg": "unknown card 'ZZ' at position 3: use rank A 2-9 T ...",
                            "type": "invalid_card",
                        }
                    ]
                }
            ]
        }
    )

    detail: list[ErrorItem]
