import { describe, expect, it } from "vitest";
import type { ConversationFormat } from "../conversation-format.js";
import { sanitizeHistory } from "../sanitize-history.js";
import { describeShape } from "./describe-shape.js";
import { keepEmptyTurns } from "./empty-turns.js";
import { createFormatRegistry } from "./format-registry.js";

/** A format reading `{key: [...]}` objects, for the registry's ordering (the real formats live in their packages). */
function keyed(id: string, key: string, priority?: number, resembles?: string): ConversationFormat {
  return {
    id,
    name: `${id} records`,
    expected: `{"${key}": […]}`,
    unit: "record",
    ...(priority !== undefined ? { priority } : {}),
    matches: (value) =>
      typeof value === "object" && value !== null && Array.isArray((value as Record<string, unknown>)[key]),
    ...(resembles !== undefined
      ? { resembles: (value: unknown) => typeof value === "object" && value !== null && resembles in value }
      : {}),
    read: () => ({ conversations: [], issues: [], write: () => ({ ok: true, value: undefined }) }),
  };
}

describe("format registry", () => {
  it("tries formats by priority, then as given; a tie of claims is probable, a resemblance is named", () => {
    const generic = keyed("generic", "messages");
    const special = keyed("special", "messages", 10);
    const twin = keyed("twin", "messages", 10);
    const gemini = keyed("gemini", "contents", 5, "content");
    expect(createFormatRegistry([generic, special]).detect({ messages: [] }, "record")).toMatchObject({
      certainty: "certain",
      format: { id: "special" },
    });
    expect(createFormatRegistry([generic, special, twin]).detect({ messages: [] }, "record")).toMatchObject({
      certainty: "probable",
      claimed: true,
      format: { id: "special" },
    });
    const registry = createFormatRegistry([generic, gemini]);
    expect(registry.detect({ content: {} }, "record")).toMatchObject({
      claimed: false,
      format: { id: "gemini" },
    });
    expect(registry.refusal({ value: { content: {} }, unit: "record" })).toBe(
      'an object with key "content", in no known format; probably gemini, gemini records: read it with --format gemini',
    );
    expect(registry.refusal({ value: 7, unit: "record" })).toBe(
      "a number, in no known format; expected one of: gemini, generic (or name one with --format)",
    );
    expect(registry.misnamed({ value: { contents: [] }, named: generic })).toBe(
      'an object with key "contents": named generic, but it is gemini (gemini records); read it with --format gemini',
    );
    expect(registry.misnamed({ value: { messages: [] }, named: generic })).toBeUndefined();
    // A value no format claims is read by the format the user named.
    expect(registry.misnamed({ value: { other: 1 }, named: generic })).toBeUndefined();
  });

  it("asks no format below the first claim's priority (they cannot change the verdict)", () => {
    const asked: string[] = [];
    const counted = (format: ConversationFormat): ConversationFormat => ({
      ...format,
      matches: (value) => {
        asked.push(format.id);
        return format.matches(value);
      },
    });
    const registry = createFormatRegistry([
      counted(keyed("generic", "messages")),
      counted(keyed("low", "messages", 5)),
      counted(keyed("special", "messages", 10)),
      counted(keyed("twin", "messages", 10)),
      counted(keyed("top", "contents", 20)),
    ]);
    expect(registry.detect({ messages: [] }, "record")).toMatchObject({
      certainty: "probable",
      format: { id: "special" },
      others: [{ id: "twin" }],
    });
    // The one above it (it does not claim), the claim and its tie: never `low` or `generic`.
    expect(asked).toEqual(["top", "special", "twin"]);
    asked.length = 0;
    expect(registry.detect({ other: [] }, "record")).toBeUndefined();
    expect(asked).toEqual(["top", "special", "twin", "low", "generic"]);
  });

  it("a predicate that throws says no", () => {
    const throwing: ConversationFormat = {
      ...keyed("bad", "x"),
      matches: () => {
        throw new Error("boom");
      },
    };
    expect(createFormatRegistry([throwing]).detect({}, "record")).toBeUndefined();
  });
});

describe("describeShape", () => {
  it("quotes keys as written and counts with correct plurals", () => {
    expect(describeShape([{ example: 1 }, { example: 2 }])).toBe(
      'an array of 2 elements, the first an object with key "example"',
    );
    expect(describeShape([{ a: 1, b: 2 }])).toBe(
      'an array of 1 element, the first an object with keys "a", "b"',
    );
    expect(describeShape([1, 2, 3])).toBe("an array of 3 numbers");
    expect(describeShape(["x"])).toBe("an array of 1 string");
    expect(describeShape([])).toBe("an empty array");
    expect(describeShape({})).toBe("an object with no keys");
    expect(describeShape(null)).toBe("null");
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(describeShape(revoked.proxy)).toBe("a value that cannot be read");
  });
});

describe("keepEmptyTurns", () => {
  it("an empty assistant turn stays where it is, the same object; other changes are made as sanitize makes them", () => {
    const empty = { role: "assistant", content: "" };
    const messages = [
      { role: "user", content: "a" },
      empty,
      { role: "user", content: "b" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{'a': 1}" } }],
      },
      { role: "tool", tool_call_id: "c", content: "ok" },
    ];
    expect(sanitizeHistory(messages).changes.map((change) => change.rule)).toContain("message_removed_empty");
    const kept = keepEmptyTurns({ messages, sanitize: (list) => sanitizeHistory(list) });
    expect(kept.messages[1]).toBe(empty);
    expect(kept.messages).toHaveLength(5);
    expect(kept.changes.map((change) => change.rule)).not.toContain("message_removed_empty");
    const clean = [{ role: "user", content: "a" }, empty];
    expect(keepEmptyTurns({ messages: clean, sanitize: (list) => sanitizeHistory(list) }).messages).toBe(
      clean,
    );
  });
});
