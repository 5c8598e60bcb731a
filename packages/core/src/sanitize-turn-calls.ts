import type { CallIds } from "./call-ids.js";
import { decodeArgumentsUnlessObjectText, OBJECT_TEXT } from "./decode-arguments.js";
import { isPlainObject } from "./define-property.js";
import { encodeArguments } from "./encode-arguments.js";
import { decodeOptionsOf, normalizeDecoded } from "./normalize-arguments.js";
import { walkable } from "./read-history.js";
import { repairToolName } from "./repair-tool-name.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { SanitizeChange, SanitizePolicy } from "./sanitize-options.js";
import { splitMergedArguments } from "./split-merged-arguments.js";
import { TurnCallList } from "./turn-call-list.js";
import { isDecodedToObject, type ToolCall } from "./types.js";
import { isFunctionCall } from "./validate-tool-call.js";

function malformedNote(raw: unknown): string {
  const text = typeof raw === "string" ? raw : encodeArguments(raw);
  return `[the arguments of this tool call were malformed and replaced with {}; original: ${text}]`;
}

/**
 * What became of a turn's calls: those kept, by id and in order (ids are unique by now), the ids of calls dropped
 * (their results go with them), ids renamed for being used before (old id to the new ones, in order), and whether
 * the calls changed at all. The sets and maps only a broken turn needs are made when it first needs them.
 */
export interface TurnCalls {
  kept: TurnCallList;
  droppedIds: Set<string> | undefined;
  renamed: Map<string, string[]> | undefined;
  callsChanged: boolean;
}

/** What sanitizing a turn's calls reads and adds to: the ids used so far in the history, and the changes. */
export interface TurnCallsContext {
  policy: SanitizePolicy;
  normalizeOptions: { repairs: readonly RepairRule[]; policy: "keep" };
  usedIds: CallIds;
  changes: SanitizeChange[];
  /** Whether merged calls are split (default `true`). */
  splitMergedCalls?: boolean;
  /** The advertised tools and their schemas, by name (option `tools`), when given. */
  tools?: { list: readonly unknown[]; schemas: Map<string, unknown> };
  /** What `normalizeOptions` decodes with, made once for the history (every call without a schema shares it). */
  decodeOptions?: ReturnType<typeof decodeOptionsOf>;
}

/**
 * The `tool_calls` of the assistant turn at `turnIndex` (R4): an id given to a call without one and a fresh one to an id
 * used before (ids are unique across the whole history: `usedIds` grows), calls without a name dropped, arguments
 * normalized (R1, R6), and what `policy` says done with arguments that are no object. Each change is added to
 * `changes`.
 */
export function sanitizeTurnCalls(
  toolCalls: readonly unknown[],
  turnIndex: number,
  context: TurnCallsContext,
): TurnCalls {
  const { policy, normalizeOptions, usedIds, changes } = context;
  let callsChanged = false;
  const kept = new TurnCallList();
  let droppedIds: Set<string> | undefined;
  let renamed: Map<string, string[]> | undefined;
  const calls: readonly unknown[] = walkable(toolCalls);
  for (let callIndex = 0; callIndex < calls.length; callIndex++) {
    const rawCall = calls[callIndex];
    if (!isPlainObject(rawCall)) {
      callsChanged = true;
      changes.push({ rule: "call_dropped_no_name", messageIndex: turnIndex, before: rawCall });
      continue;
    }
    let call = rawCall as ToolCall;
    let id = call.id;
    if (typeof id !== "string" || id === "") {
      let assigned = `call_${turnIndex}_${callIndex}`;
      while (usedIds.has(assigned)) assigned = `${assigned}_`;
      changes.push({
        rule: "call_id_assigned",
        messageIndex: turnIndex,
        toolCallId: assigned,
        before: id,
        after: assigned,
      });
      call = { ...call, id: assigned };
      id = assigned;
      usedIds.add(assigned);
      callsChanged = true;
    } else if (!usedIds.claim(id)) {
      const fresh = usedIds.fresh(id);
      changes.push({
        rule: "call_id_renamed",
        messageIndex: turnIndex,
        toolCallId: fresh,
        before: id,
        after: fresh,
      });
      renamed ??= new Map();
      const list = renamed.get(id);
      if (list === undefined) renamed.set(id, [fresh]);
      else list.push(fresh);
      call = { ...call, id: fresh };
      id = fresh;
      callsChanged = true;
    }
    // The id is used from here on (claimed, assigned, or the fresh one made for it).
    const callId = id as string;
    if (!isFunctionCall(call)) {
      kept.add({ call, id: callId });
      continue;
    }
    let fn = isPlainObject(call.function) ? call.function : {};
    if (typeof fn.name !== "string" || fn.name === "") {
      callsChanged = true;
      droppedIds ??= new Set();
      droppedIds.add(callId);
      changes.push({
        rule: "call_dropped_no_name",
        messageIndex: turnIndex,
        toolCallId: callId,
        before: rawCall,
      });
      continue;
    }
    let args = fn.arguments;
    const tools = context.tools;
    const namedTool = tools === undefined ? undefined : repairToolName({ name: fn.name, tools: tools.list });
    if (namedTool !== undefined) {
      // GLM's arguments written in the name are the call's when it has none of its own.
      const empty =
        args === undefined || args === null || (typeof args === "string" && /^\s*(\{\s*\})?\s*$/.test(args));
      const after = {
        ...fn,
        name: namedTool.name,
        ...(namedTool.arguments !== undefined && empty ? { arguments: namedTool.arguments } : {}),
      };
      changes.push({
        rule: "call_name_repaired",
        messageIndex: turnIndex,
        toolCallId: callId,
        before: { name: fn.name, arguments: args },
        after: { name: after.name, arguments: after.arguments },
        repairs: [namedTool.repair],
      });
      call = { ...call, function: after };
      fn = after;
      args = fn.arguments;
      callsChanged = true;
    }
    const schema = tools?.schemas.get(fn.name as string);
    const options = schema === undefined ? normalizeOptions : { ...normalizeOptions, schema };
    const decodeOptions =
      schema === undefined && context.decodeOptions !== undefined
        ? context.decodeOptions
        : decodeOptionsOf(options);
    const decoded = decodeArgumentsUnlessObjectText(args, decodeOptions);
    // Object text is kept as it is (normalizeArguments' first case): the common call costs its one decode.
    if (decoded === OBJECT_TEXT || (decoded.status === "object" && typeof args === "string")) {
      kept.add({ call, id: callId });
      continue;
    }
    const normalized = normalizeDecoded({ value: args, decoded, decodeOptions, options });
    if (!normalized.changed && isDecodedToObject(decoded.status)) {
      kept.add({ call, id: callId });
      continue;
    }
    if (isDecodedToObject(decoded.status)) {
      const text = normalized.text;
      changes.push({
        rule: "arguments_canonicalized",
        messageIndex: turnIndex,
        toolCallId: callId,
        status: decoded.status,
        repairs: decoded.repairs,
        before: args,
        after: text,
      });
      kept.add({ call: { ...call, function: { ...fn, arguments: text } }, id: callId });
      callsChanged = true;
      continue;
    }
    callsChanged = true;
    const parts = context.splitMergedCalls === false ? undefined : splitMergedArguments(args);
    if (parts !== undefined) {
      // One call per object: the first keeps the id (and the results that name it), the others get fresh ids.
      const ids = parts.map((_, index) => (index === 0 ? callId : usedIds.fresh(callId)));
      changes.push({
        rule: "call_split",
        messageIndex: turnIndex,
        toolCallId: callId,
        before: args,
        after: parts.map((part, index) => ({ id: ids[index], arguments: part })),
      });
      parts.forEach((part, index) => {
        const id = ids[index] as string;
        kept.add({ call: { ...call, id, function: { ...fn, arguments: part } }, id });
      });
      continue;
    }
    switch (policy) {
      case "preserve": {
        const text = encodeArguments(decoded.arguments);
        changes.push({
          rule: "arguments_raw_preserved",
          messageIndex: turnIndex,
          toolCallId: callId,
          status: decoded.status,
          before: args,
          after: text,
        });
        kept.add({ call: { ...call, function: { ...fn, arguments: text } }, id: callId });
        continue;
      }
      case "drop":
        droppedIds ??= new Set();
        droppedIds.add(callId);
        changes.push({
          rule: "call_dropped",
          messageIndex: turnIndex,
          toolCallId: callId,
          before: rawCall,
          status: decoded.status,
        });
        continue;
      case "empty":
        changes.push({
          rule: "arguments_emptied",
          messageIndex: turnIndex,
          toolCallId: callId,
          status: decoded.status,
          before: args,
          after: "{}",
        });
        kept.add({
          call: { ...call, function: { ...fn, arguments: "{}" } },
          id: callId,
          note: malformedNote(args),
        });
        continue;
      default: {
        const never: never = policy;
        throw new TypeError(`unknown policy ${String(never)}`);
      }
    }
  }
  return { kept, droppedIds, renamed, callsChanged };
}
