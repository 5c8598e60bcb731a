"""Run toolcall's conformance vectors against a Python implementation, with pytest or without.

The vectors are the language-agnostic JSON files of ``@toolcall/conformance`` (``vectors/<rule>/<topic>.json``,
format in ``VECTORS.md``). This module reads them, decodes their tagged values, calls your implementation and
compares. Standard library only; pytest is imported by :func:`make_test` alone.

Usage, in a test module of your project::

    import my_project.toolcall as impl
    from toolcall_conformance import make_test

    test_conformance = make_test(impl, skip={"r1/lossless: …": "why"})

Your implementation is any object (a module, a class instance, a dict of functions) with some of these callables;
vectors of operations it lacks are skipped, with the reason:

=====================  ============================================================================================
vector operation       callable, and what it returns
=====================  ============================================================================================
``decode``             ``decode_arguments(value, **options)`` -> ``{"arguments", "status", "repairs", "raw"?}``
``encode``             ``encode_arguments(value, **options)`` -> ``str``
``validate``           ``validate_tool_call(call, **options)`` -> ``[{"code", "severity", "path", "message"}]``
``validateHistory``    ``validate_history(messages, **options)`` -> a list of issues, as above
``sanitize``           ``sanitize_history(messages, **options)`` -> ``{"messages", "changes"}``; each change has
                       ``rule`` and ``message_index``/``messageIndex``, ``tool_call_id``/``toolCallId``
``prepareForTemplate`` ``prepare_for_template(messages, **options)`` -> the list of messages to render
``accumulate``         ``accumulate(deltas, finish_reason=..., **options)`` -> a list of calls
                       ``{"index", "id", "name", "arguments", "status", "decoded"}`` (or ``{"calls": [...]}``);
                       ``finish_reason=None`` is a stream that ended without one (cut): decode as after ``length``
``render``             ``render_template(input)`` -> the rendered text, or raises what the template raises
                       (compared by ``type(e).__name__`` and ``str(e)``); ``input`` is ``{"template", "messages",
                       "tools", "addGenerationPrompt", "variables", "now"}`` (R8: render as transformers'
                       ``apply_chat_template`` does; ``now`` is the local time ``strftime_now`` reads). A vector that
                       names a shared template file reads it from ``templates=`` (``make_test``) or
                       ``$TOOLCALL_TEMPLATES`` and is skipped, with the reason, when it is not there
=====================  ============================================================================================

Results may be dicts or objects with those attributes. Vector options are camelCase; they are passed as snake_case
keyword arguments (``finishReason`` -> ``finish_reason``, ``rawPolicy`` -> ``raw_policy``, ``maxDepth`` ->
``max_depth``…); their values are passed as they are (``tools`` stays OpenAI-shaped). The ``repairs`` option names
repair ids (``"core"`` is every core repair): they are looked up in your implementation's ``REPAIRS`` dict
(id -> rule object) and the rule objects are passed in the order the vector lists them (``"core"`` expanded in
place); your implementation runs them in core's one order (R6 names none) whatever order it gets them in (``REPAIR_ORDER``), as
the vectors that list them out of order check. A vector that asks for a repair you do not have is skipped. An empty ``repairs`` list is not passed at all.

Tagged values (``{"$undefined": true}``, ``{"$bigint": "…"}``, ``{"$number": "NaN"}``, ``{"$float": "20.0"}``,
``{"$literal": X}``) become Python values: ``undefined`` is a missing value (``None`` as a whole input or in a list, a
key left out in a mapping), a bigint an ``int``, ``NaN``/``Infinity``/``-0`` and ``$float`` a ``float``. A JSON number is a JavaScript number: one
written with a fraction or exponent but integral (``1.0``, ``1e3``, within +-2^53) is loaded as an ``int``, since
JavaScript (where the expected values were written) cannot tell it from ``1``; integers keep every digit.

Comparisons are JSON equality: key order is ignored, a list equals a tuple, ``True`` is not ``1``, ``1 == 1.0``,
``NaN`` equals ``NaN``. Besides ``expected``, every operation must leave its input unmutated and ``sanitize`` must be
idempotent, as the TypeScript runner checks.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

__all__ = [
    "CORE_REPAIR_IDS",
    "REPAIR_ORDER",
    "DEFAULT_RENDER_CLOCK",
    "OPERATIONS",
    "ConformanceSkip",
    "VectorCase",
    "check_result",
    "decode_tags",
    "json_equal",
    "load_vectors",
    "make_test",
    "run_case",
]

#: Vector operation -> the implementation's callable.
OPERATIONS: dict[str, str] = {
    "decode": "decode_arguments",
    "encode": "encode_arguments",
    "validate": "validate_tool_call",
    "validateHistory": "validate_history",
    "sanitize": "sanitize_history",
    "prepareForTemplate": "prepare_for_template",
    "accumulate": "accumulate",
    "render": "render_template",
}

#: What the repair id ``"core"`` stands for, in the order core applies them (``jsonrepair`` is not among them).
CORE_REPAIR_IDS: tuple[str, ...] = (
    "markdown-fence",
    "template-suffix",
    "python-literal",
    "control-characters",
    "trailing-commas",
    "repeated-object",
)

#: The one order repairs run in, whatever order they are given in (core's ``REPAIR_ORDER``; RULES.md R6 names none).
REPAIR_ORDER: tuple[str, ...] = ("gemma-quote-markers", *CORE_REPAIR_IDS, "jsonrepair")

_EXPECTED_KEYS: dict[str, frozenset] = {
    "decode": frozenset({"status", "arguments", "identity", "repairs", "raw", "rawAbsent", "encoded", "encodeOptions"}),
    "encode": frozenset({"text"}),
    "validate": frozenset({"codes", "issues"}),
    "validateHistory": frozenset({"codes", "issues"}),
    "sanitize": frozenset({"messages", "unchanged", "changes", "changeDetails"}),
    "prepareForTemplate": frozenset({"messages"}),
    "accumulate": frozenset({"calls", "decoded"}),
    "render": frozenset({"text", "error"}),
}

class _Missing:
    """A value that is not there: JavaScript's ``undefined`` while decoding tags, an absent field in a result."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


class ConformanceSkip(Exception):
    """Raised by :func:`run_case` for a vector that cannot run against this implementation; ``str()`` is why."""


# ---------------------------------------------------------------------------------------------------------------
# Loading


@dataclass(frozen=True, repr=False)
class VectorCase:
    """One test of a vector file, with its tagged values decoded."""

    id: str  #: ``<rule>/<topic>: <group description> > <test description>`` (``r1/statuses: … > …``)
    rule: str  #: ``R1`` … ``R9``, as the group says (the id uses the directory name)
    topic: str  #: the file's path under the vectors directory, without ``.json`` (``r1/statuses``)
    group: str
    description: str
    operation: str
    input: Any
    options: dict
    expected: dict
    path: Path
    source: str | None = None

    def __repr__(self) -> str:  # inputs can be 1000 levels deep: never print them whole
        return f"VectorCase({self.id!r})"


def _vectors_root(root: str | os.PathLike | None) -> Path:
    if root is not None:
        return Path(root)
    env = os.environ.get("TOOLCALL_VECTORS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "vectors"


def load_vectors(root: str | os.PathLike | None = None) -> Iterator[VectorCase]:
    """Yields every test of every ``*.json`` file under ``root`` (``<rule>/<topic>.json``), in a stable order:
    sorted paths, then file order. The cases and ids are the TypeScript runner's (``loadVectors``).

    ``root`` defaults to ``$TOOLCALL_VECTORS``, else the ``vectors`` directory next to this module's directory
    (``node_modules/@toolcall/conformance/vectors`` when this file is used from the npm package). A file that is
    not valid vector JSON raises ``ValueError`` naming the file.
    """
    base = _vectors_root(root)
    if not base.is_dir():
        raise FileNotFoundError(f"no vectors directory at {base} (set TOOLCALL_VECTORS or pass root=)")
    files = sorted((path.relative_to(base).as_posix(), path) for path in base.rglob("*.json") if path.is_file())
    for relative, path in files:
        yield from _load_file(path, relative[: -len(".json")])


def _load_file(path: Path, topic: str) -> Iterator[VectorCase]:
    try:
        groups = _parse_json(path.read_text(encoding="utf-8"))
        if not isinstance(groups, list):
            raise ValueError("a vector file is a list of groups")
        cases = []
        for group in groups:
            group_options = group.get("options") or {}
            for test in group["tests"]:
                options = {**group_options, **(test.get("options") or {})}
                operation = test.get("operation", group.get("operation"))
                cases.append(
                    VectorCase(
                        id=f"{topic}: {group['description']} > {test['description']}",
                        rule=group.get("rule"),
                        topic=topic,
                        group=group["description"],
                        description=test["description"],
                        operation=operation,
                        input=decode_tags(test["input"]) if "input" in test else None,
                        options=decode_tags(options),
                        expected=decode_tags(test.get("expected", {})),
                        path=path,
                        source=test.get("source", group.get("source")),
                    )
                )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: not a valid vector file: {error!r}") from error
    yield from cases


_JSON_TOKEN = re.compile(
    r'[ \t\n\r]*(?:(?P<open>[\[{])|(?P<close>[\]}])|(?P<comma>,)|(?P<colon>:)'
    r'|(?P<string>"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")'
    r"|(?P<number>-?(?:0|[1-9][0-9]*)(?P<frac>\.[0-9]+)?(?P<exp>[eE][-+]?[0-9]+)?)"
    r"|(?P<literal>true|false|null))"
)
_SAFE_INTEGER = 2**53


def _js_number(text: str, integral_text: bool) -> Any:
    if integral_text:
        return int(text)
    value = float(text)
    # A JavaScript number cannot tell 1.0 from 1: neither can a vector.
    if value.is_integer() and abs(value) <= _SAFE_INTEGER and not (value == 0 and text.startswith("-")):
        return int(value)
    return value


def _parse_json(text: str) -> Any:
    """Parses a vector file: ``json.loads`` with JavaScript number semantics, and an iterative fallback for a file
    nested deeper than Python's recursion limit (a test of deep nesting must not break collection)."""
    import json

    try:
        return json.loads(text, parse_float=lambda t: _js_number(t, False))
    except RecursionError:
        return _parse_deep_json(text)


def _parse_deep_json(text: str) -> Any:
    """Iterative and lenient about separators: only for files that ``json.loads`` could not parse for depth alone."""
    import json

    literals = {"true": True, "false": False, "null": None}
    stack: list[list] = []  # [container, pending key]
    pos, length = 0, len(text)
    result: Any = _MISSING

    def error(message: str) -> ValueError:
        line = text.count("\n", 0, pos) + 1
        column = pos - text.rfind("\n", 0, pos)
        return ValueError(f"{message} at line {line} column {column}")

    while True:
        match = _JSON_TOKEN.match(text, pos)
        if match is None:
            if result is not _MISSING and not stack and text[pos:].strip(" \t\n\r") == "":
                return result
            raise error("invalid JSON")
        pos = match.end()
        kind = match.lastgroup if match.lastgroup not in ("frac", "exp") else "number"
        top = stack[-1] if stack else None
        if kind in ("comma", "colon"):
            continue  # structure is checked by the brackets; vector files pass a schema check before release
        if kind == "close":
            if top is None:
                raise error("unbalanced bracket")
            stack.pop()
            value = top[0]
        elif kind == "open":
            stack.append([{} if match.group("open") == "{" else [], _MISSING])
            continue
        elif kind == "string":
            token = match.group("string")
            value = json.loads(token) if "\\" in token else token[1:-1]
            if top is not None and isinstance(top[0], dict) and top[1] is _MISSING:
                top[1] = value  # a key
                continue
        elif kind == "number":
            value = _js_number(match.group("number"), match.group("frac") is None and match.group("exp") is None)
        else:
            value = literals[match.group("literal")]
        if not stack:
            if result is not _MISSING:
                raise error("extra data")
            result = value
            continue
        parent = stack[-1]
        if isinstance(parent[0], dict):
            parent[0][parent[1]] = value
            parent[1] = _MISSING
        else:
            parent[0].append(value)


_NUMBER_TAGS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"), "-0": -0.0}


def _tag(value: Any) -> tuple[bool, Any]:
    """``(True, decoded)`` when ``value`` is a tag, else ``(False, None)``."""
    if not (isinstance(value, dict) and len(value) == 1):
        return False, None
    (key, payload), = value.items()
    if not key.startswith("$"):
        return False, None
    if key == "$undefined":
        return True, _MISSING
    if key == "$bigint":
        return True, int(payload)
    if key == "$number":
        if payload not in _NUMBER_TAGS:
            raise ValueError(f"unknown $number {payload!r}")
        return True, _NUMBER_TAGS[payload]
    if key == "$literal":
        return True, payload
    if key == "$float":
        return True, float(payload)
    raise ValueError(f"unknown tag {key!r}")


def decode_tags(value: Any) -> Any:
    """Decodes the tagged encoding of ``VECTORS.md`` (iteratively). ``undefined`` is ``None`` at the top and in
    lists, and a key left out in mappings."""
    is_tag, decoded = _tag(value)
    if is_tag:
        return None if decoded is _MISSING else decoded
    if not isinstance(value, (dict, list)):
        return value
    root = {} if isinstance(value, dict) else []
    work = [(value, root)]
    while work:
        source, target = work.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            is_tag, decoded = _tag(item)
            if is_tag:
                if decoded is _MISSING:
                    if isinstance(target, dict):
                        continue
                    decoded = None
            elif isinstance(item, (dict, list)):
                decoded = {} if isinstance(item, dict) else []
                work.append((item, decoded))
            else:
                decoded = item
            if isinstance(target, dict):
                target[key] = decoded
            else:
                target.append(decoded)
    return root


# ---------------------------------------------------------------------------------------------------------------
# Comparing


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    from decimal import Decimal
    from fractions import Fraction

    return isinstance(value, (Decimal, Fraction))


def _same_number(a: Any, b: Any) -> bool:
    if a != a and b != b:  # NaN
        return True
    return a == b


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: key order ignored, list == tuple, ``True != 1``, ``1 == 1.0``, ``NaN == NaN``. Iterative."""
    work = [(a, b)]
    while work:
        x, y = work.pop()
        if x is y:
            continue
        if _is_number(x) and _is_number(y):
            if not _same_number(x, y):
                return False
        elif isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            if len(x) != len(y):
                return False
            work.extend(zip(x, y))
        elif isinstance(x, Mapping) and isinstance(y, Mapping):
            if len(x) != len(y) or any(k not in y for k in x):
                return False
            work.extend((x[k], y[k]) for k in x)
        elif type(x) is not type(y) and not (isinstance(x, str) and isinstance(y, str)):
            return False
        elif x != y:
            return False
    return True


def _clone(value: Any) -> Any:
    """A deep copy of lists and dicts (iterative); other values are shared."""
    if not isinstance(value, (dict, list)):
        return value
    root = {} if isinstance(value, dict) else []
    work = [(value, root)]
    while work:
        source, target = work.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            copy = item
            if isinstance(item, (dict, list)):
                copy = {} if isinstance(item, dict) else []
                work.append((item, copy))
            if isinstance(target, dict):
                target[key] = copy
            else:
                target.append(copy)
    return root


def _show(value: Any, limit: int = 400) -> str:
    import json

    if value is _MISSING:
        return "<missing>"
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):
        text = "<too deep to show>"
    except TypeError:
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def _field(obj: Any, name: str, default: Any = _MISSING) -> Any:
    """``obj[name]`` or ``obj.name``, trying the camelCase and snake_case spellings."""
    for key in dict.fromkeys((name, _snake(name))):
        if isinstance(obj, Mapping):
            if key in obj:
                return obj[key]
        elif hasattr(obj, key):
            return getattr(obj, key)
    return default


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def _multiset_mismatch(label: str, expected: list, actual: list) -> list[str]:
    def key(item: Any) -> str:
        return repr(item)

    if sorted(map(key, expected)) != sorted(map(key, actual)):
        return [f"{label}: expected {_show(sorted(expected, key=key))}, got {_show(sorted(actual, key=key))}"]
    return []


def _find_each(label: str, expected: list, actual: list, keys: Iterable[str] | None = None) -> list[str]:
    """Each expected entry must match one actual entry on every key it gives."""
    messages = []
    for want in expected:
        wanted = want.items() if keys is None else ((k, want[k]) for k in keys if k in want)
        wanted = list(wanted)
        if not any(all(json_equal(_field(have, k), v) for k, v in wanted) for have in actual):
            messages.append(f"{label}: no entry matches {_show(want)}; got {_show(list(actual))}")
    return messages


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else []


def check_result(operation: str, expected: Mapping, actual: Any, context: Mapping | None = None) -> list[str]:
    """Compares one result with a vector's ``expected``; returns the mismatches (an empty list when it conforms).

    ``context`` carries what some checks need besides the result: ``input`` (the value the implementation was
    given, for ``identity``/``unchanged``), ``input_before`` (a copy taken before the call: the input must not
    have been mutated, whatever the operation) and ``encode`` (a callable ``encode(value, **options)`` for
    ``encoded``). A missing ``repairs`` in a decode result counts as ``[]``, as in the TypeScript runner.

    >>> check_result("encode", {"text": "{}"}, "{}")
    []
    >>> check_result("decode", {"status": "object", "arguments": {"a": 1}}, {"status": "object", "arguments": {"a": True}})
    ['arguments: expected {"a": 1}, got {"a": true}']
    """
    context = context or {}
    messages: list[str] = []
    known = _EXPECTED_KEYS.get(operation)
    if known is None:
        return [f"unknown operation {operation!r}"]
    messages += [f"{key}: this runner does not know how to check it" for key in expected if key not in known]
    given = context.get("input", _MISSING)

    def compare(key: str, want: Any, have: Any) -> None:
        if not json_equal(want, have):
            messages.append(f"{key}: expected {_show(want)}, got {_show(have)}")

    if operation == "decode":
        for key in ("status", "arguments", "repairs"):
            if key in expected:
                have = _field(actual, key)
                compare(key, expected[key], [] if key == "repairs" and have is _MISSING else have)
        if "identity" in expected and given is not _MISSING:
            same = _field(actual, "arguments") is given
            if same != bool(expected["identity"]):
                messages.append(f"identity: expected the result {'to be' if expected['identity'] else 'not to be'} the input object")
        raw = _field(actual, "raw")
        if "raw" in expected:
            compare("raw", expected["raw"], raw)
        if expected.get("rawAbsent") and raw is not _MISSING and raw is not None:
            messages.append(f"rawAbsent: expected no raw, got {_show(raw)}")
        if "encoded" in expected:
            encode = context.get("encode")
            if encode is None:
                messages.append("encoded: no encode callable to check it with")
            else:
                options = _keyword_options(expected.get("encodeOptions") or {})
                compare("encoded", expected["encoded"], encode(_field(actual, "arguments"), **options))
    elif operation == "encode":
        if "text" in expected:
            if not isinstance(actual, str) or actual != expected["text"]:
                messages.append(f"text: expected {_show(expected['text'])}, got {_show(actual)}")
    elif operation in ("validate", "validateHistory"):
        issues = _as_list(actual)
        if "codes" in expected:
            messages += _multiset_mismatch("codes", list(expected["codes"]), [_field(i, "code") for i in issues])
        if "issues" in expected:
            messages += _find_each("issues", expected["issues"], issues)
    elif operation == "sanitize":
        result_messages = _field(actual, "messages")
        changes = _as_list(_field(actual, "changes", []))
        if "messages" in expected:
            compare("messages", expected["messages"], result_messages)
        if "unchanged" in expected and given is not _MISSING:
            if (result_messages is given) != bool(expected["unchanged"]):
                messages.append(f"unchanged: expected the returned list {'to be' if expected['unchanged'] else 'not to be'} the input list")
        if "changes" in expected:
            messages += _multiset_mismatch("changes", list(expected["changes"]), [_field(c, "rule") for c in changes])
        if "changeDetails" in expected:
            messages += _find_each("changeDetails", expected["changeDetails"], changes)
    elif operation == "prepareForTemplate":
        if "messages" in expected:
            compare("messages", expected["messages"], actual)
    elif operation == "render":
        error = _field(actual, "error", None)
        if "text" in expected:
            if error is not None:
                messages.append(f"expected text {_show(expected['text'])}, got {error.get('type')}: {error.get('message')}")
            elif _field(actual, "text") != expected["text"]:
                messages.append(f"text: expected {_show(expected['text'])}, got {_show(_field(actual, 'text'))}")
        if "error" in expected:
            want = expected["error"]
            if error is None:
                messages.append(f"expected {want['type']}, got text {_show(_field(actual, 'text'))}")
            elif error.get("type") != want["type"] or error.get("message") != want["message"]:
                messages.append(f"error: expected {want['type']}: {want['message']}, got {error.get('type')}: {error.get('message')}")
    elif operation == "accumulate":
        calls = _field(actual, "calls") if not isinstance(actual, (list, tuple)) else actual
        calls = _as_list(calls)
        if "calls" in expected:
            want_calls = expected["calls"]
            if len(want_calls) != len(calls):
                messages.append(f"calls: expected {len(want_calls)} calls, got {len(calls)}: {_show(calls)}")
            else:
                for index, (want, have) in enumerate(zip(want_calls, calls)):
                    for key, value in want.items():
                        compare(f"calls[{index}].{key}", value, _field(have, key))
        if "decoded" in expected:
            decoded = _field(actual, "decoded") if not isinstance(actual, (list, tuple)) else _MISSING
            if decoded is _MISSING:
                decoded = [_field(call, "decoded") for call in calls]
            compare("decoded", expected["decoded"], decoded)
    before = context.get("input_before", _MISSING)
    if before is not _MISSING and given is not _MISSING and not json_equal(before, given):
        messages.append(f"input mutated: it was {_show(before)}, it is now {_show(given)}")
    return messages


# ---------------------------------------------------------------------------------------------------------------
# Running


def _keyword_options(options: Mapping) -> dict:
    return {_snake(key): value for key, value in options.items()}


def _lookup(implementation: Any, name: str) -> Any:
    if isinstance(implementation, Mapping):
        return implementation.get(name)
    return getattr(implementation, name, None)


def _repair_rules(implementation: Any, ids: list) -> list:
    available = _lookup(implementation, "REPAIRS")
    if not isinstance(available, Mapping):
        raise ConformanceSkip(f"the vector asks for repairs {ids} and the implementation has no REPAIRS")
    wanted: list[str] = []
    for repair_id in ids:
        if repair_id == "core" and "core" not in available:
            wanted.extend(CORE_REPAIR_IDS)
        else:
            wanted.append(repair_id)
    missing = [repair_id for repair_id in wanted if repair_id not in available]
    if missing:
        raise ConformanceSkip(f"the implementation has no repair {', '.join(missing)} in REPAIRS")
    rules: list = []
    for repair_id in wanted:
        rule = available[repair_id]
        rules.extend(rule if isinstance(rule, (list, tuple)) else [rule])
    return rules


def _skip_reason(case_id: str, skip: Any) -> str | None:
    entries = skip.items() if isinstance(skip, Mapping) else ((entry, None) for entry in skip)
    for entry, reason in entries:
        if entry == case_id or (entry.endswith("*") and case_id.startswith(entry[:-1])):
            return f"in the skip list: {reason}" if reason else "in the skip list"
    return None


#: The clock ``strftime_now`` reads in a render vector that names none (``../parity/hf_render.py``'s).
DEFAULT_RENDER_CLOCK = "2026-01-02T03:04:05"


def _render_input(given: Any, templates: str | os.PathLike | None) -> dict:
    """A render vector's input with a named shared template read (and checked), defaults filled in."""
    import hashlib

    source = dict(given) if isinstance(given, Mapping) else {}
    template = source.pop("template", None)
    file = source.pop("templateFile", None)
    digest = source.pop("templateSha256", None)
    if file is not None:
        directory = templates if templates is not None else os.environ.get("TOOLCALL_TEMPLATES")
        if not directory:
            raise ConformanceSkip(f"renders the shared template {file}: set TOOLCALL_TEMPLATES (or templates=) to its directory")
        path = Path(directory) / file
        if not path.is_file():
            raise ConformanceSkip(f"renders the shared template {file}, not found in {directory}")
        data = path.read_bytes()
        found = hashlib.sha256(data).hexdigest()
        if digest is not None and found != digest:
            raise ConformanceSkip(f"{path} is not the template the vector was made with (sha256 {found})")
        template = data.decode("utf-8")
    if not isinstance(template, str):
        raise ConformanceSkip("the vector has no template")
    return {
        "template": template,
        "messages": source.get("messages") or [],
        "tools": source.get("tools"),
        "addGenerationPrompt": bool(source.get("addGenerationPrompt", False)),
        "variables": dict(source.get("variables") or {}),
        "now": source.get("now") or DEFAULT_RENDER_CLOCK,
    }


def run_case(case: VectorCase, implementation: Any, skip: Any = (), templates: str | os.PathLike | None = None) -> list[str]:
    """Runs one vector against ``implementation``: returns the mismatches, or raises :class:`ConformanceSkip`.

    Besides ``expected``, every operation must leave its input unmutated, and ``sanitize`` must be idempotent (a
    second pass over its output returns that same list with no changes), as in the TypeScript runner.

    ``skip`` holds test ids (or prefixes ending in ``*``), as a collection or a dict id -> reason. Exceptions the
    implementation raises propagate: the operations are total, so an exception is a failure.
    """
    reason = _skip_reason(case.id, skip)
    if reason:
        raise ConformanceSkip(reason)
    name = OPERATIONS.get(case.operation)
    if name is None:
        raise ConformanceSkip(f"operation {case.operation!r} is not known to this runner")
    function = _lookup(implementation, name)
    if not callable(function):
        raise ConformanceSkip(f"the implementation has no {name} (operation {case.operation})")
    options = dict(case.options)
    if "repairs" in options:
        ids = options.pop("repairs")
        if ids:
            options["repairs"] = _repair_rules(implementation, list(ids))
    keywords = _keyword_options(options)
    context: dict = {}
    if "encoded" in case.expected:
        encode = _lookup(implementation, OPERATIONS["encode"])
        if not callable(encode):
            raise ConformanceSkip("the vector checks `encoded` and the implementation has no encode_arguments")
        context["encode"] = encode
    given = _clone(case.input)  # a fresh copy per run: a mutating implementation cannot poison a rerun
    context["input"] = given
    context["input_before"] = _clone(given)
    if case.operation == "accumulate":
        source = given if isinstance(given, Mapping) else {}
        finish_reason = source.get("finishReason")
        actual = function(_as_list(source.get("deltas")), finish_reason=finish_reason, **keywords)
    elif case.operation == "render":
        given = _render_input(given, templates)
        context["input"] = given
        context["input_before"] = _clone(given)
        try:
            actual = {"text": function(given, **keywords)}
        except Exception as error:  # noqa: BLE001 - a template that raises is an expected outcome
            actual = {"error": {"type": type(error).__name__, "message": str(error)}}
    else:
        actual = function(given, **keywords)
    messages = check_result(case.operation, case.expected, actual, context)
    if case.operation == "sanitize" and not messages:
        # R4: sanitizing is idempotent; a second pass changes nothing and returns the same list.
        first = _field(actual, "messages")
        again = function(first, **keywords)
        changes = _as_list(_field(again, "changes", []))
        if changes or _field(again, "messages") is not first:
            messages.append(f"not idempotent: a second pass made {_show([_field(c, 'rule') for c in changes])}")
    return messages


def make_test(
    implementation: Any,
    skip: Any = (),
    root: str | os.PathLike | None = None,
    templates: str | os.PathLike | None = None,
):
    """Returns a pytest test function parametrized over every vector; assign it in a test module::

        test_conformance = make_test(my_impl, skip={"r2/encode: … > …": "why"})

    Each vector is one test, named by its id. Vectors the implementation cannot run are skipped with the reason.
    ``templates`` is the directory of shared chat templates that some render vectors name (default
    ``$TOOLCALL_TEMPLATES``).
    When no vector is found the single test fails (never "no tests collected").
    """
    import pytest

    try:
        cases = list(load_vectors(root))
        problem = None if cases else f"no vectors found under {_vectors_root(root)}"
    except FileNotFoundError as error:
        cases, problem = [], str(error)
    params = [pytest.param(case, id=case.id) for case in cases] or [pytest.param(None, id="no-vectors")]

    @pytest.mark.parametrize("conformance_case", params)
    def test_conformance(conformance_case: VectorCase) -> None:
        if conformance_case is None:
            pytest.fail(problem)
        try:
            mismatches = run_case(conformance_case, implementation, skip, templates)
        except ConformanceSkip as reason:
            pytest.skip(str(reason))
        if mismatches:
            pytest.fail(
                f"{conformance_case.id}\n  ({conformance_case.path})\n  - " + "\n  - ".join(mismatches), pytrace=False
            )

    return test_conformance
