"""Run toolcall's conformance vectors against a Python implementation: with pytest, or without.

The vectors are the language-agnostic JSON files of ``@toolcall/conformance`` (``vectors/<rule>/<topic>.json``,
format in ``VECTORS.md``), shipped inside this package with the provider profiles as data
(:func:`provider_profiles`). Standard library only.

With pytest (the plugin is registered on install)::

    pytest --toolcall-impl my_stack.conformance:implementation [--toolcall-level mapping] [--toolcall-skip ID]

Without::

    python -m toolcall_conformance --impl my_stack.conformance:implementation [--level mapping] [--json]

An implementation is a module, an object or a dict with some of these callables (vectors of the operations it
lacks are skipped, with the reason), and optionally ``LEVEL`` (``"mapping"`` or ``"full"``, the default) and
``OPERATIONS`` (the vector operations it answers):

=====================  ============================================================================================
vector operation       callable, and what it returns (full level; at the mapping level decode returns the mapping
                       itself and sanitize the message list)
=====================  ============================================================================================
``decode``             ``decode_arguments(value, **options)`` -> ``{"arguments", "status", "repairs", "raw"?}``
``encode``             ``encode_arguments(value, **options)`` -> ``str``
``validate``           ``validate_tool_call(call, **options)`` -> ``[{"code", "severity", "path", "message"}]``
``validateHistory``    ``validate_history(messages, **options)`` -> a list of issues, as above
``sanitize``           ``sanitize_history(messages, **options)`` -> ``{"messages", "changes"}``
``prepareForTemplate`` ``prepare_for_template(messages, **options)`` -> the list of messages to render
``accumulate``         ``accumulate(deltas, finish_reason=..., **options)`` -> a list of calls
                       ``{"index", "id", "name", "arguments", "status", "decoded"}``
``decideStream``       ``decide_stream(deltas, finish_reason=..., **options)`` -> a list of calls ``{"index", "id",
                       "name", "text", "usable", "status", "opened"}``: what a stream's client holds (R9)
``parseToolCalls``     ``parse_tool_calls(text, syntax=..., **options)`` -> ``{"tool_calls", "content", "reasoning",
                       "issues"}`` (each call ``{"id", "function": {"name", "arguments"}}``); with
                       ``stream_tool_calls(chunks, syntax=..., **options)`` too, every split (``stream_splits``) is
                       checked against the same expectations
``encodeToolCalls``    ``encode_tool_calls(calls, syntax=...)`` -> ``str`` (each call ``{"id"?, "name", "arguments"}``)
``readFencedJsonCalls`` ``read_fenced_json_calls(content, tools=...)`` -> as ``parse_tool_calls`` (no reasoning)
``readMalformedFunctionCall`` ``read_malformed_function_call(candidate, tools=...)`` -> ``{"candidate", "status",
                       "issues"}``
``validateProvider``   ``validate_for_provider(messages, provider=...)`` -> the issues that provider raises, each
                       with ``code``, ``severity``, ``path``, ``message`` (its literal error text) and ``status``
                       (mapping level: any list, one entry per rejection)
``sanitizeProvider``   ``sanitize_for_provider(messages, provider=..., **options)`` -> ``{"messages", "changes"}``
                       (mapping level: the message list)
``providerVerdict``    ``provider_verdict(messages, providers=None)`` -> ``{"rejectedBy", "acceptedBy",
                       "findings"}``, each finding ``{"code", "path", "rejectedBy"}``
``normalizeAnswer``    ``normalize_answer_arguments(value, **options)`` -> ``{"text", "changed", "usable", "status",
                       "repairs"}``: the arguments a call gets in a fresh answer (a response coming back)
``render``             ``render_template(input)`` -> the rendered text, or raises what the template raises
                       (compared by ``type(e).__name__`` and ``str(e)``); ``input`` is ``{"template", "messages",
                       "tools", "addGenerationPrompt", "variables", "now"}`` (R8: render as transformers'
                       ``apply_chat_template`` does; ``now`` is the local time ``strftime_now`` reads). A vector that
                       names a shared template file reads it from ``templates`` (``--toolcall-templates``,
                       ``--templates``) or ``$TOOLCALL_TEMPLATES``, and is skipped, with the reason, without it
=====================  ============================================================================================
"""

from ._checks import check_result, stream_splits
from ._compare import json_equal
from ._data import contract_version, provider_profiles
from ._loading import OPERATIONS, VectorCase, VectorError, check_vectors, load_vectors
from ._messages import compare_messages_at_mapping_level
from ._render import DEFAULT_RENDER_CLOCK
from ._runner import (
    CORE_REPAIR_IDS,
    LEVELS,
    REPAIR_ORDER,
    ConformanceSkip,
    DeclarationError,
    NotApplicable,
    SkipList,
    Summary,
    check_implementation,
    load_implementation,
    run_case,
    run_suite,
)
from ._schema import SchemaError
from ._tags import decode_tags

#: This package's version: the vector contract's (``@toolcall/conformance``'s, in PEP 440 form).
__version__ = VECTOR_CONTRACT_VERSION = contract_version()

__all__ = [
    "CORE_REPAIR_IDS",
    "DEFAULT_RENDER_CLOCK",
    "LEVELS",
    "OPERATIONS",
    "REPAIR_ORDER",
    "VECTOR_CONTRACT_VERSION",
    "ConformanceSkip",
    "DeclarationError",
    "NotApplicable",
    "SchemaError",
    "SkipList",
    "Summary",
    "VectorCase",
    "VectorError",
    "__version__",
    "check_implementation",
    "check_result",
    "check_vectors",
    "compare_messages_at_mapping_level",
    "decode_tags",
    "json_equal",
    "load_implementation",
    "load_vectors",
    "make_test",
    "provider_profiles",
    "run_case",
    "stream_splits",
    "run_suite",
]


def make_test(implementation, skip=(), root=None, level=None, templates=None):
    """A pytest test function parametrized over every vector, for a test module of your own::

        test_conformance = make_test(my_impl, skip={"r1-lossless-*": "why"}, level="mapping")

    Each vector is one test, named by its id. Vectors the implementation cannot run are skipped with the reason;
    a vector file that breaks the schema, a bad declaration or a skip entry naming no vector fails. ``templates``
    is the directory of the shared chat templates some render vectors name (default ``$TOOLCALL_TEMPLATES``).
    """
    import pytest

    problems: list = check_implementation(implementation)
    try:
        cases = list(load_vectors(root))
        skips = SkipList(skip)
        unmatched = skips.unmatched(case.id for case in cases)
        if unmatched:
            problems.append(f"skip entries that name no vector: {', '.join(unmatched)}")
        if not cases:
            problems.append("no vectors found")
    except (FileNotFoundError, VectorError) as error:
        cases, skips = [], SkipList(skip)
        problems.append(str(error))
    params = [pytest.param(case, id=case.id) for case in cases]
    if problems or not params:
        params.append(pytest.param(None, id="toolcall-conformance-setup"))

    @pytest.mark.parametrize("conformance_case", params)
    def test_conformance(conformance_case):
        if conformance_case is None:
            pytest.fail("; ".join(problems) or "no vectors found", pytrace=False)
        try:
            mismatches = run_case(conformance_case, implementation, skips, level, templates)
        except ConformanceSkip as reason:
            pytest.skip(str(reason))
        if mismatches:
            pytest.fail(
                f"{conformance_case.id}: " + "\n  ".join(mismatches) + f"\n  ({conformance_case.title})", pytrace=False
            )

    return test_conformance
