import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectConversationFormat, expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine, sanitizeHistory } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bedrockConverseFormat,
  bedrockFormats,
  sanitizeBedrockConverse,
  TOOL_CONFIG_MISSING,
  validateBedrockConverse,
} from "../src/index.js";

type Block = Record<string, Record<string, unknown> | string>;
type Request = { messages: Array<{ role: string; content: Block[] }>; toolConfig?: unknown } & Record<
  string,
  unknown
>;

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const lines = readFileSync(join(fixtures, "converse-requests.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");
const requests = () => lines.map((line) => JSON.parse(line) as Request);
const engine = createRecordEngine();
/** The member of a block (`toolUse`, `toolResult`) of a message, or `{}`. */
const member = (request: Request, at: [number, number], key: string) =>
  (request.messages[at[0]]?.content[at[1]]?.[key] ?? {}) as Record<string, unknown>;

describe("Bedrock Converse, on recorded requests Bedrock answered 200 (Kimi, Nova, Llama 4, Claude, Palmyra)", () => {
  it("are detected, read with every toolResult paired by toolUseId, and clean for core and for Bedrock's profile", () => {
    const registry = createFormatRegistry(bedrockFormats);
    for (const request of requests()) {
      expect(registry.detect(request, "record")).toMatchObject({
        certainty: "certain",
        format: { id: "bedrock-converse" },
      });
      const messages = bedrockConverseFormat.read(request).conversations[0]?.messages ?? [];
      const calls = messages.flatMap((m) => (m.tool_calls ?? []) as Array<{ id: string }>).map((c) => c.id);
      const results = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      expect(calls.length).toBeGreaterThan(0);
      expect(results).toEqual(calls);
      expect(engine.check(bedrockConverseFormat, request).issues).toEqual([]);
      expect(validateBedrockConverse(request).issues).toEqual([]);
      expect(sanitizeBedrockConverse(request).value).toBeUndefined();
    }
  });

  it("read then write with no change gives the same record (the same object, so the same bytes)", () => {
    for (const [i, request] of requests().entries()) {
      const reading = bedrockConverseFormat.read(request);
      const written = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
      expect(written).toEqual({ ok: true, value: request });
      expect(written.ok && written.value).toBe(request);
      expect(JSON.stringify(written.ok ? written.value : undefined)).toBe(
        JSON.stringify(JSON.parse(lines[i] ?? "")),
      );
    }
  });

  it("keeps its promises as a conversation format (the conformance suite's round trip, sanitized)", () => {
    for (const request of requests())
      expectConversationFormat(bedrockConverseFormat, request, { sanitize: sanitizeHistory });
  });

  it("keeps what it reads; a repair loses nothing it does not name, wild inputs too (the format-author check)", () => {
    for (const request of requests())
      expectFormatLossless(bedrockConverseFormat, request, { repair: engine.repair });
    for (const text of WILD_ARGUMENTS) {
      const request = requests()[0] as Request;
      for (const block of request.messages[1]?.content ?? [])
        if (typeof block.toolUse === "object") (block.toolUse as { input: unknown }).input = text;
      expectFormatLossless(bedrockConverseFormat, request, { repair: engine.repair });
    }
  });

  it("Kimi's toolUseId (a dot and a colon) is accepted, as Bedrock accepted it; a slash is remapped in the call and its result", () => {
    const request = requests()[0] as Request;
    expect(JSON.stringify(request)).toContain('"toolUseId":"functions.get_temperature:0"');
    request.messages[1]?.content.forEach((block) => {
      if (typeof block.toolUse === "object") block.toolUse.toolUseId = "functions/get_temperature/0";
    });
    member(request, [2, 0], "toolResult").toolUseId = "functions/get_temperature/0";
    expect(validateBedrockConverse(request).issues.map((issue) => [issue.code, issue.place])).toEqual([
      ["tool_call_id_invalid", "messages[1].content[1]"],
    ]);
    const repaired = sanitizeBedrockConverse(request);
    const written = repaired.value as Request;
    expect(member(written, [1, 1], "toolUse").toolUseId).toBe("functions_get_temperature_0");
    expect(member(written, [2, 0], "toolResult").toolUseId).toBe("functions_get_temperature_0");
    expect(written.messages[0]).toBe(request.messages[0]);
    expect(repaired.remaining).toEqual([]);
  });
});

describe("Bedrock Converse responses (recorded, HTTP 200)", () => {
  const answers = readFileSync(join(fixtures, "converse-responses.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { output: { message: Request["messages"][number] } });

  it("are answers: each call awaits its result (a pending warning, never an error), read then write gives them back", () => {
    for (const answer of answers) {
      expect(createFormatRegistry(bedrockFormats).detect(answer, "record")?.format.id).toBe(
        "bedrock-converse",
      );
      const reading = bedrockConverseFormat.read(answer);
      expect(reading.conversations[0]?.answer).toBe(true);
      expect(
        engine.check(bedrockConverseFormat, answer).issues.map((issue) => [issue.code, issue.place]),
      ).toEqual([["tool_result_pending", "output.message.content[1]"]]);
      const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
      expect(same.ok && same.value).toBe(answer);
    }
  });

  it("a repaired input in an answer is written back inside output.message, every other key kept", () => {
    const answer = answers[1] as { output: { message: Request["messages"][number] } } & Record<
      string,
      unknown
    >;
    const use = answer.output.message.content[1]?.toolUse as Record<string, unknown>;
    use.input = "{'country': 'France'}";
    const repaired = engine.repair(bedrockConverseFormat, answer);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = repaired.value as typeof answer;
    expect(written.output.message.content[1]?.toolUse).toEqual({ ...use, input: { country: "France" } });
    expect(written.output.message.content[0]).toBe(answer.output.message.content[0]);
    expect(written.usage).toBe(answer.usage);
    expect(Object.keys(written)).toEqual(Object.keys(answer));
  });
});

describe("writing back in Converse's own blocks", () => {
  it("a repaired input is written as an object; the other blocks of its message are the same objects", () => {
    const request = requests()[1] as Request;
    const use = request.messages[1]?.content[1]?.toolUse as Record<string, unknown>;
    const input = JSON.stringify(use.input);
    use.input = `\`\`\`json\n${input}\n\`\`\``;
    const repaired = engine.repair(bedrockConverseFormat, request);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "messages[1]"],
    ]);
    const written = repaired.value as Request;
    expect(written.messages[1]?.content[1]?.toolUse).toEqual({ ...use, input: JSON.parse(input) });
    expect(written.messages[1]?.content[0]).toBe(request.messages[1]?.content[0]);
    expect(written.messages[2]).toBe(request.messages[2]);
    expect(written.toolConfig).toBe(request.toolConfig);
    expect(Object.keys(written)).toEqual(Object.keys(request));
  });

  it("a toolUse left without its result gets one, first in the next user message (turns keep alternating)", () => {
    const request = requests()[2] as Request;
    // structured_output: the first turn's toolResult is taken out; the user message keeps its other blocks.
    const before = request.messages.map((m) => m.content.map((b) => Object.keys(b)[0]));
    expect(before[2]).toEqual(["toolResult"]);
    request.messages[2]?.content.splice(0, 1, { text: "go on" });
    expect(validateBedrockConverse(request).issues.map((issue) => issue.code)).toContain(
      "tool_result_missing",
    );
    const repaired = sanitizeBedrockConverse(request);
    expect(repaired.changes.map((change) => change.rule)).toContain("result_synthesized");
    const written = repaired.value as Request;
    expect(written.messages.map((m) => m.role)).toEqual(request.messages.map((m) => m.role));
    expect(written.messages[2]?.content[0]).toEqual({
      toolResult: {
        toolUseId: member(request, [1, 0], "toolUse").toolUseId,
        content: [{ text: "[no result was recorded for this tool call]" }],
      },
    });
    expect(written.messages[2]?.content[1]).toBe(request.messages[2]?.content[0]);
    expect(validateBedrockConverse(written).issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });

  it("a blank text block is refused in Bedrock's words and dropped for Bedrock; other blocks stay", () => {
    const request = requests()[3] as Request;
    const assistant = request.messages.find((m) => m.role === "assistant") as Request["messages"][number];
    assistant.content.unshift({ text: "" });
    const at = request.messages.indexOf(assistant);
    const found = validateBedrockConverse(request).issues;
    expect(found.map((issue) => [issue.code, issue.place])).toEqual([
      ["text_content_empty", `messages[${at}].content[0]`],
    ]);
    expect(found[0]?.message).toBe(
      `bedrock-converse 400: "The text field in the ContentBlock object at messages.${at}.content.0 is blank. Add text to the text field, and try again."`,
    );
    const repaired = sanitizeBedrockConverse(request);
    const written = repaired.value as Request;
    expect(written.messages[at]?.content).toEqual(assistant.content.slice(1));
    expect(repaired.remaining).toEqual([]);
  });

  it("an error toolResult with no content is reported in Bedrock's words", () => {
    const request = requests()[0] as Request;
    const result = member(request, [2, 0], "toolResult");
    result.status = "error";
    result.content = [];
    expect(
      validateBedrockConverse(request).issues.map((issue) => [issue.code, issue.place, issue.message]),
    ).toEqual([
      [
        "tool_result_empty",
        "messages[2].content[0].toolResult.content",
        'bedrock-converse 400: "The content field at messages.2.content.0.toolResult cannot be empty when status value is error."',
      ],
    ]);
  });

  it("tool blocks without toolConfig are reported in Bedrock's words", () => {
    const request = requests()[4] as Request;
    delete request.toolConfig;
    const found = validateBedrockConverse(request).issues;
    expect(found).toContainEqual(
      expect.objectContaining({
        code: "tool_config_missing",
        severity: "error",
        scope: "record",
        place: "toolConfig",
        message: `bedrock-converse 400: ${JSON.stringify(TOOL_CONFIG_MISSING)}`,
      }),
    );
  });
});

const text = fc.string({ maxLength: 8 });
const input = fc.oneof(
  fc.dictionary(fc.constantFrom("a", "b", "__proto__"), fc.jsonValue({ maxDepth: 2 })),
  fc.constantFrom("", "{'a': 1}", "[1]", '```json\n{"a":1}\n```', "{"),
);
const turn = fc
  .tuple(
    fc.array(fc.constantFrom("t1", "t2", "a.b:0", "x/y"), { minLength: 1, maxLength: 3 }),
    fc.array(input, { minLength: 3, maxLength: 3 }),
    text,
    fc.boolean(),
    fc.boolean(),
  )
  .map(([ids, inputs, said, answered, blank]) => [
    {
      role: "assistant",
      content: [
        ...(blank ? [{ text: "" }] : [{ text: said }]),
        ...ids.map((id, k) => ({ toolUse: { toolUseId: id, name: "f", input: inputs[k] } })),
      ],
    },
    {
      role: "user",
      content: answered
        ? ids.map((id) => ({ toolResult: { toolUseId: id, content: [{ text: said }], status: "success" } }))
        : [{ text: said }],
    },
  ]);
const request = fc
  .tuple(fc.array(turn, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([turns, config]) => ({
    messages: [{ role: "user", content: [{ text: "go" }] }, ...turns.flat()],
    ...(config
      ? { toolConfig: { tools: [{ toolSpec: { name: "f", inputSchema: { json: { type: "object" } } } }] } }
      : {}),
    inferenceConfig: {},
  }));

describe("properties (any Converse request)", () => {
  it("read then write with no change gives the same object; a repair never touches its input, and repairing what it wrote changes nothing", () => {
    const bedrock = createRecordEngine({ provider: "bedrock-converse" });
    let written = 0;
    fc.assert(
      fc.property(request, (value) => {
        const bytes = JSON.stringify(value);
        const reading = bedrockConverseFormat.read(value);
        const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
        expect(same.ok && same.value).toBe(value);
        for (const repairing of [engine, bedrock]) {
          const repaired = repairing.repair(bedrockConverseFormat, value);
          // Undo is the input: the engine wrote a new record and left every byte of the old one as it was.
          expect(JSON.stringify(value)).toBe(bytes);
          if (repaired.value === undefined) continue;
          written++;
          expect(bedrockConverseFormat.matches(repaired.value)).toBe(true);
          expect(repairing.repair(bedrockConverseFormat, repaired.value).changes).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
    expect(written).toBeGreaterThan(100);
  });

  it("never throws, and what it cannot write it says (any value)", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const reading = bedrockConverseFormat.read(value);
        const written = reading.write(reading.conversations.map((c) => [...c.messages]));
        expect(typeof written.ok).toBe("boolean");
        sanitizeBedrockConverse(value);
        validateBedrockConverse(value);
      }),
      { numRuns: 500 },
    );
  });
});
