import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectJsonStyle, layoutJson } from "./json-style.js";

describe("detectJsonStyle", () => {
  it("tells JSON.stringify, json.dumps and pretty documents apart", () => {
    expect(detectJsonStyle('{"a":"é"}')).toEqual({
      indent: "",
      spaced: false,
      ensureAscii: false,
      eol: "\n",
    });
    expect(detectJsonStyle('{"a": "\\u00e9", "b": 1}')).toEqual({
      indent: "",
      spaced: true,
      ensureAscii: true,
      eol: "\n",
    });
    expect(detectJsonStyle('{"a:b": 1}').spaced).toBe(true);
    expect(detectJsonStyle('{\r\n\t"a": 1\r\n}')).toEqual({
      indent: "\t",
      spaced: true,
      ensureAscii: false,
      eol: "\r\n",
    });
  });
});

describe("layoutJson", () => {
  it("lays compact JSON out exactly as JSON.stringify(value, null, indent) does", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("  ", "    ", "\t"), (value, indent) => {
        const compact = JSON.stringify(value);
        const style = { indent, spaced: true, ensureAscii: false, eol: "\n" as const };
        expect(layoutJson(compact, style)).toBe(JSON.stringify(value, null, indent));
      }),
    );
  });

  it("spaces separators as json.dumps does, leaving strings alone", () => {
    const style = { indent: "", spaced: true, ensureAscii: false, eol: "\n" as const };
    expect(layoutJson('{"a":[1,2],"b":"x,y:\\"z"}', style)).toBe('{"a": [1, 2], "b": "x,y:\\"z"}');
  });
});
