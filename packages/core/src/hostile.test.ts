import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { encodeArguments, encodeArgumentsOrThrow } from "./encode-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { validateToolCall } from "./validate-tool-call.js";

const MB = 1024 * 1024;

describe("hostile input", () => {
  it("ends a 10 MB string that is not JSON as invalid, with every repair enabled", () => {
    for (const text of [
      "{".repeat(10 * MB),
      `{"a": "${"x".repeat(10 * MB)}`,
      "'".repeat(10 * MB),
      "```".repeat(3 * MB),
    ]) {
      const result = decodeArguments(text, { repairs: coreRepairs });
      expect(result.status).toBe("invalid");
      expect(result.arguments._raw_arguments).toBe(text);
    }
  });

  it("decodes a 10 MB valid object", () => {
    const text = JSON.stringify({ blob: "x".repeat(10 * MB) });
    expect(decodeArguments(text).status).toBe("object");
  });

  it("ends 100 000-deep nesting as invalid, never a stack overflow", () => {
    const depth = 100_000;
    const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const arrays = `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    for (const text of [objects, arrays]) {
      for (const lossless of [false, true]) {
        const result = decodeArguments(text, { lossless, repairs: coreRepairs });
        expect(result.status).toBe("invalid");
        expect(result.error).toMatch(/nesting deeper than 1000/);
      }
    }
    const pythonish = `{'a':${"[".repeat(depth)}${"]".repeat(depth)}}`;
    expect(decodeArguments(pythonish, { repairs: coreRepairs }).status).toBe("invalid");
  });

  it("keeps nesting up to the limit", () => {
    const text = `${'{"a":'.repeat(999)}1${"}".repeat(999)}`;
    expect(decodeArguments(text).status).toBe("object");
    expect(decodeArguments(text, { lossless: true }).status).toBe("object");
  });

  it("encodes a native value nested too deep as a sentinel, or throws from the OrThrow variant", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(JSON.parse(encodeArguments(deep))).toHaveProperty("_raw_arguments");
    expect(() => encodeArgumentsOrThrow(deep)).toThrow(/nesting deeper/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeArgumentsOrThrow(cyclic)).toThrow(/circular/);
    expect(validateToolCall({ id: "c", type: "function", function: { name: "f", arguments: deep } })).toEqual(
      [],
    );
  });

  it("treats __proto__, constructor and prototype as data everywhere", () => {
    const text =
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "prototype": 1}';
    for (const lossless of [false, true]) {
      const { arguments: mapping } = decodeArguments(text, { lossless });
      expect(Object.getPrototypeOf(mapping)).toBe(Object.prototype);
      expect(Object.keys(mapping)).toEqual(["__proto__", "constructor", "prototype"]);
      expect(encodeArguments(mapping)).toBe(JSON.stringify(JSON.parse(text)));
    }
    const python = decodeArguments("{'__proto__': {'polluted': True}}", { repairs: coreRepairs });
    expect(python.status).toBe("repaired");
    expect(Object.getPrototypeOf(python.arguments)).toBe(Object.prototype);
    expect(Object.hasOwn(python.arguments, "__proto__")).toBe(true);
    const sentinel = decodeArguments("[1]");
    expect(Object.getPrototypeOf(sentinel.arguments)).toBe(Object.prototype);
    const history = [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "__proto__",
            type: "function",
            function: { name: "f", arguments: '"{\\"__proto__\\":{\\"x\\":1}}"' },
          },
        ],
      },
      { role: "tool", tool_call_id: "__proto__", content: "ok" },
    ];
    const { messages } = sanitizeHistory(history);
    expect(
      JSON.parse(
        (messages[0] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]?.function
          .arguments ?? "",
      ),
    ).toEqual(JSON.parse('{"__proto__":{"x":1}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("handles lone surrogates in text and in escapes", () => {
    expect(decodeArguments('{"s": "\\ud800"}').arguments).toEqual({ s: "\ud800" });
    expect(decodeArguments('{"s": "\ud800"}').status).toBe("object");
    expect(decodeArguments('{"s": "\ud800"}', { lossless: true }).arguments).toEqual({ s: "\ud800" });
    expect(encodeArguments({ s: "\ud800" })).toBe('{"s":"\\ud800"}');
    expect(encodeArguments({ s: "\udc00x" }, { style: "python", ensureAscii: true })).toBe(
      '{"s": "\\udc00x"}',
    );
  });

  it("survives revoked proxies, throwing getters and exotic objects", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(decodeArguments(proxy).status).toBe("native_non_object");
    const getter = Object.defineProperty({}, "boom", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(() => encodeArguments(getter)).not.toThrow();
    expect(() => encodeArgumentsOrThrow(getter)).toThrow(/boom/);
    expect(decodeArguments(new Map([["a", 1]])).status).toBe("native_non_object");
    expect(decodeArguments(Symbol("s")).status).toBe("native_non_object");
    expect(decodeArguments(() => 1).status).toBe("native_non_object");
    expect(decodeArguments(10n).arguments).toEqual({ _raw_arguments: 10n });
  });
});
