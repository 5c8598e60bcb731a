"""Loading and checking vector files: the cases and ids of the TypeScript runner's ``loadVectors``."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ._data import vectors_root
from ._schema import Validator, expected_levels, level_problems, load_schema
from ._tags import decode_tags, parse_json

#: Vector operation -> the implementation's callable.
OPERATIONS: dict[str, str] = {
    "decode": "decode_arguments",
    "encode": "encode_arguments",
    "validate": "validate_tool_call",
    "validateHistory": "validate_history",
    "sanitize": "sanitize_history",
    "prepareForTemplate": "prepare_for_template",
    "accumulate": "accumulate",
    "decideStream": "decide_stream",
    "validateProvider": "validate_for_provider",
    "sanitizeProvider": "sanitize_for_provider",
    "providerVerdict": "provider_verdict",
    "parseToolCalls": "parse_tool_calls",
    "encodeToolCalls": "encode_tool_calls",
    "readFencedJsonCalls": "read_fenced_json_calls",
    "readMalformedFunctionCall": "read_malformed_function_call",
    "normalizeAnswer": "normalize_answer_arguments",
    "render": "render_template",
}

_DIRECTORY_RULE = re.compile(r"^(r[1-9][0-9]*)/")


class VectorError(ValueError):
    """The vector files break the schema or the suite's own rules; ``problems`` lists each one."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems[:10]) + (f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""))
        self.problems = problems


@dataclass(frozen=True, repr=False)
class VectorCase:
    """One test of a vector file, with its group's options merged in and its tagged values decoded."""

    id: str  #: the stable id (``r1-statuses-null-is-absent``), unique across the suite: what skip lists name
    title: str  #: ``<rule>/<topic>: <group description> > <test description>``
    rule: str  #: ``R1`` … ``R10``
    topic: str  #: the file's path under the vectors directory, without ``.json`` (``r1/statuses``)
    group: str
    description: str
    operation: str
    input: Any
    options: dict
    expected: dict
    path: Path
    levels: tuple = ("mapping", "full")  #: the levels at which the case has something to check
    source: str | None = None

    def __repr__(self) -> str:  # inputs can be 1000 levels deep: never print them whole
        return f"VectorCase({self.id!r})"


def id_prefix(topic: str) -> str:
    """``r1/statuses`` -> ``r1-statuses-``."""
    return re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-") + "-"


def _files(base: Path) -> list[tuple[str, Path]]:
    if not base.is_dir():
        raise FileNotFoundError(f"no vectors directory at {base} (set TOOLCALL_VECTORS or pass root=)")
    return sorted((path.relative_to(base).as_posix(), path) for path in base.rglob("*.json") if path.is_file())


def _case_levels(operation: str, expected: dict, levels: dict, marked_full: bool) -> tuple:
    if marked_full:
        return ("full",)
    keys = levels.get(operation, {})
    return ("mapping", "full") if any(keys.get(key, {}).get("level") == "mapping" for key in expected) else ("full",)


def check_vectors(root: str | os.PathLike | None = None, schema: dict | None = None) -> list[str]:
    """Every problem in the vector files, ``<file>: <what>``: the schema (checked by this package's own validator),
    then what a schema cannot say (the TypeScript ``checkVectors``): ids unique across the suite and prefixed by
    their file, descriptions unique in their scope and free of "should", a file's rule matching its folder, an
    operation this runner knows, tags that decode, a level for every expected key."""
    base = vectors_root(root)
    schema = schema or load_schema()
    validator = Validator(schema)
    problems = [f"vectors.schema.json: {p}" for p in level_problems(schema, OPERATIONS)]
    seen_ids: dict[str, str] = {}
    files = _files(base)
    if not files:
        problems.append(f"{base}: no vector files")
    for relative, path in files:
        try:
            groups = parse_json(path.read_text(encoding="utf-8"))
        except ValueError as error:
            problems.append(f"{relative}: not JSON: {error}")
            continue
        errors = list(validator.errors(groups))
        if errors:
            problems += [f"{relative}: {message}" for message in errors]
            continue
        directory_rule = _DIRECTORY_RULE.match(relative)
        prefix = id_prefix(relative[: -len(".json")])
        group_names: set = set()
        for group in groups:
            if group["description"] in group_names:
                problems.append(f"{relative}: group description repeated: {group['description']}")
            group_names.add(group["description"])
            if directory_rule and group["rule"].lower() != directory_rule.group(1):
                problems.append(f'{relative}: group "{group["description"]}" is {group["rule"]} in directory {directory_rule.group(1)}')
            if group["operation"] not in OPERATIONS:
                problems.append(f"{relative}: unknown operation {group['operation']}")
            test_names: set = set()
            for test in group["tests"]:
                for text in (group["description"], test["description"]):
                    if re.search(r"\bshould\b", text, re.IGNORECASE):
                        problems.append(f'{relative}: description says "should": {text}')
                if test["description"] in test_names:
                    problems.append(f'{relative}: test description repeated in "{group["description"]}": {test["description"]}')
                test_names.add(test["description"])
                if not test["id"].startswith(prefix):
                    problems.append(f"{relative}: id {test['id']} does not start with {prefix}")
                if test["id"] in seen_ids:
                    problems.append(f"{relative}: id {test['id']} is used twice (also in {seen_ids[test['id']]})")
                seen_ids[test["id"]] = relative
                try:
                    decode_tags(test.get("input"))
                    decode_tags(test["expected"])
                except ValueError as error:
                    problems.append(f"{relative}: {test['description']}: {error}")
    return problems


def load_vectors(root: str | os.PathLike | None = None, check: bool = True) -> Iterator[VectorCase]:
    """Yields every test of every ``*.json`` file under ``root`` (``<rule>/<topic>.json``) in a stable order
    (sorted paths, then file order), as the TypeScript ``loadVectors`` does.

    ``root`` defaults to ``$TOOLCALL_VECTORS``, else the vectors shipped with this package. With ``check`` (the
    default) the files are checked first (:func:`check_vectors`) and :class:`VectorError` lists every problem: a
    mistyped operation or key is never a silent skip.
    """
    base = vectors_root(root)
    schema = load_schema()
    if check:
        problems = check_vectors(base, schema)
        if problems:
            raise VectorError(problems)
    levels = expected_levels(schema)
    for relative, path in _files(base):
        topic = relative[: -len(".json")]
        try:
            groups = parse_json(path.read_text(encoding="utf-8"))
            cases = []
            for group in groups:
                group_options = group.get("options") or {}
                for test in group["tests"]:
                    title = f"{topic}: {group['description']} > {test['description']}"
                    if not isinstance(test.get("id"), str) or not test["id"]:
                        raise ValueError(f"a test has no id ({title})")
                    expected = decode_tags(test.get("expected", {}))
                    cases.append(
                        VectorCase(
                            id=test["id"],
                            title=title,
                            rule=group.get("rule"),
                            topic=topic,
                            group=group["description"],
                            description=test["description"],
                            operation=group.get("operation"),
                            input=decode_tags(test["input"]) if "input" in test else None,
                            options=decode_tags({**group_options, **(test.get("options") or {})}),
                            expected=expected,
                            path=path,
                            levels=_case_levels(group.get("operation"), expected, levels, test.get("level") == "full"),
                            source=test.get("source", group.get("source")),
                        )
                    )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"{path}: not a valid vector file: {error!r}") from error
        yield from cases
