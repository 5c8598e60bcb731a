import fc from "fast-check";

/** Characters that stress parsers: quotes, escapes, newlines, tag brackets, braces, non-ASCII, emoji. */
export const TRICKY = [
  ..."abc XYZ019_-/.:,=",
  '"',
  "'",
  "\\",
  "\n",
  "\t",
  "<",
  ">",
  "&",
  "{",
  "}",
  "[",
  "]",
  "é",
  "中",
  "😀",
];

export const trickyText = (maxLength = 16) =>
  fc.array(fc.constantFrom(...TRICKY), { maxLength }).map((a) => a.join(""));

/** A tool name as models write them. */
export const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);

/** An argument key: not integer-like (JavaScript orders those first, so a mapping would not keep the text's order). */
export const argumentKey = fc.stringMatching(/^[a-z_][a-z0-9_]{0,9}$/);

const scalar = fc.oneof(
  trickyText(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.boolean(),
  fc.constant(null),
);

/** A JSON value built from tricky strings, numbers, booleans and null, nested a little. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 3 }),
  object: fc.dictionary(argumentKey, tie("value"), { maxKeys: 3 }),
})).value;

/** Arguments of a call: an object of a few keys. */
export const argumentsObject = fc.dictionary(argumentKey, jsonValue, { maxKeys: 4 });

/** An OpenAI call with arguments as compact wire text. */
export const wireCall = fc.record({ name: toolName, args: argumentsObject }).map(({ name, args }) => ({
  id: "call_x",
  type: "function" as const,
  function: { name, arguments: JSON.stringify(args) },
}));
