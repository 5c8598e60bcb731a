import { describe, expect, it } from "vitest";
import { createSseRepair } from "./repair-sse-stream.js";

const utf8 = (text: string) => new TextEncoder().encode(text);

// `heldBytes` is what a caller bounds an event's size by (the proxy ends a stream whose event outgrows its limit):
// it counts the bytes of the event not yet ended, and nothing else.
describe("createSseRepair's heldBytes", () => {
  it("counts an unterminated event as it grows, and drops to what follows the last blank line", () => {
    const repair = createSseRepair({ api: "chat.completions" });
    expect(repair.heldBytes).toBe(0);
    repair.push(utf8("data: {"));
    expect(repair.heldBytes).toBe(7);
    for (let i = 0; i < 100; i++) repair.push(utf8("x".repeat(1000)));
    expect(repair.heldBytes).toBe(7 + 100 * 1000);
    repair.push(utf8('}\n\ndata: {"a"'));
    expect(repair.heldBytes).toBe('data: {"a"'.length);
    repair.push(utf8(":1}\n\n"));
    expect(repair.heldBytes).toBe(0);
    repair.end();
    expect(repair.heldBytes).toBe(0);
  });

  it("whole events in one piece hold nothing", () => {
    const repair = createSseRepair({ api: "chat.completions" });
    repair.push(utf8(": comment\n\n: another\n\n"));
    expect(repair.heldBytes).toBe(0);
  });
});
