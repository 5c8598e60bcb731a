"""The vector schema, checked with the standard library: a validator for exactly the JSON Schema keywords
``vectors.schema.json`` uses, and the levels (``x-level``) it gives each expected key.

A keyword it does not know is an error, never ignored: when the schema grows a keyword, this validator must learn
it before any vector is trusted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from ._data import schema_path

#: Keywords that only describe (no validation).
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$defs", "x-level"})
#: Keywords this validator checks.
_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "minItems",
        "items",
        "properties",
        "additionalProperties",
        "required",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "allOf",
        "oneOf",
        "if",
        "then",
        "$ref",
    }
)

LEVELS = ("mapping", "full")


class SchemaError(Exception):
    """The schema itself uses something this validator cannot check."""


def load_schema(path: str | Path | None = None) -> dict:
    return json.loads(Path(path or schema_path()).read_text(encoding="utf-8"))


def _type_ok(value: Any, name: str) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    raise SchemaError(f"unknown type {name!r}")


def _pointer(path: tuple) -> str:
    return "/" + "/".join(str(part) for part in path) if path else "/"


class Validator:
    """Validates instances against ``schema`` (the subset of draft 2020-12 listed in ``_KEYWORDS``)."""

    def __init__(self, schema: dict):
        self.schema = schema
        self._patterns: dict[str, re.Pattern] = {}
        self._check_keywords(schema, "#")

    def _check_keywords(self, node: Any, where: str) -> None:
        work = [(node, where)]
        while work:
            current, at = work.pop()
            if not isinstance(current, dict):
                continue
            for key, value in current.items():
                if key not in _KEYWORDS and key not in _ANNOTATIONS:
                    raise SchemaError(f"{at}: keyword {key!r} is not supported by this validator")
                if key in ("$defs", "properties"):
                    work.extend((sub, f"{at}/{key}/{name}") for name, sub in value.items())
                elif key in ("items", "additionalProperties", "if", "then"):
                    work.append((value, f"{at}/{key}"))
                elif key in ("allOf", "oneOf"):
                    work.extend((sub, f"{at}/{key}/{i}") for i, sub in enumerate(value))

    def resolve(self, node: dict) -> dict:
        hops = 0
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/$defs/") or hops > 20:
                raise SchemaError(f"unsupported $ref {ref!r}")
            node = self.schema["$defs"][ref[len("#/$defs/") :]]
            hops += 1
        return node

    def errors(self, instance: Any, node: dict | None = None, path: tuple = ()) -> Iterator[str]:
        """Yields one message per violation, ``<JSON pointer> <what is wrong>``."""
        node = self.schema if node is None else node
        if "$ref" in node:
            yield from self.errors(instance, self.resolve({"$ref": node["$ref"]}), path)
        at = _pointer(path)
        if "type" in node:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            if not any(_type_ok(instance, name) for name in names):
                yield f"{at} must be {' or '.join(names)}"
                return
        if "enum" in node and not any(_same(instance, option) for option in node["enum"]):
            yield f"{at} must be one of {json.dumps(node['enum'])}"
        if "const" in node and not _same(instance, node["const"]):
            yield f"{at} must be {json.dumps(node['const'])}"
        if isinstance(instance, str):
            if "minLength" in node and len(instance) < node["minLength"]:
                yield f"{at} must have at least {node['minLength']} characters"
            if "maxLength" in node and len(instance) > node["maxLength"]:
                yield f"{at} must have at most {node['maxLength']} characters"
            if "pattern" in node:
                pattern = self._patterns.setdefault(node["pattern"], re.compile(node["pattern"]))
                if pattern.search(instance) is None:
                    yield f'{at} must match pattern "{node["pattern"]}"'
        if "minimum" in node and _type_ok(instance, "number") and instance < node["minimum"]:
            yield f"{at} must be >= {node['minimum']}"
        if "maximum" in node and _type_ok(instance, "number") and instance > node["maximum"]:
            yield f"{at} must be <= {node['maximum']}"
        if isinstance(instance, list):
            if "minItems" in node and len(instance) < node["minItems"]:
                yield f"{at} must have at least {node['minItems']} items"
            if "items" in node:
                for index, item in enumerate(instance):
                    yield from self.errors(item, node["items"], path + (index,))
        if isinstance(instance, dict):
            properties = node.get("properties", {})
            for name in node.get("required", []):
                if name not in instance:
                    yield f"{at} must have required property '{name}'"
            if "minProperties" in node and len(instance) < node["minProperties"]:
                yield f"{at} must have at least {node['minProperties']} properties"
            if "maxProperties" in node and len(instance) > node["maxProperties"]:
                yield f"{at} must have at most {node['maxProperties']} properties"
            for name, needed in node.get("dependentRequired", {}).items():
                if name in instance:
                    for other in needed:
                        if other not in instance:
                            yield f"{at} must have property '{other}' when '{name}' is present"
            for name, value in instance.items():
                if name in properties:
                    yield from self.errors(value, properties[name], path + (name,))
                elif node.get("additionalProperties") is False:
                    yield f"{at} must not have additional property '{name}'"
                elif isinstance(node.get("additionalProperties"), dict):
                    yield from self.errors(value, node["additionalProperties"], path + (name,))
        for sub in node.get("allOf", []):
            yield from self.errors(instance, sub, path)
        if "oneOf" in node:
            matching = sum(1 for sub in node["oneOf"] if not any(True for _ in self.errors(instance, sub, path)))
            if matching != 1:
                yield f"{at} must match exactly one schema in oneOf ({matching} match)"
        if "if" in node and not any(True for _ in self.errors(instance, node["if"], path)):
            if "then" in node:
                yield from self.errors(instance, node["then"], path)


def _same(a: Any, b: Any) -> bool:
    from ._compare import json_equal

    return json_equal(a, b)


def expected_levels(schema: dict) -> dict[str, dict[str, dict]]:
    """Operation -> expected key -> ``{"level": …, "items": {key: level}?}``, from the ``x-level`` annotations
    (the TypeScript runner's ``expectedLevels``). A key without a level is left out: ``check_vectors`` reports it."""
    validator = Validator(schema)
    defs = schema.get("$defs", {})
    group = validator.resolve(defs.get("group", {}))
    operations = group.get("properties", {}).get("operation", {}).get("enum", [])
    out: dict[str, dict[str, dict]] = {}
    for operation in operations:
        expected = validator.resolve(defs.get(f"expected.{operation}", {}))
        keys: dict[str, dict] = {}
        for key, prop in expected.get("properties", {}).items():
            level = prop.get("x-level", validator.resolve(prop).get("x-level"))
            if level not in LEVELS:
                continue
            entry: dict = {"level": level}
            items = validator.resolve(validator.resolve(prop).get("items", {}))
            item_levels = {k: v["x-level"] for k, v in items.get("properties", {}).items() if v.get("x-level") in LEVELS}
            if item_levels:
                entry["items"] = item_levels
            keys[key] = entry
        out[operation] = keys
    return out


def level_problems(schema: dict, operations) -> list[str]:
    """Expected keys of the operations this runner knows that the schema gives no ``x-level``."""
    validator = Validator(schema)
    levels = expected_levels(schema)
    problems = []
    for operation in operations:
        expected = validator.resolve(schema.get("$defs", {}).get(f"expected.{operation}", {}))
        if not expected.get("properties"):
            problems.append(f"the schema has no expected.{operation}")
        for key in expected.get("properties", {}):
            if key not in levels.get(operation, {}):
                problems.append(f'expected.{operation}.{key} has no "x-level" ("mapping" or "full")')
    return problems
