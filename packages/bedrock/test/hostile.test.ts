import { createRecordEngine } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { bedrockConverseFormat, validateBedrockConverse } from "../src/index.js";

const engine = createRecordEngine();

describe("hostile Converse values", () => {
  it("a getter that throws: not read, reported, kept as it is", () => {
    const message = { role: "assistant" };
    Object.defineProperty(message, "content", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const body = { messages: [message], toolConfig: {} };
    expect(bedrockConverseFormat.matches(body)).toBe(false);
    expect(bedrockConverseFormat.read(body).issues.map((issue) => issue.code)).toEqual([
      "record_not_conversation",
    ]);
    expect(engine.repair(bedrockConverseFormat, body).value).toBeUndefined();
  });

  it("a __proto__ key in an input stays a key when the input is written back", () => {
    const body = {
      messages: [
        { role: "user", content: [{ text: "go" }] },
        {
          role: "assistant",
          content: [
            {
              toolUse: { toolUseId: "t1", name: "f", input: '```json\n{"__proto__": {"x": 1}, "a": 1}\n```' },
            },
          ],
        },
        { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: "ok" }] } }] },
      ],
      toolConfig: {},
    };
    const written = engine.repair(bedrockConverseFormat, body).value as typeof body;
    const use = written.messages[1]?.content[0] as unknown as { toolUse: { input: Record<string, unknown> } };
    expect(Object.keys(use.toolUse.input)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(use.toolUse.input)).toBe('{"__proto__":{"x":1},"a":1}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("one message of 200,000 blocks: read, checked and written back whole", () => {
    const content = Array.from({ length: 200_000 }, (_, i) => (i === 0 ? { text: "" } : { text: `b${i}` }));
    const body = { messages: [{ role: "user", content }], inferenceConfig: {} };
    const reading = bedrockConverseFormat.read(body);
    const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
    expect(same.ok && same.value).toBe(body);
    expect(validateBedrockConverse(body).issues.map((issue) => issue.code)).toContain("text_content_empty");
    const repaired = createRecordEngine({ provider: "bedrock-converse" }).repair(bedrockConverseFormat, body);
    const written = repaired.value as typeof body;
    expect(written.messages[0]?.content).toHaveLength(199_999);
  });
});

describe("many results synthesized at one place", () => {
  it("20,000 unanswered toolUse blocks in one turn each get a toolResult, first in the next user message", () => {
    const uses = Array.from({ length: 20_000 }, (_, i) => ({
      toolUse: { toolUseId: `t${i}`, name: "f", input: {} },
    }));
    const body = {
      messages: [
        { role: "user", content: [{ text: "go" }] },
        { role: "assistant", content: uses },
        { role: "user", content: [{ text: "go on" }] },
      ],
      toolConfig: {},
    };
    const repaired = createRecordEngine({ pending: "synthesize" }).repair(bedrockConverseFormat, body);
    const written = repaired.value as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    expect(written.messages).toHaveLength(3);
    expect(written.messages[2]?.content).toHaveLength(20_001);
    expect(written.messages[2]?.content[20_000]).toBe(body.messages[2]?.content[0]);
  });
});
