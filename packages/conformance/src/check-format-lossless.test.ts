import { describe, expect, it } from "vitest";
import { checkFormatLossless, type LosslessFormat, WILD_ARGUMENTS } from "./check-format-lossless.js";
import { expectFormatLossless } from "./expect-format-lossless.js";

// A small record format written for these tests: `{ turns: [{ who, text }] }`, each turn one message. `copy` makes
// a writer that gives a copy where it owes the record itself.
type Record_ = { turns: Array<{ who: string; text: string }> };

function turnsFormat(options: { copy?: boolean } = {}): LosslessFormat {
  return {
    id: "turns",
    matches: (value) =>
      typeof value === "object" && value !== null && Array.isArray((value as Record_).turns),
    read(value) {
      const record = value as Record_;
      const messages = record.turns.map((turn) => ({ role: turn.who, content: turn.text }));
      return {
        conversations: [{ messages }],
        write([next]) {
          if (next === undefined) return { ok: true, value: options.copy ? { ...record } : record };
          const same = next.length === messages.length && next.every((m, i) => m === messages[i]);
          if (same && !options.copy) return { ok: true, value: record };
          const turns = (next as Array<{ role: string; content: string }>).map((m) => ({
            who: m.role,
            text: m.content,
          }));
          return { ok: true, value: { turns } };
        },
      };
    },
  };
}

const record: Record_ = {
  turns: [
    { who: "user", text: "a" },
    { who: "assistant", text: "" },
    { who: "user", text: "b" },
  ],
};

/** A repair that drops the empty turn, naming the drop or not. */
const dropEmpty = (named: boolean) => (format: LosslessFormat, value: unknown) => {
  const [conversation] = format.read(value).conversations;
  const kept = (conversation?.messages ?? []).filter((m) => (m as { content: string }).content !== "");
  const written = format.read(value).write([kept]);
  return {
    ...(written.ok ? { value: written.value } : {}),
    changes: named ? [{ rule: "message_removed_empty" }] : [{ rule: "content_trimmed" }],
  };
};

describe("checkFormatLossless", () => {
  it("passes a format that gives the record itself back and a repair whose drops are named", () => {
    const result = checkFormatLossless(turnsFormat(), [record], { repair: dropEmpty(true) });
    expect(result).toMatchObject({ ok: true, issues: [] });
    expect(result.samples[0]?.value).toEqual({ turns: [record.turns[0], record.turns[2]] });
  });

  it("names a message a repair lost without a change naming it", () => {
    const result = checkFormatLossless(turnsFormat(), [record], { repair: dropEmpty(false) });
    expect(result.issues.map((issue) => issue.code)).toEqual(["message_lost"]);
    expect(result.issues[0]?.message).toBe("turns: 1 messages fewer after the repair, 0 named by a change");
  });

  it("names a writer that copies a record nothing changed in, and never throws", () => {
    const copied = checkFormatLossless(turnsFormat({ copy: true }), [record], { repair: dropEmpty(true) });
    expect(copied.issues.map((issue) => issue.code)).toEqual(["unchanged_not_same"]);
    const thrown = checkFormatLossless(turnsFormat(), [null], { repair: dropEmpty(true) });
    expect(thrown.issues.map((issue) => [issue.code, issue.sample])).toEqual([["threw", 0]]);
  });

  it("fails a vitest test with every issue; the wild arguments are the pinned cases", () => {
    expect(() => expectFormatLossless(turnsFormat(), record, { repair: dropEmpty(false) })).toThrow(
      /message_lost/,
    );
    expect(expectFormatLossless(turnsFormat(), record, { repair: dropEmpty(true) }).changes).toHaveLength(1);
    expect(WILD_ARGUMENTS).toContain('{"path": "a.py"');
    expect(Object.isFrozen(WILD_ARGUMENTS)).toBe(true);
  });
});
