// The page's own logic, in Node: what the tools compute (no DOM), checked against the packages and for any input.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { claudeCodeFormat } from "@toolcall/anthropic";
import { createRecordEngine } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runChatTool } from "../src/chat-tool.js";
import { defaultState } from "../src/examples.js";
import { readSavedChat } from "../src/saved-chat.js";
import { decodeState, encodeState, normalizeState, type PlaygroundState } from "../src/state.js";
import { pythonError, runTemplateTool } from "../src/template-tool.js";
import { segmentText, utf8Offset } from "../src/visible-text.js";
import { repositoryRoot } from "./bundle-package.js";

const defaults = defaultState(false);

const anyState = fc.record({
  tab: fc.constantFrom("template" as const, "output" as const, "chat" as const),
  templateName: fc.option(fc.string(), { nil: null }),
  template: fc.string({ unit: "binary" }),
  messages: fc.string({ unit: "binary" }),
  tools: fc.string(),
  variables: fc.string(),
  addGenerationPrompt: fc.boolean(),
  now: fc.string(),
  output: fc.string({ unit: "binary" }),
  syntax: fc.string(),
  chat: fc.string({ unit: "binary" }),
  format: fc.string(),
  provider: fc.string(),
}) satisfies fc.Arbitrary<PlaygroundState>;

describe("the state in the address", () => {
  it("comes back from its fragment as it went in, whatever it holds (lone surrogates become U+FFFD)", async () => {
    await fc.assert(
      fc.asyncProperty(anyState, async (state) => {
        const fragment = await encodeState(state);
        expect(fragment).toMatch(/^s=[A-Za-z0-9_-]*$/);
        const back = await decodeState(`#${fragment}`, defaults);
        expect(back).toEqual(JSON.parse(JSON.stringify(state).replace(/\\ud[89a-f][0-9a-f]{2}/g, "\\ufffd")));
      }),
      { numRuns: 60 },
    );
  });

  it("is the defaults, field by field, for anything that is not a state (and never throws)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const state = normalizeState(value, defaults);
        for (const [key, field] of Object.entries(state))
          expect(typeof field === typeof defaults[key as keyof PlaygroundState] || field === null).toBe(true);
      }),
    );
    const hostile = JSON.parse('{"__proto__": {"tab": "chat"}, "messages": 7, "tab": "nope"}');
    expect(normalizeState(hostile, defaults)).toEqual(defaults);
  });

  it("is undefined for a fragment cut short or not ours", async () => {
    const fragment = await encodeState({ ...defaults, messages: "x".repeat(500) });
    expect(await decodeState(fragment.slice(0, 20), defaults)).toBeUndefined();
    expect(await decodeState("#s=%%%", defaults)).toBeUndefined();
    expect(await decodeState("#other", defaults)).toBeUndefined();
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        const state = await decodeState(`#s=${text}`, defaults);
        if (state !== undefined) expect(Object.keys(state).sort()).toEqual(Object.keys(defaults).sort());
      }),
      { numRuns: 100 },
    );
  });
});

describe("the visible text", () => {
  it("is made of segments that put the text back together, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.array(fc.string(), { maxLength: 3 }), (text, tokens) => {
        expect(
          segmentText(text, tokens)
            .map((segment) => segment.text)
            .join(""),
        ).toBe(text);
      }),
    );
    const big = `<|im_start|>${"a ".repeat(50_000)}\n`;
    expect(
      segmentText(big)
        .map((segment) => segment.text)
        .join(""),
    ).toBe(big);
  });

  it("counts UTF-8 bytes up to a position", () => {
    expect(utf8Offset("aé😀b", 4)).toBe(7);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(utf8Offset(text, text.length)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});

describe("the chat template tool", () => {
  it("shows jinja2's own exceptions by their module, and built-ins bare", () => {
    expect(pythonError("TemplateError", "x").tracebackLine).toBe("jinja2.exceptions.TemplateError: x");
    expect(pythonError("TypeError", "y").tracebackLine).toBe("TypeError: y");
  });

  it("reports input errors and a template that does not compile, never throws", () => {
    const base = { tools: "", variables: "{}", addGenerationPrompt: true, now: "2026-01-02 03:04:05" };
    const report = runTemplateTool({ ...base, source: "{{ x }}", messages: "[" });
    expect(report.inputs.errors[0]).toMatch(/^messages: /);
    expect(report.render).toBeUndefined();
    const broken = runTemplateTool({ ...base, source: "{% if %}", messages: "[]" });
    expect(broken.render).toMatchObject({ ok: false, error: { type: "TemplateSyntaxError" } });
    fc.assert(
      fc.property(fc.string(), fc.string(), (source, messages) => {
        runTemplateTool({ ...base, source, messages });
      }),
      { numRuns: 200 },
    );
  });

  it("says which calls the template gets otherwise than as their JSON, as the command line's render notes", () => {
    // A Python dict (as servers write what a model trained on Python literals emits) and an empty string, rendered
    // by a real Qwen3 template: the prompt holds {"_raw_arguments": …} and {}, and the report says so.
    const source = readFileSync(
      join(repositoryRoot, "..", "shared", "templates", "Qwen-Qwen3-8B.jinja"),
      "utf8",
    );
    const messages = [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "get_weather", arguments: "{'city': 'Paris'}" } },
          { id: "c2", type: "function", function: { name: "get_time", arguments: "" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "18 °C" },
      { role: "tool", tool_call_id: "c2", content: "12:00" },
    ];
    const report = runTemplateTool({
      source,
      messages: JSON.stringify(messages),
      tools: "",
      variables: "{}",
      addGenerationPrompt: true,
      now: "2026-01-02 03:04:05",
    });
    expect(report.render).toMatchObject({ ok: true });
    expect(report.render?.ok && report.render.text).toContain("_raw_arguments");
    expect(report.argumentNotes.map((note) => [note.place, note.status])).toEqual([
      ["messages[1].tool_calls[0]", "invalid"],
      ["messages[1].tool_calls[1]", "empty"],
    ]);
    expect(report.argumentNotes[0]?.message).toMatch(/_raw_arguments/);
  });
});

describe("the saved chat tool", () => {
  it("reads a Claude Code session as the anthropic package does, and repairs it as core does", () => {
    const text = readFileSync(
      join(repositoryRoot, "packages/anthropic/test/__fixtures__/claude-code-edge-cases.jsonl"),
      "utf8",
    );
    const values = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as unknown);
    const reading = readSavedChat(text, "auto");
    expect(reading.ok && reading.records.map((record) => record.format.id)).toEqual(["claude-code"]);
    const report = runChatTool({ chat: text, format: "auto", provider: "anthropic" });
    if (!report.ok) throw new Error(report.error);
    // The record engine's verdict, as the command line gives it with --provider anthropic.
    const engine = createRecordEngine({
      providers: { mode: "named", ids: ["anthropic"] },
      provider: "anthropic",
    });
    const checked = engine.check(claudeCodeFormat, values);
    expect(report.records[0]?.conversations.flatMap((c) => c.issues)).toEqual(
      checked.issues.filter((issue) => issue.scope !== "record"),
    );
    const repaired = engine.repair(claudeCodeFormat, values);
    // Claude Code sessions cannot hold every change (record_not_rewritable): then the session is kept as it was.
    expect(repaired.changes.length).toBeGreaterThan(0);
    expect(report.records[0]?.conversations.map((c) => c.after)).toEqual(
      claudeCodeFormat.read(repaired.value ?? values).conversations.map((c) => c.messages),
    );
  });

  it("says what it expected for anything it cannot read, and never throws", () => {
    expect(readSavedChat("{}", "auto")).toMatchObject({ ok: false });
    expect(readSavedChat("not json\nat all", "auto")).toMatchObject({ ok: false });
    expect(readSavedChat("[]", "no-such-format")).toEqual({ ok: false, error: "no format no-such-format" });
    expect(runChatTool({ chat: "[]", format: "auto", provider: "nobody" })).toEqual({
      ok: false,
      error: "no provider profile nobody",
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((value) => JSON.stringify(value)),
        ),
        fc.constantFrom("auto", "openai-chat", "claude-code", "sharegpt"),
        (chat, format) => {
          runChatTool({ chat, format, provider: "any" });
        },
      ),
      { numRuns: 300 },
    );
  });
});
