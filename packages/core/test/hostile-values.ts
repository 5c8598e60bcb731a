// A test helper other packages' tests import by path (`../../core/test/hostile-values.js`): JavaScript values built
// to break code that reads them, and fast-check recipes for them (draw a recipe, `build` it inside the property).
// Every total function of the project is property-tested against these.
import fc from "fast-check";

/** An object whose enumerable property `key` throws when read. */
export function throwingGetter(key = "boom", base: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.defineProperty({ ...base }, key, {
    enumerable: true,
    get() {
      throw new Error(`${key} getter throws`);
    },
  });
}

/** A revoked proxy: every operation on it throws, `Array.isArray` included. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** A proxy over `target` whose every trap throws. */
export function trappedProxy(target: object = {}): object {
  const fail = () => {
    throw new Error("trap throws");
  };
  return new Proxy(target, {
    get: fail,
    has: fail,
    ownKeys: fail,
    getOwnPropertyDescriptor: fail,
    getPrototypeOf: fail,
  });
}

/** A proxy that passes for `target` (a plain object or an array) and throws on the `n`th read, not before. */
export function lateThrowingProxy<T extends object>(target: T, n = 2): T {
  let reads = 0;
  return new Proxy(target, {
    get(t, key, receiver) {
      if (++reads >= n) throw new Error("read once too often");
      return Reflect.get(t, key, receiver);
    },
  });
}

/** `[]` with `length = 2**32 - 1`: JSON of it would be 8 GB; walking its indices takes minutes. */
export function hugeSparseArray(present: Array<[number, unknown]> = []): unknown[] {
  const array: unknown[] = [];
  array.length = 2 ** 32 - 1;
  for (const [index, value] of present) array[index] = value;
  return array;
}

/** A sparse array of a length that is large but walkable. */
export function sparseArray(length: number, present: Array<[number, unknown]> = []): unknown[] {
  const array: unknown[] = [];
  array.length = length;
  for (const [index, value] of present) array[index] = value;
  return array;
}

export function cyclicObject(): Record<string, unknown> {
  const object: Record<string, unknown> = { a: 1 };
  object.self = object;
  return object;
}

export function cyclicArray(): unknown[] {
  const array: unknown[] = [1];
  array.push(array);
  return array;
}

/** `depth` nested objects (`{a: {a: …}}`) or arrays, built without recursion. */
export function deeplyNested(depth: number, kind: "object" | "array" = "object"): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === "object" ? { a: value } : [value];
  return value;
}

/** Objects that are not plain, or are frozen, or carry keys that name prototypes. */
function exoticObjects(): unknown[] {
  const nullProto = Object.create(null) as Record<string, unknown>;
  nullProto.a = 1;
  const withProto: Record<string, unknown> = {};
  Object.defineProperty(withProto, "__proto__", {
    value: { polluted: true },
    enumerable: true,
    writable: true,
  });
  class Call {
    id = "c";
  }
  return [
    nullProto,
    withProto,
    Object.freeze({ a: Object.freeze([1, 2]) }),
    Object.freeze([]),
    new Call(),
    new Map([["a", 1]]),
    new Set([1]),
    new Date(0),
    /re/g,
    new Error("an error"),
    new Uint8Array(4),
    Symbol("s"),
    () => 1,
    { toJSON: () => "custom" },
    {
      toJSON() {
        throw new Error("toJSON throws");
      },
    },
    { [Symbol("key")]: 1, a: 2 },
  ];
}

/**
 * The hostile values a recipe can name. Recipes, not values, are what fast-check draws and prints: it inspects the
 * values it generates (a proxy whose traps throw would break it, and printing an array of length 2**32 - 1 would
 * exhaust memory), so a property builds its values from the recipe with {@link build}.
 */
export const HOSTILE_MAKERS: Readonly<Record<string, () => unknown>> = {
  "throwing-getter": () => throwingGetter(),
  "throwing-content": () => throwingGetter("content", { role: "assistant" }),
  "throwing-arguments": () => throwingGetter("arguments", { name: "f" }),
  "revoked-proxy": () => revokedProxy(),
  "trapped-proxy": () => trappedProxy(),
  "trapped-array": () => trappedProxy([]),
  "keys-trapped-object": () =>
    new Proxy(
      { a: 1 },
      {
        ownKeys() {
          throw new Error("ownKeys trap throws");
        },
      },
    ),
  "reads-trapped-object": () =>
    new Proxy(
      { role: "assistant", a: 1 },
      {
        get() {
          throw new Error("get trap throws");
        },
      },
    ),
  "late-throwing-message": () => lateThrowingProxy({ role: "assistant", content: "x", tool_calls: [] }),
  "late-throwing-list": () => lateThrowingProxy([{ role: "user", content: "hi" }]),
  "huge-sparse-array": () => hugeSparseArray(),
  "huge-sparse-array-with-a-message": () => hugeSparseArray([[5, { role: "user", content: "x" }]]),
  "sparse-array": () => sparseArray(10, [[3, { a: 1 }]]),
  "cyclic-object": () => cyclicObject(),
  "cyclic-array": () => cyclicArray(),
  "deep-object": () => deeplyNested(20_000),
  "deep-array": () => deeplyNested(20_000, "array"),
  undefined: () => undefined,
  nan: () => Number.NaN,
  "negative-zero": () => -0,
  infinity: () => Number.POSITIVE_INFINITY,
  bigint: () => 10n ** 30n,
  "lone-surrogate": () => "\ud800",
  symbol: () => Symbol("s"),
  function: () => () => 1,
  ...Object.fromEntries(exoticObjects().map((value, index) => [`exotic-${index}`, () => value])),
};

const PREFIX = "$hostile:";

/**
 * The value a recipe stands for: JSON data as it is, with every string `"$hostile:<name>"` replaced by a fresh
 * {@link HOSTILE_MAKERS} value (objects are rebuilt with own data properties, so `__proto__` stays a key).
 */
export function build(recipe: unknown): unknown {
  if (typeof recipe === "string" && recipe.startsWith(PREFIX)) {
    const make = HOSTILE_MAKERS[recipe.slice(PREFIX.length)];
    return make === undefined ? recipe : make();
  }
  if (Array.isArray(recipe)) return recipe.map(build);
  if (typeof recipe === "object" && recipe !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(recipe))
      Object.defineProperty(out, key, {
        value: build(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return recipe;
}

/** A recipe for one hostile value. */
export const hostileLeaf: fc.Arbitrary<string> = fc.constantFrom(
  ...Object.keys(HOSTILE_MAKERS).map((name) => `${PREFIX}${name}`),
);

/** A recipe for any JavaScript value: JSON-like data, odd primitives and hostile values, at any depth of a small structure. */
export const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, "", "null", '{"a":1}', "[1]", true, 0),
    fc.jsonValue({ maxDepth: 2 }),
    hostileLeaf,
    hostileLeaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "__proto__", "constructor", "arguments", "content"), tie("value"), {
      maxKeys: 3,
    }),
  ),
})).value;

const roles = fc.constantFrom("assistant", "tool", "user", "system", `${PREFIX}undefined`, 7);

/** A recipe for a tool call whose every part may be hostile. */
export const hostileToolCall: fc.Arbitrary<unknown> = fc.oneof(
  anyValue,
  fc.record(
    {
      id: fc.oneof(fc.constantFrom("c1", "c2", ""), anyValue),
      type: fc.oneof(fc.constant("function"), anyValue),
      function: fc.oneof(
        fc.record(
          { name: fc.oneof(fc.constantFrom("f", ""), anyValue), arguments: anyValue },
          { requiredKeys: [] },
        ),
        anyValue,
      ),
    },
    { requiredKeys: [] },
  ),
);

/** A recipe for a message list whose messages, calls, results and arguments may each be hostile. */
export const hostileHistory: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: anyValue },
  {
    weight: 4,
    arbitrary: fc.array(
      fc.oneof(
        anyValue,
        fc.record(
          {
            role: roles,
            content: anyValue,
            tool_calls: fc.oneof(fc.array(hostileToolCall, { maxLength: 3 }), anyValue),
            tool_call_id: fc.oneof(fc.constantFrom("c1", "c2"), anyValue),
          },
          { requiredKeys: ["role"] },
        ),
      ),
      { maxLength: 5 },
    ),
  },
);
