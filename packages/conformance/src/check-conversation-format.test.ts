import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CheckedConversationFormat, checkConversationFormat } from "./check-conversation-format.js";
import { expectConversationFormat } from "./expect-conversation-format.js";

// A small record format written for these tests: `{ meta, turns }`, each turn `{ who, text, calls?, answers? }`,
// read into OpenAI Chat messages and written back from them. Its sanitizer below repairs one thing (arguments that are
// not JSON object text become "{}"), as a history sanitizer does.
type Turn = {
  who: "user" | "assistant" | "tool";
  text: string;
  calls?: Array<{ id: string; name: string; args: string }>;
  answers?: string;
};
type Message = {
  role: string;
  content: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};

const toMessage = (turn: Turn): Message => ({
  role: turn.who,
  content: turn.text,
  ...(turn.calls
    ? {
        tool_calls: turn.calls.map((c) => ({
          id: c.id,
          type: "function" as const,
          function: { name: c.name, arguments: c.args },
        })),
      }
    : {}),
  ...(turn.answers !== undefined ? { tool_call_id: turn.answers } : {}),
});

const toTurn = (message: Message): Turn => ({
  who: message.role as Turn["who"],
  text: message.content,
  ...(message.tool_calls
    ? {
        calls: message.tool_calls.map((c) => ({
          id: c.id,
          name: c.function.name,
          args: c.function.arguments,
        })),
      }
    : {}),
  ...(message.tool_call_id !== undefined ? { answers: message.tool_call_id } : {}),
});

function turnsFormat(options: { id: string; write?: (m: Message) => Turn; copyUnchanged?: boolean }) {
  const write = options.write ?? toTurn;
  return {
    id: options.id,
    read(value: unknown) {
      const record = value as { meta?: unknown; turns: Turn[] };
      return {
        conversations: [{ messages: record.turns.map(toMessage) }],
        write(replacements: ReadonlyArray<readonly unknown[] | undefined>) {
          const messages = replacements[0] as Message[] | undefined;
          if (messages === undefined)
            return { ok: true as const, value: options.copyUnchanged ? { ...record } : record };
          return { ok: true as const, value: { ...record, turns: messages.map(write) } };
        },
      };
    },
  } satisfies CheckedConversationFormat;
}

function isObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Arguments that are not JSON object text become "{}", one change each. */
function sanitize(messages: readonly unknown[]) {
  const changes: Array<{ rule: string; path: (string | number)[] }> = [];
  const out = (messages as Message[]).map((message, i) => {
    if (!message.tool_calls) return message;
    return {
      ...message,
      tool_calls: message.tool_calls.map((call, j) => {
        if (isObjectText(call.function.arguments)) return call;
        changes.push({ rule: "R5", path: [i, "tool_calls", j] });
        return { ...call, function: { ...call.function, arguments: "{}" } };
      }),
    };
  });
  return { messages: out, changes };
}

const clean = {
  meta: { source: "test", tags: ["a"] },
  turns: [
    { who: "user", text: "Weather in Paris?" },
    { who: "assistant", text: "", calls: [{ id: "c1", name: "weather", args: '{"city":"Paris"}' }] },
    { who: "tool", text: "18 C", answers: "c1" },
  ],
};
const broken = {
  ...clean,
  turns: [
    clean.turns[0],
    { ...clean.turns[1], calls: [{ id: "c1", name: "weather", args: '{"city":' }] },
    clean.turns[2],
  ],
};

describe("checkConversationFormat", () => {
  it("passes a lossless format, giving back an untouched record as itself and a changed one as written", () => {
    const result = checkConversationFormat(turnsFormat({ id: "turns" }), [clean, broken], { sanitize });
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.samples[0]).toEqual({ value: clean, changes: 0 });
    expect(result.samples[0]?.value).toBe(clean);
    expect(result.samples[1]?.changes).toBe(1);
    const written = result.samples[1]?.value as typeof broken;
    expect(written.meta).toBe(clean.meta);
    expect(written.turns[1]?.calls?.[0]?.args).toBe("{}");
  });

  it("fails a format that loses what was written (the call id), naming the place", () => {
    const lossy = turnsFormat({
      id: "lossy",
      write: (m) => {
        const turn = toTurn(m);
        return turn.calls ? { ...turn, calls: turn.calls.map((c) => ({ ...c, id: "" })) } : turn;
      },
    });
    const result = checkConversationFormat(lossy, [clean, broken], { sanitize });
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      {
        code: "read_back_differs",
        sample: 1,
        message:
          'lossy: the written record reads back otherwise: [0][1].tool_calls[0].id: got "", expected "c1"',
      },
    ]);
  });

  it("fails a format that copies a record it was asked to keep", () => {
    const result = checkConversationFormat(turnsFormat({ id: "copy", copyUnchanged: true }), [clean], {
      sanitize,
    });
    expect(result.issues.map((i) => i.code)).toEqual(["unchanged_not_same", "unchanged_not_same"]);
  });

  it("fails a sanitizer whose repair is not stable", () => {
    let calls = 0;
    const restless = (messages: readonly unknown[]) => {
      calls++;
      const result = sanitize(messages);
      // The second pass (over what was read back) still reports a change.
      return calls > 1 ? { ...result, changes: [{ rule: "R5", path: [] }] } : result;
    };
    const result = checkConversationFormat(turnsFormat({ id: "turns" }), [broken], { sanitize: restless });
    expect(result.issues.map((i) => i.code)).toEqual(["sanitize_not_stable"]);
  });

  it("reports a read that throws and a write that fails as issues, never throwing", () => {
    const format = turnsFormat({ id: "turns" });
    const result = checkConversationFormat(format, [null, clean], { sanitize });
    expect(result.issues).toEqual([
      { code: "read_threw", sample: 0, message: expect.stringMatching(/^turns: read threw: /) },
    ]);
    const refusing: CheckedConversationFormat = {
      id: "refusing",
      read: (value) => ({ ...format.read(value), write: () => ({ ok: false, reason: "cannot express it" }) }),
    };
    expect(checkConversationFormat(refusing, [broken], { sanitize }).issues).toEqual([
      {
        code: "write_failed",
        sample: 0,
        message: "refusing: writing no replacement failed: cannot express it",
      },
      { code: "write_failed", sample: 0, message: "refusing: cannot express it" },
    ]);
  });

  it("gives an answer's conversation pendingCalls: keep, on top of the options", () => {
    const seen: unknown[] = [];
    const answer: CheckedConversationFormat = {
      id: "answer",
      read: (value) => {
        const reading = turnsFormat({ id: "answer" }).read(value);
        return { ...reading, conversations: reading.conversations.map((c) => ({ ...c, answer: true })) };
      },
    };
    checkConversationFormat(answer, [clean], {
      sanitize: (messages, options) => {
        seen.push(options);
        return sanitize(messages);
      },
      options: { policy: "drop" },
    });
    expect(seen).toEqual([{ policy: "drop", pendingCalls: "keep" }]);
  });

  it("compares call ids by order for formats that name calls by their place", () => {
    // Names calls by position, as data sets that store no ids do: a written record gets new names.
    const byPlace = turnsFormat({
      id: "by-place",
      write: (m) => {
        const turn = toTurn(m);
        if (turn.calls) return { ...turn, calls: turn.calls.map((c, i) => ({ ...c, id: `call@${i}` })) };
        return turn.answers !== undefined ? { ...turn, answers: "call@0" } : turn;
      },
    });
    expect(checkConversationFormat(byPlace, [broken], { sanitize }).issues.map((i) => i.code)).toEqual([
      "read_back_differs",
    ]);
    expect(checkConversationFormat(byPlace, [broken], { sanitize, callIds: "by-order" }).issues).toEqual([]);
  });

  it("never throws, whatever the samples", () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 4 }), (samples) => {
        const result = checkConversationFormat(turnsFormat({ id: "turns" }), samples, { sanitize });
        expect(result.samples).toHaveLength(samples.length);
        expect(result.ok).toBe(result.issues.length === 0);
      }),
    );
  });
});

describe("expectConversationFormat", () => {
  it("returns the round trip of a lossless format, and fails the test with each issue for a lossy one", () => {
    expect(expectConversationFormat(turnsFormat({ id: "turns" }), broken, { sanitize }).changes).toBe(1);
    const lossy = turnsFormat({ id: "lossy", write: (m) => ({ ...toTurn(m), text: "" }) });
    expect(() => expectConversationFormat(lossy, broken, { sanitize })).toThrow(
      /read_back_differs: lossy: the written record reads back otherwise: \[0\]\[0\]\.content/,
    );
  });
});
