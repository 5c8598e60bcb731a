import type {
  BaseMessage,
  InvalidToolCall,
  ToolCall as LangChainToolCall,
  ToolCallChunk,
} from "@langchain/core/messages";
import { parsePartialJson } from "@langchain/core/output_parsers";
import { decodeArguments, type EncodeOptions, encodeArguments, type ToolCall } from "@toolcall/core";
import {
  type AccumulatingToolCall,
  isDecodedToObject,
  isFunctionCall,
  isPlainObject,
  ToolCallAccumulator,
} from "@toolcall/core/kit";
import { argumentsText } from "./arguments-text.js";
import { jsonEqual } from "./json-equal.js";
import { isAIChunk } from "./message-type.js";

/** A call in the OpenAI shape, with the index its stream gave it (its position for a whole message). */
export interface CollectedToolCall {
  call: ToolCall;
  index: number;
}

/** What `collectToolCalls` takes: how to write hand-built `args`, and the raw stream fragments to accumulate. */
export interface CollectOptions {
  /** How to write `args` that have no wire text of their own (hand-built calls). Default: compact JSON. */
  encode?: EncodeOptions;
  /** The raw stream fragments to accumulate instead of the message's own (merged) `tool_call_chunks`. */
  toolCallChunks?: readonly ToolCallChunk[];
}

interface AIFields {
  tool_calls?: LangChainToolCall[];
  invalid_tool_calls?: InvalidToolCall[];
  tool_call_chunks?: ToolCallChunk[];
  additional_kwargs?: Record<string, unknown>;
}

function nonEmptyId(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function strictParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The parse LangChain applies to streamed argument text (trimmed, `""` read as `{}`, partial JSON completed). */
function partialParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parsePartialJson(text.trim() === "" ? "{}" : text.trim()) };
  } catch {
    return { ok: false };
  }
}

function sameName(wireName: unknown, name: unknown): boolean {
  if (typeof name === "string" && name !== "") return wireName === name;
  return typeof wireName !== "string" || wireName === "";
}

/**
 * True when LangChain's parsed `args` were read from this wire text by one of the parses LangChain applies
 * (`JSON.parse` for whole messages, partial JSON for streamed ones) or by core's R1: then the wire text is the
 * truth and its bytes are kept. Args that differ were set by code and are taken as they are.
 */
function argsDerivedFrom(wire: unknown, args: unknown): boolean {
  if (typeof wire === "string") {
    const strict = strictParse(wire);
    if (strict.ok && jsonEqual(strict.value, args)) return true;
    // LangChain reads a whole message's falsy JSON (`0`, `false`, `""`) as `{}` (`args: parsed || {}`).
    if (strict.ok && !strict.value && jsonEqual(args, {})) return true;
    const decoded = decodeArguments(wire);
    if (isDecodedToObject(decoded.status) && jsonEqual(decoded.arguments, args)) return true;
    if (strict.ok) return false;
    const partial = partialParse(wire);
    return partial.ok && jsonEqual(partial.value, args);
  }
  if (jsonEqual(wire, args)) return true;
  const decoded = decodeArguments(wire);
  return isDecodedToObject(decoded.status) && jsonEqual(decoded.arguments, args);
}

/** True when an invalid call's `args` text is this wire value as LangChain keeps it (raw, or trimmed when streamed). */
function invalidArgsDerivedFrom(wire: unknown, args: unknown): boolean {
  if (typeof wire === "string") {
    return args === wire || args === wire.trim() || (args === "{}" && wire.trim() === "");
  }
  return args === argumentsText(wire);
}

function wireFunction(entry: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(entry) || !isFunctionCall(entry as ToolCall)) return undefined;
  return isPlainObject(entry.function) ? entry.function : {};
}

function fromValid(call: LangChainToolCall, encode: EncodeOptions | undefined): ToolCall {
  const id = nonEmptyId(call.id);
  return {
    ...(id === undefined ? {} : { id }),
    type: "function",
    function: { name: call.name, arguments: encodeArguments(call.args, encode) },
  };
}

function fromInvalid(call: InvalidToolCall): ToolCall {
  const id = nonEmptyId(call.id);
  const fn: Record<string, unknown> = {};
  if (typeof call.name === "string") fn.name = call.name;
  if (call.args !== undefined && call.args !== null) fn.arguments = call.args;
  return { ...(id === undefined ? {} : { id }), type: "function", function: fn };
}

/** Accumulates streamed fragments with core's R9 rules (repeated final frames, an id change at one index). */
function fromChunks(chunks: readonly ToolCallChunk[]): CollectedToolCall[] {
  const accumulator = new ToolCallAccumulator();
  const custom = new Set<AccumulatingToolCall>();
  for (const chunk of chunks) {
    if (!isPlainObject(chunk)) continue;
    const [call] = accumulator.push({
      index: typeof chunk.index === "number" ? chunk.index : undefined,
      id: typeof chunk.id === "string" ? chunk.id : undefined,
      function: {
        name: typeof chunk.name === "string" ? chunk.name : undefined,
        arguments: typeof chunk.args === "string" ? chunk.args : undefined,
      },
    });
    if (call !== undefined && (chunk as { isCustomTool?: unknown }).isCustomTool === true) custom.add(call);
  }
  return accumulator.calls.map((accumulated) => {
    const id = accumulated.id === undefined ? {} : { id: accumulated.id };
    if (custom.has(accumulated)) {
      return {
        index: accumulated.index,
        call: { ...id, type: "custom", custom: { name: accumulated.name, input: accumulated.arguments } },
      };
    }
    // R9: an empty buffer is an absent argument, not empty text.
    const fn =
      accumulated.arguments === ""
        ? { name: accumulated.name }
        : { name: accumulated.name, arguments: accumulated.arguments };
    return { index: accumulated.index, call: { ...id, type: "function", function: fn } };
  });
}

/** Orders calls as the wire list does when every call has a place in it; otherwise keeps the given order. */
function orderByWire(
  entries: Array<{ collected: CollectedToolCall; position: number | undefined }>,
): CollectedToolCall[] {
  if (entries.every((entry) => entry.position !== undefined)) {
    return [...entries]
      .sort((a, b) => (a.position as number) - (b.position as number))
      .map((entry) => entry.collected);
  }
  return entries.map((entry) => entry.collected);
}

/**
 * The tool calls of a LangChain AI message in the OpenAI shape core reads, each with its stream index.
 *
 * - Function calls are LangChain's `tool_calls` and `invalid_tool_calls`; a call whose `args` LangChain read from
 *   the provider's text in `additional_kwargs.tool_calls` gets that text back (its bytes, and what a parse hid:
 *   `"42"`, `"null"`, a partial-JSON completion of cut-off text). When both lists are empty, the provider's list
 *   is used as it is: that is what `ChatOpenAI` would send again.
 * - A chunk's `tool_call_chunks` are accumulated with core's stream rules, not LangChain's merge.
 * - Calls of another type (`custom`) live only in `additional_kwargs.tool_calls` and are kept from there.
 *
 * Returns `undefined` when the message carries no tool calls and no provider list at all.
 *
 * @example
 * collectToolCalls(new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "w", args: { a: 1 } }] }));
 * // [{ index: 0, call: { id: "c1", type: "function", function: { name: "w", arguments: '{"a":1}' } } }]
 */
export function collectToolCalls(
  message: BaseMessage,
  options: CollectOptions = {},
): CollectedToolCall[] | undefined {
  const fields = message as BaseMessage & AIFields;
  const wireValue = fields.additional_kwargs?.tool_calls;
  const wire: readonly unknown[] | undefined = Array.isArray(wireValue) ? wireValue : undefined;
  const wirePosition = (id: string | undefined): number | undefined => {
    if (id === undefined || wire === undefined) return undefined;
    const position = wire.findIndex((entry) => isPlainObject(entry) && entry.id === id);
    return position === -1 ? undefined : position;
  };
  const chunks = options.toolCallChunks ?? (isAIChunk(message) ? (fields.tool_call_chunks ?? []) : []);
  const invalid = Array.isArray(fields.invalid_tool_calls) ? fields.invalid_tool_calls : [];

  if (chunks.length > 0) {
    const streamed = fromChunks(chunks);
    const covered = new Set(streamed.map((entry) => nonEmptyId(entry.call.id)));
    // Calls a chunk holds outside its fragments (the invalid calls of a repaired stream).
    const extras = invalid.filter((call) => !covered.has(nonEmptyId(call.id)));
    if (extras.length === 0) return streamed;
    const entries = [
      ...streamed.map((collected) => ({ collected, position: wirePosition(nonEmptyId(collected.call.id)) })),
      ...extras.map((call) => ({
        collected: { call: fromInvalid(call), index: -1 },
        position: wirePosition(nonEmptyId(call.id)),
      })),
    ];
    return orderByWire(entries).map((collected, position) =>
      collected.index === -1 ? { ...collected, index: position } : collected,
    );
  }

  const valid = Array.isArray(fields.tool_calls) ? fields.tool_calls : [];
  if (valid.length === 0 && invalid.length === 0) {
    if (wire === undefined) return undefined;
    return wire.map((call, index) => ({ call: call as ToolCall, index }));
  }

  const used = new Set<number>();
  const match = (id: string | undefined, derived: (fn: Record<string, unknown>) => boolean) => {
    if (wire === undefined) return undefined;
    for (let position = 0; position < wire.length; position++) {
      if (used.has(position)) continue;
      const entry = wire[position];
      const fn = wireFunction(entry);
      if (fn === undefined || nonEmptyId((entry as ToolCall).id) !== id || !derived(fn)) continue;
      used.add(position);
      return position;
    }
    return undefined;
  };
  const entries: Array<{ collected: CollectedToolCall; position: number | undefined }> = [];
  for (const call of valid) {
    const id = nonEmptyId(call.id);
    const position = match(
      id,
      (fn) => sameName(fn.name, call.name) && argsDerivedFrom(fn.arguments, call.args),
    );
    const neutral = position === undefined ? fromValid(call, options.encode) : (wire?.[position] as ToolCall);
    entries.push({ collected: { call: neutral, index: 0 }, position: position ?? wirePosition(id) });
  }
  for (const call of invalid) {
    const id = nonEmptyId(call.id);
    const position = match(
      id,
      (fn) => sameName(fn.name, call.name) && invalidArgsDerivedFrom(fn.arguments, call.args),
    );
    const neutral = position === undefined ? fromInvalid(call) : (wire?.[position] as ToolCall);
    entries.push({ collected: { call: neutral, index: 0 }, position: position ?? wirePosition(id) });
  }
  wire?.forEach((entry, position) => {
    if (!used.has(position) && wireFunction(entry) === undefined && isPlainObject(entry)) {
      entries.push({ collected: { call: entry as ToolCall, index: 0 }, position });
    }
  });
  return orderByWire(entries).map((collected, index) => ({ ...collected, index }));
}
