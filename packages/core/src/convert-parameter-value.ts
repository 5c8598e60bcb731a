import { JsonNumber } from "./json-number.js";
import { parseJson } from "./parse-json.js";
import { listEntries } from "./read-history.js";
import { pythonLiteral } from "./repairs/python-literal.js";
import type { Result } from "./result.js";

/** The JSON Schema type a parameter is read as, and whether `null` is allowed. */
export interface ParameterType {
  /** Lower-cased type name, `undefined` when the schema names none. */
  type: string | undefined;
  nullable: boolean;
}

/** What converting one parameter value gave. */
/** The typed value, or the text kept as a string and why it could not be typed. */
export type ConvertedValue = Result<unknown, { text: string; reason: string }>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The type a parameter's schema asks for: `type` (a name, or a list whose first non-null member counts), else the
 * first non-null member of `anyOf` / `oneOf`. A `null` member anywhere, or OpenAPI's `nullable: true`, makes the
 * parameter nullable.
 *
 * @example
 * parameterType({ type: ["integer", "null"] }); // { type: "integer", nullable: true }
 * parameterType({ anyOf: [{ type: "null" }, { type: "object" }] }); // { type: "object", nullable: true }
 */
export function parameterType(schema: unknown): ParameterType {
  try {
    const { type, nullable } = typeOf(schema);
    return { type, nullable };
  } catch {
    // A schema whose getters throw, or a revoked proxy: no type to read.
    return { type: undefined, nullable: false };
  }
}

/** Schemas nest `anyOf` in `anyOf`; past this depth a schema names no type (hostile depth never overflows). */
const MAX_SCHEMA_DEPTH = 64;

/** The members of a list in a schema, a long sparse one by what it holds (never walked index by index). */
function entriesOf(list: readonly unknown[]): unknown[] {
  return listEntries(list)?.values ?? [];
}

/** Past this many members a union is typed by its first ones (a hostile schema never costs more). */
const MAX_UNION_MEMBERS = 16;

/** What one walk of a parameter's schema finds: the non-null type names it allows, in order, and whether null is one. */
interface SchemaTypes {
  members: string[];
  nullable: boolean;
}

/**
 * The distinct non-null type names a schema allows, in order (`type`, a type list, the members of `anyOf` / `oneOf`,
 * nested; an `enum` with no type is `enum`), and whether it allows null (a `null` member anywhere, a `null` in an
 * enum, or OpenAPI 3.0's `nullable: true`, which Gemini's and many tools' schemas use). Throws what reading the
 * schema throws.
 */
function schemaTypes(schema: unknown, depth: number, into: SchemaTypes): SchemaTypes {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return into;
  const add = (name: string) => {
    if (name === "null") into.nullable = true;
    else if (!into.members.includes(name) && into.members.length < MAX_UNION_MEMBERS) into.members.push(name);
  };
  if (schema.nullable === true) into.nullable = true;
  const declared = schema.type;
  if (typeof declared === "string") add(declared.toLowerCase());
  else if (Array.isArray(declared)) {
    for (const t of entriesOf(declared)) if (typeof t === "string") add(t.toLowerCase());
  } else {
    const members = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
    if (members) for (const member of entriesOf(members)) schemaTypes(member, depth + 1, into);
    else if (Array.isArray(schema.enum)) {
      add("enum");
      if (entriesOf(schema.enum).includes(null)) into.nullable = true;
    }
  }
  return into;
}

/** {@link parameterType} that throws what reading the schema throws, with the union's members. */
function typeOf(schema: unknown): ParameterType & { members: string[] } {
  const { members, nullable } = schemaTypes(schema, 0, { members: [], nullable: false });
  // A schema of type `null` alone names that type (it reads as text).
  const onlyNull =
    isRecord(schema) && typeof schema.type === "string" && schema.type.toLowerCase() === "null";
  return { type: members[0] ?? (onlyNull ? "null" : undefined), nullable, members };
}

/** True when a decoded value holds a number a double cannot hold (`1e999`). Iterative: no stack overflow. */
function holdsNonFinite(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (JsonNumber.isInstance(value)) {
      if (!Number.isFinite(Number(value.text))) return true;
    } else if (typeof value === "object" && value !== null) {
      // One push at a time: spreading a huge array would overflow the argument limit.
      for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push(item);
    }
  }
  return false;
}

const STRING_TYPES = new Set(["string", "str", "text", "varchar", "char", "enum"]);
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const PLAIN_INTEGER = /^[+-]?\d+$/;

/**
 * An integer's digits as Python prints the int (`+5` → `5`, `007` → `7`, `-0` → `0`), in one pass: no BigInt, whose
 * parsing and printing are superlinear in the digits.
 */
function canonicalInteger(text: string): string {
  const negative = text.charCodeAt(0) === 0x2d;
  const digits = text.replace(/^[+-]/, "").replace(/^0+(?=\d)/, "");
  return negative && digits !== "0" ? `-${digits}` : digits;
}

function family(type: string): "string" | "integer" | "number" | "boolean" | "structured" | "other" {
  if (STRING_TYPES.has(type)) return "string";
  if (/^(int|uint|long|short|unsigned)/.test(type)) return "integer";
  if (/^(num|float|double|decimal)/.test(type)) return "number";
  if (/^bool/.test(type) || type === "binary") return "boolean";
  if (/^(object|array|dict|list)/.test(type)) return "structured";
  return "other";
}

/**
 * Types one parameter value written as text (Qwen3-Coder's `<parameter=…>`, GLM's `<arg_value>`, DeepSeek's DSML
 * `<｜DSML｜parameter>`: the syntax's own separators already removed) by the parameter's JSON Schema: the one rule
 * every model syntax that carries values as text shares. Numbers keep the text they were written as
 * (`5.0` stays a float, big integers keep every digit); text that does not fit the type is kept as text, with the
 * reason.
 *
 * @example
 * convertParameterValue({ text: "5", schema: { type: "integer" } }); // { success: true, value: JsonNumber("5") }
 * convertParameterValue({ text: "True", schema: { type: "boolean" } }); // { success: true, value: true }
 * convertParameterValue({ text: "null", schema: { type: "string" } }); // { success: true, value: "null" }
 * convertParameterValue({ text: "null", schema: { type: ["string", "null"] } }); // { success: true, value: null }
 * convertParameterValue({ text: '{"a": 1}', schema: { type: ["string", "object"] } }); // { success: true, value: { a: JsonNumber("1") } }
 */
export function convertParameterValue(options: { text: string; schema: unknown }): ConvertedValue {
  let text: unknown;
  let schema: unknown;
  try {
    text = options?.text;
    schema = options?.schema;
  } catch {
    // Options that cannot be read: no text, no schema.
  }
  const value = typeof text === "string" ? text : "";
  try {
    return convert(value, schema);
  } catch {
    // A schema that throws on reading (a getter, a Proxy) types nothing.
    return { success: false, error: { text: value, reason: "the schema could not be read" } };
  }
}

function convert(text: string, schema: unknown): ConvertedValue {
  const { type, nullable, members } = typeOf(schema);
  if (type === undefined) return { success: true, value: text };
  if (members.length < 2) return convertAs(text, type, nullable);
  // A union: the first member the text fits. Where a string is one of them, only an object or a list is tried
  // before it (text that is JSON of a shape the tool also takes); a number or a boolean is not, so `"0012"` and
  // `"true"` keep their text.
  const kinds = members.map(family);
  const textual = kinds.findIndex((kind) => kind === "string" || kind === "other");
  // `null` / `None` beside a string member is the string's to read (null only where the schema allows it).
  const spelledNull = /^(null|none)$/i.test(text.trim());
  for (let i = 0; i < members.length; i++) {
    if (textual !== -1 && (kinds[i] !== "structured" || spelledNull)) continue;
    const converted = convertAs(text, members[i] as string, nullable);
    if (converted.success) return converted;
  }
  return convertAs(text, members[textual === -1 ? 0 : textual] as string, nullable);
}

function convertAs(text: string, type: string, nullable: boolean): ConvertedValue {
  const kind = family(type);
  // A string keeps its text, except the two ways templates write None (`tojson`'s `null`, Python's `None`) where
  // the schema allows null: a model writes them for a value it leaves out, as MiniMax M2 did (vLLM #32278).
  if (kind === "string")
    return { success: true, value: nullable && (text === "null" || text === "None") ? null : text };
  const trimmed = text.trim();
  const lowered = trimmed.toLowerCase();
  if (lowered === "null" || lowered === "none") return { success: true, value: null };
  switch (kind) {
    case "integer":
    case "number": {
      if (kind === "integer" && PLAIN_INTEGER.test(trimmed))
        return { success: true, value: new JsonNumber(canonicalInteger(trimmed)) };
      if (JSON_NUMBER.test(trimmed)) {
        // A number too large for a double (`1e999`) stays text: written back it would not be JSON.
        if (!Number.isFinite(Number(trimmed)))
          return { success: false, error: { text, reason: `not a finite number (${type})` } };
        return { success: true, value: new JsonNumber(trimmed) };
      }
      return { success: false, error: { text, reason: `not a number (${type})` } };
    }
    case "boolean":
      if (lowered === "true") return { success: true, value: true };
      if (lowered === "false") return { success: true, value: false };
      return { success: false, error: { text, reason: `not a boolean (${type})` } };
    case "structured": {
      const parsed = parseJson(trimmed, { lossless: true });
      if (parsed.success) {
        // Python would write `1e999` back as `Infinity`, which is not JSON: such text stays text.
        if (holdsNonFinite(parsed.value))
          return { success: false, error: { text, reason: `a number out of range (${type})` } };
        return { success: true, value: parsed.value };
      }
      // Core's Python-literal reader reads a dict; a list is read inside one.
      const repaired = pythonLiteral.repair(`{'v': ${trimmed}}`);
      if (typeof repaired === "string") {
        const again = parseJson(repaired, { lossless: true });
        if (again.success) {
          const value = (again.value as { v: unknown }).v;
          if (holdsNonFinite(value))
            return { success: false, error: { text, reason: `a number out of range (${type})` } };
          return { success: true, value };
        }
      }
      return { success: false, error: { text, reason: `not JSON or a Python literal (${type})` } };
    }
    case "other":
      return { success: true, value: text };
    default: {
      const never: never = kind;
      return never;
    }
  }
}
