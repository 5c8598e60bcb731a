import { describe, expect, it } from "vitest";
import type { FormatReading } from "../conversation-format.js";
import { guardedReading } from "./guarded-reading.js";
import { storedListOf, withStoredList } from "./stored-list.js";

const isMessage = (message: unknown) =>
  typeof message === "object" && message !== null && "role" in (message as object);
const hi = { role: "user", content: "hi" };

describe("storedListOf / withStoredList", () => {
  it("finds a bare list or {messages}, and refuses an empty list (unless allowed) or a stranger in it", () => {
    expect(storedListOf({ value: [hi], isMessage })).toEqual({ list: [hi] });
    expect(storedListOf({ value: { model: "m", messages: [hi] }, isMessage })).toEqual({
      list: [hi],
      key: "messages",
    });
    expect(storedListOf({ value: [], isMessage })).toBeUndefined();
    expect(storedListOf({ value: { messages: [] }, isMessage, allowEmpty: true })).toEqual({
      list: [],
      key: "messages",
    });
    expect(storedListOf({ value: [hi, 3], isMessage })).toBeUndefined();
    expect(storedListOf({ value: { messages: "no" }, isMessage })).toBeUndefined();
    expect(storedListOf({ value: "text", isMessage })).toBeUndefined();
  });

  it("writes back the same record when nothing changed, else every other key in its place", () => {
    const value = JSON.parse(
      `{"model": "m", "__proto__": {"polluted": true}, "messages": [${JSON.stringify(hi)}], "z": 1}`,
    );
    const found = storedListOf({ value, isMessage });
    if (found === undefined) throw new Error("not found");
    expect(withStoredList({ value, found, list: [...found.list] })).toBe(value);
    const out = withStoredList({ value, found, list: [] }) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["model", "__proto__", "messages", "z"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ polluted: true });
    expect(out.messages).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const bare = [hi];
    const list = storedListOf({ value: bare, isMessage });
    if (list === undefined) throw new Error("not found");
    expect(withStoredList({ value: bare, found: list, list: [hi, hi] })).toEqual([hi, hi]);
  });
});

describe("guardedReading", () => {
  it("a reading that throws is a refusal that keeps the value; a writing that throws is a failed write", () => {
    const value = { messages: [] };
    const refused = guardedReading({
      value,
      what: "X messages",
      read: () => {
        throw new Error("getter");
      },
    });
    expect(refused.issues).toEqual([
      {
        code: "record_not_conversation",
        severity: "error",
        message: "X messages that cannot be read: getter",
        path: [],
      },
    ]);
    expect(refused.write([])).toEqual({ ok: true, value });
    const reading: FormatReading = {
      conversations: [],
      issues: [],
      write: () => {
        throw "revoked";
      },
    };
    expect(guardedReading({ value, what: "X", read: () => reading }).write([])).toEqual({
      ok: false,
      reason: "cannot be written: revoked",
    });
  });
});
