"""The OpenAPI document: FastAPI's, plus each operation's request schema.

The operation routes read their bodies themselves (``api.server.routes.operations``),
so FastAPI does not see the request models; their schemas are generated here
from the same models, in validation mode, next to the response schemas.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from api.shared.operations import OPERATIONS

REF_TEMPLATE = "#/components/schemas/{model}"

SECURITY_SCHEMES: dict[str, Any] = {
    # "(api.keys)" names the module as it was when /v1 was published (it is
    # api.server.keys now): openapi.json stays byte for byte what it was.
    "BearerKey": {"type": "http", "scheme": "bearer",
                  "description": "an API key as 'Authorization: Bearer KEY' (api.keys)"},
    "ApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                     "description": "an API key as 'X-API-Key: KEY'"},
}
"""How a request carries an API key.  Keys are needed only when the service
has some (RUMMY_SOLVER_API_KEYS or RUMMY_SOLVER_API_KEYS_FILE), so the
document's ``security`` lists them as alternatives next to ``{}`` (none); it
is the document's, not each operation's, so generated clients work with and
without a key."""


REQUEST_ID_HEADER: dict[str, Any] = {
    "description": "the request's id, under which the service logs it: the X-Request-ID the "
                   "request sent (letters, digits and ._:-, up to 128 characters), or a fresh "
                   "one (32 hex digits)",
    "schema": {"type": "string"}}
"""``X-Request-ID``, which every answer carries (``api.server.middleware``)."""


def document_request_id(document: dict[str, Any]) -> None:
    """List ``X-Request-ID`` among the headers of every response of ``document``."""
    document.setdefault("components", {})["headers"] = {"X-Request-ID": REQUEST_ID_HEADER}
    for item in document.get("paths", {}).values():
        for operation in item.values():
            for response in operation.get("responses", {}).values():
                response.setdefault("headers", {})["X-Request-ID"] = {
                    "$ref": "#/components/headers/X-Request-ID"}


def request_schemas() -> dict[str, Any]:
    """The JSON schemas of every operation's request model and what they refer to."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (op.request, "validation") for op in OPERATIONS.values()]
    _, document = models_json_schema(models, ref_template=REF_TEMPLATE)
    definitions: dict[str, Any] = document.get("$defs", {})
    return definitions


def _models(base: type[BaseModel] = BaseModel) -> list[type[BaseModel]]:
    """Every model of this package (``api.``), subclasses of subclasses too."""
    found: list[type[BaseModel]] = []
    for model in base.__subclasses__():
        if model.__module__.startswith("api."):
            found.append(model)
        found.extend(_models(model))
    return found


def restore_example_nulls(schemas: dict[str, Any]) -> None:
    """Put back the nulls of the models' examples: FastAPI's ``get_openapi``
    drops every null of the document (``exclude_none``), those inside the
    examples too, so an answer's example lost its ``"discard": null`` and no
    longer matched its own schema, where the field is required."""
    for model in _models():
        schema = schemas.get(model.__name__)
        if schema is not None and "examples" in schema:
            examples = model.model_json_schema(ref_template=REF_TEMPLATE).get("examples")
            if examples is not None:
                schema["examples"] = examples


def install_openapi(app: FastAPI) -> None:
    """Make ``app.openapi()`` include the request schemas (built once, then cached)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title, version=app.version, openapi_version=app.openapi_version,
                description=app.description, routes=app.routes, tags=app.openapi_tags)
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            restore_example_nulls(schemas)
            for name, schema in request_schemas().items():
                schemas.setdefault(name, schema)
            document["components"]["securitySchemes"] = SECURITY_SCHEMES
            document_request_id(document)
            document["security"] = [{}, {"BearerKey": []}, {"ApiKeyHeader": []}]
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
