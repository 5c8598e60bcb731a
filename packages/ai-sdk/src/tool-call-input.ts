import { decodeArguments, safeEncodeArguments } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";

/**
 * The neutral `function.arguments` of an AI SDK tool-call part's `input`. An object (what the SDK holds for a call
 * it parsed) becomes its compact JSON text; a string (what the SDK keeps of a call it could not parse, and what a
 * saved chat's `rawInput` holds) is the model's own text, as it is, so core's rules can decode and repair it; any
 * other value (an array, a number, `null`, `undefined`) stays the native value core's R1 reads.
 *
 * `@ai-sdk/openai-compatible` would send that string as a JSON string literal when it is not JSON itself; the
 * neutral view keeps what the model wrote instead, which is what a repair needs.
 *
 * For a sanitizer (`textAsMapping`), text that is a JSON object is handed over as that object: every provider but
 * `@ai-sdk/openai-compatible` writes a string input as a JSON string literal, so text is never the form a history
 * should keep, even when it would be valid arguments text.
 *
 * @example
 * argumentsOfInput({ city: "Paris" }); // '{"city":"Paris"}'
 * argumentsOfInput("{'city': 'Paris'}"); // "{'city': 'Paris'}"
 */
export function argumentsOfInput(input: unknown, options: { textAsMapping?: boolean } = {}): unknown {
  if (typeof input === "string") {
    if (!options.textAsMapping) return input;
    const decoded = decodeArguments(input);
    return decoded.status === "object" ? decoded.arguments : input;
  }
  if (!isPlainObject(input)) return input;
  const encoded = safeEncodeArguments(input);
  // A value JSON cannot hold (a cycle, a throwing getter) stays a native value: core reports it.
  return encoded.success ? encoded.value : input;
}

/**
 * The AI SDK `input` of a neutral call's arguments: text that is a JSON object becomes that object (what every AI
 * SDK provider serializes); a mapping stays that mapping; anything else (`""`, `"null"`, broken or non-object text,
 * a native value) stays as it is, as the SDK holds a call it could not parse.
 *
 * @example
 * inputOfArguments('{"city": "Paris"}'); // { city: "Paris" }
 * inputOfArguments("{oops"); // "{oops"
 */
export function inputOfArguments(args: unknown): unknown {
  if (typeof args !== "string") return args;
  const decoded = decodeArguments(args);
  return decoded.status === "object" ? decoded.arguments : args;
}
