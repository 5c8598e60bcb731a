"""The mapping-level comparison of a message list (sanitize, R4 and a provider's; prepareForTemplate, R5), as VECTORS.md describes it
and the TypeScript runner's ``compareMessagesAtMappingLevel`` does: shape and pairing, not the reference's bytes and
wording."""

from __future__ import annotations

import json
from typing import Any, Mapping

from ._compare import json_equal, show


class _Any:
    """Expected-side wildcard: some value must be there; its text is the reference's own wording."""

    def __repr__(self) -> str:
        return "<any text>"


ANY: Any = _Any()


class _WrittenText:
    """Expected-side: arguments text the reference wrote; any text holding the same JSON value matches."""

    def __init__(self, view: Any):
        self.view = view


def _no_content(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, (list, tuple)) and len(value) == 0)


def _arguments_view(value: Any, form: str, input_arguments: set = frozenset(), expected_side: bool = False) -> Any:
    if form == "template":
        # Text the reference wrote from a mapping is its own bytes: any text holding the same JSON value will do.
        if expected_side and isinstance(value, str) and value not in input_arguments:
            return _WrittenText(_arguments_view(value, "wire"))
        return value
    if not isinstance(value, str):
        return {"not text": value}
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return {"not JSON": value}
    return parsed if isinstance(parsed, dict) else {"not object text": value}


def _call_view(call: Any, form: str, input_ids: set, input_arguments: set, expected_side: bool) -> Any:
    if not isinstance(call, Mapping):
        return call
    view: dict = {}
    call_id = call.get("id")
    if isinstance(call_id, str):
        view["id"] = ANY if expected_side and call_id not in input_ids else call_id
    function = call.get("function") if isinstance(call.get("function"), Mapping) else {}
    for key, value in function.items():
        if value is not None:
            view[key] = _arguments_view(value, form, input_arguments, expected_side) if key == "arguments" else value
    for key, value in call.items():
        if key not in ("id", "type", "function") and value is not None:
            view[key] = value
    return view


def _list_view(messages: Any, form: str, facts: tuple, expected_side: bool) -> Any:
    input_texts, input_ids, input_arguments = facts
    if not isinstance(messages, (list, tuple)):
        return messages
    ordinal_of_id: dict = {}
    ordinal = 0
    out = []
    for message in messages:
        if not isinstance(message, Mapping):
            out.append(message)
            continue
        view: dict = {}
        for key, value in message.items():
            if value is None:
                continue
            if key == "content":
                if _no_content(value):
                    continue
                # Text the reference wrote: a tool result's (R4), or in a sanitized history any message's (a
                # provider's bridge message, a placeholder for blank text, reasoning moved into the content).
                written = message.get("role") == "tool" or form == "wire"
                ours = expected_side and written and isinstance(value, str) and value not in input_texts
                view["content"] = ANY if ours else value
            elif key == "tool_calls" and isinstance(value, (list, tuple)):
                if not value:
                    continue
                view["tool_calls"] = [_call_view(call, form, input_ids, input_arguments, expected_side) for call in value]
                for call in value:
                    if isinstance(call, Mapping) and isinstance(call.get("id"), str):
                        ordinal_of_id[call["id"]] = ordinal
                    ordinal += 1
            elif key == "tool_call_id":
                view["answers call"] = ordinal_of_id.get(value, "none") if isinstance(value, str) else value
            else:
                view[key] = value
        out.append(view)
    return out


def _input_facts(messages: Any) -> tuple:
    texts, ids, arguments = set(), set(), set()
    for message in messages if isinstance(messages, (list, tuple)) else []:
        if not isinstance(message, Mapping):
            continue
        if isinstance(message.get("content"), str):
            texts.add(message["content"])
        calls = message.get("tool_calls")
        for call in calls if isinstance(calls, (list, tuple)) else []:
            if not isinstance(call, Mapping):
                continue
            if isinstance(call.get("id"), str):
                ids.add(call["id"])
            function = call.get("function")
            if isinstance(function, Mapping) and isinstance(function.get("arguments"), str):
                arguments.add(function["arguments"])
    return texts, ids, arguments


_SHAPE_KEYS = ("role", "content", "tool_calls", "answers call")
_NONE: Any = object()


def _show(value: Any) -> str:
    if isinstance(value, _WrittenText):
        return f"text holding {_show(value.view)}"
    return "<any text>" if value is ANY else "undefined" if value is _NONE else show(value)


def _compare_value(expected: Any, actual: Any, path: str, out: list) -> None:
    if isinstance(expected, _WrittenText):
        if not isinstance(actual, str):
            out.append(f"{path}: expected text, got {_show(actual)}")
        else:
            _compare_value(expected.view, _arguments_view(actual, "wire"), path, out)
        return
    if expected is ANY:
        if actual is _NONE:
            out.append(f"{path}: expected a value, got none")
        return
    if expected is _NONE or actual is _NONE or not json_equal(expected, actual):
        if not (expected is _NONE and actual is _NONE):
            out.append(f"{path}: expected {_show(expected)}, got {_show(actual)}")


def _compare_record(expected: Any, actual: Any, path: str, out: list) -> None:
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        _compare_value(expected, actual, path, out)
        return
    keys = list(expected) + [key for key in _SHAPE_KEYS if key in actual and key not in expected]
    for key in keys:
        want, got = expected.get(key, _NONE), actual.get(key, _NONE)
        if key == "tool_calls" and isinstance(want, list) and isinstance(got, list):
            if len(want) != len(got):
                out.append(f"{path}.tool_calls: expected {len(want)} calls, got {len(got)}: {show(got)}")
                continue
            for index, call in enumerate(want):
                _compare_record(call, got[index], f"{path}.tool_calls[{index}]", out)
        else:
            _compare_value(want, got, f"{path}.{key}", out)


def compare_messages_at_mapping_level(form: str, input: Any, expected: Any, actual: Any) -> list[str]:
    """One message per difference at the mapping level, naming its path (``messages[2].tool_calls[0].arguments``);
    ``[]`` when they agree. ``form`` is ``"wire"`` (sanitize: arguments are text, compared by their JSON value) or
    ``"template"`` (prepareForTemplate: arguments compared as given).

    >>> compare_messages_at_mapping_level("template", [], [{"role": "assistant", "content": None}],
    ...                                   [{"role": "assistant", "content": ""}])
    []
    """
    facts = _input_facts(input)
    want = _list_view(expected, form, facts, True)
    got = _list_view(actual, form, facts, False)
    out: list[str] = []
    if not isinstance(want, list) or not isinstance(got, list):
        _compare_value(want, got, "messages", out)
        return out
    if len(want) != len(got):
        def roles(items: list) -> str:
            return ", ".join(str(m.get("role")) if isinstance(m, dict) else show(m) for m in items)

        out.append(f"messages: expected {len(want)} messages ({roles(want)}), got {len(got)} ({roles(got)})")
        return out
    for index, message in enumerate(want):
        _compare_record(message, got[index], f"messages[{index}]", out)
    return out
