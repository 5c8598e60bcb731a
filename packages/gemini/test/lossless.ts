import { createRecordEngine } from "@toolcall/core";
import type { ConversationFormat, RecordEngine, RecordRepair } from "@toolcall/core/kit";
import { expect } from "vitest";

/** Arguments as models and servers emit them, well-formed and not (RULES.md's pinned cases). */
export const PAYLOADS = [
  '{"command": "ls"}',
  "{}",
  "",
  "null",
  '```json\n{"path": "a.py"}\n```',
  '{"path": "a.py"',
  "{'path': 'a.py'}",
  '"{\\"a\\": 1}"',
  '{"a": 1}{"b": 2}',
] as const;

const DROPPED_CALLS = ["call_dropped", "call_dropped_no_name", "call_dropped_missing_result"];
const DROPPED_RESULTS = ["result_dropped_with_call", "result_dropped_orphan", "result_dropped_duplicate"];

function counts(format: ConversationFormat, value: unknown) {
  let messages = 0;
  let calls = 0;
  let results = 0;
  for (const conversation of format.read(value).conversations) {
    for (const message of conversation.messages) {
      messages++;
      if (message.role === "tool") results++;
      if (Array.isArray(message.tool_calls)) calls += message.tool_calls.length;
    }
  }
  return { messages, calls, results };
}

/**
 * The properties every format keeps, on one record: read then written with no change (nothing, or the same
 * messages) gives the record itself (so the same bytes); a repair loses no message, call or result without a
 * change naming it, and what it writes reads again in the same format.
 */
export function expectLossless(options: {
  format: ConversationFormat;
  value: unknown;
  engine?: RecordEngine;
}): RecordRepair {
  const { format, value } = options;
  const engine = options.engine ?? createRecordEngine();
  const reading = format.read(value);
  const untouched = reading.write(reading.conversations.map(() => undefined));
  expect(untouched.ok && untouched.value).toBe(value);
  const same = reading.write(reading.conversations.map((conversation) => [...conversation.messages]));
  expect(same.ok && same.value).toBe(value);
  const repaired = engine.repair(format, value);
  if (repaired.value === undefined) return repaired;
  expect(format.matches(repaired.value)).toBe(true);
  const before = counts(format, value);
  const after = counts(format, repaired.value);
  const named = (rules: readonly string[]) =>
    repaired.changes.filter((change) => rules.includes(change.rule)).length;
  expect(after.calls + named(DROPPED_CALLS)).toBeGreaterThanOrEqual(before.calls);
  expect(after.results + named(DROPPED_RESULTS)).toBeGreaterThanOrEqual(before.results);
  expect(
    after.messages + named([...DROPPED_CALLS, ...DROPPED_RESULTS, "message_removed_empty"]),
  ).toBeGreaterThanOrEqual(before.messages);
  return repaired;
}
