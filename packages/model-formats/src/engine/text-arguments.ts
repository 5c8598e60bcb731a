import { convertParameterValue, serializeJson } from "@toolcall/core/kit";
import type { FamilyContext } from "./define-syntax.js";
import type { Output } from "./output.js";

/**
 * Arguments a syntax writes as key/value text pairs (GLM, DeepSeek DSML), built as wire text pair by pair: each
 * value typed by the tool's JSON Schema (core's `convertParameterValue`; without a schema a value stays text), the
 * text written as Python's `json.dumps` writes the mapping. Each pair is passed on as an argument delta as soon as
 * it is complete, so the deltas add up to the final text by construction.
 */
export class TextArguments {
  #text = "";
  #keys = new Set<string>();
  readonly #tool: string;
  readonly #context: FamilyContext;
  readonly #out: Output;

  constructor(tool: string, context: FamilyContext, out: Output) {
    this.#tool = tool;
    this.#context = context;
    this.#out = out;
  }

  /** Adds a pair whose value is text to be typed by the schema (`fallback` when the tools give none). */
  addText(key: string, text: string, fallback?: unknown): void {
    const known = this.#known(key, fallback === undefined ? "; kept as text" : "");
    const schema = known ?? fallback;
    let value: unknown = text;
    if (schema !== undefined) {
      const converted = convertParameterValue({ text, schema });
      value = converted.success ? converted.value : converted.error.text;
      const unescaped = converted.success ? undefined : escapedStructure(text, schema);
      if (unescaped !== undefined) {
        value = unescaped;
        this.#out.issue({
          code: "value_unescaped",
          severity: "warning",
          message: 'a JSON value written with its quotes escaped (\\"); read once unescaped',
          tool: this.#tool,
          parameter: key,
        });
      } else if (!converted.success)
        this.#out.issue({
          code: "parameter_type_mismatch",
          severity: "warning",
          message: `${converted.error.reason}; kept as text`,
          tool: this.#tool,
          parameter: key,
        });
    }
    this.addValue(key, value);
  }

  /** The key's schema; a key the offered tool's schema does not know is told (`unknown_parameter`). */
  #known(key: string, note: string): unknown {
    const known = this.#context.tools.parameter(this.#tool, key);
    if (known === undefined && this.#context.tools.has(this.#tool))
      this.#out.issue({
        code: "unknown_parameter",
        severity: "warning",
        message: `${JSON.stringify(key)} is not in the tool's schema${note}`,
        tool: this.#tool,
        parameter: key,
      });
    return known;
  }

  /** Adds a pair whose value the syntax typed itself, telling a key the tool's schema does not know. */
  addTypedValue(key: string, value: unknown): void {
    this.#known(key, "");
    this.addValue(key, value);
  }

  /** Adds a pair whose value is already typed. */
  addValue(key: string, value: unknown): void {
    if (this.#keys.has(key))
      this.#out.issue({
        code: "parameter_repeated",
        severity: "warning",
        message: `${JSON.stringify(key)} is written twice; both are kept in the text, and JSON readers take the last`,
        tool: this.#tool,
        parameter: key,
      });
    this.#keys.add(key);
    const name = serializeJson(key, { style: "python" });
    const written = serializeJson(value, { style: "python" });
    const pair = `${name.success ? name.value : '""'}: ${written.success ? written.value : "null"}`;
    const piece = this.#text === "" ? `{${pair}` : `, ${pair}`;
    this.#text += piece;
    this.#out.delta(piece);
  }

  /** The whole wire text. */
  finish(): string {
    return this.#text === "" ? "{}" : `${this.#text}}`;
  }
}

/**
 * The object or list a value means when the model wrote its JSON escaped as if inside a string
 * (`[{\\"id\\": \\"1\\"}]`, seen from GLM-4.7): the text read once as a JSON string's body, when that is valid and
 * then types as an object or a list by the schema. Only a structure has this one reading: its escaped text is neither
 * JSON nor a Python literal, and the unescaped text is exactly what a template's `tojson` would have written.
 */
function escapedStructure(text: string, schema: unknown): unknown {
  if (!text.includes('\\"')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(`"${text}"`);
  } catch {
    return undefined;
  }
  if (typeof body !== "string") return undefined;
  const converted = convertParameterValue({ text: body, schema });
  return converted.success && typeof converted.value === "object" && converted.value !== null
    ? converted.value
    : undefined;
}
