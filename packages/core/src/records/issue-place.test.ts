import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { issuePlace, placeOfPath } from "./issue-place.js";

describe("issuePlace", () => {
  it("is the format's place when there is one, else core's path from the message list", () => {
    expect(issuePlace({ path: [2, "tool_calls", 0, "id"] })).toBe("messages[2].tool_calls[0].id");
    expect(issuePlace({ path: [1], place: "conversations[1]" })).toBe("conversations[1]");
    expect(issuePlace({ path: [0, "odd key", "__proto__"] })).toBe('messages[0]["odd key"].__proto__');
    expect(issuePlace({ path: [] })).toBeUndefined();
  });

  it("reads any path without throwing, and writes each key once", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(), fc.string())), (path) => {
        const place = issuePlace({ path });
        if (path.length === 0) expect(place).toBeUndefined();
        else expect(place?.startsWith("messages")).toBe(true);
      }),
    );
  });
});

describe("placeOfPath", () => {
  it("writes a path from a key, or from a bare list with no dot before the first name", () => {
    expect(placeOfPath({ prefix: "messages", path: [3, "tool_calls", 0] })).toBe("messages[3].tool_calls[0]");
    expect(placeOfPath({ prefix: "", path: [2, "content"] })).toBe("[2].content");
    expect(placeOfPath({ prefix: "", path: ["input", 1] })).toBe("input[1]");
    expect(placeOfPath({ prefix: "", path: ["a b", "c"] })).toBe('["a b"].c');
  });

  it("is issuePlace's path when the prefix is messages", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(), fc.string()), { minLength: 1 }), (path) => {
        expect(placeOfPath({ prefix: "messages", path })).toBe(issuePlace({ path }));
      }),
    );
  });
});
