import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertParameterValue, parameterType } from "./convert-parameter-value.js";
import { encodeArguments } from "./encode-arguments.js";
import { JsonNumber } from "./json-number.js";

const convert = (text: string, schema: unknown) => convertParameterValue({ text, schema });

describe("convertParameterValue: text values typed by a JSON Schema", () => {
  it("strings stay text, whatever they look like", () => {
    expect(convert(" null ", { type: "string" })).toEqual({ success: true, value: " null " });
    expect(convert("null", { type: "string" })).toEqual({ success: true, value: "null" });
    expect(convert("None", { type: "string" })).toEqual({ success: true, value: "None" });
    expect(convert("5", { anyOf: [{ type: "string" }, { type: "null" }] })).toEqual({
      success: true,
      value: "5",
    });
  });

  it("a union: the first member the text fits; beside a string, only an object or a list is tried first", () => {
    const stringOrObject = { type: ["string", "object"] };
    expect(convert('{"a": 1}', stringOrObject)).toEqual({ success: true, value: { a: new JsonNumber("1") } });
    expect(convert("plain", stringOrObject)).toEqual({ success: true, value: "plain" });
    expect(convert("null", stringOrObject)).toEqual({ success: true, value: "null" });
    expect(convert("None", { anyOf: [{ type: "array" }, { type: "string" }, { type: "null" }] })).toEqual({
      success: true,
      value: null,
    });
    expect(convert('["x"]', { anyOf: [{ type: "string" }, { type: "array" }] })).toEqual({
      success: true,
      value: ["x"],
    });
    // Numbers and booleans never take a string's text: ids keep their zeros.
    expect(convert("0012", { anyOf: [{ type: "integer" }, { type: "string" }] })).toEqual({
      success: true,
      value: "0012",
    });
    expect(convert("true", { type: ["boolean", "string"] })).toEqual({ success: true, value: "true" });
    // Without a string: the first that fits, else the first member's reason.
    expect(convert("true", { type: ["integer", "boolean"] })).toEqual({ success: true, value: true });
    expect(convert("7", { oneOf: [{ type: "boolean" }, { type: "integer" }] })).toEqual({
      success: true,
      value: new JsonNumber("7"),
    });
    expect(convert("x", { type: ["integer", "boolean"] })).toEqual({
      success: false,
      error: { text: "x", reason: "not a number (integer)" },
    });
    // A hostile union is read up to its first 16 members.
    const wide = {
      anyOf: Array.from({ length: 1000 }, (_, i) => ({ type: i === 999 ? "boolean" : `t${i}` })),
    };
    expect(convert("true", wide)).toEqual({ success: true, value: "true" });
  });

  it("a string that may be null: `null` and `None` (what templates write for None) are null, anything else is text", () => {
    const nullable = [
      { anyOf: [{ type: "string" }, { type: "null" }] },
      { type: ["string", "null"] },
      { type: "string", nullable: true },
      { oneOf: [{ type: "null" }, { type: "string", format: "path" }] },
    ];
    for (const schema of nullable) {
      expect(convert("null", schema), JSON.stringify(schema)).toEqual({ success: true, value: null });
      expect(convert("None", schema), JSON.stringify(schema)).toEqual({ success: true, value: null });
      for (const text of [" null", "NULL", "none", "null\n", "nil", "", "/tmp/foo"])
        expect(convert(text, schema), JSON.stringify(text)).toEqual({ success: true, value: text });
    }
    expect(parameterType({ type: "integer", nullable: true })).toEqual({ type: "integer", nullable: true });
    expect(parameterType({ type: "integer", nullable: "yes" })).toEqual({ type: "integer", nullable: false });
  });

  it("numbers keep their text; non-finite ones stay text", () => {
    expect(convert("5.0", { type: "number" })).toEqual({ success: true, value: new JsonNumber("5.0") });
    expect(convert("123456789012345678901234567890", { type: "integer" })).toEqual({
      success: true,
      value: new JsonNumber("123456789012345678901234567890"),
    });
    for (const text of ["1e999", "-1e400", "NaN", "Infinity", "inf"])
      expect(convert(text, { type: "number" })).toMatchObject({ success: false, error: { text } });
  });

  it("Python literals: True, None, a dict", () => {
    expect(convert("True", { type: "boolean" })).toEqual({ success: true, value: true });
    expect(convert("None", { type: ["integer", "null"] })).toEqual({ success: true, value: null });
    expect(convert("{'a': True, 'b': [1, None]}", { type: "object" })).toEqual({
      success: true,
      value: { a: true, b: [new JsonNumber("1"), null] },
    });
  });

  it("is total on hostile schemas", () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error("no");
        },
      },
    );
    expect(convert("1", throwing)).toEqual({
      success: false,
      error: { text: "1", reason: "the schema could not be read" },
    });
    expect(parameterType(null)).toEqual({ type: undefined, nullable: false });
  });

  it("never throws, and what it returns encodes to JSON", () => {
    const schema = fc.oneof(
      fc
        .constantFrom("string", "integer", "number", "boolean", "object", "array", "null")
        .map((type) => ({ type })),
      fc.anything(),
    );
    fc.assert(
      fc.property(fc.string(), schema, (text, s) => {
        const result = convertParameterValue({ text, schema: s });
        JSON.parse(
          encodeArguments({ v: result.success ? result.value : result.error.text }, { style: "python" }),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe("numbers too large for a double inside structured values", () => {
  it("keep the value text, so what is written stays JSON", () => {
    expect(convertParameterValue({ text: '{"a": [1e999]}', schema: { type: "object" } })).toMatchObject({
      success: false,
      error: { text: '{"a": [1e999]}' },
    });
  });
});
