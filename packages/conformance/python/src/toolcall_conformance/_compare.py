"""JSON equality and the small helpers the checks share."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

from ._tags import MISSING


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, float, Decimal, Fraction))


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: key order ignored, list == tuple, ``True != 1``, ``1 == 1.0``, ``NaN == NaN``. Iterative.

    >>> json_equal({"a": [1, 2.0]}, {"a": (1.0, 2)}), json_equal(True, 1)
    (True, False)
    """
    work = [(a, b)]
    while work:
        x, y = work.pop()
        if x is y:
            continue
        if _is_number(x) and _is_number(y):
            if not (x == y or (x != x and y != y)):
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


def clone(value: Any) -> Any:
    """A deep copy of lists and dicts (iterative); other values are shared."""
    if not isinstance(value, (dict, list)):
        return value
    root: Any = {} if isinstance(value, dict) else []
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


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def show(value: Any, limit: int = 400) -> str:
    """A short printable form of a value for failure messages (JSON where it can be)."""
    if value is MISSING:
        return "<missing>"
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr, separators=(",", ":"))
    except (ValueError, RecursionError):
        text = "<too deep to show>"
    except TypeError:
        text = repr(value)
    # A lone surrogate cannot be printed or written as UTF-8: show it escaped, as JSON would.
    text = _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def field(obj: Any, name: str, default: Any = MISSING) -> Any:
    """``obj[name]`` or ``obj.name``, trying the camelCase and snake_case spellings."""
    for key in dict.fromkeys((name, snake(name))):
        if isinstance(obj, Mapping):
            if key in obj:
                return obj[key]
        elif hasattr(obj, key):
            return getattr(obj, key)
    return default


def as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else []
