import { readFileSync } from "node:fs";
import { join } from "node:path";
import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repairChatCompletion } from "../chat/repair-chat-completion.js";
import { repairResponseBody } from "./repair-response-body.js";

/** A recorded vLLM answer with three calls, two of which need a repair (a fence, an object sent twice). */
const recorded = readFileSync(
  join(import.meta.dirname, "../../test/__fixtures__/chat-parallel.json"),
  "utf8",
);

/** JSON.parse and JSON.stringify calls while `run` runs, with the length of each text parsed. */
function counted<T>(run: () => T): { parsed: number[]; failed: number; stringified: number; value: T } {
  const { parse, stringify } = JSON;
  const parsed: number[] = [];
  let failed = 0;
  let stringified = 0;
  JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
    parsed.push(String(args[0]).length);
    try {
      return parse(...args);
    } catch (error) {
      failed++;
      throw error;
    }
  };
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    stringified++;
    return stringify(...args);
  }) as typeof JSON.stringify;
  try {
    const value = run();
    return { parsed, failed, stringified, value };
  } finally {
    JSON.parse = parse;
    JSON.stringify = stringify;
  }
}

/** What the answer is once repaired, read as a value (the written-again form, whatever its layout). */
function repairedValue(text: string): unknown {
  return JSON.parse(
    JSON.stringify(repairChatCompletion(JSON.parse(text), { repairs: coreRepairs }).completion),
  );
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("a repaired answer keeps the upstream's text but for the arguments it repaired", () => {
  it("the recorded answer: its layout and numbers as they came, the body parsed once, each argument once", () => {
    const body = new TextEncoder().encode(recorded);
    const { parsed, failed, stringified, value } = counted(() =>
      repairResponseBody({ api: "chat.completions", body, options: { repairs: coreRepairs } }),
    );
    expect(value.ok && value.changed).toBe(true);
    const text = decode((value as { body: Uint8Array }).body);
    expect(text).toBe(
      recorded
        .replace('"```json\\n{\\"city\\":\\"Rome\\"}\\n```"', '"{\\"city\\":\\"Rome\\"}"')
        .replace('"{\\"city\\":\\"Oslo\\"}{\\"city\\":\\"Oslo\\"}"', '"{\\"city\\":\\"Oslo\\"}"'),
    );
    expect(JSON.parse(text)).toEqual(repairedValue(recorded));
    // The body, then the three calls' texts (the two repaired ones as the repairs left them); nothing fails.
    expect(parsed).toEqual([recorded.length, 17, 15, 15]);
    expect(failed).toBe(0);
    // The two repaired texts and the two strings searched for: the answer itself is not written again.
    expect(stringified).toBe(6);
  });

  it("an arguments string written another way, or found twice, has the answer written again, to the same value", () => {
    const escaped = recorded.replace('"```json\\n{', '"\\u0060\\u0060\\u0060json\\n{');
    const twice = recorded.replace('"content": null', '"content": "```json\\n{\\"city\\":\\"Rome\\"}\\n```"');
    for (const text of [escaped, twice]) {
      const repaired = repairResponseBody({
        api: "chat.completions",
        body: new TextEncoder().encode(text),
        options: { repairs: coreRepairs },
      });
      expect(repaired.ok && repaired.changed).toBe(true);
      const written = decode((repaired as { body: Uint8Array }).body);
      expect(written.startsWith('{"id":')).toBe(true);
      expect(JSON.parse(written)).toEqual(repairedValue(text));
    }
  });

  it("gives the value a rewrite gives, whatever the arguments and the text around them", () => {
    const argumentsText = fc.oneof(
      fc.constantFrom("{'a': 1}", '{"a":1}{"a":1}', '```json\n{"b": [1, 2]}\n```', '{"c": "}{"}', "null", ""),
      fc.string(),
    );
    const decoy = fc.oneof(fc.constant(null), argumentsText);
    fc.assert(
      fc.property(
        fc.array(argumentsText, { minLength: 1, maxLength: 3 }),
        decoy,
        fc.boolean(),
        (calls, content, pretty) => {
          const answer = {
            id: "chatcmpl-1",
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content,
                  tool_calls: calls.map((text, i) => ({
                    id: `call_${i}`,
                    type: "function",
                    function: { name: "f", arguments: text },
                  })),
                },
                finish_reason: "tool_calls",
              },
            ],
            usage: { total_tokens: 1.0 },
          };
          const text = JSON.stringify(answer, null, pretty ? 1 : undefined).replace(
            /"total_tokens": ?1/,
            (found) => `${found}.0`,
          );
          const repaired = repairResponseBody({
            api: "chat.completions",
            body: new TextEncoder().encode(text),
            options: { repairs: coreRepairs },
          });
          expect(repaired.ok).toBe(true);
          if (!repaired.ok || !repaired.changed) return;
          const written = decode(repaired.body);
          expect(JSON.parse(written)).toEqual(repairedValue(text));
          // Numbers stay as written, whichever way the answer was written.
          expect(written).toMatch(/"total_tokens": ?1\.0/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
