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


DEPRECATION_HEADERS: dict[str, Any] = {
    "Deprecation": {
        "description": "only when the request used a deprecated field (marked deprecated in "
                       "its schema): the date the deprecation took effect, an RFC 9745 "
                       "Structured Field Date such as @1795996800",
        "schema": {"type": "string"}},
    "Link": {
        "description": "with Deprecation: where the notes are, "
                     "</docs>; rel=\"deprecation\"; type=\"text/html\"",
        "schema": {"type": "string"}},
}
"""The headers of an answer to a request that used a deprecated field
(``api.shared.deprecation``): its 200, and a 422 of the solver."""


def _reaches_deprecated(schema: Any, schemas: dict[str, Any], seen: set[str]) -> bool:
    """Whether ``schema``, or a schema it refers to, has a deprecated property."""
    if isinstance(schema, list):
        return any(_reaches_deprecated(item, schemas, seen) for item in schema)
    if not isinstance(schema, dict):
        return False
    if schema.get("deprecated") is True:
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(REF_TEMPLATE.format(model="")):
        name = ref.rpartition("/")[2]
        if name in seen:
            return False
        seen.add(name)
        return _reaches_deprecated(schemas.get(name), schemas, seen)
    return any(_reaches_deprecated(value, schemas, seen)
               for key, value in schema.items() if key not in ("examples", "default"))


def document_deprecation(document: dict[str, Any]) -> None:
    """List ``Deprecation`` and ``Link`` on the 200 and 422 of every operation
    whose JSON request can hold a deprecated field."""
    schemas = document.get("components", {}).get("schemas", {})
    headers = document.setdefault("components", {}).setdefault("headers", {})
    used = False
    for item in document.get("paths", {}).values():
        for operation in item.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None or not _reaches_deprecated(body.get("schema"), schemas, set()):
                continue
            used = True
            for status in ("200", "422"):
                response = operation["responses"].get(status)
                if response is not None:
                    response.setdefault("headers", {}).update(
                        {name: {"$ref": f"#/components/headers/{name}"}
                         for name in DEPRECATION_HEADERS})
    if used:
        headers.update(DEPRECATION_HEADERS)


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
            document_deprecation(document)
            document["security"] = [{}, {"BearerKey": []}, {"ApiKeyHeader": []}]
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
