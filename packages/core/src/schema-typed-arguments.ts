import { convertParameterValue, parameterType } from "./convert-parameter-value.js";
import { isPlainObject, setOwn } from "./define-property.js";
import { JsonNumber } from "./json-number.js";
import { parseJson } from "./parse-json.js";
import type { ArgumentsMapping } from "./types.js";

/** One lossless conversion the tool's schema asked for. */
export interface SchemaConversion {
  /** Where, from the arguments' root (`[]`: the root itself). */
  path: (string | number)[];
  conversion:
    | "number-from-string"
    | "string-from-number"
    | "boolean-from-string"
    | "json-from-string"
    | "arguments-unwrapped"
    | "key-from-parameter-markup";
  before: unknown;
  after: unknown;
}

/** What `schemaTypedArguments` returns: the arguments typed by the tool's schema and each lossless conversion made. */
export interface SchemaTypedArguments {
  /** The arguments typed by the schema: the same object when nothing changed (no copy). */
  arguments: ArgumentsMapping;
  /** Each conversion made, in order (`[]` when none). */
  conversions: SchemaConversion[];
}

/** How deep the walk follows nested objects and lists (deeper values are left as they are). */
const MAX_DEPTH = 32;
/** A key spelled as Qwen3-Coder's markup writes a parameter: `parameter name="k"`, `parameter=k`. */
const PARAMETER_KEY = /^<?parameter(?:\s+name="([^"]+)"|=([^\s>]+))>?$/;

function propertiesOf(schema: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(schema)) return undefined;
  const properties = schema.properties;
  return isPlainObject(properties) ? properties : undefined;
}

/** The lossless reading of `value` as the type `schema` asks for, or `undefined` when there is none or none needed. */
function converted(
  value: unknown,
  schema: unknown,
): { value: unknown; conversion: SchemaConversion["conversion"] } | undefined {
  const { type } = parameterType(schema);
  if (type === undefined) return undefined;
  if (typeof value === "string") {
    const text = value;
    if (type === "integer" || type === "number") {
      const result = convertParameterValue({ text, schema: { type } });
      // Lossless only: the number written exactly as the text was (`"1"`, `"2.50"`; never `"+5"`, `"007"`, `" 1"`).
      if (result.success && JsonNumber.isInstance(result.value) && result.value.text === text)
        return { value: result.value, conversion: "number-from-string" };
      return undefined;
    }
    if (type === "boolean")
      return text === "true" || text === "false"
        ? { value: text === "true", conversion: "boolean-from-string" }
        : undefined;
    if (type === "object" || type === "array") {
      const parsed = parseJson(text.trim(), { lossless: true });
      if (!parsed.success) return undefined;
      const isArray = Array.isArray(parsed.value);
      const fits = type === "array" ? isArray : isPlainObject(parsed.value) && !isArray;
      return fits ? { value: parsed.value, conversion: "json-from-string" } : undefined;
    }
    return undefined;
  }
  if (type === "string" && (typeof value === "number" || JsonNumber.isInstance(value))) {
    const text = JsonNumber.isInstance(value) ? value.text : String(value);
    return Number.isFinite(Number(text)) ? { value: text, conversion: "string-from-number" } : undefined;
  }
  return undefined;
}

/** Walks one value against its schema, converting where lossless; the value itself when nothing changed. */
function walk(
  value: unknown,
  schema: unknown,
  path: (string | number)[],
  depth: number,
  conversions: SchemaConversion[],
): unknown {
  const direct = converted(value, schema);
  if (direct !== undefined) {
    conversions.push({ path, conversion: direct.conversion, before: value, after: direct.value });
    return direct.value;
  }
  if (depth >= MAX_DEPTH || !isPlainObject(schema)) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!isPlainObject(items)) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = walk(item, items, [...path, index], depth + 1, conversions);
      if (next !== item) {
        copy ??= value.slice();
        copy[index] = next;
      }
    });
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  const properties = propertiesOf(schema);
  if (properties === undefined) return value;
  let copy: ArgumentsMapping | undefined;
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(properties, key)) continue;
    const before = value[key];
    const next = walk(before, properties[key], [...path, key], depth + 1, conversions);
    if (next === before) continue;
    copy ??= { ...value };
    setOwn(copy, key, next);
  }
  return copy ?? value;
}

/**
 * The root's shape fixed against the schema before its values are typed: a single `{"arguments": {…}}` wrapper
 * unwrapped (when the schema has no `arguments` property), keys spelled as parameter markup (`parameter name="k"`)
 * renamed to the property they name (when it is one and not there already).
 */
function rootShape(
  mapping: ArgumentsMapping,
  properties: Record<string, unknown>,
  conversions: SchemaConversion[],
) {
  let root = mapping;
  const keys = Object.keys(root);
  if (keys.length === 1 && keys[0] === "arguments" && !Object.hasOwn(properties, "arguments")) {
    const inner = root.arguments;
    const unwrapped =
      typeof inner === "string"
        ? (() => {
            const parsed = parseJson(inner, { lossless: true });
            return parsed.success && isPlainObject(parsed.value) ? parsed.value : undefined;
          })()
        : isPlainObject(inner)
          ? inner
          : undefined;
    if (unwrapped !== undefined) {
      conversions.push({ path: [], conversion: "arguments-unwrapped", before: root, after: unwrapped });
      root = unwrapped;
    }
  }
  let renamed: ArgumentsMapping | undefined;
  for (const key of Object.keys(root)) {
    const match = PARAMETER_KEY.exec(key);
    const name = match?.[1] ?? match?.[2];
    if (name === undefined || !Object.hasOwn(properties, name) || Object.hasOwn(root, name)) continue;
    renamed ??= { ...root };
    setOwn(renamed, name, renamed[key]);
    delete renamed[key];
    conversions.push({ path: [key], conversion: "key-from-parameter-markup", before: key, after: name });
  }
  return renamed ?? root;
}

/**
 * Tool-call arguments typed by the tool's JSON Schema, with lossless conversions only, each recorded: a numeric
 * string where the schema says number or integer (`"1"` → `1`, written as it was) and a number where it says string
 * (`3` → `"3"`); `"true"`/`"false"` where it says boolean; an array or object sent as JSON text where it says array or
 * object; a single `{"arguments": {…}}` wrapper unwrapped; a key spelled `parameter name="k"` renamed to `k`. Nothing
 * is invented: a required property that is missing stays missing (validation reports it). The type a schema asks for
 * is read by `parameterType`, and text is typed by `convertParameterValue`: the walk the XML families' parsers use.
 * Linear in the arguments and the schema.
 *
 * @example
 * const schema = { type: "object", properties: { taskId: { type: "string" }, limit: { type: "integer" } } };
 * schemaTypedArguments({ taskId: 3, limit: "10" }, schema).arguments; // { taskId: "3", limit: JsonNumber("10") }
 */
export function schemaTypedArguments(mapping: ArgumentsMapping, schema: unknown): SchemaTypedArguments {
  const conversions: SchemaConversion[] = [];
  try {
    const properties = propertiesOf(schema);
    if (properties === undefined || !isPlainObject(mapping)) return { arguments: mapping, conversions };
    const root = rootShape(mapping, properties, conversions);
    const typed = walk(root, schema, [], 0, conversions) as ArgumentsMapping;
    return { arguments: typed, conversions };
  } catch {
    // A schema or arguments that throw on reading (a getter, a Proxy) are typed by nothing.
    return { arguments: mapping, conversions: [] };
  }
}
