import { coreRepairs } from "@toolcall/core";
import type { ModelMessage, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { decideToolCall } from "./decide-tool-call.js";
import { fromNeutralMessages } from "./from-neutral-messages.js";
import { sanitizeModelMessages } from "./sanitize-model-messages.js";
import { sanitizeUIMessages } from "./sanitize-ui-messages.js";
import { toNeutralMessages } from "./to-neutral-messages.js";

const throwing = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Error("read refused");
      },
      getPrototypeOf() {
        throw new Error("read refused");
      },
    },
  );

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({ role: "assistant", content: [] }, {});
  revoke();
  return proxy;
};

const deep = (depth: number): unknown => {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

const hostileInputs: unknown[] = [
  throwing(),
  revoked(),
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  deep(5000),
  "\ud800 lone surrogate",
  "x".repeat(200_000),
  `{"a": "${'<|"|>'.repeat(20_000)}"}`,
  Object.assign(new Array(3), { 0: 1, 2: 3 }),
  Object.create(null),
];

describe("hostile input", () => {
  it("sanitizers and conversions never throw and never touch a prototype", () => {
    for (const input of hostileInputs) {
      const model: ModelMessage[] = [
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "f", input }] },
        input as ModelMessage,
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c",
              toolName: "f",
              output: { type: "json", value: input as never },
            },
          ],
        },
      ];
      expect(() => sanitizeModelMessages(model, { repairs: coreRepairs })).not.toThrow();
      expect(() => fromNeutralMessages(toNeutralMessages(model))).not.toThrow();
      const ui = [
        {
          id: "a",
          role: "assistant",
          parts: [{ type: "tool-f", toolCallId: "c", state: "output-available", input, output: input }],
        },
        input,
      ] as UIMessage[];
      expect(() => sanitizeUIMessages(ui, { repairs: coreRepairs })).not.toThrow();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("a fresh call with hostile text is decided, never thrown on", () => {
    for (const input of hostileInputs.filter((value) => typeof value === "string")) {
      const decided = decideToolCall({
        call: { type: "tool-call", toolCallId: "c", toolName: "f", input: input as string },
        repairs: coreRepairs,
        finishReason: "length",
      });
      expect(decided.report?.usable).toBe(false);
    }
  });

  it("reads each message a bounded number of times: four times the history, at most ~four times the reads", () => {
    const turn = (i: number): ModelMessage[] => [
      { role: "user", content: `q${i}` },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "f", input: "{'a': 1}" }],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: `c${i}`, toolName: "f", output: { type: "text", value: "ok" } },
        ],
      },
    ];
    const reads = (turns: number) => {
      let count = 0;
      const counted = (value: unknown): unknown =>
        typeof value !== "object" || value === null
          ? value
          : new Proxy(value as object, {
              get(target, key, receiver) {
                count++;
                return counted(Reflect.get(target, key, receiver));
              },
            });
      const history = Array.from({ length: turns }, (_, i) => turn(i))
        .flat()
        .map(counted) as ModelMessage[];
      sanitizeModelMessages(history, { repairs: coreRepairs });
      return count;
    };
    const small = reads(50);
    const large = reads(200);
    expect(large / small).toBeLessThan(4.4);
  });
});
