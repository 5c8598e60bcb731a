import { fail } from "./template-error.js";

/**
 * How CPython checks a builtin method's arguments, per style of its C signature, so a wrong call raises Python's
 * `TypeError` text: `none` (`str.upper() takes no arguments (1 given)`), `exact` (`… takes exactly one argument`),
 * `expected` (`center expected at least 1 argument, got 0`), `takes` (`find() takes at least 1 argument (0 given)`),
 * `clinic` (keyword arguments allowed: `split() takes at most 2 arguments (3 given)`).
 */
type Style = "none" | "exact" | "expected" | "takes" | "clinic" | "free";
type Signature = readonly [style: Style, min: number, max: number, keywords?: readonly string[]];

const NONE: Signature = ["none", 0, 0];
const EXACT: Signature = ["exact", 1, 1];
const SEARCH: Signature = ["takes", 1, 3];

const SIGNATURES: Record<string, Signature> = {
  "str.capitalize": NONE,
  "str.casefold": NONE,
  "str.center": ["expected", 1, 2],
  "str.count": SEARCH,
  "str.endswith": SEARCH,
  "str.encode": ["clinic", 0, 2, ["encoding", "errors"]],
  "str.expandtabs": ["clinic", 0, 1, ["tabsize"]],
  "str.find": SEARCH,
  "str.format": ["free", 0, Number.POSITIVE_INFINITY],
  "str.format_map": EXACT,
  "str.index": SEARCH,
  "str.isalnum": NONE,
  "str.isalpha": NONE,
  "str.isascii": NONE,
  "str.isdecimal": NONE,
  "str.isdigit": NONE,
  "str.isidentifier": NONE,
  "str.islower": NONE,
  "str.isnumeric": NONE,
  "str.isprintable": NONE,
  "str.isspace": NONE,
  "str.istitle": NONE,
  "str.isupper": NONE,
  "str.join": EXACT,
  "str.ljust": ["expected", 1, 2],
  "str.lower": NONE,
  "str.lstrip": ["expected", 0, 1],
  "str.maketrans": ["expected", 1, 3],
  "str.partition": EXACT,
  "str.removeprefix": EXACT,
  "str.removesuffix": EXACT,
  "str.replace": ["expected", 2, 3],
  "str.rfind": SEARCH,
  "str.rindex": SEARCH,
  "str.rjust": ["expected", 1, 2],
  "str.rpartition": EXACT,
  "str.rsplit": ["clinic", 0, 2, ["sep", "maxsplit"]],
  "str.rstrip": ["expected", 0, 1],
  "str.split": ["clinic", 0, 2, ["sep", "maxsplit"]],
  "str.splitlines": ["clinic", 0, 1, ["keepends"]],
  "str.startswith": SEARCH,
  "str.strip": ["expected", 0, 1],
  "str.swapcase": NONE,
  "str.title": NONE,
  "str.translate": EXACT,
  "str.upper": NONE,
  "str.zfill": EXACT,
  "dict.get": ["expected", 1, 2],
  "dict.items": NONE,
  "dict.keys": NONE,
  "dict.values": NONE,
  "dict.copy": NONE,
  "dict.fromkeys": ["expected", 1, 2],
  "list.index": ["expected", 1, 3],
  "list.count": EXACT,
  "list.copy": NONE,
  "tuple.index": ["expected", 1, 3],
  "tuple.count": EXACT,
  "int.bit_length": NONE,
  "int.bit_count": NONE,
  "int.conjugate": NONE,
  "int.as_integer_ratio": NONE,
  "float.is_integer": NONE,
  "float.conjugate": NONE,
  "float.as_integer_ratio": NONE,
  "float.hex": NONE,
};

/** The signatures by type, then name (no string building on the hot path). */
const BY_TYPE = new Map<string, Map<string, Signature>>();
for (const [key, signature] of Object.entries(SIGNATURES)) {
  const [type, name] = key.split(".") as [string, string];
  let methods = BY_TYPE.get(type);
  if (methods === undefined) {
    methods = new Map();
    BY_TYPE.set(type, methods);
  }
  methods.set(name, signature);
}

const plural = (n: number) => (n === 1 ? "argument" : "arguments");
const spelled = (n: number) => (n === 1 ? "one argument" : `${n} arguments`);

/**
 * Raises CPython's `TypeError` when a builtin method is called with the wrong number of arguments or an
 * unexpected keyword.
 *
 * @example
 * checkArity("str", "upper", [1], null); // throws "TypeError: str.upper() takes no arguments (1 given)"
 */
export function checkArity(
  type: string,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): void {
  const signature = BY_TYPE.get(type)?.get(name);
  if (signature === undefined) return;
  const [style, min, max, keywords] = signature;
  const given = args.length;
  if (kwargs === null && given >= min && given <= max) return;
  const qualified = `${type}.${name}()`;
  if (kwargs !== null && kwargs.size > 0 && style !== "free") {
    const unknown = Array.from(kwargs.keys()).find((k) => !keywords?.includes(k));
    if (unknown !== undefined) {
      if (style === "clinic") fail("TypeError", `'${unknown}' is an invalid keyword argument for ${name}()`);
      if (style === "takes") fail("TypeError", `${name}() takes no keyword arguments`);
      fail("TypeError", `${qualified} takes no keyword arguments`);
    }
  }
  const total = given + (kwargs?.size ?? 0);
  switch (style) {
    case "none":
      if (given > 0) fail("TypeError", `${qualified} takes no arguments (${given} given)`);
      return;
    case "exact":
      if (given !== min) fail("TypeError", `${qualified} takes exactly ${spelled(min)} (${given} given)`);
      return;
    case "expected":
      if (given < min) fail("TypeError", `${name} expected at least ${min} ${plural(min)}, got ${given}`);
      if (given > max) fail("TypeError", `${name} expected at most ${max} ${plural(max)}, got ${given}`);
      return;
    case "takes":
    case "clinic":
      if (total < min) fail("TypeError", `${name}() takes at least ${min} ${plural(min)} (${total} given)`);
      if (total > max) fail("TypeError", `${name}() takes at most ${max} ${plural(max)} (${total} given)`);
      return;
    case "free":
      return;
    default: {
      const never: never = style;
      fail("TypeError", String(never));
    }
  }
}
