"""Every example openapi.json shows is valid under the schema it is shown for."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # dev: check-jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from api.server.main import create_app
from api.shared.settings import Settings


def _document() -> dict[str, Any]:
    document: dict[str, Any] = create_app(Settings.model_construct()).openapi()
    return document


DOCUMENT = _document()
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
REGISTRY: Registry[Any] = Registry().with_resource(
    "urn:openapi", Resource.from_contents(DOCUMENT, default_specification=DRAFT202012))


@pytest.mark.parametrize("name", sorted(name for name, schema in SCHEMAS.items()
                                        if schema.get("examples")))
def test_component_examples_match_their_schema(name: str) -> None:
    # FastAPI's get_openapi drops every null of the document, the examples'
    # too: an answer's example then lacked its required "discard": null.
    validator = Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"},
                                     registry=REGISTRY)
    for index, example in enumerate(SCHEMAS[name]["examples"]):
        errors = [f"{list(error.absolute_path)}: {error.message[:200]}"
                  for error in validator.iter_errors(example)]
        assert not errors, f"{name} example {index}: {errors[:3]}"


def test_an_answer_example_shows_its_null_fields() -> None:
    example = SCHEMAS["SolveResponse"]["examples"][0]
    assert example["discard"] is None
    assert example["go_out"] is None
