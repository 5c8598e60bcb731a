import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { coreRepairs } from "./repairs/index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("decodeArguments on an object whose first key is not a JSON string", () => {
  it("property: fails as the parse would, with its message, whether or not a schema is given", () => {
    const blank = fc.constantFrom("", " ", "\n", "\t ");
    const start = fc.constantFrom("'", "a", "1", "[", "{", ",", ":", "\\");
    fc.assert(
      fc.property(blank, blank, start, fc.string(), (before, after, first, rest) => {
        const text = `${before}{${after}${first}${rest}`;
        let message = "";
        try {
          JSON.parse(text);
          return;
        } catch (error) {
          message = (error as Error).message;
        }
        for (const options of [undefined, { schema: { type: "object" } }]) {
          const decoded = decodeArguments(text, options);
          expect(decoded.status).toBe("invalid");
          expect(decoded.error).toBe(message);
        }
      }),
    );
  });

  it("is not parsed strictly before its repair: the text handed to JSON.parse is only the repaired one", () => {
    const text = "{'city': 'Paris', 'days': 3}";
    const parsed: string[] = [];
    const parse = JSON.parse;
    vi.spyOn(JSON, "parse").mockImplementation((input: string, reviver?: Parameters<typeof parse>[1]) => {
      parsed.push(input);
      return parse(input, reviver);
    });
    for (const options of [{ repairs: coreRepairs }, { repairs: coreRepairs, schema: { type: "object" } }]) {
      parsed.length = 0;
      const decoded = decodeArguments(text, options);
      expect(decoded.status).toBe("repaired");
      expect(decoded.arguments).toEqual({ city: "Paris", days: 3 });
      expect(parsed).not.toContain(text);
    }
  });
});
