"""Comparing one result with a vector's ``expected``, at a level (the TypeScript runner's ``checkResult``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Mapping

from ._compare import as_list, field, json_equal, show
from ._messages import compare_messages_at_mapping_level
from ._render import check_render
from ._schema import expected_levels, load_schema
from ._tags import MISSING


@lru_cache(maxsize=1)
def shipped_levels() -> dict:
    return expected_levels(load_schema())


def _includes(run: str, check: str) -> bool:
    return run == "full" or check == "mapping"


def _multiset_mismatch(label: str, expected: list, actual: list) -> list[str]:
    if sorted(map(str, expected)) != sorted(map(str, actual)):
        return [f"{label}: expected {show(sorted(map(str, expected)))}, got {show(sorted(map(str, actual)))}"]
    return []


def _find_each(label: str, expected: list, actual: list) -> list[str]:
    """Each expected entry must match one actual entry on every key it gives."""
    messages = []
    for want in expected:
        if not any(all(json_equal(field(have, k), v) for k, v in want.items()) for have in actual):
            messages.append(f"{label}: {show(want)} not found among {show(list(actual))}")
    return messages


def _issue_matches(want: Mapping, have: Any) -> bool:
    """An issue matches a wanted one on every key given; ``messagePrefix`` asks its message to start with it."""
    for key, value in want.items():
        if key == "messagePrefix":
            message = field(have, "message")
            if not isinstance(message, str) or not message.startswith(value):
                return False
        elif not json_equal(field(have, key), value):
            return False
    return True


def _same_set(expected: Any, actual: Any) -> bool:
    return isinstance(actual, (list, tuple)) and sorted(map(str, expected)) == sorted(map(str, actual))


def _check_verdict(expected: Mapping, actual: Any, at, level: str) -> list[str]:
    """``providerVerdict``: who rejects and accepts (a set at the mapping level, the profiles' order at the full
    level), and each finding by code and path."""
    messages = []
    for key in ("rejectedBy", "acceptedBy"):
        if at(key):
            have = field(actual, key)
            same = json_equal(expected[key], have) if level == "full" else _same_set(expected[key], have)
            if not same:
                messages.append(f"{key}: expected {show(expected[key])}, got {show(have)}")
    if at("findings"):
        findings = as_list(field(actual, "findings", []))
        if len(findings) != len(expected["findings"]):
            messages.append(f"findings: expected {len(expected['findings'])}, got {show(findings)}")
        messages += _find_each("findings", expected["findings"], findings)
    return messages


def check_result(
    operation: str, expected: Mapping, actual: Any, context: Mapping | None = None, level: str = "full"
) -> list[str]:
    """Compares one result with a vector's ``expected`` at ``level``; returns the mismatches, each starting with the
    field that differs (``status: expected "empty", got "object"``), or ``[]`` when it conforms. ``actual`` is a
    full-level result (for decode ``{"arguments", "status", …}``, for sanitize ``{"messages", "changes"}``).

    ``context`` carries what some checks need besides the result: ``input`` (the value given, for ``identity``,
    ``unchanged`` and the history comparison), ``input_before`` (a copy taken before the call: the input must not
    have been mutated) and ``encode`` (a callable ``encode(value, **options)`` for ``encoded``).

    >>> check_result("encode", {"text": "{}"}, "{}")
    []
    >>> check_result("decode", {"status": "object", "arguments": {"a": 1}}, {"arguments": {"a": True}}, level="mapping")
    ['arguments: expected {"a":1}, got {"a":true}']
    """
    context = context or {}
    levels = shipped_levels().get(operation)
    if levels is None:
        return [f"operation: {operation!r} is not known to this runner"]
    unknown = [key for key in expected if key not in levels]
    if unknown:
        return [f"{key}: this runner does not know how to check it" for key in unknown]

    def at(key: str, item: str | None = None) -> bool:
        entry = levels.get(key, {})
        key_level = entry.get("items", {}).get(item, entry.get("level")) if item else entry.get("level")
        return key in expected and _includes(level, key_level or "full")

    messages: list[str] = []
    given = context.get("input", MISSING)

    def compare(key: str, have: Any) -> None:
        if at(key) and not json_equal(expected[key], have):
            messages.append(f"{key}: expected {show(expected[key])}, got {show(have)}")

    if operation == "decode":
        compare("status", field(actual, "status"))
        compare("arguments", field(actual, "arguments"))
        if at("repairs"):
            have = field(actual, "repairs")
            compare("repairs", [] if have is MISSING or have is None else have)
        if at("budget"):
            have = field(actual, "budget")
            compare("budget", [] if have is MISSING or have is None else have)
        raw = field(actual, "raw")
        compare("raw", raw)
        if at("rawAbsent") and expected.get("rawAbsent") and raw is not MISSING and raw is not None:
            messages.append(f"rawAbsent: expected no raw, got {show(raw)}")
        if at("identity") and given is not MISSING and (field(actual, "arguments") is given) != bool(expected["identity"]):
            messages.append("identity: the input object was not returned itself")
        if at("encoded"):
            encode = context.get("encode")
            if encode is None:
                messages.append("encoded: no encode callable to check it with")
            else:
                try:
                    text = encode(field(actual, "arguments"), **keyword_options(expected.get("encodeOptions") or {}))
                except Exception as error:  # an implementation's exception is a failure, reported
                    messages.append(f"encoded: encode raised {type(error).__name__}: {error}")
                else:
                    compare("encoded", text)
    elif operation == "encode":
        if at("text") and not isinstance(actual, str):
            messages.append(f"text: expected {show(expected['text'])}, got a {type(actual).__name__}: {show(actual)}")
        else:
            compare("text", actual)
    elif operation in ("validate", "validateHistory", "validateProvider"):
        if at("accepted"):
            if not isinstance(actual, (list, tuple)):
                messages.append(f"accepted: expected {show(expected['accepted'])}, got {show(actual)}")
            elif (len(actual) == 0) != bool(expected["accepted"]):
                messages.append(f"accepted: expected {show(expected['accepted'])}, got {show(len(actual) == 0)}: {show(list(actual))}")
        if at("codes") or at("issues"):
            if not isinstance(actual, (list, tuple)):
                messages.append(f"issues: expected a list of issues, got {show(actual)}")
            else:
                issues = list(actual)
                if "codes" in expected:
                    messages += _multiset_mismatch("codes", list(expected["codes"]), [field(i, "code") for i in issues])
                for want in expected.get("issues", []):
                    if not any(_issue_matches(want, have) for have in issues):
                        messages.append(f"issues: {show(want)} not found among {show(issues)}")
    elif operation == "providerVerdict":
        messages += _check_verdict(expected, actual, at, level)
    elif operation in ("sanitize", "sanitizeProvider", "prepareForTemplate"):
        sanitizes = operation != "prepareForTemplate"
        result_messages = field(actual, "messages") if sanitizes else actual
        if at("messages"):
            if level == "full":
                compare("messages", result_messages)
            else:
                form = "wire" if sanitizes else "template"
                messages += compare_messages_at_mapping_level(form, given, expected["messages"], result_messages)
        if sanitizes:
            if at("unchanged") and given is not MISSING and (result_messages is given) != bool(expected["unchanged"]):
                messages.append("unchanged: the input list was not returned itself")
            changes = as_list(field(actual, "changes", []))
            if at("changes"):
                messages += _multiset_mismatch("changes", list(expected["changes"]), [field(c, "rule") for c in changes])
            if at("changeDetails"):
                messages += _find_each("changeDetails", expected["changeDetails"], changes)
    elif operation in ("accumulate", "decideStream"):
        calls = as_list(actual if isinstance(actual, (list, tuple)) else field(actual, "calls"))
        if at("calls"):
            want_calls = expected["calls"]
            if len(want_calls) != len(calls):
                messages.append(f"calls: expected {len(want_calls)} calls, got {show(calls)}")
            else:
                for index, (want, have) in enumerate(zip(want_calls, calls)):
                    for key, value in want.items():
                        if at("calls", key) and not json_equal(value, field(have, key)):
                            messages.append(f"calls[{index}].{key}: expected {show(value)}, got {show(field(have, key))}")
        if at("decoded"):
            decoded = MISSING if isinstance(actual, (list, tuple)) else field(actual, "decoded")
            if decoded is MISSING:
                decoded = [field(call, "decoded") for call in calls]
            compare("decoded", decoded)
    elif operation in ("parseToolCalls", "readFencedJsonCalls"):
        messages += check_parse(expected, actual, at, level)
    elif operation == "readMalformedFunctionCall":
        compare("candidate", field(actual, "candidate"))
        compare("status", field(actual, "status"))
        if at("issues"):
            codes = [field(issue, "code") for issue in as_list(field(actual, "issues", []))]
            messages += _multiset_mismatch("issues", list(expected["issues"]), codes)
    elif operation == "encodeToolCalls":
        if at("text") and not isinstance(actual, str):
            messages.append(f"text: expected {show(expected['text'])}, got a {type(actual).__name__}: {show(actual)}")
        else:
            compare("text", actual)
    elif operation == "normalizeAnswer":
        for key in ("text", "changed", "usable", "status"):
            compare(key, field(actual, key))
        if at("repairs"):
            have = field(actual, "repairs")
            compare("repairs", [] if have is MISSING or have is None else have)
    elif operation == "render":
        messages += check_render(expected, actual if isinstance(actual, Mapping) else {"text": actual}, at)
    before = context.get("input_before", MISSING)
    if before is not MISSING and given is not MISSING and not json_equal(before, given):
        messages.append(f"input: mutated; it was {show(before)}, it is now {show(given)}")
    return messages


def _json_value(text: Any) -> Any:
    import json

    try:
        return json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return text


def check_parse(expected: Mapping, actual: Any, at: Any, level: str, label: str = "") -> list[str]:
    """A parse of model text (R10) against ``expected`` (the TypeScript runner's ``checkParse``): ``toolCalls`` (names,
    ids where given, arguments byte for byte at the full level and by their JSON value at the mapping level),
    ``content``, ``reasoning``, and the issue codes (full level). ``at(key)`` says whether the level checks a key."""
    messages: list[str] = []
    calls = field(actual, "tool_calls")
    if calls is MISSING:
        calls = field(actual, "toolCalls", [])
    calls = as_list(calls)
    if at("toolCalls"):
        want = list(expected["toolCalls"])

        def view(name: Any, arguments: Any, call_id: Any, index: int) -> dict:
            item = {"name": name, "arguments": arguments if level == "full" else _json_value(arguments)}
            if index < len(want) and "id" in want[index]:
                item["id"] = call_id
            return item

        wanted = [view(w["name"], w["arguments"], w.get("id"), i) for i, w in enumerate(want)]
        have = []
        for index, call in enumerate(calls):
            function = field(call, "function", {})
            have.append(view(field(function, "name"), field(function, "arguments"), field(call, "id"), index))
        if not json_equal(wanted, have):
            messages.append(f"{label}toolCalls: expected {show(wanted)}, got {show(have)}")
    for key in ("content", "reasoning"):
        if at(key):
            have = field(actual, key, None)
            if not json_equal(expected[key], None if have is MISSING else have):
                messages.append(f"{label}{key}: expected {show(expected[key])}, got {show(have)}")
    if at("issues"):
        codes = [field(issue, "code") for issue in as_list(field(actual, "issues", []))]
        messages += [label + m for m in _multiset_mismatch("issues", list(expected["issues"]), codes)]
    return messages


def stream_splits(text: str) -> list[list[str]]:
    """The splits a parse vector's text is streamed in: every code point alone, two halves, and three splits drawn
    from a generator seeded with the text (the TypeScript runner's ``streamSplits``, cut for cut).

    >>> stream_splits("ab😀c")[0]
    ['a', 'b', '😀', 'c']
    """
    points = list(text)
    half = len(points) >> 1
    splits = [points, ["".join(points[:half]), "".join(points[half:])]]
    seed = 2166136261
    for c in text:
        seed = ((seed ^ ord(c)) * 16777619) & 0xFFFFFFFF
    for _ in range(3):
        chunks, current = [], ""
        for point in points:
            current += point
            seed = (seed * 1103515245 + 12345) & 0xFFFFFFFF
            if seed % 4 == 0:
                chunks.append(current)
                current = ""
        chunks.append(current)
        splits.append(chunks)
    return splits


def keyword_options(options: Mapping, accepted: Iterable[str] | None = None) -> dict:
    """Vector options (camelCase) as keyword arguments (snake_case); with ``accepted``, only those names."""
    from ._compare import snake

    out = {snake(key): value for key, value in options.items()}
    return out if accepted is None else {key: value for key, value in out.items() if key in set(accepted)}
