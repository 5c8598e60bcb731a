import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { issuePlace } from "./issue-place.js";

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
