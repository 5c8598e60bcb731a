import { loadVectors } from "@toolcall/conformance";
import { describeConformance } from "@toolcall/conformance/vitest";
import { type SanitizeOptions, sanitizeHistory, validateHistory } from "@toolcall/core";
import { resolveCoreRepairs } from "@toolcall/core/conformance";
import { isPlainObject } from "@toolcall/core/kit";
import { anthropicMessagesFormat } from "../src/index.js";
import { decideStream } from "./stream-decisions.js";

/** A value as JSON sees it: what a file holds (origins and other symbols are not data). */
const asData = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
// The suite through Anthropic's shapes: each history of the vectors is written as Anthropic Messages (tool calls as
// tool_use blocks, results as tool_result blocks in user messages), read back through the format, and the rules run on
// what the format reads; a sanitized history is written back as blocks and read again before it is compared.

/** A vectors' history as Anthropic Messages, or `undefined` when Anthropic's shapes cannot hold it as it is. */
function toAnthropic(messages: unknown): unknown[] | undefined {
  if (!Array.isArray(messages)) return undefined;
  const out: unknown[] = [];
  let results: unknown[] | undefined;
  const closeResults = () => {
    if (results !== undefined) out.push({ role: "user", content: results });
    results = undefined;
  };
  for (const message of messages) {
    if (!isPlainObject(message)) return undefined;
    const keys = Object.keys(message);
    switch (message.role) {
      case "tool":
        if (typeof message.tool_call_id !== "string" || typeof message.content !== "string") return undefined;
        if (keys.some((k) => !["role", "tool_call_id", "content"].includes(k))) return undefined;
        results ??= [];
        results.push({ type: "tool_result", tool_use_id: message.tool_call_id, content: message.content });
        break;
      case "user":
      case "system":
        closeResults();
        if (typeof message.content !== "string" || keys.some((k) => !["role", "content"].includes(k)))
          return undefined;
        out.push({ role: message.role, content: message.content });
        break;
      case "assistant": {
        closeResults();
        if (keys.some((k) => !["role", "content", "tool_calls"].includes(k))) return undefined;
        const blocks: unknown[] = [];
        if (typeof message.content === "string" && message.content !== "") {
          blocks.push({ type: "text", text: message.content });
        } else if (message.content !== null && message.content !== undefined) return undefined;
        if (message.tool_calls !== undefined) {
          if (!Array.isArray(message.tool_calls)) return undefined;
          for (const call of message.tool_calls) {
            // Anthropic stores an input object: only arguments that are such an object's canonical text translate.
            if (!isPlainObject(call) || call.type !== "function" || !isPlainObject(call.function))
              return undefined;
            if (Object.keys(call).some((k) => !["id", "type", "function"].includes(k))) return undefined;
            const text = call.function.arguments;
            if (typeof text !== "string" || typeof call.id !== "string") return undefined;
            let input: unknown;
            try {
              input = JSON.parse(text);
            } catch {
              return undefined;
            }
            if (!isPlainObject(input) || JSON.stringify(input) !== text) return undefined;
            blocks.push({ type: "tool_use", id: call.id, name: call.function.name, input });
          }
        }
        if (blocks.length === 0) return undefined;
        out.push({ role: "assistant", content: blocks });
        break;
      }
      default:
        return undefined;
    }
  }
  closeResults();
  return out;
}

// Histories Anthropic's shapes cannot hold as they are (arguments that are not an object's canonical text, tool
// results that are not text, messages with other fields): computed from the vectors, not listed by hand.
const skip = Object.fromEntries(
  loadVectors({ operations: ["validateHistory", "sanitize"] })
    .filter((testCase) => toAnthropic(testCase.input) === undefined)
    .map((testCase) => [
      testCase.id,
      "the history has no Anthropic Messages form (blocks hold objects and text)",
    ]),
);

function conversationOf(messages: unknown) {
  const reading = anthropicMessagesFormat.read(toAnthropic(messages));
  const conversation = reading.conversations[0];
  if (conversation === undefined) throw new Error("no conversation read");
  return { reading, conversation };
}

describeConformance({
  implementation: {
    name: "@toolcall/anthropic",
    validateHistory: (messages, options) =>
      validateHistory(conversationOf(messages).conversation.messages, options),
    sanitize(messages, options) {
      const { reading, conversation } = conversationOf(messages);
      const result = sanitizeHistory(conversation.messages, options as SanitizeOptions);
      if (result.changes.length === 0) return { messages, changes: result.changes };
      const written = reading.write([result.messages]);
      if (!written.ok) throw new Error(written.reason);
      const again = anthropicMessagesFormat.read(asData(written.value)).conversations[0];
      return { messages: asData(again?.messages), changes: result.changes };
    },
    decideStream: (input, options) =>
      decideStream(input as { deltas: unknown[]; finishReason?: string | null }, {
        repairs: (options as { repairs?: [] }).repairs,
        splitMergedCalls: (options as { splitMergedCalls?: boolean }).splitMergedCalls === true,
      }),
    resolveRepairs: resolveCoreRepairs,
  },
  skip: {
    ...skip,
    // A Messages API answer streams its content blocks one after another.
    "r9-stream-decisions-interleaved-clean-calls": "content blocks never interleave in a Messages API stream",
  },
});
