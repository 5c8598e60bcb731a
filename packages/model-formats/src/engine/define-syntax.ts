import {
  createWorkMeter,
  type EncodableToolCall,
  isWorkMeter,
  randomCallId,
  type SyntaxIssue,
  type SyntaxParseOptions,
  type SyntaxParseResult,
  type SyntaxStream,
  type SyntaxStreamEvent,
  type SyntaxToolCall,
  type ToolCallSyntax,
  WORK_UNITS_BASE,
  WORK_UNITS_PER_CHAR,
  type WorkMeter,
} from "@toolcall/core/kit";
import type { FamilyContext } from "./family-context.js";
import { Output } from "./output.js";
import { isWideSpace, needleFrom, type PlainCheck, type PlainWork, plainContent } from "./plain-check.js";
import { BUDGET_EXHAUSTED, NEED, Reader, type Step } from "./reader.js";
import { ToolIndex } from "./tool-index.js";

export type { FamilyContext } from "./family-context.js";

/** A family's parts: the parser as a resumable step over the text, and the encoder. */
export interface FamilyDefinition {
  id: string;
  name: string;
  startMarkers: readonly string[];
  /**
   * Which texts hold nothing but content (one native scan and a look at the first character before the full parser
   * runs: `plainCheck`). It must agree with `run`: a text it passes parses to exactly that content.
   */
  plain: PlainCheck;
  run(reader: Reader, out: Output, context: FamilyContext): Step<void>;
  encode(calls: readonly EncodableToolCall[]): string;
  /** The family's own ids for calls (default: core's `randomCallId`). */
  createId?(index: number, name: string): string;
}

/** The caller's work meter, when the options hold one (options that cannot be read hold none). */
function readMeter(options: SyntaxParseOptions | undefined): WorkMeter | undefined {
  try {
    const meter: unknown = options?.meter;
    return isWorkMeter(meter) ? meter : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The options as plain data, each field read once: options that throw on reading (a getter, a revoked proxy) or are
 * not an object give the fields that could be read, so a parser is total over what it is handed.
 */
function readOptions(options: unknown): SyntaxParseOptions {
  if (typeof options !== "object" || options === null) return {};
  const out: SyntaxParseOptions = {};
  const field = <K extends keyof SyntaxParseOptions>(key: K) => {
    try {
      const value = (options as SyntaxParseOptions)[key];
      if (value !== undefined) out[key] = value;
    } catch {
      // A field that cannot be read is absent.
    }
  };
  field("tools");
  field("createId");
  field("startInReasoning");
  field("meter");
  field("work");
  if (typeof out.createId !== "function") delete out.createId;
  const work = out.work as unknown;
  if (
    typeof work !== "object" ||
    work === null ||
    typeof (work as { scanned?: unknown }).scanned !== "number"
  )
    delete out.work;
  return out;
}

function contextFor(family: FamilyDefinition, options: SyntaxParseOptions): FamilyContext {
  const tools = new ToolIndex(options.tools);
  const own = options.createId;
  return {
    tools,
    createId: (index, name) =>
      own ? own({ index, name }) : family.createId ? family.createId(index, name) : randomCallId(),
    startInReasoning: options.startInReasoning === true,
    checkName(name, out) {
      if (tools.offered && !tools.has(name))
        out.issue({
          code: "unknown_tool",
          severity: "warning",
          message: `no tool named ${JSON.stringify(name)} was offered`,
          tool: name,
        });
    },
  };
}

class FamilyStream implements SyntaxStream {
  readonly #reader: Reader;
  readonly #out = new Output();
  readonly #steps: Step<void>;
  #done = false;
  #ended = false;

  readonly #meter: WorkMeter;
  readonly #ownMeter: boolean;

  constructor(family: FamilyDefinition, options: SyntaxParseOptions) {
    const meter = readMeter(options);
    this.#ownMeter = meter === undefined;
    this.#meter = meter ?? createWorkMeter({ limit: WORK_UNITS_BASE });
    this.#reader = new Reader(options.work, this.#meter);
    const reader = this.#reader;
    this.#out.onCommit = () => reader.journalCommit();
    this.#steps = family.run(this.#reader, this.#out, contextFor(family, options));
  }

  push(delta: string): SyntaxStreamEvent[] {
    if (this.#ended || typeof delta !== "string" || delta === "") return [];
    if (this.#ownMeter) this.#meter.grant(WORK_UNITS_PER_CHAR * delta.length);
    this.#reader.feed(delta);
    this.#resume();
    return this.#out.take();
  }

  end(): SyntaxStreamEvent[] {
    if (this.#ended) return [];
    this.#ended = true;
    this.#reader.close();
    this.#resume();
    this.#out.finish();
    return this.#out.take();
  }

  #resume(): void {
    if (this.#done) {
      // The parser gave up (see below): what arrives is content.
      const rest = this.#reader.consume(this.#reader.text.length - this.#reader.pos);
      this.#out.text("content", rest);
      return;
    }
    try {
      const step = this.#steps.next();
      if (step.done) this.#done = true;
      else if (step.value !== NEED) throw new Error("a parser step yielded something other than NEED");
    } catch (error) {
      // Parsers are total; this is the net under them: nothing the model wrote is lost.
      this.#done = true;
      const issue: SyntaxIssue =
        error === BUDGET_EXHAUSTED
          ? {
              code: "budget_exhausted",
              severity: "warning",
              message: "the work budget ran out; the rest of the text is content, unread",
              path: [],
            }
          : {
              code: "parser_error",
              severity: "error",
              message: error instanceof Error ? error.message : String(error),
              path: [],
            };
      const uncommitted = this.#reader.takeUncommitted();
      this.#out.abort(issue, uncommitted + this.#reader.consume(this.#reader.text.length - this.#reader.pos));
    }
  }
}

/** Folds a stream's events into what a whole parse returns. */
export function foldEvents(events: readonly SyntaxStreamEvent[]): SyntaxParseResult {
  const content: string[] = [];
  const reasoning: string[] = [];
  let sawReasoning = false;
  const toolCalls: SyntaxToolCall[] = [];
  const issues: SyntaxIssue[] = [];
  for (const event of events) {
    switch (event.type) {
      case "content":
        content.push(event.text);
        break;
      case "reasoning":
        sawReasoning = true;
        reasoning.push(event.text);
        break;
      case "tool_call_end":
        toolCalls.push(event.toolCall);
        break;
      case "tool_call_abort":
      case "issue":
        issues.push(event.issue);
        break;
      case "tool_call_start":
      case "tool_call_delta":
        break;
      default: {
        const never: never = event;
        return never;
      }
    }
  }
  const text = content.join("");
  return {
    toolCalls,
    content: text.trim() === "" ? null : text,
    reasoning: sawReasoning ? reasoning.join("") : null,
    issues,
  };
}

/** Each engine syntax's plain check, for the tests that count what it does. */
const PLAIN_CHECKS = new WeakMap<ToolCallSyntax, PlainCheck>();

/** The plain check `parse` runs first for an engine syntax (`undefined` for any other syntax). */
export function plainCheckOf(syntax: ToolCallSyntax): PlainCheck | undefined {
  return PLAIN_CHECKS.get(syntax);
}

/**
 * Makes a {@link ToolCallSyntax} from a family's parts: `parse` is the stream fed the whole text at once (so the two
 * cannot disagree), after one native scan that returns plain content as it is.
 */
export function defineSyntax(family: FamilyDefinition): ToolCallSyntax {
  const createStream = (options: SyntaxParseOptions = {}): SyntaxStream =>
    new FamilyStream(family, readOptions(options));
  const plain = family.plain;
  const { probe, needles, firsts, wide, rest } = plain;
  const parseFully = (text: string, options?: SyntaxParseOptions): SyntaxParseResult => {
    const stream = createStream(options);
    return foldEvents([...stream.push(text), ...stream.end()]);
  };
  const parseSlowly = (text: unknown, given?: SyntaxParseOptions): SyntaxParseResult => {
    const input = typeof text === "string" ? text : "";
    const options = given === undefined ? undefined : readOptions(given);
    if (options === undefined || options.startInReasoning !== true) {
      const work: PlainWork = { searches: 0, scanned: 0, compared: 0 };
      const content = plainContent(plain, input, work);
      if (content !== undefined) {
        if (options?.work) options.work.scanned += work.scanned + work.compared;
        readMeter(options)?.charge(work.scanned + work.compared);
        return { toolCalls: [], content, reasoning: null, issues: [] };
      }
    }
    return parseFully(input, options);
  };
  const syntax: ToolCallSyntax = {
    specificationVersion: "1",
    id: family.id,
    name: family.name,
    startMarkers: family.startMarkers,
    parse(text: string, options?: SyntaxParseOptions): SyntaxParseResult {
      // The fast path (no options: what a server calls on every answer): one native scan for the family's probe
      // (a hit compared with its needles in place, the scan going on after it), a table look-up of the first
      // character, one result object. The check is data, not a closure, so this one body serves every family
      // without a call through a function that differs per family.
      if (options === undefined && typeof text === "string") {
        const hit = probe === null ? -1 : text.indexOf(probe);
        if (hit === -1 || (needles.length !== 0 && needleFrom(plain, text, hit) === -1)) {
          const c = text.charCodeAt(0);
          // NaN (the empty text) fails both comparisons: `rest` answers for it.
          const content = (c < 128 ? firsts[c] === 0 : c <= 0xffff && !wide && !isWideSpace(c))
            ? text
            : rest(text);
          if (content !== undefined) return { toolCalls: [], content, reasoning: null, issues: [] };
        }
        return parseFully(text);
      }
      return parseSlowly(text, options);
    },
    createStream,
    encode: family.encode,
  };
  PLAIN_CHECKS.set(syntax, plain);
  return syntax;
}
