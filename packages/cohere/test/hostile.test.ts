import { createRecordEngine } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { cohereChatFormat } from "../src/index.js";

const engine = createRecordEngine();

describe("hostile Cohere values", () => {
  it("a getter that throws: not read, reported, kept as it is", () => {
    const message = { role: "assistant", tool_plan: "x" };
    Object.defineProperty(message, "tool_calls", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const body = { messages: [message] };
    expect(typeof cohereChatFormat.matches(body)).toBe("boolean");
    expect(cohereChatFormat.read(body).issues.map((issue) => issue.code)).toEqual([
      "record_not_conversation",
    ]);
    expect(engine.repair(cohereChatFormat, body).value).toBeUndefined();
  });

  it("a __proto__ key of a message stays a key when the message is written back", () => {
    const body = JSON.parse(
      '{"messages":[{"role":"user","content":"go"},{"role":"assistant","__proto__":{"x":1},"tool_plan":"p","tool_calls":[{"id":"f_1","type":"function","function":{"name":"f","arguments":"{\'a\': 1}"}}]},{"role":"tool","tool_call_id":"f_1","content":[{"type":"document","document":{"data":"ok"}}]}]}',
    ) as { messages: Array<Record<string, unknown>> };
    const written = engine.repair(cohereChatFormat, body).value as typeof body;
    expect(Object.keys(written.messages[1] ?? {})).toEqual(Object.keys(body.messages[1] ?? {}));
    expect(JSON.stringify(written.messages[1])).toContain('"__proto__":{"x":1}');
  });

  it("100,000 turns: read, checked and written back whole", () => {
    const messages: unknown[] = [{ role: "user", content: "go" }];
    for (let i = 0; i < 50_000; i++)
      messages.push(
        {
          role: "assistant",
          tool_plan: "p",
          tool_calls: [{ id: `f_${i}`, type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: `f_${i}`, content: [{ type: "document", document: { data: "ok" } }] },
      );
    const body = { messages };
    const reading = cohereChatFormat.read(body);
    const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
    expect(same.ok && same.value).toBe(body);
    expect(engine.check(cohereChatFormat, body).issues).toEqual([]);
  });
});
