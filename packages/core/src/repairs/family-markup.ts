import { skipSpace } from "./json-objects.js";
import { contextMeter, type RepairRule } from "./repair-rule.js";
import { TextBuilder } from "./text-builder.js";

/** One family's key/value markup: the text before a key, between key and value, and after the value. */
interface Markup {
  keyOpen: string;
  keyClose: string;
  valueOpen: string;
  valueClose: string;
  /** Qwen3-Coder writes a value on its own lines: one newline after the opening tag and one before the closing go. */
  trimNewlines: boolean;
}

const QWEN: Markup = {
  keyOpen: "<parameter=",
  keyClose: ">",
  valueOpen: "",
  valueClose: "</parameter>",
  trimNewlines: true,
};
const GLM: Markup = {
  keyOpen: "<arg_key>",
  keyClose: "</arg_key>",
  valueOpen: "<arg_value>",
  valueClose: "</arg_value>",
  trimNewlines: false,
};

/** The longest key looked for: a name, not a text (so a key that never closes costs a bounded look). */
const MAX_KEY = 256;

/** The end of `close` searched from `from` within {@link MAX_KEY} characters, as the index where it starts; -1 if not. */
function findNear(text: string, close: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_KEY + close.length);
  for (let i = from; i < limit; i++) if (text.startsWith(close, i)) return i;
  return -1;
}

function trimmed(value: string, markup: Markup): string {
  if (!markup.trimNewlines) return value;
  const start = value.startsWith("\n") ? 1 : 0;
  const end = value.endsWith("\n") && value.length > start ? value.length - 1 : value.length;
  return value.slice(start, end);
}

/**
 * The JSON object text of arguments written whole in one family's markup (`<parameter=k>v</parameter>` …,
 * `<arg_key>k</arg_key><arg_value>v</arg_value>` …), every value as text; `undefined` when anything else is there,
 * a key repeats, or the last value does not close (a cut value is never made one).
 */
function wholeMarkup(text: string, markup: Markup): string | undefined {
  const keys = new Set<string>();
  const members: string[] = [];
  let i = skipSpace(text, 0);
  while (i < text.length) {
    if (!text.startsWith(markup.keyOpen, i)) return undefined;
    const keyStart = i + markup.keyOpen.length;
    const keyEnd = findNear(text, markup.keyClose, keyStart);
    if (keyEnd <= keyStart) return undefined;
    const key = text.slice(keyStart, keyEnd);
    if (/[\s<>"]/.test(key) || keys.has(key)) return undefined;
    keys.add(key);
    let valueStart = keyEnd + markup.keyClose.length;
    if (markup.valueOpen !== "") {
      valueStart = skipSpace(text, valueStart);
      if (!text.startsWith(markup.valueOpen, valueStart)) return undefined;
      valueStart += markup.valueOpen.length;
    }
    const valueEnd = text.indexOf(markup.valueClose, valueStart);
    if (valueEnd < 0) return undefined;
    members.push(
      `${JSON.stringify(key)}:${JSON.stringify(trimmed(text.slice(valueStart, valueEnd), markup))}`,
    );
    i = skipSpace(text, valueEnd + markup.valueClose.length);
  }
  return members.length > 0 ? `{${members.join(",")}}` : undefined;
}

/**
 * The JSON object text of arguments written whole in GLM's markup (`<arg_key>k</arg_key><arg_value>v</arg_value>` …),
 * every value as text; `undefined` when the text is anything else or a value does not close. Linear.
 *
 * @example
 * glmMarkupArguments("<arg_key>city</arg_key><arg_value>Paris</arg_value>"); // '{"city":"Paris"}'
 */
export function glmMarkupArguments(text: string): string | undefined {
  return typeof text === "string" ? wholeMarkup(text, GLM) : undefined;
}

/**
 * GLM's markup inside a JSON string: `</arg_value>`, whitespace, `<arg_key>K</arg_key>`, whitespace,
 * `<arg_value>` becomes `", "K": "` (the model went on in its own syntax, so one value holds the next key too); a
 * `</arg_value>` right before the string's closing quote goes. Other markup in strings is data and stays.
 */
function glmInStrings(text: string): string | undefined {
  let out: TextBuilder | undefined;
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!inString) {
      if (c === 0x22) inString = true;
      continue;
    }
    if (c === 0x5c) {
      i++;
      continue;
    }
    if (c === 0x22) {
      inString = false;
      continue;
    }
    if (c !== 0x3c || !text.startsWith(GLM.valueClose, i)) continue;
    const after = skipSpace(text, i + GLM.valueClose.length);
    if (text.charCodeAt(after) === 0x22) {
      out ??= new TextBuilder();
      out.pushRange(text, last, i);
      last = after;
      i = after - 1;
      continue;
    }
    if (!text.startsWith(GLM.keyOpen, after)) continue;
    const keyStart = after + GLM.keyOpen.length;
    const keyEnd = findNear(text, GLM.keyClose, keyStart);
    if (keyEnd <= keyStart) continue;
    const key = text.slice(keyStart, keyEnd);
    if (/[\s<>"\\]/.test(key)) continue;
    const valueStart = skipSpace(text, keyEnd + GLM.keyClose.length);
    if (!text.startsWith(GLM.valueOpen, valueStart)) continue;
    out ??= new TextBuilder();
    out.pushRange(text, last, i);
    out.pushString(`", ${JSON.stringify(key)}: "`);
    last = valueStart + GLM.valueOpen.length;
    i = last - 1;
  }
  if (out === undefined) return undefined;
  out.pushRange(text, last, text.length);
  return out.toString();
}

/**
 * R6 `family-markup`: a known model family's argument markup where JSON was expected, turned into keys. Arguments
 * written whole in Qwen3-Coder's `<parameter=k>v</parameter>` or GLM's `<arg_key>k</arg_key><arg_value>v</arg_value>`
 * become an object of text values (typed by the tool's schema afterwards, when one is given); GLM's markup inside a
 * JSON string (`…</arg_value>\n<arg_key>description</arg_key>\n<arg_value>…`) splits that value into the two keys
 * it holds. Every value must close: markup cut inside a value is never completed.
 *
 * @example
 * decodeArguments("<parameter=pattern>\n**\n</parameter>", { repairs: [familyMarkup] }).arguments; // { pattern: "**" }
 */
export const familyMarkup: RepairRule = {
  specificationVersion: "1",
  id: "family-markup",
  description:
    "a model family's argument markup (Qwen3-Coder <parameter=…>, GLM <arg_key>) where JSON was expected",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    const start = skipSpace(text, 0);
    const whole = text.startsWith("<", start)
      ? (wholeMarkup(text, QWEN) ?? wholeMarkup(text, GLM))
      : glmInStrings(text);
    // Each pass reads every character a bounded number of times (tokens tried at most at each `<`), and builds.
    meter?.charge(32 * text.length + (whole?.length ?? 0));
    return whole;
  },
};
