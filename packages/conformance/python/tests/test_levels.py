"""Levels and the mapping-level history comparison, as the TypeScript runner has them (VECTORS.md, "Levels")."""

import copy
import json

import pytest

import toolcall_conformance as runner
import toolcall_reference as reference
import toolcall_reference_providers as provider_reference

CASES = {case.id: case for case in runner.load_vectors()}


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def mapping_decode(value, **options):
    """A stack's own decode: the mapping, nothing of ours (strict JSON: Python's json accepts NaN unless told)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    if not isinstance(value, str):
        return {"_raw_arguments": value}
    try:
        parsed = json.loads(value, parse_constant=_no_constants) if value.strip() else {}
    except (ValueError, RecursionError):
        return {"_raw_arguments": value}
    if parsed is None:
        return {}
    if isinstance(parsed, str):
        try:
            inner = json.loads(parsed)
        except ValueError:
            inner = None
        return inner if isinstance(inner, dict) else {"_raw_arguments": value}
    return parsed if isinstance(parsed, dict) else {"_raw_arguments": value}


def test_levels_come_from_the_schema():
    levels = runner._checks.shipped_levels()
    assert levels["decode"]["status"] == {"level": "full"}
    assert levels["decode"]["arguments"] == {"level": "mapping"}
    assert levels["accumulate"]["calls"]["items"]["status"] == "full"
    assert CASES["r1-statuses-null-is-absent"].levels == ("mapping", "full")
    assert CASES["r3-validate-text-null"].levels == ("full",)
    assert CASES["r1-hostile-depth-1001-is-invalid"].levels == ("full",)


def test_a_mapping_level_decode_is_scored_on_the_mapping():
    implementation = {"LEVEL": "mapping", "decode_arguments": mapping_decode}
    case = CASES["r1-statuses-text-null-is-a-null-literal"]
    assert runner.run_case(case, implementation) == []
    assert runner.run_case(case, implementation, level="full")[0] == 'status: expected "null_literal", got <missing>'
    summary = runner.run_suite(implementation, rules=["R1"])
    lossless = [case_id for case_id in CASES if case_id.startswith("r1-lossless-")]
    assert summary.failures == []
    decode_cases = [case for case in CASES.values() if case.rule == "R1" and case.operation == "decode"]
    others = sum(1 for case in CASES.values() if case.rule == "R1" and case.operation != "decode")
    assert summary.passed == sum(1 for case in decode_cases if "mapping" in case.levels) - len(lossless)
    # `encoded` needs encode_arguments; R1's other operations (fresh answers) are not implemented here.
    assert summary.skipped == len(lossless) + others


def test_vllm_falsy_natives_bug_fails_at_the_mapping_level():
    def decode(value, **options):
        return {} if value in (0, False) and not isinstance(value, str) else mapping_decode(value)

    failures = runner.run_suite({"LEVEL": "mapping", "decode_arguments": decode}, rules=["R1"]).failures
    assert [f["id"] for f in failures] == ["r1-pinned-cases-native-zero", "r1-pinned-cases-native-false"]
    assert failures[0]["messages"] == ['arguments: expected {"_raw_arguments":0}, got {}']


def history_case(case_id):
    case = CASES[case_id]
    return case, copy.deepcopy(case.expected["messages"])


def check(case, messages, level):
    actual = {"messages": messages, "changes": []} if case.operation == "sanitize" else messages
    context = {"input": case.input}
    return runner.check_result(case.operation, {"messages": case.expected["messages"]}, actual, context, level)


def test_content_none_as_empty_text_passes_the_mapping_level_only():
    case, messages = history_case("r5-prepare-object-text-becomes-a-mapping")
    for message in messages:
        if message.get("content") is None:
            message["content"] = ""
    assert check(case, messages, "mapping") == []
    assert check(case, messages, "full")[0].startswith("messages: expected")


def test_the_references_own_wording_and_ids_are_not_compared():
    case, messages = history_case("r4-sanitize-call-without-a-result")
    synthesized = [m for m in messages if m["role"] == "tool" and m["content"] not in json.dumps(case.input)]
    assert synthesized
    synthesized[0]["content"] = "Error: no result."
    assert check(case, messages, "mapping") == []
    case, messages = history_case("r4-sanitize-call-without-an-id-gets-one")
    call = next(c for m in messages for c in m.get("tool_calls") or [])
    result = next(m for m in messages if m.get("tool_call_id") == call["id"])
    call["id"] = result["tool_call_id"] = "toolu_01"
    assert check(case, messages, "mapping") == []


def test_pairing_arguments_and_kept_results_are_compared():
    case, messages = history_case("r4-sanitize-parallel-calls-and-two-turns")
    first, second = [m for m in messages if m["role"] == "tool"][:2]
    first["tool_call_id"], second["tool_call_id"] = second["tool_call_id"], first["tool_call_id"]
    problems = check(case, messages, "mapping")
    assert len(problems) == 2 and problems[0].endswith(".answers call: expected 0, got 1")
    case, messages = history_case("r4-sanitize-compact-object-text")
    next(c for m in messages for c in m.get("tool_calls") or [])["function"]["arguments"] = '{ "city" : "Paris" }'
    assert check(case, messages, "mapping") == []
    next(c for m in messages for c in m.get("tool_calls") or [])["function"]["arguments"] = '{"city":"Lyon"}'
    assert check(case, messages, "mapping")[0].startswith('messages[2].tool_calls[0].arguments: expected {"city":"Paris"}')


def test_text_the_reference_wrote_compares_by_json_value_kept_text_by_bytes():
    case, messages = history_case("r5-prepare-mapping-becomes-compact-text")
    call = next(c for m in messages for c in m.get("tool_calls") or [])
    call["function"]["arguments"] = json.dumps(json.loads(call["function"]["arguments"]))  # Python's bytes
    assert check(case, messages, "mapping") == []
    assert len(check(case, messages, "full")) == 1
    case, messages = history_case("r5-prepare-object-text-keeps-its-bytes")
    call = next(c for m in messages for c in m.get("tool_calls") or [])
    call["function"]["arguments"] = json.dumps(json.loads(call["function"]["arguments"]), separators=(",", ":"))
    assert len(check(case, messages, "mapping")) == 1


def test_hermes_style_in_place_edit_fails_at_the_mapping_level():
    """A history repair that edits the caller's messages in place (hermes-agent) fails on mutation at any level."""

    def sanitize_history(messages, **options):
        for message in messages:
            for call in message.get("tool_calls") or [] if isinstance(message, dict) else []:
                if call["function"]["arguments"] in ("", None):
                    call["function"]["arguments"] = "{}"
        return messages

    case = CASES["r4-sanitize-empty-string"]
    problems = runner.run_case(case, {"LEVEL": "mapping", "sanitize_history": sanitize_history})
    assert any(p.startswith("input: mutated") for p in problems)


@pytest.mark.parametrize("level", ["mapping", "full"])
def test_the_reference_passes_what_it_implements_at_both_levels(level):
    summary = runner.run_suite(reference, level=level)
    assert summary.failures == []
    assert summary.passed > 50


# --- provider profiles -----------------------------------------------------------------------------------------

def test_provider_levels_come_from_the_schema():
    levels = runner._checks.shipped_levels()
    assert levels["validateProvider"] == {"accepted": {"level": "mapping"}, "codes": {"level": "full"},
                                          "issues": {"level": "full"}}
    assert levels["providerVerdict"]["rejectedBy"] == {"level": "mapping"}
    assert levels["providerVerdict"]["findings"] == {"level": "full"}
    assert levels["sanitizeProvider"]["messages"] == {"level": "mapping"}
    assert levels["sanitizeProvider"]["changes"] == {"level": "full"}


def test_a_mapping_level_provider_check_is_scored_on_acceptance_not_on_words():
    """A stack that only knows that a provider refuses (its own words, one entry per refusal), and who refuses, in
    any order."""

    def validate_for_provider(messages, provider):
        return [f"refused: {issue['code']}" for issue in provider_reference.validate_for_provider(messages, provider=provider)]

    def provider_verdict(messages, providers=None):
        verdict = provider_reference.provider_verdict(messages, providers=providers)
        return {"rejectedBy": sorted(verdict["rejectedBy"]), "acceptedBy": sorted(verdict["acceptedBy"])}

    implementation = {"LEVEL": "mapping", "validate_for_provider": validate_for_provider,
                      "provider_verdict": provider_verdict}
    cases = [case for case in CASES.values() if case.operation in ("validateProvider", "providerVerdict")]
    assert cases and all("mapping" in case.levels for case in cases)
    for case in cases:
        assert runner.run_case(case, implementation) == [], case.id
    assert any(runner.run_case(case, implementation, level="full") for case in cases)
    never = {"LEVEL": "mapping", "validate_for_provider": lambda messages, provider: []}
    assert any(runner.run_case(case, never) for case in cases if case.operation == "validateProvider")


def test_a_mapping_level_provider_sanitize_may_make_up_other_ids_and_words():
    case = CASES["profiles-mistral-sanitize-user-after-tool"]
    inputs = {m.get("content") for m in case.input}
    theirs = [dict(m, content="(no reply)") if isinstance(m.get("content"), str) and m["content"] not in inputs else m
              for m in copy.deepcopy(case.expected["messages"])]
    assert theirs != case.expected["messages"]
    implementation = {"LEVEL": "mapping", "sanitize_for_provider": lambda messages, **options: theirs}
    assert runner.run_case(case, implementation) == []
    assert runner.run_case(case, implementation, level="full")
    case = CASES["profiles-mistral-sanitize-colliding-ids"]
    made_up = {}
    ids = {c["id"] for m in case.input for c in m.get("tool_calls") or []}

    def own(call_id):
        return call_id if call_id in ids else made_up.setdefault(call_id, f"y{len(made_up) + 1:08d}")

    theirs = copy.deepcopy(case.expected["messages"])
    for message in theirs:
        for call in message.get("tool_calls") or []:
            call["id"] = own(call["id"])
        if "tool_call_id" in message:
            message["tool_call_id"] = own(message["tool_call_id"])
    assert made_up
    assert runner.run_case(case, {"LEVEL": "mapping", "sanitize_for_provider": lambda messages, **o: theirs}) == []
    swapped = copy.deepcopy(theirs)
    results = [m for m in swapped if m.get("role") == "tool"]
    results[0]["tool_call_id"], results[1]["tool_call_id"] = results[1]["tool_call_id"], results[0]["tool_call_id"]
    problems = runner.run_case(case, {"LEVEL": "mapping", "sanitize_for_provider": lambda messages, **o: swapped})
    assert problems and "answers call" in problems[0]
