import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  geminiContentsFormat,
  geminiFormats,
  sanitizeGeminiContents,
  validateGeminiContents,
} from "../src/index.js";

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const requests = () =>
  readFileSync(join(fixtures, "google-requests.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(
      (line) =>
        JSON.parse(line) as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> },
    );
const engine = createRecordEngine();

describe("Gemini API contents, on recorded requests Gemini answered 200", () => {
  it("are detected, read with every call paired by id, and clean for core and for Gemini's profile", () => {
    const registry = createFormatRegistry(geminiFormats);
    for (const request of requests()) {
      expect(registry.detect(request, "record")).toMatchObject({
        certainty: "certain",
        format: { id: "gemini-contents" },
      });
      const messages = geminiContentsFormat.read(request).conversations[0]?.messages ?? [];
      const calls = messages
        .flatMap((m) => (m.tool_calls ?? []) as Array<{ id: string }>)
        .map((call) => call.id);
      const results = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      expect(results).toEqual(calls);
      expect(
        engine.check(geminiContentsFormat, request).issues.map((issue) => [issue.code, issue.place]),
      ).toEqual([]);
      expect(validateGeminiContents(request).issues).toEqual([]);
      expect(sanitizeGeminiContents(request).value).toBeUndefined();
    }
  });

  it("read then write with no change gives the same record (the same object, so the same bytes)", () => {
    for (const request of requests()) {
      const reading = geminiContentsFormat.read(request);
      expect(reading.write([[...(reading.conversations[0]?.messages ?? [])]])).toEqual({
        ok: true,
        value: request,
      });
    }
  });

  it("a repaired call's args are written back as an object; its thoughtSignature and every other part stay", () => {
    const request = requests()[1] as ReturnType<typeof requests>[number];
    const model = request.contents[1] as unknown as {
      parts: Array<{ functionCall: Record<string, unknown>; thoughtSignature?: string }>;
    };
    (model.parts[0] as { functionCall: Record<string, unknown> }).functionCall.args = "```json\n{}\n```";
    const repaired = engine.repair(geminiContentsFormat, request);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = repaired.value as typeof request;
    const part = written.contents[1]?.parts[0] as {
      functionCall: Record<string, unknown>;
      thoughtSignature: string;
    };
    expect(part.functionCall).toEqual({
      args: {},
      id: "pyd_ai_88873a6d73d44454894306333de8c34b",
      name: "generate_topic",
    });
    expect(part.thoughtSignature).toBe(model.parts[0]?.thoughtSignature);
    expect(written.contents[2]).toBe(request.contents[2]);
    expect(engine.check(geminiContentsFormat, written).issues).toEqual([]);
  });

  it("a call left without its result gets one, in a user content after its call's content, named by the report", () => {
    const request = requests()[0] as ReturnType<typeof requests>[number];
    request.contents[2]?.parts.splice(2, 1);
    request.contents.push({ role: "user", parts: [{ text: "go on" }] });
    const checked = validateGeminiContents(request).issues.map((issue) => [issue.code, issue.place]);
    expect(checked).toContainEqual(["tool_result_missing", "contents[1].parts[2]"]);
    const repaired = sanitizeGeminiContents(request);
    expect(repaired.changes.map((change) => change.rule)).toContain("result_synthesized");
    const written = repaired.value as typeof request;
    expect(written.contents[3]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            name: "generate_topic",
            response: { result: "[no result was recorded for this tool call]" },
            id: "pyd_ai_950dc7a3c30c4e32a3dc205b2c86e08d",
          },
        },
      ],
    });
    expect(validateGeminiContents(written).issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });

  it("never throws, and what it cannot write it says (any value)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reading = geminiContentsFormat.read(value);
        const written = reading.write(reading.conversations.map((c) => [...c.messages]));
        expect(typeof written.ok).toBe("boolean");
        engine.repair(geminiContentsFormat, value);
      }),
      { numRuns: 500 },
    );
  });
});
