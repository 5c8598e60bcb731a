import { isPlainObject } from "./define-property.js";
import { JsonNumber } from "./json-number.js";
import { DEFAULT_MAX_DEPTH } from "./parse-json.js";
import { listEntries } from "./read-history.js";
import { serializeJson } from "./serialize-json.js";

/** One schema violation, with the path inside the arguments. */
export interface SchemaViolation {
  path: Array<string | number>;
  message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (JsonNumber.isInstance(value)) return value.isInteger ? "integer" : "number";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "bigint") return "integer";
  if (isPlainObject(value)) return "object";
  return typeof value;
}

const SCHEMA_TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);

/**
 * True when a `type` keyword names JSON Schema types only. Tool lists converted from Python signatures say `dict`,
 * `str`, `int`: that is not JSON Schema, and what it allows is not guessed.
 */
function isSchemaType(type: unknown): boolean {
  return Array.isArray(type)
    ? itemsOf(type).every((t) => SCHEMA_TYPES.has(t as string))
    : SCHEMA_TYPES.has(type as string);
}

function matchesType(value: unknown, type: unknown): boolean {
  const actual = typeOf(value);
  const accepts = (t: unknown) => t === actual || (t === "number" && actual === "integer");
  return Array.isArray(type) ? itemsOf(type).some(accepts) : accepts(type);
}

function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (JsonNumber.isInstance(a)) a = Number(a.text);
  if (JsonNumber.isInstance(b)) b = Number(b.text);
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  // Deeper than any JSON core reads (or a cycle): not the same.
  if (depth > DEFAULT_MAX_DEPTH) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1),
  );
}

/** A schema value in a message: its JSON, cut short when long (a huge list is not written out). */
function show(value: unknown): string {
  const written = serializeJson(value, { maxLength: 200 });
  return written.success ? written.value : "a value too long or too odd to show";
}

/** A path as a chain from the leaf up: built into a list only for a violation (a deep value copies no paths). */
interface PathNode {
  parent: PathNode | undefined;
  key: string | number;
  depth: number;
}

function pathOf(node: PathNode | undefined, key?: string | number): Array<string | number> {
  const path: Array<string | number> = key === undefined ? [] : [key];
  for (let at = node; at !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** The entries of a list in a schema (`enum`, `required`, `type`), long sparse ones by what they hold. */
function itemsOf(list: readonly unknown[]): unknown[] {
  return listEntries(list)?.values ?? [];
}

/**
 * Checks a value against the JSON Schema keywords tool definitions use for arguments: `type` (with `integer` and
 * type lists), `required`, `enum`, `const`, `properties`, `items`, `additionalProperties: false`. Other keywords,
 * and `type` names JSON Schema does not have (`dict`, `str`), are ignored, never guessed. Iterative, and nothing
 * deeper than the nesting limit is checked: a deep value or a cyclic schema cannot overflow the stack or run long.
 */
export function checkSchemaSubset(root: unknown, rootSchema: unknown, limit = 100): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  const work: Array<{ value: unknown; schema: unknown; at: PathNode | undefined }> = [
    { value: root, schema: rootSchema, at: undefined },
  ];
  const push = (value: unknown, schema: unknown, at: PathNode | undefined, key: string | number) => {
    const depth = (at?.depth ?? 0) + 1;
    // Deeper than any JSON core reads: a cyclic schema over a deep value ends here.
    if (depth <= DEFAULT_MAX_DEPTH) work.push({ value, schema, at: { parent: at, key, depth } });
  };
  while (work.length > 0 && violations.length < limit) {
    const { value, schema, at } = work.pop() as (typeof work)[number];
    if (!isPlainObject(schema)) continue;
    if (schema.type !== undefined && isSchemaType(schema.type) && !matchesType(value, schema.type)) {
      violations.push({ path: pathOf(at), message: `expected ${show(schema.type)}, got ${typeOf(value)}` });
      continue;
    }
    if (Array.isArray(schema.enum) && !itemsOf(schema.enum).some((e) => sameJson(e, value))) {
      violations.push({ path: pathOf(at), message: `not one of ${show(schema.enum)}` });
    }
    if ("const" in schema && !sameJson(schema.const, value)) {
      violations.push({ path: pathOf(at), message: `not equal to ${show(schema.const)}` });
    }
    if (isPlainObject(value)) {
      if (Array.isArray(schema.required)) {
        for (const key of itemsOf(schema.required)) {
          if (typeof key === "string" && !Object.hasOwn(value, key)) {
            violations.push({ path: pathOf(at, key), message: `required property "${key}" is missing` });
          }
        }
      }
      const properties = isPlainObject(schema.properties) ? schema.properties : {};
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(properties, key)) {
          push(value[key], properties[key], at, key);
        } else if (schema.additionalProperties === false) {
          violations.push({ path: pathOf(at, key), message: `property "${key}" is not allowed` });
        } else if (isPlainObject(schema.additionalProperties)) {
          push(value[key], schema.additionalProperties, at, key);
        }
      }
    } else if (Array.isArray(value) && isPlainObject(schema.items)) {
      // A long sparse array costs the items it holds, not its length.
      const items = listEntries(value) ?? { values: [], indices: [] };
      items.values.forEach((item, k) => {
        push(item, schema.items, at, items.indices[k] as number);
      });
    }
  }
  return violations;
}
