// The differential fuzzer's grammar: random Jinja templates built from the features of issue 21 (filters, tests,
// methods, `%` and `str.format`, generators, Markup, loops, macros, namespaces, errors) and random variables,
// rendered by @toolcall/jinja and by Python + Jinja2 as transformers renders (../shared/parity/hf_render.py, one
// process per batch). Every difference is reported. Seeded: the same seed gives the same cases.

/** A small seeded PRNG (mulberry32). */
export function makeRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
  return rng;
}

const WORDS = [
  "a",
  "b",
  "x",
  "hello",
  "World",
  "Hi there",
  "é",
  "中文",
  "😀",
  "it's",
  'say "hi"',
  "<b>&</b>",
  " pad ",
  "",
  "A-b_c",
  "1.5",
  "42",
  "tool_call",
  "\n",
  "a\tb",
  "UPPER",
  "mIxEd",
  "ǆ",
  "ß",
];
const KEYS = ["name", "role", "content", "age", "id", "type", "args", "x", "y", "items"];

function pyStringLiteral(rng, text) {
  // A Jinja string literal for `text`, single or double quoted.
  const quote = rng.chance(0.5) ? "'" : '"';
  let body = "";
  for (const ch of text) {
    if (ch === "\\") body += "\\\\";
    else if (ch === quote) body += `\\${ch}`;
    else if (ch === "\n") body += "\\n";
    else if (ch === "\t") body += "\\t";
    else body += ch;
  }
  return quote + body + quote;
}

/** A JSON value for a template variable (Python reads it with json.loads). */
function jsonValue(rng, depth) {
  const kinds =
    depth > 2
      ? ["int", "float", "str", "bool", "null"]
      : ["int", "float", "str", "bool", "null", "list", "dict", "list", "dict"];
  switch (rng.pick(kinds)) {
    case "int":
      return String(
        rng.pick([0, 1, -1, 2, 3, 7, 10, 42, 100, 255, 1000, -17, 123456789012345678901234567890n]),
      );
    case "float":
      return rng.pick([
        "1.0",
        "0.5",
        "-2.25",
        "2.675",
        "20.0",
        "1e20",
        "1e-07",
        "3.14159",
        "0.1",
        "-0.0",
        "100.0",
        "1.15",
        "0.125",
      ]);
    case "str":
      return JSON.stringify(rng.pick(WORDS));
    case "bool":
      return rng.pick(["true", "false"]);
    case "null":
      return "null";
    case "list": {
      const n = rng.int(0, 4);
      return `[${Array.from({ length: n }, () => jsonValue(rng, depth + 1)).join(", ")}]`;
    }
    default: {
      const n = rng.int(0, 3);
      const keys = new Set();
      while (keys.size < n) keys.add(rng.pick(KEYS));
      return `{${[...keys].map((k) => `${JSON.stringify(k)}: ${jsonValue(rng, depth + 1)}`).join(", ")}}`;
    }
  }
}

function users(rng) {
  const n = rng.int(0, 4);
  return `[${Array.from({ length: n }, () => {
    const fields = [`"name": ${JSON.stringify(rng.pick(["al", "Bo", "cy", "Al", "dee", "é"]))}`];
    if (rng.chance(0.8)) fields.push(`"age": ${rng.pick(["3", "30", "7", "3", "1.5", "null"])}`);
    if (rng.chance(0.7)) fields.push(`"active": ${rng.pick(["true", "false"])}`);
    if (rng.chance(0.4)) fields.push(`"tags": ${jsonValue(rng, 2)}`);
    return `{${fields.join(", ")}}`;
  }).join(", ")}]`;
}

/** The variables of a case, as JSON text. */
export function variablesFor(rng) {
  return `{"s": ${JSON.stringify(rng.pick(WORDS))}, "n": ${rng.pick(["0", "1", "3", "-4", "17", "99999999999999999999"])}, "f": ${rng.pick(["1.0", "2.5", "-0.5", "2.675", "1e20", "0.1"])}, "l": ${jsonValue(rng, 1).startsWith("[") ? jsonValue(rng, 1) : "[3, 1, 2]"}, "d": {"a": ${jsonValue(rng, 1)}, "b": ${jsonValue(rng, 2)}, "c": ${jsonValue(rng, 2)}}, "users": ${users(rng)}, "v": ${jsonValue(rng, 0)}, "w": ${jsonValue(rng, 0)}}`;
}

const VARS = ["s", "n", "f", "l", "d", "users", "v", "w", "nothing"];

class Gen {
  constructor(rng) {
    this.rng = rng;
    this.locals = [];
  }

  name() {
    const { rng } = this;
    if (this.locals.length > 0 && rng.chance(0.5)) return rng.pick(this.locals);
    return rng.pick(VARS);
  }

  literal(depth = 0) {
    const { rng } = this;
    switch (rng.int(0, 9)) {
      case 0:
        return String(rng.pick([0, 1, 2, 3, -1, 10, 255, 1000]));
      case 1:
        return rng.pick(["1.0", "0.5", "2.675", "1e3", "-2.5", "0.125", "1_000", "3.14159"]);
      case 2:
      case 3:
        return pyStringLiteral(rng, rng.pick(WORDS));
      case 4:
        return rng.pick(["true", "false", "none", "True", "None"]);
      case 5:
        if (depth > 1) return "1";
        return `[${Array.from({ length: rng.int(0, 3) }, () => this.literal(depth + 1)).join(", ")}]`;
      case 6:
        if (depth > 1) return "'k'";
        return `{${Array.from({ length: rng.int(0, 3) }, () => `${pyStringLiteral(rng, rng.pick(KEYS))}: ${this.literal(depth + 1)}`).join(", ")}}`;
      case 7:
        if (depth > 1) return "2";
        return `(${this.literal(depth + 1)},${rng.chance(0.5) ? ` ${this.literal(depth + 1)}` : ""})`;
      default:
        return this.name();
    }
  }

  atom(depth) {
    const { rng } = this;
    if (depth > 3) return this.literal(2);
    switch (rng.int(0, 12)) {
      case 0:
      case 1:
      case 2:
        return this.literal();
      case 3:
        return this.name();
      case 4:
        return `${this.name()}.${rng.pick(KEYS.concat(["a", "b", "c", "0", "items", "keys", "upper"]))}`;
      case 5:
        return `${this.name()}[${rng.pick(["0", "-1", "1", "'a'", "'name'", "'b'", "n", "1:3", "::-1", ":2", "1:", "::2"])}]`;
      case 6:
        return `(${this.expr(depth + 1)})`;
      case 7:
        return this.call(depth);
      case 8:
        return this.globalCall(depth);
      default:
        return this.filtered(depth);
    }
  }

  /** An expression of a likely type (most renders succeed), or an untyped one (errors are compared too). */
  expr(depth = 0) {
    const { rng } = this;
    if (rng.chance(0.65))
      return rng.pick([
        () => this.strExpr(depth),
        () => this.numExpr(depth),
        () => this.listExpr(depth),
        () => this.anyTyped(depth),
      ])();
    return this.untyped(depth);
  }

  anyTyped(depth) {
    const { rng } = this;
    const inner = rng.pick([
      () => this.strExpr(depth + 1),
      () => this.numExpr(depth + 1),
      () => this.listExpr(depth + 1),
      () => this.dictExpr(depth + 1),
    ])();
    return rng.pick([
      `${inner}|tojson`,
      `${inner}|string`,
      `${inner}|pprint`,
      `${inner} is ${this.test(depth + 1)}`,
      `${inner}|length`,
      `${inner}|default('dflt')`,
      `${inner} if ${this.atom(depth + 1)} else ${this.strExpr(depth + 1)}`,
      `${inner} == ${this.literal(1)}`,
      `${inner}|e`,
      `(${inner}|safe) + ${this.strExpr(depth + 1)}`,
      `${inner}|safe|upper ~ '<'`,
    ]);
  }

  strExpr(depth) {
    const { rng } = this;
    if (depth > 3) return rng.chance(0.5) ? "s" : pyStringLiteral(rng, rng.pick(WORDS));
    const inner = () => this.strExpr(depth + 1);
    switch (rng.int(0, 16)) {
      case 0:
      case 1:
        return pyStringLiteral(rng, rng.pick(WORDS));
      case 2:
        return "s";
      case 3:
        return `${inner()}|${rng.pick(["upper", "lower", "title", "capitalize", "trim", "center(11)", "truncate(6, true, '~', 0)", "wordwrap(4)", "indent(2)", "replace('a', 'A')", "reverse", "striptags", "urlencode", "escape", "forceescape", "wordcount", "urlize", "format()", "string", "list|join('.')", "first", "last"])}`;
      case 4:
        return `${inner()}.${rng.pick(["upper()", "lower()", "strip()", "title()", "capitalize()", "swapcase()", "casefold()", "zfill(6)", "center(9, '-')", "ljust(6, '.')", "rjust(6)", "replace('l', 'L', 1)", "split()|join('/')", "rsplit('a', 1)|join('|')", "splitlines()|length", "startswith(('H', 'a'))", "endswith('e')", "find('o')", "rfind('o')", "count('l')", "index('')", "partition(' ')", "rpartition('a')", "isalpha()", "isdigit()", "isnumeric()", "isalnum()", "isspace()", "istitle()", "isupper()", "islower()", "isidentifier()", "isprintable()", "isascii()", "expandtabs(3)", "removeprefix('H')", "removesuffix('e')", "encode"])}`;
      case 5:
        return `${inner()} ~ ${this.atom(depth + 1)}`;
      case 6:
        return `${inner()} + ${inner()}`;
      case 7:
        return `${inner()} * ${rng.pick(["2", "0", "-1", "3"])}`;
      case 8:
        return this.percent(depth);
      case 9:
        return this.formatCall(depth);
      case 10:
        return `${inner()}[${rng.pick(["0", "-1", "1:3", "::-1", ":2", "::2", "5:", "-3:"])}]`;
      case 11:
        return `${this.listExpr(depth + 1)}|join(${rng.pick(["", "', '", "'-'"])})`;
      case 12:
        return `${this.numExpr(depth + 1)}|${rng.pick(["string", "filesizeformat", "filesizeformat(true)", "round(1)|string", "abs|string"])}`;
      case 13:
        return `'${rng.pick(["", "x", "a,b,c", "Hello World"])}'.join(${this.listExpr(depth + 1)}|map('string'))`;
      case 14:
        return `${inner()} if ${this.atom(depth + 1)} else ${inner()}`;
      default:
        return `${this.dictExpr(depth + 1)}|${rng.pick(["xmlattr", "urlencode", "dictsort|string", "tojson", "pprint", "items|list|string"])}`;
    }
  }

  numExpr(depth) {
    const { rng } = this;
    if (depth > 3) return rng.pick(["n", "f", "3", "2.5", "-1"]);
    const inner = () => this.numExpr(depth + 1);
    switch (rng.int(0, 12)) {
      case 0:
      case 1:
        return rng.pick([
          "0",
          "1",
          "2",
          "3",
          "-1",
          "7",
          "10",
          "255",
          "1.0",
          "0.5",
          "2.675",
          "1e3",
          "-2.5",
          "0.125",
          "1_000",
          "3.14159",
          "1e20",
          "0.1",
          "1.15",
          "-0.0",
        ]);
      case 2:
        return rng.pick(["n", "f", "l|length", "users|length", "s|length"]);
      case 3:
        // A negative base to a fractional power is a complex number in Python (not supported: see the README).
        return rng.chance(0.15)
          ? `${inner()} ** ${rng.pick(["0", "1", "2", "3", "-1", "-2"])}`
          : `${inner()} ${rng.pick(["+", "-", "*", "/", "//", "%"])} ${rng.pick([inner(), "2", "3", "0.5", "-2"])}`;
      case 4:
        return `${inner()}|${rng.pick(["round", "round(2)", "round(1, 'floor')", "round(0, 'ceil')", "round(-1)", "abs", "int", "float", "string|float", "string|int"])}`;
      case 5:
        return `${this.listExpr(depth + 1)}|${rng.pick(["sum", "min", "max", "length", "first", "last"])}`;
      case 6:
        return `${this.strExpr(depth + 1)}|${rng.pick(["int", "float", "int(-1)", "float(0.5)", "length", "int(0, 16)"])}`;
      case 7:
        return `-${inner()}`;
      case 8:
        return `(${inner()}).${rng.pick(["bit_length()", "is_integer()", "real", "imag", "conjugate()", "as_integer_ratio()"])}`;
      case 9:
        return `${inner()} if ${this.atom(depth + 1)} else ${inner()}`;
      case 10:
        return `users|${rng.pick(["sum(attribute='age')", "max(attribute='age')|attr('name')", "map(attribute='age', default=0)|sum", "selectattr('active')|list|length"])}`;
      default:
        return `range(${rng.int(0, 5)})|${rng.pick(["sum", "list|length", "last"])}`;
    }
  }

  listExpr(depth) {
    const { rng } = this;
    if (depth > 3) return rng.pick(["l", "[1, 2]", "users", "range(3)"]);
    const inner = () => this.listExpr(depth + 1);
    switch (rng.int(0, 12)) {
      case 0:
        return rng.pick([
          "l",
          "users",
          "[3, 1, 2]",
          "['b', 'A', 'a', 'c']",
          "[1, 'a', none]",
          "[none, none]",
          "[2.5, 1, true]",
          "[[2, 'b'], [1, 'a']]",
          "[]",
          "d.c",
          "v",
        ]);
      case 1:
        return `range(${rng.pick(["3", "0", "1, 6, 2", "5, 0, -1"])})`;
      case 2:
        return `${inner()}|${rng.pick(["sort", "sort(reverse=true)", "sort(case_sensitive=true)", "unique|list", "reverse|list", "list", "map('string')|list", "select|list", "reject|list", "select('odd')|list", "reject('even')|list", "select('string')|list", "batch(2)|list", "slice(2)|list", "batch(2, 'x')|list"])}`;
      case 3:
        return `users|${rng.pick(["sort(attribute='age,name')|map(attribute='name')|list", "sort(attribute='name', reverse=true)|list", "selectattr('active')|list", "rejectattr('active')|list", "selectattr('age', 'gt', 5)|list", "map(attribute='name')|list", "groupby('age')|list", "groupby('name', case_sensitive=true)|map(attribute='grouper')|list", "unique(attribute='name')|list", "map(attribute='tags')|list", "selectattr('name', 'in', ['al', 'Bo'])|list"])}`;
      case 4:
        return `${inner()} + ${inner()}`;
      case 5:
        return `${inner()}[${rng.pick(["1:", ":2", "::-1", "::2", "1:-1"])}]`;
      case 6:
        return `${this.strExpr(depth + 1)}|list`;
      case 7:
        return `${this.dictExpr(depth + 1)}|${rng.pick(["dictsort", "dictsort(reverse=true)", "dictsort(false, 'value')", "items|list", "list"])}`;
      case 8:
        return `${this.strExpr(depth + 1)}.${rng.pick(["split()", "split(',')", "splitlines()", "rsplit(None, 1)", "partition('a')|list"])}`;
      case 9:
        return `${this.dictExpr(depth + 1)}.${rng.pick(["keys()|list", "values()|list", "items()|list"])}`;
      case 10:
        return `[${this.atom(depth + 1)}, ${this.atom(depth + 1)}]`;
      default:
        return `${inner()}|${rng.pick(["map('upper')|list", "map('int')|list", "map('round')|list", "map('abs')|list", "map('length')|list", "map('trim')|list"])}`;
    }
  }

  dictExpr(depth) {
    const { rng } = this;
    if (depth > 3) return "d";
    return rng.pick([
      "d",
      "users[0]",
      "{'b': 1, 'a': [1, 2], 'c': none}",
      "{'name': 'x', 'id': 2.5}",
      "dict(a=1, b='<x>')",
      `dict(${this.listExpr(depth + 1)}|batch(2)|list)`,
      "{1: 'a', 2: 'b'}",
      "{'x': {'y': [1, {'z': 2.0}]}}",
      "v",
      "w",
      "namespace(a=1)",
    ]);
  }

  untyped(depth = 0) {
    const { rng } = this;
    if (depth > 3) return this.atom(depth);
    switch (rng.int(0, 15)) {
      case 0:
        return `${this.atom(depth + 1)} ${rng.pick(["+", "-", "*", "/", "//", "%", "~", "~", "+"])} ${this.atom(depth + 1)}`;
      case 1:
        return `${this.atom(depth + 1)} ${rng.pick(["==", "!=", "<", ">", "<=", ">=", "in", "not in"])} ${this.atom(depth + 1)}`;
      case 2:
        return `${this.atom(depth + 1)} ${rng.pick(["and", "or"])} ${this.atom(depth + 1)}`;
      case 3:
        return `not ${this.atom(depth + 1)}`;
      case 4:
        return `${this.atom(depth + 1)} if ${this.atom(depth + 1)}${rng.chance(0.7) ? ` else ${this.atom(depth + 1)}` : ""}`;
      case 5:
        return `${this.atom(depth + 1)} is ${rng.chance(0.2) ? "not " : ""}${this.test(depth)}`;
      case 6:
        return this.percent(depth);
      case 7:
        return this.formatCall(depth);
      case 8:
        return `${rng.pick(["-", "+"])}${this.atom(depth + 1)}`;
      case 9:
        return `${this.atom(depth + 1)} ** ${rng.pick(["0", "1", "2", "3", "-1", "-2"])}`;
      default:
        return this.atom(depth);
    }
  }

  percent(depth) {
    const { rng } = this;
    const spec = () =>
      `%${rng.pick(["", "-", "0", "+", " ", "#"])}${rng.pick(["", "5", "08", "3"])}${rng.pick(["", ".2", ".0", ".3"])}${rng.pick(["s", "s", "d", "r", "f", "e", "g", "x", "X", "o", "c", "i", "a", "G", "E"])}`;
    const n = rng.int(1, 3);
    const format = pyStringLiteral(
      rng,
      Array.from({ length: n }, () => `${spec()}${rng.pick(["", " ", "-", "|"])}`).join(""),
    );
    if (rng.chance(0.15))
      return `${format}|format(${Array.from({ length: n }, () => this.atom(depth + 1)).join(", ")})`;
    if (rng.chance(0.15))
      return `${pyStringLiteral(rng, "%(a)s and %(b)r")} % {'a': ${this.atom(depth + 1)}, 'b': ${this.atom(depth + 1)}}`;
    if (n === 1 && rng.chance(0.5)) return `${format} % ${this.atom(depth + 1)}`;
    return `${format} % (${Array.from({ length: n }, () => this.atom(depth + 1)).join(", ")},)`;
  }

  formatCall(depth) {
    const { rng } = this;
    const field = () =>
      `{${rng.pick(["", "", "0", "1", "x"])}${rng.pick(["", "", "!r", "!s", "!a"])}${rng.pick(["", ":>6", ":<4", ":^7", ":*^9", ":.2f", ":+d", ":,", ":08.3f", ":x", ":#o", ":e", ":g", ":%", ":.3", ":10", ":_", ":b", ":c", ":n", ":>+10.2e"])}}`;
    const format = pyStringLiteral(
      rng,
      Array.from({ length: rng.int(1, 3) }, () => `${field()}${rng.pick(["", " ", "|"])}`).join(""),
    );
    const args = Array.from({ length: rng.int(0, 3) }, () => this.atom(depth + 1));
    if (rng.chance(0.5)) args.push(`x=${this.atom(depth + 1)}`);
    if (rng.chance(0.15)) return `${format}.format_map({'x': ${this.atom(depth + 1)}, 0: 1})`;
    return `${format}.format(${args.join(", ")})`;
  }

  call(depth) {
    const { rng } = this;
    const target = this.atom(depth + 1);
    const method = rng.pick([
      ["upper", ""],
      ["lower", ""],
      ["strip", ""],
      ["strip", "'x '"],
      ["split", ""],
      ["split", "','"],
      ["split", "' ', 1"],
      ["rsplit", "' ', 1"],
      ["startswith", "'a'"],
      ["endswith", "('x', 'o')"],
      ["replace", "'a', 'b'"],
      ["find", "'l'"],
      ["count", "'l'"],
      ["title", ""],
      ["capitalize", ""],
      ["istitle", ""],
      ["isdigit", ""],
      ["isalpha", ""],
      ["isupper", ""],
      ["islower", ""],
      ["center", "9, '*'"],
      ["ljust", "5"],
      ["zfill", "5"],
      ["partition", "' '"],
      ["join", "['a', 'b']"],
      ["splitlines", ""],
      ["swapcase", ""],
      ["casefold", ""],
      ["removeprefix", "'H'"],
      ["expandtabs", "4"],
      ["get", "'a'"],
      ["get", "'zz', 5"],
      ["items", ""],
      ["keys", ""],
      ["values", ""],
      ["copy", ""],
      ["index", "1"],
      ["append", "1"],
      ["bit_length", ""],
      ["is_integer", ""],
      ["format", "1, 2"],
    ]);
    return `${target}.${method[0]}(${method[1]})`;
  }

  globalCall(depth) {
    const { rng } = this;
    switch (rng.int(0, 5)) {
      case 0:
        return `range(${rng.pick(["3", "0", "1, 4", "5, 0, -2", "n", "2, 9, 3"])})`;
      case 1:
        return `dict(${rng.pick(["a=1", "a=1, b=[2]", "", `x=${this.atom(depth + 1)}`])})`;
      case 2:
        return `namespace(a=${this.atom(depth + 1)}).a`;
      case 3:
        return rng.pick(["cycler('a', 'b').next()", "joiner('-')()", "cycler(1, 2).current"]);
      default:
        return `${rng.pick(["range(3)", "[1, 2, 3]", "users", "l", "'abc'", "d"])}|${rng.pick(["list", "length", "first", "last", "sum", "join(',')", "tojson", "string"])}`;
    }
  }

  filterName(depth) {
    const { rng } = this;
    const a = () => this.atom(depth + 1);
    return rng.pick([
      "upper",
      "lower",
      "title",
      "capitalize",
      "trim",
      "length",
      "count",
      "list",
      "first",
      "last",
      "string",
      "tojson",
      "tojson(indent=2)",
      "tojson(sort_keys=true)",
      "int",
      "float",
      "abs",
      "round",
      "round(1)",
      "round(2, 'floor')",
      "round(1, 'ceil')",
      "sum",
      "join",
      "join(', ')",
      "join('-', attribute='name')",
      "sort",
      "sort(reverse=true)",
      "sort(attribute='age,name')",
      "sort(attribute='name')",
      "unique",
      "unique|list",
      "reverse",
      "reverse|list",
      "map('upper')",
      "map('upper')|list",
      "map(attribute='name')|list",
      "map(attribute='age', default=0)|list",
      "select|list",
      "select('odd')|list",
      "reject('none')|list",
      "selectattr('active')|list",
      "rejectattr('age', 'gt', 5)|list",
      "selectattr('name', 'equalto', 'al')|map(attribute='name')|join",
      "batch(2)|list",
      "slice(2)|list",
      "groupby('age')",
      "groupby('age')|map(attribute='grouper')|list",
      "dictsort",
      "dictsort(by='value')",
      "items|list",
      "default('dflt')",
      "default('dflt', true)",
      "d('x')",
      "escape",
      "e",
      "forceescape",
      "safe",
      "striptags",
      "urlencode",
      "xmlattr",
      "filesizeformat",
      "filesizeformat(true)",
      "wordcount",
      "wordwrap(5)",
      "truncate(5)",
      "truncate(9, true, '..', 0)",
      "center(9)",
      "indent(2)",
      "indent(2, true, true)",
      "replace('a', 'b')",
      "format('x')",
      "pprint",
      "min",
      "max",
      "max(attribute='age')",
      "attr('name')",
      "attr('upper')",
      "urlize",
      `default(${a()})`,
      "from_json",
    ]);
  }

  filtered(depth) {
    return `${this.atom(depth + 1)}|${this.filterName(depth)}`;
  }

  test(depth) {
    const { rng } = this;
    return rng.pick([
      "defined",
      "undefined",
      "none",
      "number",
      "string",
      "mapping",
      "sequence",
      "iterable",
      "integer",
      "float",
      "boolean",
      "true",
      "false",
      "odd",
      "even",
      "divisibleby 3",
      "lower",
      "upper",
      "escaped",
      "callable",
      `eq ${this.atom(depth + 1)}`,
      `in ${this.atom(depth + 1)}`,
      "gt 2",
      "lt 'm'",
      "sameas none",
      "filter",
      "test",
      "nosuchtest",
    ]);
  }

  output(depth) {
    return `{{ ${this.expr(depth)} }}`;
  }

  statements(depth, count) {
    let out = "";
    for (let i = 0; i < count; i++) out += this.statement(depth);
    return out;
  }

  ws() {
    return this.rng.pick(["", "", "", "-"]);
  }

  statement(depth) {
    const { rng } = this;
    const w = () => this.ws();
    if (depth > 2) return rng.chance(0.5) ? this.output(depth) : rng.pick(["|", " ", "\n", "x"]);
    switch (rng.int(0, 15)) {
      case 0:
      case 1:
      case 2:
        return this.output(depth);
      case 3:
        return rng.pick(["|", " ", "\n", "text ", "  \n", "\n  "]);
      case 4: {
        let out = `{%${w()} if ${this.expr(depth + 1)} ${w()}%}${this.statements(depth + 1, rng.int(1, 2))}`;
        if (rng.chance(0.4)) out += `{% elif ${this.expr(depth + 1)} %}${this.statements(depth + 1, 1)}`;
        if (rng.chance(0.5)) out += `{% else %}${this.statements(depth + 1, 1)}`;
        return `${out}{% endif %}`;
      }
      case 5:
      case 6: {
        const target = rng.chance(0.2) ? "k, val" : rng.pick(["x", "item", "u"]);
        const source = rng.pick([
          "users",
          "l",
          "d",
          "d.items()",
          "d|dictsort",
          "range(3)",
          "s",
          "v",
          "users|selectattr('active')",
          "l|map('string')",
          "l|reverse",
          "[1, 2, 3]",
          "nothing",
        ]);
        const test = rng.chance(0.2) ? ` if ${this.atom(depth + 1)}` : "";
        this.locals.push(
          ...target.split(", "),
          "loop.index",
          "loop.first",
          "loop.last",
          "loop.length",
          "loop.revindex",
          "loop.previtem",
          "loop.nextitem",
          "loop.cycle('o', 'e')",
          "loop.changed(x)",
        );
        let body = this.statements(depth + 1, rng.int(1, 3));
        if (rng.chance(0.15))
          body += `{% if ${this.atom(depth + 1)} %}{% ${rng.pick(["break", "continue"])} %}{% endif %}`;
        const otherwise = rng.chance(0.3) ? `{% else %}${this.statements(depth + 1, 1)}` : "";
        this.locals.splice(-(target.split(", ").length + 9));
        return `{%${w()} for ${target} in ${source}${test} ${w()}%}${body}${otherwise}{% endfor %}`;
      }
      case 7: {
        const name = rng.pick(["x", "y", "z"]);
        this.locals.push(name);
        return `{% set ${name} = ${this.expr(depth + 1)} %}`;
      }
      case 8: {
        const name = rng.pick(["blk", "y"]);
        this.locals.push(name);
        return `{% set ${name}${rng.chance(0.3) ? " | upper" : ""} %}${this.statements(depth + 1, 1)}{% endset %}`;
      }
      case 9: {
        const body = this.statements(depth + 1, rng.int(1, 2));
        return `{% macro m(a, b=${this.literal(1)}) %}[{{ a }}|{{ b }}${rng.chance(0.3) ? "{{ varargs }}{{ kwargs }}" : ""}${body}]{% endmacro %}{{ m(${this.atom(depth + 1)}) }}{{ m(1, b=2) }}${rng.chance(0.3) ? "{{ m.name }}{{ m.arguments }}" : ""}`;
      }
      case 10:
        return `{% set ns = namespace(c=0, items=[]) %}{% for i in ${rng.pick(["l", "range(3)", "users"])} %}{% set ns.c = ns.c + 1 %}{% endfor %}{{ ns.c }}`;
      case 11:
        return `{% filter ${rng.pick(["upper", "trim", "title", "replace('a', 'X')", "indent(2)"])} %}${this.statements(depth + 1, 1)}{% endfilter %}`;
      case 12:
        return `{% with q = ${this.expr(depth + 1)} %}{{ q }}{% endwith %}`;
      case 14: {
        // A call block: the macro calls back into the block's body, with arguments.
        this.locals.push("a");
        const body = this.statements(depth + 1, rng.int(1, 2));
        this.locals.pop();
        const inner = rng.pick([
          "caller()",
          `caller(${this.atom(depth + 1)})`,
          "caller(1, 2)",
          "caller.name",
        ]);
        return `{% macro w(t) %}<{{ ${inner} }}|{{ t }}>{% endmacro %}{% call${rng.chance(0.7) ? "(a)" : ""} w(${this.atom(depth + 1)}) %}${body}{% endcall %}`;
      }
      case 13:
        return `{% for x in [1, [2, [3, 4]], 5] recursive %}{% if x is iterable %}({{ loop(x) }}){% else %}{{ x }}@{{ loop.depth }}{% endif %}{% endfor %}`;
      default:
        return this.output(depth);
    }
  }
}

/** One random case: `{ template, variables }` (variables as JSON text). */
export function generateCase(rng) {
  const gen = new Gen(rng);
  const template = gen.statements(0, rng.int(1, 4));
  return { template, variables: variablesFor(rng) };
}

// A `replace('a', 'X')` in the template may have rewritten the address's hex letters.
const ADDRESS = /0x[0-9a-fX]{8,}/gi;

/** Python prints memory addresses (`<generator object … at 0x7f…>`); those bytes cannot match, the rest must. */
export function normalizeOutcome(outcome) {
  if ("ok" in outcome) return { ok: outcome.ok.replace(ADDRESS, "0x…") };
  return { error: outcome.error.replace(ADDRESS, "0x…") };
}

/**
 * True when two outcomes differ only where Python printed an object's memory address that a filter then took
 * apart (`'x'.join(g|string)` interleaves it): same length, every difference a hex digit, an object repr in view.
 */
export function differsOnlyInAddress(expected, actual) {
  const a = "ok" in expected ? expected.ok : expected.error;
  const b = "ok" in actual ? actual.ok : actual.error;
  if (
    "ok" in expected !== "ok" in actual ||
    a.length !== b.length ||
    !/0[\s\S]{0,24}?x[\s\S]{0,24}?7[\s\S]{0,24}?f/.test(a)
  )
    return false;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i] && !(/[0-9a-f]/.test(a[i]) && /[0-9a-f]/.test(b[i]))) return false;
  return true;
}

/** hf_render.py's batch input for cases. */
export function pythonInput(cases) {
  return `[${cases
    .map(
      (c) =>
        `{"template": ${JSON.stringify(c.template)}, "messages": [], "tools": null, "add_generation_prompt": false, "kwargs": ${c.variables}}`,
    )
    .join(",")}]`;
}
