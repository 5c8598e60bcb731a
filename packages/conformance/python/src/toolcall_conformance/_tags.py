"""Reading vector files: JSON with JavaScript number semantics, deep files, and the tagged encoding of VECTORS.md."""

from __future__ import annotations

import json
import re
from typing import Any


class _Missing:
    """A value that is not there: JavaScript's ``undefined`` while decoding tags, an absent field in a result."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()

_SAFE_INTEGER = 2**53
_NUMBER_TAGS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"), "-0": -0.0}


def _js_number(text: str, integral_text: bool) -> Any:
    if integral_text:
        return int(text)
    value = float(text)
    # A JavaScript number cannot tell 1.0 from 1: neither can a vector.
    if value.is_integer() and abs(value) <= _SAFE_INTEGER and not (value == 0 and text.startswith("-")):
        return int(value)
    return value


def parse_json(text: str) -> Any:
    """Parses a vector file: ``json.loads`` with JavaScript number semantics, and an iterative fallback for a file
    nested deeper than Python's recursion limit (a test of deep nesting must not break collection)."""
    try:
        return json.loads(text, parse_float=lambda t: _js_number(t, False))
    except RecursionError:
        return _parse_deep_json(text)


_JSON_TOKEN = re.compile(
    r'[ \t\n\r]*(?:(?P<open>[\[{])|(?P<close>[\]}])|(?P<comma>,)|(?P<colon>:)'
    r'|(?P<string>"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")'
    r"|(?P<number>-?(?:0|[1-9][0-9]*)(?P<frac>\.[0-9]+)?(?P<exp>[eE][-+]?[0-9]+)?)"
    r"|(?P<literal>true|false|null))"
)


def _parse_deep_json(text: str) -> Any:
    """Iterative and lenient about separators: only for files that ``json.loads`` could not parse for depth alone."""
    literals = {"true": True, "false": False, "null": None}
    stack: list[list] = []  # [container, pending key]
    pos, length = 0, len(text)
    result: Any = MISSING
    while True:
        match = _JSON_TOKEN.match(text, pos)
        if match is None:
            if text[pos:].strip() == "" and result is not MISSING and not stack:
                return result
            raise ValueError(f"not JSON at character {pos}")
        pos = match.end()
        kind = match.lastgroup if match.lastgroup not in ("frac", "exp") else "number"
        if kind in ("comma", "colon"):
            continue
        top = stack[-1] if stack else None
        if kind == "close":
            if not stack:
                raise ValueError(f"unbalanced close at character {pos}")
            value = stack.pop()[0]
        elif kind == "open":
            stack.append([{} if match.group("open") == "{" else [], MISSING])
            continue
        elif kind == "string":
            token = match.group("string")
            value = json.loads(token) if "\\" in token else token[1:-1]
            if top is not None and isinstance(top[0], dict) and top[1] is MISSING:
                top[1] = value  # a key
                continue
        elif kind == "number":
            value = _js_number(match.group("number"), match.group("frac") is None and match.group("exp") is None)
        else:
            value = literals[match.group("literal")]
        if not stack:
            if result is not MISSING:
                raise ValueError("extra data")
            result = value
            if pos >= length:
                return result
            continue
        parent = stack[-1]
        if isinstance(parent[0], dict):
            parent[0][parent[1]] = value
            parent[1] = MISSING
        else:
            parent[0].append(value)


def _tag(value: Any) -> tuple[bool, Any]:
    """``(True, decoded)`` when ``value`` is a tag, else ``(False, None)``."""
    if not (isinstance(value, dict) and len(value) == 1):
        return False, None
    ((key, payload),) = value.items()
    if not key.startswith("$"):
        return False, None
    if key == "$undefined":
        return True, MISSING
    if key == "$bigint":
        return True, int(payload)
    if key == "$number":
        if payload not in _NUMBER_TAGS:
            raise ValueError(f"unknown $number {payload!r}")
        return True, _NUMBER_TAGS[payload]
    if key == "$literal":
        return True, payload
    if key == "$repeat":
        # Hostile sizes without hostile files: a text repeated, up to 16 MiB.
        text = payload.get("text") if isinstance(payload, dict) else None
        times = payload.get("times") if isinstance(payload, dict) else None
        if not isinstance(text, str) or not isinstance(times, int) or isinstance(times, bool) or times < 0:
            raise ValueError("$repeat takes {text: str, times: int >= 0}")
        if len(text) * times > 16 * 1024 * 1024:
            raise ValueError("$repeat makes at most 16 MiB")
        return True, text * times
    if key == "$concat":
        parts = [decode_tags(part) for part in payload] if isinstance(payload, list) else None
        if parts is None or not all(isinstance(part, str) for part in parts):
            raise ValueError("$concat takes a list of texts")
        return True, "".join(parts)
    if key == "$float":
        return True, float(payload)
    raise ValueError(f"unknown tag {key!r}")


def decode_tags(value: Any) -> Any:
    """Decodes the tagged encoding of ``VECTORS.md`` (iteratively). ``undefined`` is ``None`` at the top and in
    lists, and a key left out in mappings; ``$bigint`` an ``int``; ``$number`` a ``float``; ``$literal`` as written;
    ``$float`` a ``float``.

    >>> decode_tags({"a": {"$undefined": True}, "b": [{"$bigint": "12"}]})
    {'b': [12]}
    """
    is_tag, decoded = _tag(value)
    if is_tag:
        return None if decoded is MISSING else decoded
    if not isinstance(value, (dict, list)):
        return value
    root: Any = {} if isinstance(value, dict) else []
    work = [(value, root)]
    while work:
        source, target = work.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            is_tag, decoded = _tag(item)
            if is_tag:
                if decoded is MISSING:
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
