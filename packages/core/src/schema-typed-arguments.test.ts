import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRuns } from "../test/linear-work.js";
import { decodeArguments } from "./decode-arguments.js";
import { JsonNumber } from "./json-number.js";
import { normalizeArguments } from "./normalize-arguments.js";
import { schemaTypedArguments } from "./schema-typed-arguments.js";

const schema = {
  type: "object",
  properties: {
    taskId: { type: "string" },
    limit: { type: "integer" },
    ratio: { type: "number" },
    force: { type: "boolean" },
    todos: { type: "array", items: { type: "object", properties: { priority: { type: "integer" } } } },
    options: { type: "object", properties: { depth: { type: "integer" } } },
  },
  required: ["taskId", "limit"],
};

describe("schemaTypedArguments: lossless conversions only, each recorded", () => {
  it("types each value the schema names (the shapes issue 33 saw)", () => {
    const typed = schemaTypedArguments(
      {
        taskId: 3,
        limit: "1",
        ratio: "2.50",
        force: "true",
        todos: '\n[{"priority": "2"}]\n',
        options: { depth: "4" },
      },
      schema,
    );
    expect(
      JSON.parse(JSON.stringify(typed.arguments, (_, v) => (JsonNumber.isInstance(v) ? Number(v.text) : v))),
    ).toEqual({
      taskId: "3",
      limit: 1,
      ratio: 2.5,
      force: true,
      todos: [{ priority: "2" }],
      options: { depth: 4 },
    });
    expect(typed.conversions.map((c) => [c.path.join("."), c.conversion])).toEqual([
      ["taskId", "string-from-number"],
      ["limit", "number-from-string"],
      ["ratio", "number-from-string"],
      ["force", "boolean-from-string"],
      ["todos", "json-from-string"],
      ["options.depth", "number-from-string"],
    ]);
    // `2.50` keeps its text: written back, it is the number the model wrote.
    expect((typed.arguments.ratio as JsonNumber).text).toBe("2.50");
  });

  it("refuses what is not lossless, and never invents a field", () => {
    const kept = { limit: "+5", ratio: " 1", force: "True", taskId: "x", todos: "[1,", other: "7" };
    const typed = schemaTypedArguments(kept, schema);
    expect(typed.conversions).toEqual([]);
    expect(typed.arguments).toBe(kept);
    expect(schemaTypedArguments({}, schema).arguments).toEqual({});
    expect(schemaTypedArguments({ limit: "007" }, schema).conversions).toEqual([]);
  });

  it("unwraps a single arguments wrapper and renames parameter-markup keys", () => {
    const wrapped = schemaTypedArguments({ arguments: { taskId: "a", limit: 2 } }, schema);
    expect(wrapped.arguments).toEqual({ taskId: "a", limit: 2 });
    expect(wrapped.conversions.map((c) => c.conversion)).toEqual(["arguments-unwrapped"]);
    const keyed = schemaTypedArguments({ 'parameter name="limit"': "3", taskId: "a" }, schema);
    expect(Object.keys(keyed.arguments)).toEqual(["taskId", "limit"]);
    expect(keyed.conversions.map((c) => c.conversion)).toEqual([
      "key-from-parameter-markup",
      "number-from-string",
    ]);
    // A tool whose schema has an `arguments` property keeps it.
    const own = { type: "object", properties: { arguments: { type: "object" } } };
    expect(schemaTypedArguments({ arguments: { a: 1 } }, own).conversions).toEqual([]);
  });

  it("in decode and normalize: status repaired, schema-types listed, canonical text", () => {
    const decoded = decodeArguments('{"taskId": 3, "limit": "10"}', { schema });
    expect(decoded.status).toBe("repaired");
    expect(decoded.repairs).toEqual(["schema-types"]);
    expect(decoded.conversions).toHaveLength(2);
    expect(normalizeArguments('{"taskId": 3, "limit": "10", "ratio": 1.0}', { schema }).text).toBe(
      '{"taskId":"3","limit":10,"ratio":1.0}',
    );
    expect(decodeArguments('{"taskId": "3", "limit": 10}', { schema }).status).toBe("object");
  });

  it("is total on hostile schemas and values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.anything(), (value, anySchema) => {
        const mapping =
          typeof value === "object" && value !== null && !Array.isArray(value) ? value : { v: value };
        const typed = schemaTypedArguments(mapping as Record<string, unknown>, anySchema);
        expect(typeof typed.arguments).toBe("object");
      }),
      fuzzRuns(300),
    );
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error("no");
        },
      },
    );
    expect(schemaTypedArguments({ a: 1 }, throwing).conversions).toEqual([]);
  });
});
