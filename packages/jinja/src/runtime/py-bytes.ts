import { PyFunction } from "./py-function.js";
import { MISSING, PyObject } from "./py-object.js";
import { fail } from "./template-error.js";

/**
 * A Python `bytes`, as `str.encode()` makes it: prints `b'caf\xc3\xa9'`, has a length, iterates and indexes as
 * ints, decodes back. (The sandbox offers no other way to make one.)
 *
 * @example
 * encodeText("é", "utf-8", "strict").data; // Uint8Array [0xc3, 0xa9]
 */
export class PyBytes extends PyObject {
  readonly data: Uint8Array;
  constructor(data: Uint8Array) {
    super();
    this.data = data;
  }
  get pyType(): string {
    return "bytes";
  }
  override getAttr(name: string): unknown {
    if (name === "decode")
      return new PyFunction(
        "decode",
        (args, kwargs) => {
          const encoding = args[0] ?? kwargs?.get("encoding") ?? "utf-8";
          return decodeBytes(
            this.data,
            String(encoding),
            String(args[1] ?? kwargs?.get("errors") ?? "strict"),
          );
        },
        "builtin_function_or_method",
        "bytes",
      );
    if (name === "hex")
      return new PyFunction(
        "hex",
        () => Array.from(this.data, (b) => b.toString(16).padStart(2, "0")).join(""),
        "builtin_function_or_method",
        "bytes",
      );
    return MISSING;
  }
  /** Python's `repr(bytes)`. */
  repr(): string {
    const quote = this.data.includes(0x27) && !this.data.includes(0x22) ? '"' : "'";
    let out = `b${quote}`;
    for (const byte of this.data) {
      const ch = String.fromCharCode(byte);
      if (ch === quote || ch === "\\") out += `\\${ch}`;
      else if (byte === 0x09) out += "\\t";
      else if (byte === 0x0a) out += "\\n";
      else if (byte === 0x0d) out += "\\r";
      else if (byte < 0x20 || byte >= 0x7f) out += `\\x${byte.toString(16).padStart(2, "0")}`;
      else out += ch;
    }
    return `${out}${quote}`;
  }
}

function codec(encoding: string): "utf-8" | "ascii" | "latin-1" {
  const name = encoding.toLowerCase().replace(/_/g, "-");
  if (name === "utf-8" || name === "utf8" || name === "u8") return "utf-8";
  if (name === "ascii" || name === "us-ascii") return "ascii";
  if (name === "latin-1" || name === "latin1" || name === "iso-8859-1" || name === "l1") return "latin-1";
  return fail("LookupError", `unknown encoding: ${encoding}`);
}

function hex(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

/** `text.encode(encoding, errors)` for UTF-8, ASCII and Latin-1 with `strict`, `ignore` and `replace`. */
export function encodeText(text: string, encoding: string, errors: string): PyBytes {
  const name = codec(encoding);
  const out: number[] = [];
  let position = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    const limit = name === "ascii" ? 0x80 : name === "latin-1" ? 0x100 : 0x110000;
    const surrogate = code >= 0xd800 && code <= 0xdfff;
    if (code < limit && !surrogate) {
      if (name === "utf-8") out.push(...new TextEncoder().encode(ch));
      else out.push(code);
    } else if (errors === "ignore") {
      // dropped
    } else if (errors === "replace") out.push(0x3f);
    else {
      const reason =
        surrogate && name === "utf-8" ? "surrogates not allowed" : `ordinal not in range(${limit})`;
      fail(
        "UnicodeEncodeError",
        `'${name === "utf-8" ? "utf-8" : name === "ascii" ? "ascii" : "latin-1"}' codec can't encode character '${hex(code)}' in position ${position}: ${reason}`,
      );
    }
    position++;
  }
  return new PyBytes(Uint8Array.from(out));
}

/** `data.decode(encoding, errors)`. */
export function decodeBytes(data: Uint8Array, encoding: string, errors: string): string {
  const name = codec(encoding);
  if (name === "latin-1") return String.fromCharCode(...data);
  if (name === "ascii") {
    let out = "";
    data.forEach((byte, i) => {
      if (byte < 0x80) out += String.fromCharCode(byte);
      else if (errors === "replace") out += "\ufffd";
      else if (errors !== "ignore")
        fail(
          "UnicodeDecodeError",
          `'ascii' codec can't decode byte 0x${byte.toString(16)} in position ${i}: ordinal not in range(128)`,
        );
    });
    return out;
  }
  try {
    return new TextDecoder("utf-8", { fatal: errors === "strict" }).decode(data);
  } catch {
    return fail("UnicodeDecodeError", "'utf-8' codec can't decode bytes: invalid data");
  }
}
