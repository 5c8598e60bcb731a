import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { streamSplits } from "./check-parse.js";
import type { ConformanceImplementation } from "./implementation.js";
import { type ConformanceCase, loadVectors } from "./load-vectors.js";
import { runTest } from "./run-test.js";

const cases = loadVectors();

describe("R10 stream splits", () => {
  const texts = ["", "a", "ab😀c", '<tool_call>\n{"name": "f"}\n</tool_call>', "é中😀".repeat(40)];

  it("keep every character, in order", () => {
    for (const text of texts) for (const split of streamSplits(text)) expect(split.join("")).toBe(text);
  });

  it("are the Python runner's, cut for cut", () => {
    const python = execFileSync(
      "python3",
      [
        "-c",
        "import json, sys; sys.path.insert(0, 'python/src'); import toolcall_conformance as r; print(json.dumps([r.stream_splits(t) for t in json.loads(sys.stdin.read())]))",
      ],
      { input: JSON.stringify(texts), cwd: join(import.meta.dirname, ".."), encoding: "utf8" },
    );
    expect(JSON.parse(python)).toEqual(texts.map((text) => streamSplits(text)));
  });

  it("a stream that loses text fails the case", async () => {
    const testCase = cases.find((c) => c.operation === "parseToolCalls" && c.expected.content !== null);
    expect(testCase).toBeDefined();
    const implementation: ConformanceImplementation = {
      parseToolCalls: () => ({
        toolCalls: [],
        content: testCase?.expected.content as string,
        reasoning: null,
        issues: [],
      }),
      streamToolCalls: (chunks) => ({
        toolCalls: [],
        content: chunks.slice(1).join(""),
        reasoning: null,
        issues: [],
      }),
    };
    const outcome = await runTest(implementation, testCase as ConformanceCase);
    expect(outcome.status).toBe("fail");
    expect(outcome.messages.some((m) => m.startsWith("streamed in"))).toBe(true);
  });
});

describe("R10 levels", () => {
  it("arguments compare by JSON value at the mapping level and byte for byte at the full level", async () => {
    const testCase = cases.find(
      (c) => c.operation === "parseToolCalls" && ((c.expected.toolCalls as unknown[]) ?? []).length > 0,
    ) as ConformanceCase;
    const respaced: ConformanceImplementation = {
      parseToolCalls: () => ({
        toolCalls: (
          testCase.expected.toolCalls as Array<{ name: string; arguments: string; id?: string }>
        ).map((c) => ({
          id: c.id,
          function: { name: c.name, arguments: JSON.stringify(JSON.parse(c.arguments)) },
        })),
        content: testCase.expected.content as string | null,
        reasoning: (testCase.expected.reasoning ?? null) as string | null,
        issues: [],
      }),
    };
    const compactDiffers = (testCase.expected.toolCalls as Array<{ arguments: string }>).some(
      (c) => c.arguments !== JSON.stringify(JSON.parse(c.arguments)),
    );
    expect(compactDiffers).toBe(true);
    expect((await runTest(respaced, testCase, { level: "mapping" })).status).toBe("pass");
    const full = await runTest(respaced, testCase, { level: "full" });
    expect(full.status).toBe("fail");
    expect(full.messages.some((m) => m.startsWith("toolCalls:"))).toBe(true);
  });
});
