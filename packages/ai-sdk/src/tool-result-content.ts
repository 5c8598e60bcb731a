import { isPlainObject } from "@toolcall/core/kit";

/** A tool result's `output` (`ToolResultOutput`): `text`, `json`, `error-text`, `error-json`, `content`, `execution-denied`. */
type Output = { type?: unknown; value?: unknown; reason?: unknown; [key: string]: unknown };

/** JSON text as the provider writes it (big integers as their digits); a value JSON cannot hold stays as it is. */
function jsonText(value: unknown): unknown {
  try {
    return (
      JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item)) ?? "null"
    );
  } catch {
    return value;
  }
}

/**
 * The neutral tool message `content` of an AI SDK tool result's `output`, as `@ai-sdk/openai-compatible` sends it:
 * the text of `text` and `error-text`, the reason of `execution-denied` (or its default wording), the JSON text of
 * `json`, `error-json` and `content`.
 *
 * @example
 * contentOfOutput({ type: "json", value: { temperature: 21 } }); // '{"temperature":21}'
 */
export function contentOfOutput(output: unknown): unknown {
  if (!isPlainObject(output)) return output;
  const out = output as Output;
  switch (out.type) {
    case "text":
    case "error-text":
      return out.value;
    case "execution-denied":
      return typeof out.reason === "string" ? out.reason : "Tool call execution denied.";
    case "json":
    case "error-json":
    case "content":
      return jsonText(out.value);
    default:
      return output;
  }
}

function isTextPart(part: unknown): part is { type: "text"; text: string } {
  return isPlainObject(part) && part.type === "text" && typeof part.text === "string";
}

/**
 * The AI SDK `output` for a neutral tool message's `content`. A result made from an AI SDK output whose content did
 * not change gets that output back (see the callers); this builds one for new or changed content: text of an
 * error output stays an error (`error-text`), other text is `text`, a list of text parts is `content`, anything
 * else `json`.
 *
 * @example
 * outputOfContent("sunny"); // { type: "text", value: "sunny" }
 * outputOfContent("[no result]", { type: "error-text", value: "boom" }); // { type: "error-text", value: "[no result]" }
 */
export function outputOfContent(content: unknown, previous?: unknown): Record<string, unknown> {
  const wasError =
    isPlainObject(previous) && (previous.type === "error-text" || previous.type === "error-json");
  if (typeof content === "string") return { type: wasError ? "error-text" : "text", value: content };
  if (content === null || content === undefined) return { type: "text", value: "" };
  if (Array.isArray(content) && content.every(isTextPart)) {
    return { type: "content", value: content.map((part) => ({ type: "text", text: part.text })) };
  }
  return { type: wasError ? "error-json" : "json", value: content };
}
