import { describe, expect, it } from "vitest";
import type { ConversationFormat } from "../conversation-format.js";
import { coreRepairs } from "../repairs/index.js";
import type { RepairRule } from "../repairs/repair-rule.js";
import type { ChatMessage } from "../types.js";
import { createRecordEngine } from "./record-engine.js";

/** `{messages: [...]}` read as one conversation and written back with its messages replaced (as OpenAI Chat is). */
const messagesFormat: ConversationFormat = {
  id: "messages",
  name: "messages",
  expected: '{"messages": […]}',
  unit: "record",
  matches: (value) => typeof value === "object" && value !== null && "messages" in value,
  read(value) {
    const record = value as { messages: ChatMessage[] };
    return {
      conversations: [{ messages: record.messages }],
      issues: [],
      write: (replacements) => ({
        ok: true,
        value: replacements[0] === undefined ? record : { ...record, messages: replacements[0] },
      }),
    };
  },
};

/** A rule that takes a JSON object out of a Markdown fence and counts the texts it is shown: how often repairs ran. */
function countingRule(): RepairRule & { seen: string[] } {
  const seen: string[] = [];
  return {
    specificationVersion: "1",
    id: "counting-fence",
    description: "a JSON object in a Markdown fence, counted",
    seen,
    repair(text) {
      seen.push(text);
      return /^```json\n([\s\S]*)\n```$/.exec(text)?.[1];
    },
  };
}

const call = (id: string, args: string) => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "get_weather", arguments: args } }],
});
const result = (id: string) => ({ role: "tool", tool_call_id: id, content: "sunny" });

describe("record engine: work per record", () => {
  it("runs the repairs on a broken call once when it repairs the record (the check before it runs none)", () => {
    const counting = countingRule();
    const engine = createRecordEngine({ repairs: [counting] });
    const record = {
      messages: [
        { role: "user", content: "weather?" },
        call("a", '{"city": "Paris"}'),
        result("a"),
        call("b", '```json\n{"city": "Lima"}\n```'),
        result("b"),
      ],
    };
    const repaired = engine.repair(messagesFormat, record);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    expect(repaired.remaining).toEqual([]);
    // Sanitize tries the broken text once; the clean call and the check before and after try nothing.
    expect(counting.seen).toEqual(['```json\n{"city": "Lima"}\n```']);
  });

  it("reports a record no rule changes in full, as the check does", () => {
    const engine = createRecordEngine({ repairs: coreRepairs, pending: "keep" });
    // A call awaiting its result at the end, kept: found by the check before the repair, nothing changed, and the
    // report is the check's.
    const record = { messages: [{ role: "user", content: "hi" }, call("a", '{"city": "Rome"}')] };
    const repaired = engine.repair(messagesFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
    expect(repaired.remaining).toEqual(engine.check(messagesFormat, record).issues);
    expect(repaired.remaining.map((issue) => issue.code)).toEqual(["tool_result_pending"]);
  });

  it("runs no repair on a clean record", () => {
    const counting = countingRule();
    const engine = createRecordEngine({ repairs: [counting] });
    const record = {
      messages: [{ role: "user", content: "hi" }, call("a", '{"city": "Oslo"}'), result("a")],
    };
    expect(engine.repair(messagesFormat, record)).toMatchObject({ changes: [], remaining: [] });
    expect(counting.seen).toEqual([]);
  });
});
