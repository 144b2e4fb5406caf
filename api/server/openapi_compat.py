"""Backward-incompatible changes between two OpenAPI 3.x documents of the service.

``breaking_changes(old, new)`` lists every way a client written against
``old`` could break against ``new`` (docs/API_STABILITY.md); an empty list
means ``new`` only adds.  ``python -m api.server.openapi_compat OLD NEW`` prints them
and exits 1 when there are any.

What counts, by where a schema is used:

* anything removed or renamed: a path, an operation, an ``operationId``, a
  parameter, a request or response media type, a response status or header,
  a component schema, an object property, an enum value;
* in a request (what clients send): a newly required field or parameter, a
  type that accepts less (a union branch or ``integer``/``number`` dropped, an
  enum or pattern added, a bound tightened: ``maximum``, ``maxLength``,
  ``minItems`` ...), unknown properties no longer allowed, a changed default;
* in a response (what clients read): a required field that may now be
  missing, a type that may now be something it never was (``null`` among
  them), an enum turned into a free value.

Adding is fine: new paths, operations, optional request fields, response
fields, enum values (in responses too: clients must accept values they do
not know).  Descriptions, titles and examples are ignored.  Written here
because no maintained OpenAPI 3.1 breaking-change detector is packaged for
PyPI (oasdiff is a Go binary, openapi-diff an npm package for OpenAPI 3.0).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Spec = Mapping[str, Any]
Schema = Mapping[str, Any]
Direction = Literal["request", "response"]

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_VERSIONED_PATH = re.compile(r"^/v(\d+)(/|$)")


@dataclass(frozen=True, slots=True)
class BreakingChange:
    """One backward-incompatible change: where it is and what changed."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def api_majors(spec: Spec) -> set[int]:
    """The major versions the document serves, from its ``/vN/...`` paths.

    >>> sorted(api_majors({"paths": {"/v1/solve": {}, "/v2/solve": {}, "/healthz": {}}}))
    [1, 2]
    """
    return {int(m.group(1)) for path in spec.get("paths", {})
            if (m := _VERSIONED_PATH.match(path)) is not None}


def breaking_changes(old: Spec, new: Spec) -> list[BreakingChange]:
    """Every change from ``old`` to ``new`` that can break a client of ``old``.

    >>> old = {"paths": {"/v1/a": {"get": {"operationId": "a", "responses": {}}}}}
    >>> [str(c) for c in breaking_changes(old, {"paths": {}})]
    ['/v1/a: path removed']
    >>> breaking_changes(old, {"paths": {**old["paths"], "/v1/b": {}}})
    []
    """
    return _Comparison(old, new).run()


class _Comparison:
    """One walk over ``old``: each operation, then each schema it reaches, per direction."""

    def __init__(self, old: Spec, new: Spec) -> None:
        self.old, self.new = old, new
        self.found: list[BreakingChange] = []
        self._compared: set[tuple[str, str, Direction]] = set()

    def run(self) -> list[BreakingChange]:
        self._components()
        new_paths = self.new.get("paths", {})
        for path, old_item in self.old.get("paths", {}).items():
            if path not in new_paths:
                self._add(path, "path removed")
                continue
            new_item = new_paths[path]
            for method in HTTP_METHODS:
                if method in old_item:
                    where = f"{method.upper()} {path}"
                    if method not in new_item:
                        self._add(where, "operation removed")
                        continue
                    self._operation(where, old_item, new_item, method)
        return self.found

    def _add(self, where: str, what: str) -> None:
        self.found.append(BreakingChange(where, what))

    def _components(self) -> None:
        new_components = self.new.get("components", {})
        for section, old_entries in self.old.get("components", {}).items():
            for name in old_entries:
                if name not in new_components.get(section, {}):
                    self._add(f"components.{section}.{name}", "removed or renamed")

    # -- operations --------------------------------------------------------

    def _operation(self, where: str, old_item: Schema, new_item: Schema, method: str) -> None:
        old_op, new_op = old_item[method], new_item[method]
        old_id, new_id = old_op.get("operationId"), new_op.get("operationId")
        if old_id is not None and new_id != old_id:
            self._add(where, f"operationId {old_id!r} renamed to {new_id!r} "
                             "(generated clients call it by name)")
        self._parameters(where, _parameters(old_item, old_op), _parameters(new_item, new_op))
        self._request_body(where, old_op.get("requestBody"), new_op.get("requestBody"))
        self._responses(where, old_op.get("responses", {}), new_op.get("responses", {}))

    def _parameters(self, where: str, old: dict[tuple[str, str], Schema],
                    new: dict[tuple[str, str], Schema]) -> None:
        for key, old_param in old.items():
            label = f"{where} {key[0]} parameter {key[1]!r}"
            if key not in new:
                self._add(label, "removed or renamed")
                continue
            if new[key].get("required") and not old_param.get("required"):
                self._add(label, "now required")
            self._schema(label, old_param.get("schema", {}), new[key].get("schema", {}), "request")
        for key, new_param in new.items():
            if key not in old and new_param.get("required"):
                self._add(f"{where} {key[0]} parameter {key[1]!r}", "new required parameter")

    def _request_body(self, where: str, old: Schema | None, new: Schema | None) -> None:
        label = f"{where} request body"
        if old is None:
            if new is not None and new.get("required"):
                self._add(label, "a body is now required")
            return
        if new is None:
            self._add(label, "removed")
            return
        if new.get("required") and not old.get("required"):
            self._add(label, "now required")
        self._content(label, old.get("content", {}), new.get("content", {}), "request")

    def _responses(self, where: str, old: Schema, new: Schema) -> None:
        for status, old_response in old.items():
            label = f"{where} response {status}"
            if status not in new:
                self._add(label, "removed")
                continue
            new_response = new[status]
            for header in old_response.get("headers", {}):
                if header not in new_response.get("headers", {}):
                    self._add(f"{label} header {header!r}", "removed")
            self._content(label, old_response.get("content", {}), new_response.get("content", {}),
                          "response")

    def _content(self, where: str, old: Schema, new: Schema, direction: Direction) -> None:
        for media_type, old_media in old.items():
            if media_type not in new:
                self._add(f"{where} {media_type}", "media type removed")
                continue
            self._schema(f"{where} {media_type}", old_media.get("schema", {}),
                         new[media_type].get("schema", {}), direction)

    # -- schemas -----------------------------------------------------------

    def _schema(self, where: str, old: Schema, new: Schema, direction: Direction) -> None:
        """Compare two schemas used in ``direction``, union branches matched by the type they take."""
        if direction == "request" and "default" in old and "default" in new \
                and old["default"] != new["default"]:
            self._add(where, f"default changed from {old['default']!r} to {new['default']!r} "
                             "(a request that leaves it out now asks something else)")
        old_branches, new_branches = _branches(old, self.old), _branches(new, self.new)
        if direction == "request":
            for old_branch in old_branches:
                match = self._match(old_branch, new_branches, self.old, self.new)
                if match is None:
                    self._add(where, f"no longer accepts {self._kind_name(old_branch, self.old)} "
                                     "(type narrowed)")
                else:
                    self._single(where, old_branch, match, direction)
        else:
            for new_branch in new_branches:
                match = self._match(new_branch, old_branches, self.new, self.old)
                if match is None:
                    self._add(where, f"may now be {self._kind_name(new_branch, self.new)}, "
                                     "which it never was (type widened)")
                else:
                    self._single(where, match, new_branch, direction)

    def _match(self, branch: Schema, candidates: Sequence[Schema], spec: Spec,
               candidate_spec: Spec) -> Schema | None:
        """The candidate that takes every value ``branch`` takes: the same component
        first, then the same type, then a wider one (``number`` for ``integer``, any)."""
        kind = _kind(branch, spec)
        ranked: list[tuple[int, int, Schema]] = []
        for index, candidate in enumerate(candidates):
            candidate_kind = _kind(candidate, candidate_spec)
            if "$ref" in branch and candidate.get("$ref") == branch["$ref"]:
                rank = 0
            elif candidate_kind == kind:
                rank = 1
            elif candidate_kind == "number" and kind == "integer":
                rank = 2
            elif candidate_kind == "any":
                rank = 3
            else:
                continue
            ranked.append((rank, index, candidate))
        return min(ranked, key=lambda item: item[:2])[2] if ranked else None

    def _kind_name(self, branch: Schema, spec: Spec) -> str:
        kind = _kind(branch, spec)
        return f"{kind} ({_ref_name(branch['$ref'])})" if "$ref" in branch else kind

    def _single(self, where: str, old: Schema, new: Schema, direction: Direction) -> None:
        """Compare one branch with its match, following references once per pair."""
        if "$ref" in old or "$ref" in new:
            old_name = _ref_name(old["$ref"]) if "$ref" in old else where
            new_name = _ref_name(new["$ref"]) if "$ref" in new else where
            key = (old_name, new_name, direction)
            if key in self._compared:
                return
            self._compared.add(key)
            if "$ref" in new and "$ref" in old:
                where = f"{direction} schema {new_name}"
            old, new = _resolve(old, self.old), _resolve(new, self.new)
            self._schema(where, old, new, direction)
            return
        if _kind(new, self.new) == "any":
            return
        self._enum(where, old, new, direction)
        if direction == "request":
            self._bounds(where, old, new)
        self._properties(where, old, new, direction)
        if "items" in old or "items" in new:
            self._schema(f"{where}[]", old.get("items", {}), new.get("items", {}), direction)

    def _enum(self, where: str, old: Schema, new: Schema, direction: Direction) -> None:
        old_values, new_values = _enum_values(old), _enum_values(new)
        if old_values is not None and new_values is not None:
            removed = [v for v in old_values if v not in new_values]
            if removed:
                self._add(where, f"enum values removed: {_show(removed)}")
        elif old_values is None and new_values is not None and direction == "request":
            self._add(where, f"now limited to {_show(new_values)}")
        elif old_values is not None and new_values is None and direction == "response":
            self._add(where, f"was one of {_show(old_values)}, may now be any value")

    def _bounds(self, where: str, old: Schema, new: Schema) -> None:
        for keyword in UPPER_BOUNDS:
            if keyword in new and (keyword not in old or new[keyword] < old[keyword]):
                self._add(where, f"{keyword} lowered to {new[keyword]} (was {old.get(keyword, 'none')})")
        for keyword in LOWER_BOUNDS:
            if keyword in new and (keyword not in old or new[keyword] > old[keyword]):
                self._add(where, f"{keyword} raised to {new[keyword]} (was {old.get(keyword, 'none')})")
        for keyword in ("pattern", "format"):
            if keyword in new and new[keyword] != old.get(keyword):
                self._add(where, f"{keyword} changed to {new[keyword]!r} (was {old.get(keyword)!r})")

    def _properties(self, where: str, old: Schema, new: Schema, direction: Direction) -> None:
        old_props, new_props = old.get("properties", {}), new.get("properties", {})
        old_required, new_required = set(old.get("required", ())), set(new.get("required", ()))
        for name in old_props:
            if name not in new_props:
                self._add(f"{where}.{name}", "property removed or renamed")
        if direction == "request":
            for name in sorted(new_required - old_required):
                self._add(f"{where}.{name}", "now required in requests")
            if new.get("additionalProperties") is False and old.get("additionalProperties") is not False:
                self._add(where, "no longer accepts properties it does not name")
        else:
            for name in sorted((old_required - new_required) & set(new_props)):
                self._add(f"{where}.{name}", "may now be missing from responses (no longer required)")
        for name in old_props:
            if name in new_props:
                self._schema(f"{where}.{name}", old_props[name], new_props[name], direction)
        old_extra, new_extra = old.get("additionalProperties"), new.get("additionalProperties")
        if isinstance(old_extra, Mapping) and isinstance(new_extra, Mapping):
            self._schema(f"{where}{{}}", old_extra, new_extra, direction)
        if direction == "request" and ("propertyNames" in old or "propertyNames" in new):
            self._schema(f"{where} keys", old.get("propertyNames", {}), new.get("propertyNames", {}),
                         direction)


def _parameters(item: Schema, operation: Schema) -> dict[tuple[str, str], Schema]:
    """Path-level parameters overridden by the operation's, keyed by (in, name)."""
    merged = {(p["in"], p["name"]): p for p in item.get("parameters", ()) if "in" in p}
    merged.update({(p["in"], p["name"]): p for p in operation.get("parameters", ()) if "in" in p})
    return merged


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _resolve(schema: Schema, spec: Spec) -> Schema:
    """The schema a ``$ref`` points at (local references only), else ``schema`` itself."""
    seen: set[str] = set()
    while "$ref" in schema and schema["$ref"] not in seen:
        seen.add(schema["$ref"])
        target: Any = spec
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {})
        schema = target
    return schema


def _branches(schema: Schema, spec: Spec) -> list[Schema]:
    """The alternatives a schema takes: ``anyOf``/``oneOf`` flattened (also behind a
    ``$ref``), a list ``type`` split, a lone ``allOf`` unwrapped, ``nullable``
    (OpenAPI 3.0) as a null branch."""
    resolved = _resolve(schema, spec)
    for keyword in ("anyOf", "oneOf"):
        if keyword in resolved:
            return [branch for part in resolved[keyword] for branch in _branches(part, spec)]
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        return _branches({**schema["allOf"][0], **rest}, spec)
    if isinstance(schema.get("type"), list):
        return [{**schema, "type": kind} for kind in schema["type"]]
    if schema.get("nullable") is True:
        return [{k: v for k, v in schema.items() if k != "nullable"}, {"type": "null"}]
    return [schema]


def _kind(schema: Schema, spec: Spec) -> str:
    """The JSON type a branch takes (through references), ``any`` when unconstrained."""
    resolved = _resolve(schema, spec)
    kind = resolved.get("type")
    if isinstance(kind, str):
        return kind
    values = _enum_values(resolved)
    if values:
        return _json_type(values[0])
    if "properties" in resolved:
        return "object"
    if any(k in resolved for k in ("anyOf", "oneOf", "allOf")):
        return "union"
    return "any"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _enum_values(schema: Schema) -> list[Any] | None:
    if "enum" in schema:
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    return None


def _show(values: Sequence[Any]) -> str:
    return ", ".join(json.dumps(v) for v in values)


def _load(path: str) -> Spec:
    loaded: Spec = json.loads(Path(path).read_text(encoding="utf-8"))
    return loaded


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m api.server.openapi_compat OLD NEW``: print each breaking change; 1 if any."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m api.server.openapi_compat OLD.json NEW.json", file=sys.stderr)
        return 2
    found = breaking_changes(_load(args[0]), _load(args[1]))
    for change in found:
        print(change)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
