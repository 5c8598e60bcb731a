import { createWorkMeter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseQwenToolCalls } from "./parse-qwen-tool-calls.js";
import { type QwenStreamEvent, QwenToolCallStream } from "./qwen-tool-call-stream.js";

const tools = [
  {
    name: "f",
    parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } } },
  },
];

function counterId() {
  let n = 0;
  return () => `call_${n++}`;
}

function streamed(chunks: string[]) {
  const stream = new QwenToolCallStream({ tools, createId: counterId() });
  const events: QwenStreamEvent[] = [];
  for (const chunk of chunks) events.push(...stream.push(chunk));
  events.push(...stream.end());
  const content = events.flatMap((e) => (e.type === "content" ? [e.text] : [])).join("");
  return {
    content: content.trim() === "" ? null : content,
    toolCalls: events.flatMap((e) => (e.type === "tool_call" ? [e.toolCall] : [])),
    issues: events.flatMap((e) => (e.type === "issue" ? [e.issue] : [])),
  };
}

const PIECES = [
  "<tool_call>",
  "</tool_call>",
  "<function=f>",
  "</function>",
  "<parameter=a>",
  "<parameter=b>",
  "</parameter>",
  "\n",
  " ",
  "12",
  "x",
  "<",
  "tool",
  "Hello ",
  '{"name": "f", "arguments": {"a": 1}}',
];
const WELL_FORMED =
  "Sure.\n<tool_call>\n<function=f>\n<parameter=a>\n7\n</parameter>\n<parameter=b>\nhi </parameter> there\n</parameter>\n</function>\n</tool_call>\nDone.";

function splits(text: string) {
  return fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }).map((cuts) => {
    const points = [...new Set(cuts)].sort((a, b) => a - b);
    const chunks: string[] = [];
    let last = 0;
    for (const p of points) {
      chunks.push(text.slice(last, p));
      last = p;
    }
    chunks.push(text.slice(last));
    return chunks;
  });
}

describe("QwenToolCallStream", () => {
  it("passes content on before the call is complete, and holds a possible tag start", () => {
    const stream = new QwenToolCallStream({ tools });
    expect(stream.push("Sure. <tool")).toEqual([{ type: "content", text: "Sure. " }]);
    expect(stream.push("_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>")).toEqual([]);
    const events = stream.push("\n</tool_call>");
    expect(events.map((e) => e.type)).toEqual(["tool_call"]);
    expect(stream.end()).toEqual([]);
  });

  it("gives what the whole parse gives, however a well-formed text is split", () => {
    fc.assert(
      fc.property(splits(WELL_FORMED), (chunks) => {
        expect(streamed(chunks)).toEqual(parseQwenToolCalls(WELL_FORMED, { tools, createId: counterId() }));
      }),
    );
  });

  it("gives what the whole parse gives on any text made of tag pieces, split anywhere", () => {
    const texts = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join(""));
    fc.assert(
      fc.property(
        texts.chain((text) => splits(text).map((chunks) => ({ text, chunks }))),
        ({ text, chunks }) => {
          expect(streamed(chunks)).toEqual(parseQwenToolCalls(text, { tools, createId: counterId() }));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("emits each call of a token-by-token stream when its closing tag arrives", () => {
    const call =
      "<tool_call>\n<function=f>\n<parameter=a>\n7\n</parameter>\n<parameter=b>\n{}\n</parameter>\n</function>\n</tool_call>";
    const tokens = call.match(/<[^>]*>|[^<]+/g) as string[];
    const stream = new QwenToolCallStream({ tools });
    for (let round = 0; round < 3; round++) {
      tokens.forEach((token, i) => {
        const types = stream.push(token).map((e) => e.type);
        expect(types, `round ${round}, token ${i}`).toEqual(i === tokens.length - 1 ? ["tool_call"] : []);
      });
      expect(stream.push("\ntext ").map((e) => e.type)).toEqual(["content"]);
    }
  });

  it("decides a call without </tool_call> as soon as other text follows </function>", () => {
    const stream = new QwenToolCallStream({ tools });
    expect(stream.push("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n")).toEqual([]);
    expect(stream.push("</function>")).toEqual([]);
    expect(stream.push("\n")).toEqual([]);
    const events = stream.push("Then more.");
    expect(events.map((e) => e.type)).toEqual(["tool_call", "issue", "content"]);
  });

  it("decides a call late, never loses it, when closing tags inside its values outrun its free tries", () => {
    const value = "</tool_call></function>".repeat(10);
    const text = `<tool_call>\n<function=f>\n<parameter=b>\n${value}\n</parameter>\n</function>\n</tool_call>after`;
    const chunks = text.match(/.{1,5}/gs) as string[];
    expect(streamed(chunks)).toEqual(parseQwenToolCalls(text, { tools, createId: counterId() }));
  });

  it("passes the rest on as content, unread, once its work budget runs out", () => {
    const text = "a<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>b";
    const stream = new QwenToolCallStream({ tools, meter: createWorkMeter({ limit: 20 }) });
    const events = [...stream.push(text.slice(0, 30)), ...stream.push(text.slice(30))];
    expect(stream.push("more")).toEqual([{ type: "content", text: "more" }]);
    events.push(...stream.end());
    const content = events.flatMap((e) => (e.type === "content" ? [e.text] : [])).join("");
    expect(content).toBe(text);
    expect(
      events.filter((e) => e.type === "issue").map((e) => (e as { issue: { code: string } }).issue.code),
    ).toEqual(["qwen_budget_exhausted"]);
    const whole = parseQwenToolCalls(text, { tools, meter: createWorkMeter({ limit: 0 }) });
    expect(whole).toMatchObject({
      toolCalls: [],
      content: text,
      issues: [{ code: "qwen_budget_exhausted" }],
    });
  });

  it("takes anything as a delta, a tool list or an id maker without throwing", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const hostileTools of [5, "x", [null, proxy, { function: proxy }], proxy]) {
      const stream = new QwenToolCallStream({
        tools: hostileTools as unknown as unknown[],
        createId: () => {
          throw new Error("no ids");
        },
      });
      const events = [
        ...stream.push(null as unknown as string),
        ...stream.push("<function=f><parameter=a>1</parameter></function>"),
        ...stream.end(),
      ];
      expect(events[0]).toMatchObject({
        type: "tool_call",
        toolCall: { function: { arguments: '{"a": "1"}' } },
      });
    }
  });
});
