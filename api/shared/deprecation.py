"""Which deprecated fields a request used, and the headers that say so.

``docs/API_STABILITY.md`` promises that a response to a request using a
deprecated field carries a ``Deprecation`` header (RFC 9745: the date the
deprecation took effect, a Structured Field Date) and a ``Link`` to its
notes.  A field is deprecated where its model says so
(``Field(deprecated=True)``, which also marks it in ``openapi.json``);
``deprecated_fields`` finds the ones a checked request sets, at any depth (a
batch's requests, their ``rules``), looking only into the fields whose type
can hold a model, so a long hand costs nothing more.

>>> from api.shared.schemas import BatchRequest
>>> batch = {"requests": [{"variant": "gin", "hand": "AS 2S 3S"},
...                       {"variant": "indian13", "rules": {"min_pure_sequences": 1}}]}
>>> deprecated_fields(batch, BatchRequest)
('requests[1].rules.min_pure_sequences',)
>>> deprecation_headers(deprecated_fields(batch, BatchRequest))
{'Deprecation': '@1795996800', 'Link': '</docs>; rel="deprecation"; type="text/html"'}
>>> deprecation_headers(())
{}
"""

from __future__ import annotations

import datetime
import functools
import sys
import types
import typing
from typing import Any

from pydantic import BaseModel

DEPRECATED_SINCE = datetime.datetime(2026, 11, 30, tzinfo=datetime.UTC)
"""When the deprecations of ``/v1`` took effect: the ``rules`` shorthands
``min_sequences``, ``min_pure_sequences`` and ``opening_points`` were
deprecated from the first ``/v1`` (a deprecation with another date gets a
date of its own here)."""

NOTES = '</docs>; rel="deprecation"; type="text/html"'
"""Where the notes are: the interactive reference, which names each
deprecated field's replacement in its description."""


def deprecated_fields(data: object, model: type[BaseModel]) -> tuple[str, ...]:
    """The deprecated fields of ``model`` (and of the models in it) that
    ``data``, a request that passed ``model``'s check, sets, as paths
    (``rules.opening_points``, ``requests[3].rules.min_sequences``).  A field
    checked later, item by item (a batch's requests, typed ``Any`` and
    documented by a ``$ref`` to their model), is read as that model."""
    found: list[str] = []
    _walk(data, (model,), "", found)
    return tuple(dict.fromkeys(found))


def deprecation_headers(fields: tuple[str, ...]) -> dict[str, str]:
    """The response headers of a request that used the deprecated ``fields``
    (none when it used none)."""
    if not fields:
        return {}
    return {"Deprecation": f"@{int(DEPRECATED_SINCE.timestamp())}", "Link": NOTES}


def _walk(value: object, models: tuple[type[BaseModel], ...], at: str,
          found: list[str]) -> None:
    if isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, models, f"{at}[{index}]", found)
        return
    if not isinstance(value, dict):
        return
    for model in models:
        deprecated, nested = _fields_of(model)
        for name, item in value.items():
            path = f"{at}.{name}" if at else str(name)
            if name in deprecated:
                found.append(path)
            elif name in nested:
                _walk(item, nested[name], path, found)


@functools.cache
def _fields_of(model: type[BaseModel]) -> tuple[frozenset[str],
                                                dict[str, tuple[type[BaseModel], ...]]]:
    """A model's deprecated fields, and the models each other field can hold."""
    deprecated = frozenset(name for name, info in model.model_fields.items() if info.deprecated)
    nested: dict[str, tuple[type[BaseModel], ...]] = {}
    for name, info in model.model_fields.items():
        held = _models_in(info.annotation, model) + _models_in(info, model)
        if name not in deprecated and held:
            nested[name] = tuple(dict.fromkeys(held))
    return deprecated, nested


def _models_in(annotation: Any, owner: type[BaseModel]) -> tuple[type[BaseModel], ...]:
    """The models a field's type can hold (a ``$ref`` to a model of the
    owner's module counts as that model)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return (annotation,)
    extra = getattr(annotation, "json_schema_extra", None)
    if isinstance(extra, dict) and isinstance(extra.get("$ref"), str):
        named = vars(sys.modules[owner.__module__]).get(extra["$ref"].rpartition("/")[2])
        return (named,) if isinstance(named, type) and issubclass(named, BaseModel) else ()
    if typing.get_origin(annotation) is None and not isinstance(annotation, types.UnionType):
        return ()
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Annotated:
        args = (args[0], *annotation.__metadata__)
    return tuple(m for arg in args for m in _models_in(arg, owner))


__all__ = ["DEPRECATED_SINCE", "deprecated_fields", "deprecation_headers"]
