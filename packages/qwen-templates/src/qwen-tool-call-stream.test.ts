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
});
