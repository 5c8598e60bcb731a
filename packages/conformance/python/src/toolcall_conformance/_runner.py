"""Running vectors against an implementation: its declaration, the skip list, one case, a whole run."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Iterable, Mapping

from ._checks import check_parse, check_result, keyword_options, shipped_levels, stream_splits
from ._compare import as_list, clone, field, show
from ._loading import OPERATIONS, VectorCase, load_vectors
from ._messages import compare_messages_at_mapping_level
from ._render import render_input, render_outcome

LEVELS = ("mapping", "full")

#: What the repair id ``"core"`` stands for, in the order core applies them (``jsonrepair`` is not among them).
CORE_REPAIR_IDS: tuple = (
    "markdown-fence",
    "family-markup",
    "template-suffix",
    "literal-escapes",
    "python-literal",
    "unquoted-values",
    "control-characters",
    "trailing-commas",
    "stray-text",
    "repeated-object",
)

#: The one order repairs run in, whatever order they are given in (core's ``REPAIR_ORDER``; RULES.md R6 names none).
REPAIR_ORDER: tuple = ("gemma-quote-markers", *CORE_REPAIR_IDS, "jsonrepair")


class ConformanceSkip(Exception):
    """Raised by :func:`run_case` for a vector that cannot run against this implementation; ``str()`` is why."""


class NotApplicable(ConformanceSkip):
    """The vector has nothing to check at the run's level (a status, at the mapping level): not counted at all."""


class DeclarationError(ValueError):
    """The implementation declares a level or an operation the suite does not know, or lacks a declared one."""


def _lookup(implementation: Any, name: str) -> Any:
    for key in (name, name.upper()):
        value = implementation.get(key) if isinstance(implementation, Mapping) else getattr(implementation, key, None)
        if value is not None:
            return value
    return None


def declared_level(implementation: Any) -> str:
    level = _lookup(implementation, "level")
    return "full" if level is None else level


def check_implementation(implementation: Any) -> list[str]:
    """What is wrong with an implementation's declaration (``LEVEL``/``level``, ``OPERATIONS``/``operations``)."""
    problems = []
    level = _lookup(implementation, "level")
    if level is not None and level not in LEVELS:
        problems.append(f"level {level!r} is not 'mapping' or 'full'")
    operations = _lookup(implementation, "operations")
    if operations is not None:
        if isinstance(operations, (str, bytes)) or not isinstance(operations, Iterable):
            return problems + ["operations is not a list"]
        for operation in operations:
            if operation not in OPERATIONS:
                problems.append(f"operation {operation!r} is not one of {', '.join(OPERATIONS)}")
            elif not callable(_lookup(implementation, OPERATIONS[operation])):
                problems.append(f"operation {operation} is declared but has no callable {OPERATIONS[operation]}")
    return problems


def load_implementation(spec: str) -> Any:
    """``module:name`` (or ``module``) -> the implementation. ``name`` is an implementation (a module, an object,
    a dict of callables), a class (instantiated), or a factory taking no argument (called). The working directory
    is importable, as with ``python -m``. Raises :class:`DeclarationError` for a bad spec or declaration."""
    module_name, _, attribute = spec.partition(":")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise DeclarationError(f"cannot import {module_name!r}: {error}") from error
    for part in filter(None, attribute.split(".")):
        if not hasattr(target, part):
            raise DeclarationError(f"{module_name!r} has no {attribute!r}")
        target = getattr(target, part)
    if inspect.isclass(target):
        target = target()
    elif callable(target) and not inspect.ismodule(target):
        required = [
            p
            for p in inspect.signature(target).parameters.values()
            if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if required:
            raise DeclarationError(
                f"{spec} takes arguments: give an implementation (an object or module with decode_arguments, …) "
                "or a factory that takes none"
            )
        target = target()
    problems = check_implementation(target)
    if problems:
        raise DeclarationError(f"{spec}: " + "; ".join(problems))
    return target


class SkipList:
    """One skip syntax for every runner: a vector id, or an id prefix ending in ``*``. A mapping gives reasons."""

    def __init__(self, entries: Any = ()):
        self.reasons = dict(entries.items()) if isinstance(entries, Mapping) else {entry: None for entry in entries}

    def match(self, case_id: str) -> str | None:
        for entry in self.reasons:
            if entry == case_id or (entry.endswith("*") and case_id.startswith(entry[:-1])):
                return entry
        return None

    def reason(self, case_id: str) -> str | None:
        entry = self.match(case_id)
        if entry is None:
            return None
        why = self.reasons[entry]
        return f"in the skip list ({entry}): {why}" if why else f"in the skip list ({entry})"

    def unmatched(self, ids: Iterable[str]) -> list[str]:
        ids = list(ids)
        return [e for e in self.reasons if not any(i == e or (e.endswith("*") and i.startswith(e[:-1])) for i in ids)]


def _repair_rules(implementation: Any, ids: list) -> list:
    available = _lookup(implementation, "REPAIRS")
    if not isinstance(available, Mapping):
        raise ConformanceSkip(f"the vector asks for repairs {ids} and the implementation has no REPAIRS")
    wanted: list = []
    for repair_id in ids:
        wanted.extend(CORE_REPAIR_IDS if repair_id == "core" and "core" not in available else [repair_id])
    missing = [repair_id for repair_id in wanted if repair_id not in available]
    if missing:
        raise ConformanceSkip(f"the implementation has no repair {', '.join(missing)} in REPAIRS")
    rules: list = []
    for repair_id in wanted:
        rule = available[repair_id]
        rules.extend(rule if isinstance(rule, (list, tuple)) else [rule])
    return rules


def _accepted(function: Any) -> list | None:
    """The keyword names ``function`` takes, or ``None`` when it takes any (``**options``) or cannot be read."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _as_result(operation: str, actual: Any, declared: str) -> Any:
    if declared == "mapping" and operation == "decode":
        return {"arguments": actual}
    if declared == "mapping" and operation in ("sanitize", "sanitizeProvider") and isinstance(actual, (list, tuple)):
        return {"messages": actual}
    return actual


def _thrown(error: BaseException) -> str:
    return f"threw {type(error).__name__}: {error}"


def run_case(
    case: VectorCase, implementation: Any, skip: Any = (), level: str | None = None, templates: Any = None
) -> list[str]:
    """Runs one vector against ``implementation`` at ``level`` (default: its declared ``LEVEL``, else ``full``):
    returns the mismatches, each starting with the field that differs, or raises :class:`ConformanceSkip`
    (:class:`NotApplicable` when the vector has nothing to check at that level).

    Options the vector gives are passed as snake_case keywords, those the callable takes (all of them to one that
    takes ``**options``). Besides ``expected``, the input must not be mutated, ``sanitize_history`` and
    ``sanitize_for_provider`` must be idempotent, and a history sanitized for a provider must raise nothing in the
    implementation's own ``validate_for_provider``. An exception from the implementation is a failure (``threw …``): the operations are total.
    A render (R8) is the exception: ``render_template`` raises what the template raises, and a vector may expect it.
    ``templates`` is the directory of the shared chat templates some render vectors name (default
    ``$TOOLCALL_TEMPLATES``); without it they are skipped, with the reason.
    """
    skips = skip if isinstance(skip, SkipList) else SkipList(skip)
    declared = declared_level(implementation)
    level = level or declared
    if level not in LEVELS:
        raise DeclarationError(f"level {level!r} is not 'mapping' or 'full'")
    if level not in case.levels:
        raise NotApplicable(f"nothing to check at the {level} level")
    reason = skips.reason(case.id)
    if reason:
        raise ConformanceSkip(reason)
    name = OPERATIONS.get(case.operation)
    if name is None:
        raise DeclarationError(f"operation {case.operation!r} is not known to this runner")
    operations = _lookup(implementation, "operations")
    if operations is not None and case.operation not in operations:
        raise ConformanceSkip(f"operation {case.operation} is not declared")
    function = _lookup(implementation, name)
    if not callable(function):
        raise ConformanceSkip(f"the implementation has no {name} (operation {case.operation})")
    options = dict(case.options)
    ids = options.pop("repairs", None)
    if ids:
        options["repairs"] = _repair_rules(implementation, list(ids))
    keywords = keyword_options(options, _accepted(function))
    context: dict = {}
    if "encoded" in case.expected:
        encode = _lookup(implementation, OPERATIONS["encode"])
        if not callable(encode):
            raise ConformanceSkip("the vector checks `encoded` and the implementation has no encode_arguments")
        context["encode"] = lambda value, **opts: encode(value, **keyword_options(opts, _accepted(encode)))
    given = clone(case.input)  # a fresh copy per run: a mutating implementation cannot poison a rerun
    if case.operation == "render":
        given, why = render_input(given, templates)
        if given is None:
            raise ConformanceSkip(why)
    context["input"] = given
    context["input_before"] = clone(given)

    def call(value: Any) -> Any:
        if case.operation in ("accumulate", "decideStream"):
            source = value if isinstance(value, Mapping) else {}
            accepted = _accepted(function)
            takes = accepted is None or "finish_reason" in accepted
            extra = {"finish_reason": source.get("finishReason")} if takes and "finish_reason" not in keywords else {}
            return function(as_list(source.get("deltas")), **extra, **keywords)
        if case.operation == "render":
            return render_outcome(lambda data: function(data, **keywords), value)
        return function(value, **keywords)

    try:
        actual = _as_result(case.operation, call(given), declared)
    except Exception as error:  # noqa: BLE001 — the implementation's failure, reported as one
        return [_thrown(error)]
    messages = check_result(case.operation, case.expected, actual, context, level)
    stream = _lookup(implementation, "stream_tool_calls")
    if case.operation == "parseToolCalls" and callable(stream):
        # R10: however the text is split, a stream finds what the whole parse finds.
        levels = shipped_levels().get("parseToolCalls", {})

        def at(key: str) -> bool:
            return key in case.expected and (level == "full" or levels.get(key, {}).get("level") == "mapping")

        for chunks in stream_splits(str(given)):
            try:
                streamed = stream(chunks, **keyword_options(options, _accepted(stream)))
            except Exception as error:  # noqa: BLE001 — the implementation's failure, reported as one
                messages.append(f"stream: {_thrown(error)}")
                continue
            messages += check_parse(case.expected, streamed, at, level, f"streamed in {len(chunks)} pieces: ")
    if case.operation in ("sanitize", "sanitizeProvider") and not messages:
        first = field(actual, "messages")
        try:
            again = _as_result(case.operation, function(first, **keywords), declared)
        except Exception as error:  # noqa: BLE001
            return [f"idempotent: the second pass {_thrown(error)}"]
        if level == "full":
            changes = as_list(field(again, "changes", []))
            if changes or field(again, "messages") is not first:
                messages.append(f"idempotent: a second pass made {show([field(c, 'rule') for c in changes])}")
        else:
            drift = compare_messages_at_mapping_level("wire", first, first, field(again, "messages"))
            if drift:
                messages.append("idempotent: a second pass changed " + "; ".join(drift))
        if case.operation == "sanitizeProvider":
            messages += _still_rejected(implementation, first, options)
    return messages


def _still_rejected(implementation: Any, history: Any, options: Mapping) -> list[str]:
    """A history sanitized for a provider raises nothing in the implementation's own ``validate_for_provider``."""
    operations = _lookup(implementation, "operations")
    validate = _lookup(implementation, OPERATIONS["validateProvider"])
    if not callable(validate) or (operations is not None and "validateProvider" not in operations):
        return []
    try:
        left = validate(history, **keyword_options(options, _accepted(validate)))
    except Exception as error:  # noqa: BLE001
        return [f"accepted: validate_for_provider on the sanitized history {_thrown(error)}"]
    if not isinstance(left, (list, tuple)) or len(left) > 0:
        return [f"accepted: the sanitized history still raises {show(left)}"]
    return []


@dataclass
class Totals:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    not_applicable: int = 0


def _totals_json(totals: Totals) -> dict:
    return {"passed": totals.passed, "failed": totals.failed, "skipped": totals.skipped, "notApplicable": totals.not_applicable}


@dataclass
class Summary(Totals):
    """Totals of a run, overall and per rule, with each failure's messages."""

    level: str = "full"
    failures: list = dataclass_field(default_factory=list)
    by_rule: dict = dataclass_field(default_factory=dict)
    unmatched_skips: list = dataclass_field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "level": self.level,
            "passed": self.passed,
            "failed": self.failed,
            "skipped": self.skipped,
            "notApplicable": self.not_applicable,
            "byRule": {rule: _totals_json(totals) for rule, totals in sorted(self.by_rule.items())},
            "failures": self.failures,
            "unmatchedSkips": self.unmatched_skips,
        }


def run_suite(
    implementation: Any,
    level: str | None = None,
    skip: Any = (),
    root: Any = None,
    rules: Iterable[str] | None = None,
    templates: Any = None,
) -> Summary:
    """Runs every vector (of ``rules``, when given) at ``level`` and totals the outcomes: the pytest-free runner.
    ``templates``: the shared chat templates' directory, for render vectors that name one."""
    cases = [case for case in load_vectors(root) if rules is None or case.rule in set(rules)]
    skips = SkipList(skip)
    summary = Summary(level=level or declared_level(implementation))
    summary.unmatched_skips = skips.unmatched(case.id for case in load_vectors(root, check=False))
    for case in cases:
        totals = summary.by_rule.setdefault(case.rule, Totals())
        try:
            messages = run_case(case, implementation, skips, summary.level, templates)
        except NotApplicable:
            key = "not_applicable"
        except ConformanceSkip:
            key = "skipped"
        else:
            key = "failed" if messages else "passed"
            if messages:
                summary.failures.append({"id": case.id, "title": case.title, "messages": messages})
        setattr(summary, key, getattr(summary, key) + 1)
        setattr(totals, key, getattr(totals, key) + 1)
    return summary
