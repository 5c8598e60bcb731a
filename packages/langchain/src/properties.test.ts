import { AIMessage, AIMessageChunk, type ToolCallChunk } from "@langchain/core/messages";
import { type ChatMessage, coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromNeutralMessages } from "./from-neutral-messages.js";
import { repairToolCalls } from "./repair-tool-calls.js";
import { sanitizeMessages } from "./sanitize-messages.js";
import { toNeutralMessages } from "./to-neutral-messages.js";

const name = fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/);
// Arguments as they exist on the wire: JSON values after a JSON round trip (fast-check's jsonValue can give -0,
// which JSON text cannot carry).
const argumentsObject = fc
  .dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
/** JSON object text as providers write it: compact, spaced or indented. */
const argumentsText = fc
  .tuple(argumentsObject, fc.constantFrom(undefined, 1, 2, "\t"))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

/** A valid call in the neutral shape: an id, a name, and arguments that are a JSON object. */
const validCall = (id: string) =>
  fc.record({
    id: fc.constant(id),
    type: fc.constant("function"),
    function: fc.record({ name, arguments: argumentsText }),
  });

/** A history of turns whose calls are all valid, each answered by its result. */
const history = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.option(fc.string({ minLength: 1 }), { nil: null })), {
    minLength: 1,
    maxLength: 3,
  })
  .chain((turns) =>
    fc.tuple(
      ...turns.map(([count, content], turn) =>
        fc
          .tuple(...Array.from({ length: count }, (_, i) => validCall(`call_${turn}_${i}`)))
          .map((calls): ChatMessage[] => [
            { role: "user", content: `turn ${turn}` },
            { role: "assistant", content, tool_calls: calls },
            ...calls.map((call) => ({
              role: "tool",
              tool_call_id: call.id,
              content: `result of ${call.id}`,
            })),
          ]),
      ),
    ),
  )
  .map((turns) => turns.flat());

describe("properties", () => {
  it("neutral → LangChain → neutral is the identity for valid calls", () => {
    fc.assert(
      fc.property(history, (messages) => {
        expect(toNeutralMessages(fromNeutralMessages(messages))).toEqual(messages);
      }),
    );
  });

  it("LangChain → neutral → LangChain keeps hand-built calls", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, argumentsObject), { minLength: 1, maxLength: 4 }), (calls) => {
        const toolCalls = calls.map(([callName, args], i) => ({
          id: `call_${i}`,
          name: callName,
          args,
          type: "tool_call" as const,
        }));
        const [back] = fromNeutralMessages(
          toNeutralMessages([new AIMessage({ content: "", tool_calls: toolCalls })]),
        );
        expect((back as AIMessage).tool_calls).toEqual(toolCalls);
      }),
    );
  });

  it("a valid history is returned as it is by sanitize, and a repaired message by repair", () => {
    fc.assert(
      fc.property(history, (messages) => {
        const langchain = fromNeutralMessages(messages);
        expect(sanitizeMessages(langchain).messages).toBe(langchain);
        for (const message of langchain) expect(repairToolCalls(message).message).toBe(message);
      }),
    );
  });

  const payload = fc.oneof(
    argumentsText,
    fc.constantFrom(
      "",
      " ",
      "null",
      "42",
      "[1, 2]",
      '"{\\"a\\":1}"',
      "{invalid",
      '{"a": ',
      "{'a': True}",
      '```json\n{"a":1}\n```',
      '{"a":1}{"a":1}',
      '{"a":1,}',
    ),
    fc.string(),
  );

  it("a whole message and its stream, split anywhere, get the same calls", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(payload, fc.array(fc.nat(), { maxLength: 4 })), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("tool_calls", "length"),
        (calls, finishReason) => {
          const wire = calls.map(([args], i) => ({
            id: `call_${i}`,
            type: "function",
            function: { name: `tool_${i}`, arguments: args },
          }));
          const whole = new AIMessage({
            content: "",
            additional_kwargs: { tool_calls: wire as never },
            response_metadata: { finish_reason: finishReason },
          });
          const chunks = calls.flatMap(([args, cuts], index) => {
            const points = [...new Set(cuts.map((cut) => cut % (args.length + 1)))].sort((a, b) => a - b);
            const pieces = [0, ...points, args.length]
              .slice(1)
              .map((end, k, ends) => args.slice(k === 0 ? 0 : ends[k - 1], end));
            return pieces.map(
              (piece, k): ToolCallChunk => ({
                index,
                ...(k === 0 ? { id: `call_${index}`, name: `tool_${index}` } : {}),
                args: piece,
                type: "tool_call_chunk",
              }),
            );
          });
          const merged = [
            ...chunks.map((chunk) => new AIMessageChunk({ content: "", tool_call_chunks: [chunk] })),
            new AIMessageChunk({ content: "", response_metadata: { finish_reason: finishReason } }),
          ].reduce((all, chunk) => all.concat(chunk));
          const a = repairToolCalls(whole, { repairs: coreRepairs });
          const b = repairToolCalls(merged, { repairs: coreRepairs });
          const view = (message: typeof a.message) => ({
            valid: (message as AIMessage).tool_calls?.map(({ id, name, args }) => ({ id, name, args })),
            invalid: (message as AIMessage).invalid_tool_calls?.map(({ id, name, args, error }) => ({
              id,
              name,
              args,
              error,
            })),
          });
          expect(view(b.message)).toEqual(view(a.message));
        },
      ),
    );
  });
});
