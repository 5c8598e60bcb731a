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
    const known = this.#context.tools.parameter(this.#tool, key);
    const schema = known ?? fallback;
    let value: unknown = text;
    if (known === undefined) {
      if (this.#context.tools.has(this.#tool))
        this.#out.issue({
          code: "unknown_parameter",
          severity: "warning",
          message: `${JSON.stringify(key)} is not in the tool's schema${fallback === undefined ? "; kept as text" : ""}`,
          tool: this.#tool,
          parameter: key,
        });
    }
    if (schema !== undefined) {
      const converted = convertParameterValue({ text, schema });
      value = converted.success ? converted.value : converted.error.text;
      if (!converted.success)
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
