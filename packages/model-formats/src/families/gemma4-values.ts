import { JsonNumber } from "@toolcall/core";
import { DEFAULT_MAX_DEPTH } from "@toolcall/core/kit";
import { MarkerSet } from "../engine/marker-set.js";
import { isSpaceCode, type Reader, type Step } from "../engine/reader.js";

/** A reading of malformed argument text that is unique, noted as an issue on the call it made (never on a cut one). */
export type GemmaRepair = "string_single_quoted";

/** Gemma 4's string quote token: strings in native tool calls sit between two of these. */
export const GEMMA_QUOTE = '<|"|>';
/** Opens a native tool call: `<|tool_call>call:NAME{…}<tool_call|>`. */
export const GEMMA_CALL_OPEN = "<|tool_call>";
/** Closes a native tool call. */
export const GEMMA_CALL_CLOSE = "<tool_call|>";

/** How one argument object read ended. `sawClose`: a string held `<tool_call|>` (the call was not cut, it is malformed). */
export type GemmaArgumentsRead =
  | { status: "ok" }
  | { status: "invalid"; message: string }
  | { status: "end"; sawClose: boolean };

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NULL_WORDS = new Set(["null", "none", "None", "nil"]);
/** Keys are short: a key looked for further away than this after a quote token is not one. */
const KEY_LOOKAHEAD = 256;
/** How far past a quote token the look for what closes a string goes (whitespace included). */
const CLOSE_LOOKAHEAD = 1024;

/** The tokens a Gemma-style call is written with: Gemma 4's, or FunctionGemma's (`<escape>` as the quote). */
export interface GemmaTokens {
  /** Opens and closes a string (starts with `<`). */
  quote: string;
  callOpen: string;
  callClose: string;
}
/** Gemma 4's tokens. */
export const GEMMA4_TOKENS: GemmaTokens = {
  quote: GEMMA_QUOTE,
  callOpen: GEMMA_CALL_OPEN,
  callClose: GEMMA_CALL_CLOSE,
};

/** The marker sets the reader looks for, built once per set of tokens. */
interface TokenSets {
  tokens: GemmaTokens;
  stringStops: MarkerSet;
  quoteSet: MarkerSet;
  bareStops: MarkerSet;
}
const SETS = new Map<GemmaTokens, TokenSets>();
function setsFor(tokens: GemmaTokens): TokenSets {
  let sets = SETS.get(tokens);
  if (sets === undefined) {
    const { quote, callOpen, callClose } = tokens;
    sets = {
      tokens,
      stringStops: new MarkerSet([quote, callOpen, callClose]),
      quoteSet: new MarkerSet([quote]),
      bareStops: new MarkerSet([",", "}", "]", quote, callOpen, callClose]),
    };
    SETS.set(tokens, sets);
  }
  return sets;
}
const KEY_STOPS = new MarkerSet([",", ":", "{", "}", "[", "]", "<|"]);

enum Look {
  AfterQuote,
  ArrayNext,
  KeyStart,
  BareKey,
  BareKeyAngle,
  QuotedKeyOpen,
  QuotedKey,
  AfterKey,
}

const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LESS = 0x3c;
const PIPE = 0x7c;
/** What cannot start or be in a bare key. */
const NOT_KEY = new Set([COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET]);

/**
 * Whether the quote token just read closes its string: it does when the end of its container follows, or a comma and
 * then a key and a colon (in an object) or another value (in an array); anything else makes it a literal `"` (the
 * model writes a Python `"""` as three tokens). Looks ahead without consuming, each character once.
 */
function* closesString(reader: Reader, inArray: boolean, quote: string): Step<boolean> {
  let state = Look.AfterQuote;
  let decided = false;
  let length = 0;
  let quoteAt = 0;
  const decide = (answer: boolean) => {
    decided = answer;
    return false;
  };
  const visit = (c: number): boolean => {
    switch (state) {
      case Look.AfterQuote:
        if (isSpaceCode(c)) return true;
        if (c === CLOSE_BRACE || c === CLOSE_BRACKET) return decide(true);
        if (c !== COMMA) return decide(false);
        state = inArray ? Look.ArrayNext : Look.KeyStart;
        return true;
      case Look.ArrayNext:
        if (isSpaceCode(c)) return true;
        return decide(c !== COMMA && c !== CLOSE_BRACKET && c !== CLOSE_BRACE);
      case Look.KeyStart:
        if (isSpaceCode(c)) return true;
        if (c === LESS) {
          state = Look.QuotedKeyOpen;
          quoteAt = 1;
          return true;
        }
        if (NOT_KEY.has(c)) return decide(false);
        state = Look.BareKey;
        length = 1;
        return true;
      case Look.QuotedKeyOpen:
        if (c === quote.charCodeAt(quoteAt)) {
          quoteAt++;
          if (quoteAt === quote.length) {
            state = Look.QuotedKey;
            quoteAt = 0;
            length = 0;
          }
          return true;
        }
        // `<` then not `|`: a bare key that starts with `<`; `<|` then anything but the quote token: no key.
        if (quoteAt > 1) return decide(false);
        state = Look.BareKey;
        length = 1;
        return visit(c);
      case Look.QuotedKey:
        length++;
        if (length > KEY_LOOKAHEAD + quote.length) return decide(false);
        quoteAt = c === quote.charCodeAt(quoteAt) ? quoteAt + 1 : c === LESS ? 1 : 0;
        if (quoteAt === quote.length) state = Look.AfterKey;
        return true;
      case Look.BareKeyAngle:
        if (c === PIPE) return decide(false);
        state = Look.BareKey;
        return visit(c);
      case Look.BareKey:
        if (c === COLON) return decide(true);
        if (NOT_KEY.has(c)) return decide(false);
        if (++length > KEY_LOOKAHEAD) return decide(false);
        if (c === LESS) state = Look.BareKeyAngle;
        return true;
      case Look.AfterKey:
        if (isSpaceCode(c)) return true;
        return decide(c === COLON);
    }
  };
  yield* reader.lookAhead(visit, CLOSE_LOOKAHEAD);
  return decided;
}

type ValueRead = { ok: true; value: unknown } | { ok: false; read: GemmaArgumentsRead };

const END: ValueRead = { ok: false, read: { status: "end", sawClose: false } };
const invalid = (message: string): ValueRead => ({ ok: false, read: { status: "invalid", message } });

/** A `<|"|>…<|"|>` string, the reader after its opening token. */
function* readQuoted(reader: Reader, inArray: boolean, sets: TokenSets): Step<ValueRead> {
  const parts: string[] = [];
  let sawClose = false;
  const sink = (text: string) => {
    parts.push(text);
  };
  for (;;) {
    const marker = yield* reader.before(sets.stringStops, sink);
    if (marker === null) return { ok: false, read: { status: "end", sawClose } };
    // A new call's opener: this string never closed (the call is malformed; the new one is read on its own).
    if (marker === sets.tokens.callOpen) return invalid("a string that does not close");
    reader.consume(marker.length);
    if (marker === sets.tokens.callClose) {
      sawClose = true;
      parts.push(marker);
      continue;
    }
    if (yield* closesString(reader, inArray, sets.tokens.quote)) return { ok: true, value: parts.join("") };
    parts.push('"');
  }
}

/** A JSON string where the model wrote one (`"Paris"`), read as JSON reads it; the reader at its `"`. */
function* readJsonString(reader: Reader): Step<ValueRead> {
  let text = reader.consume(1);
  for (;;) {
    text += yield* reader.upTo('"\\\n\r');
    const c = yield* reader.peekChar();
    if (c === null) return END;
    if (c === "\n" || c === "\r") return invalid("a line break inside a JSON string");
    text += reader.consume(1);
    if (c === '"') break;
    const escaped = yield* reader.peekChar();
    if (escaped === null) return END;
    if (escaped === "\n" || escaped === "\r") return invalid("a line break inside a JSON string");
    text += reader.consume(1);
  }
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? { ok: true, value } : invalid("a string");
  } catch {
    return invalid("a JSON string that does not parse");
  }
}

/** A bare value up to `,`, `}`, `]` or a token: a word, a number, or text (a server stripped the quote tokens). */
function* readBare(reader: Reader, note: (code: GemmaRepair) => void, sets: TokenSets): Step<ValueRead> {
  const parts: string[] = [];
  const stop = yield* reader.before(sets.bareStops, (text) => parts.push(text));
  if (stop === null) return END;
  const word = parts.join("").trim();
  if (word === "") return invalid("expected a value");
  // Python's quotes where the template writes quote tokens: one reading, the text between them (noted).
  if (word.length >= 2 && word.startsWith("'") && word.endsWith("'") && !word.slice(1, -1).includes("'")) {
    note("string_single_quoted");
    return { ok: true, value: word.slice(1, -1) };
  }
  if (word === "true") return { ok: true, value: true };
  if (word === "false") return { ok: true, value: false };
  if (NULL_WORDS.has(word)) return { ok: true, value: null };
  if (NUMBER.test(word)) return { ok: true, value: new JsonNumber(word) };
  return { ok: true, value: word };
}

/**
 * A key: bare up to the colon, between quote tokens, or JSON-quoted (`"url":`, read as `url`: a key is never a JSON
 * string literal of itself, one reading).
 */
function* readKey(
  reader: Reader,
  sets: TokenSets,
): Step<{ ok: true; key: string } | { ok: false; read: GemmaArgumentsRead }> {
  if ((yield* reader.peek(sets.quoteSet)) !== null) {
    reader.consume(sets.tokens.quote.length);
    const parts: string[] = [];
    const closed = yield* reader.until(sets.quoteSet, (text) => parts.push(text));
    if (closed === null) return { ok: false, read: { status: "end", sawClose: false } };
    return { ok: true, key: parts.join("") };
  }
  const parts: string[] = [];
  const stop = yield* reader.before(KEY_STOPS, (text) => parts.push(text));
  if (stop === null) return { ok: false, read: { status: "end", sawClose: false } };
  const key = parts.join("").trim();
  if (key === "") return { ok: false, read: { status: "invalid", message: "expected a key" } };
  return { ok: true, key: jsonQuotedKey(key) ?? key };
}

function jsonQuotedKey(key: string): string | undefined {
  if (key.length < 2 || !key.startsWith('"') || !key.endsWith('"')) return undefined;
  try {
    const value: unknown = JSON.parse(key);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

interface Frame {
  array: boolean;
  items: unknown[] | Record<string, unknown>;
  key: string;
  count: number;
}

/**
 * Reads Gemma 4's native argument object, the reader at its `{`: `{key:<|"|>text<|"|>,n:42,b:true,o:{…},a:[…]}`.
 * A single-quoted string (`'Paris'`, Python's quotes) is read as the text between its quotes and noted
 * (`string_single_quoted`). Each top-level pair is handed to `add` as soon as its value is complete (so a stream passes arguments on pair by
 * pair). Nesting is kept on a stack, not in the call stack: any depth up to core's limit costs no recursion.
 * Linear: each character is consumed once, and a quote token's look ahead stops at what decides it.
 */
export function* readGemmaArguments(
  reader: Reader,
  options: {
    add: (key: string, value: unknown) => void;
    note: (code: GemmaRepair) => void;
    /** The tokens the call is written with (default: Gemma 4's). */
    tokens?: GemmaTokens;
  },
): Step<GemmaArgumentsRead> {
  const { add, note } = options;
  const sets = setsFor(options.tokens ?? GEMMA4_TOKENS);
  reader.consume(1);
  const stack: Frame[] = [{ array: false, items: {}, key: "", count: 0 }];
  const place = (frame: Frame, value: unknown) => {
    frame.count++;
    if (frame.array) (frame.items as unknown[]).push(value);
    else if (stack.length === 1 && frame === stack[0]) add(frame.key, value);
    else setOwn(frame.items as Record<string, unknown>, frame.key, value);
  };
  for (;;) {
    const frame = stack[stack.length - 1] as Frame;
    yield* reader.space();
    let c = yield* reader.peekChar();
    if (c === null) return { status: "end", sawClose: false };
    if (c === (frame.array ? "]" : "}")) {
      reader.consume(1);
      stack.pop();
      const parent = stack[stack.length - 1];
      if (parent === undefined) return { status: "ok" };
      place(parent, frame.items);
      continue;
    }
    if (frame.count > 0) {
      if (c !== ",") return { status: "invalid", message: `expected , or ${frame.array ? "]" : "}"}` };
      reader.consume(1);
      yield* reader.space();
    }
    if (!frame.array) {
      const key = yield* readKey(reader, sets);
      if (!key.ok) return key.read;
      frame.key = key.key;
      yield* reader.space();
      const colon = yield* reader.peekChar();
      if (colon === null) return { status: "end", sawClose: false };
      if (colon !== ":") return { status: "invalid", message: "expected :" };
      reader.consume(1);
      yield* reader.space();
    }
    c = yield* reader.peekChar();
    if (c === null) return { status: "end", sawClose: false };
    if (c === "{" || c === "[") {
      if (stack.length >= DEFAULT_MAX_DEPTH)
        return { status: "invalid", message: `nesting deeper than ${DEFAULT_MAX_DEPTH}` };
      reader.consume(1);
      stack.push({ array: c === "[", items: c === "[" ? [] : {}, key: "", count: 0 });
      continue;
    }
    let value: ValueRead;
    if ((yield* reader.peek(sets.quoteSet)) !== null) {
      reader.consume(sets.tokens.quote.length);
      value = yield* readQuoted(reader, frame.array, sets);
    } else if (c === '"') value = yield* readJsonString(reader);
    else value = yield* readBare(reader, note, sets);
    if (!value.ok) return value.read;
    place(frame, value.value);
  }
}
