import { isPlainObject } from "./define-property.js";
import { JsonNumber } from "./json-number.js";

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
    ? type.every((t) => SCHEMA_TYPES.has(t as string))
    : SCHEMA_TYPES.has(type as string);
}

function matchesType(value: unknown, type: unknown): boolean {
  const actual = typeOf(value);
  const accepts = (t: unknown) => t === actual || (t === "number" && actual === "integer");
  return Array.isArray(type) ? type.some(accepts) : accepts(type);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (JsonNumber.isInstance(a)) a = Number(a.text);
  if (JsonNumber.isInstance(b)) b = Number(b.text);
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Checks a value against the JSON Schema keywords tool definitions use for arguments: `type` (with `integer` and
 * type lists), `required`, `enum`, `const`, `properties`, `items`, `additionalProperties: false`. Other keywords,
 * and `type` names JSON Schema does not have (`dict`, `str`), are ignored, never guessed. Iterative: a deep value or schema cannot overflow the stack.
 */
export function checkSchemaSubset(root: unknown, rootSchema: unknown, limit = 100): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  const work: Array<{ value: unknown; schema: unknown; path: Array<string | number> }> = [
    { value: root, schema: rootSchema, path: [] },
  ];
  while (work.length > 0 && violations.length < limit) {
    const { value, schema, path } = work.pop() as (typeof work)[number];
    if (!isPlainObject(schema)) continue;
    if (schema.type !== undefined && isSchemaType(schema.type) && !matchesType(value, schema.type)) {
      violations.push({ path, message: `expected ${JSON.stringify(schema.type)}, got ${typeOf(value)}` });
      continue;
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(e, value))) {
      violations.push({ path, message: `not one of ${JSON.stringify(schema.enum)}` });
    }
    if ("const" in schema && !sameJson(schema.const, value)) {
      violations.push({ path, message: `not equal to ${JSON.stringify(schema.const)}` });
    }
    if (isPlainObject(value)) {
      if (Array.isArray(schema.required)) {
        for (const key of schema.required) {
          if (typeof key === "string" && !Object.hasOwn(value, key)) {
            violations.push({ path: [...path, key], message: `required property "${key}" is missing` });
          }
        }
      }
      const properties = isPlainObject(schema.properties) ? schema.properties : {};
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(properties, key)) {
          work.push({ value: value[key], schema: properties[key], path: [...path, key] });
        } else if (schema.additionalProperties === false) {
          violations.push({ path: [...path, key], message: `property "${key}" is not allowed` });
        } else if (isPlainObject(schema.additionalProperties)) {
          work.push({ value: value[key], schema: schema.additionalProperties, path: [...path, key] });
        }
      }
    } else if (Array.isArray(value) && isPlainObject(schema.items)) {
      value.forEach((item, index) => {
        work.push({ value: item, schema: schema.items, path: [...path, index] });
      });
    }
  }
  return violations;
}
