import { dictSet, isIterable, iterate } from "../runtime/access.js";
import { MISSING, PyObject } from "../runtime/py-object.js";
import { MAX_RANGE, PyRange } from "../runtime/py-range.js";
import { bind } from "../runtime/python-call.js";
import { FAKE_ADDRESS, pyStr } from "../runtime/python-repr.js";
import { Namespace, PyFunction, truthy, tuple, typeName, Undefined } from "../runtime/python-values.js";
import { indexArgument } from "../runtime/strings/str-methods.js";
import { fail } from "../runtime/template-error.js";
import { lipsum } from "./lipsum.js";

/** Jinja's default globals: `range`, `dict`, `lipsum`, `cycler`, `joiner`, `namespace`. */

/** `jinja2.utils.Cycler`: `next()`, `current`, `reset()`, `items`. */
export class Cycler extends PyObject {
  readonly items: unknown[];
  position = 0;
  constructor(items: unknown[]) {
    super();
    if (items.length === 0) fail("RuntimeError", "at least one item has to be provided");
    this.items = tuple(items);
  }
  get pyType(): string {
    return "Cycler";
  }
  override get pyModule(): string {
    return "jinja2.utils";
  }
  override getAttr(name: string): unknown {
    switch (name) {
      case "items":
        return this.items;
      case "pos":
        return this.position;
      case "current":
        return this.items[this.position];
      case "next":
        return new PyFunction(
          "next",
          () => {
            const value = this.items[this.position];
            this.position = (this.position + 1) % this.items.length;
            return value;
          },
          "method",
          `Cycler.next of <jinja2.utils.Cycler object at ${FAKE_ADDRESS}>`,
        );
      case "reset":
        return new PyFunction(
          "reset",
          () => {
            this.position = 0;
            return null;
          },
          "method",
          `Cycler.reset of <jinja2.utils.Cycler object at ${FAKE_ADDRESS}>`,
        );
      default:
        return MISSING;
    }
  }
}

/** `jinja2.utils.Joiner`: empty the first call, the separator after. */
export class Joiner extends PyObject {
  readonly separator: unknown;
  used = false;
  constructor(separator: unknown) {
    super();
    this.separator = separator;
  }
  get pyType(): string {
    return "Joiner";
  }
  override get pyModule(): string {
    return "jinja2.utils";
  }
  override getAttr(name: string): unknown {
    if (name === "sep") return this.separator;
    if (name === "used") return this.used;
    if (name === "__call__")
      return new PyFunction("__call__", () => {
        if (!this.used) {
          this.used = true;
          return "";
        }
        return this.separator;
      });
    return MISSING;
  }
}

/** Python's `dict(*args, **kwargs)`. */
export function makeDict(
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  name = "dict",
): Map<unknown, unknown> {
  if (args.length > 1) fail("TypeError", `${name} expected at most 1 argument, got ${args.length}`);
  const out = new Map<unknown, unknown>();
  const source = args[0];
  if (source instanceof Map) for (const [k, v] of source) out.set(k, v);
  else if (source !== undefined) {
    iterate(source).forEach((item, index) => {
      if (!isIterable(item))
        fail("TypeError", `cannot convert dictionary update sequence element #${index} to a sequence`);
      const pair = iterate(item);
      if (pair.length !== 2)
        fail(
          "ValueError",
          `dictionary update sequence element #${index} has length ${pair.length}; 2 is required`,
        );
      dictSet(out, pair[0], pair[1]);
    });
  }
  if (kwargs) for (const [k, v] of kwargs) out.set(k, v);
  return out;
}

function range(args: unknown[], kwargs: Map<string, unknown> | null): PyRange {
  if (kwargs !== null && kwargs.size > 0) fail("TypeError", "range() takes no keyword arguments");
  if (args.length === 0) fail("TypeError", "range expected at least 1 argument, got 0");
  if (args.length > 3) fail("TypeError", `range expected at most 3 arguments, got ${args.length}`);
  const ints = args.map((a) => {
    if (a instanceof Undefined) return a.fail();
    if (typeof a !== "number" && typeof a !== "bigint" && typeof a !== "boolean")
      fail("TypeError", `'${typeName(a)}' object cannot be interpreted as an integer`);
    return typeof a === "bigint" ? a : BigInt(indexArgument(a));
  });
  const [bigStart, bigStop, bigStep] =
    ints.length === 1 ? [0n, ints[0] as bigint, 1n] : [ints[0] as bigint, ints[1] as bigint, ints[2] ?? 1n];
  if (bigStep === 0n) fail("ValueError", "range() arg 3 must not be zero");
  const span = bigStep > 0n ? bigStop - bigStart : bigStart - bigStop;
  const magnitude = bigStep > 0n ? bigStep : -bigStep;
  const size = span <= 0n ? 0n : (span - 1n) / magnitude + 1n;
  if (size > 2n ** 63n - 1n) fail("OverflowError", "Python int too large to convert to C ssize_t");
  if (size > BigInt(MAX_RANGE))
    fail("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
  return new PyRange(Number(bigStart), Number(bigStop), Number(bigStep));
}

/** The globals every render starts with. */
export function defaultGlobals(): Map<string, unknown> {
  const globals = new Map<string, unknown>();
  globals.set("range", new PyFunction("safe_range", range));
  globals.set("dict", new PyFunction("dict", (args, kwargs) => makeDict(args, kwargs), "type"));
  globals.set(
    "namespace",
    new PyFunction(
      "Namespace",
      (args, kwargs) => {
        const map = makeDict(args, kwargs);
        const attributes = new Map<string, unknown>();
        for (const [k, v] of map) attributes.set(pyStr(k), v);
        return new Namespace(attributes);
      },
      "type",
    ),
  );
  globals.set(
    "joiner",
    new PyFunction(
      "Joiner",
      (args, kwargs) => {
        const bound = bind({ name: "Joiner.__init__", passes: true, params: [["sep", ", "]] }, args, kwargs);
        return new Joiner(bound.values[0]);
      },
      "type",
    ),
  );
  globals.set(
    "cycler",
    new PyFunction(
      "Cycler",
      (args, kwargs) => {
        if (kwargs !== null && kwargs.size > 0)
          fail(
            "TypeError",
            `Cycler.__init__() got an unexpected keyword argument '${kwargs.keys().next().value}'`,
          );
        return new Cycler(args.slice());
      },
      "type",
    ),
  );
  globals.set(
    "lipsum",
    new PyFunction("generate_lorem_ipsum", (args, kwargs) => {
      const bound = bind(
        {
          name: "generate_lorem_ipsum",
          params: [
            ["n", 5],
            ["html", true],
            ["min", 20],
            ["max", 100],
          ],
        },
        args,
        kwargs,
      );
      const [n, html, min, max] = bound.values;
      return lipsum({
        n: indexArgument(n),
        html: truthy(html),
        min: indexArgument(min),
        max: indexArgument(max),
      });
    }),
  );
  return globals;
}
