import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatIssue,
  type FormatReading,
  isPlainObject,
  originOf,
  withOrigin,
} from "@toolcall/core/kit";
import { type CallText, readCallText, writeCallText } from "./call-text.js";
import { toolsOf } from "./dataset-tools.js";
import { readPythonicTurn } from "./pythonic-turn.js";
import { functionCallTexts, isTurn, ROLES, sharedResults, type Turn } from "./sharegpt-turns.js";
import { findTagged, replaceTagged, type TaggedSegment, textOutside } from "./tagged-calls.js";

/** What a neutral message or call was read from. */
type Origin =
  | { kind: "turn"; turn: number }
  | { kind: "calls"; turn: number; segments?: TaggedSegment[]; calls: CallText[]; list: boolean }
  | { kind: "call"; turn: number; index: number }
  | { kind: "result"; turn: number; segment?: number; share?: number; of?: number };

function turnsOf(value: unknown): { turns: unknown[]; key?: "conversations" } | undefined {
  if (Array.isArray(value)) return value.length > 0 && value.every(isTurn) ? { turns: value } : undefined;
  if (isPlainObject(value) && Array.isArray(value.conversations) && value.conversations.some(isTurn)) {
    return { turns: value.conversations, key: "conversations" };
  }
  return undefined;
}

/**
 * ShareGPT conversations with tool calls: `{conversations: [{from, value}], tools?, system?}` (or a bare list of
 * turns), as glaive, LLaMA-Factory (`function_call` and `observation` turns, `tools` as a JSON string) and Hermes
 * (`<tool_call>` JSON in a `gpt` turn, `<tool_response>` in a `tool` turn) write them. Calls carry no ids: each result
 * answers the next unanswered call of the turn before it, in order (`call@3`, `call@3.1` name them in reports);
 * a result with no call left is an orphan. Writing back rewrites only the turns the rules changed (a call's JSON in
 * place, a result dropped, a result added after its call's turn), every other turn being the same object.
 *
 * @example
 * const reading = sharegptFormat.read({ conversations: [{ from: "human", value: "hi" }], tools: "[]" });
 * reading.conversations[0].messages; // [{ role: "user", content: "hi" }]
 */
export const sharegptFormat: ConversationFormat = {
  id: "sharegpt",
  name: "ShareGPT (glaive, Hermes, LLaMA-Factory)",
  expected:
    '{"conversations": [{"from": "human" | "gpt" | "function_call" | "observation" | "tool", "value": …}]}',
  unit: "record",
  priority: 15,
  matches: (value) => turnsOf(value) !== undefined,
  read(value): FormatReading {
    const found: { turns: unknown[]; key?: "conversations" } =
      turnsOf(value) ??
      (isPlainObject(value) && Array.isArray(value.conversations)
        ? { turns: value.conversations, key: "conversations" }
        : { turns: Array.isArray(value) ? value : [] });
    const { turns } = found;
    const record = isPlainObject(value) ? value : undefined;
    const messages: ChatMessage[] = [];
    const issues: FormatIssue[] = [];
    let pending: string[] = [];
    let toolFrom: unknown;
    let unreadTurn = -1;
    if (record !== undefined && typeof record.system === "string") {
      messages.push(
        withOrigin({ role: "system", content: record.system }, { kind: "turn", turn: -1 } satisfies Origin),
      );
    }
    const place = (turn: number) => (found.key ? `conversations[${turn}]` : `[${turn}]`);
    turns.forEach((raw, turn) => {
      if (!isTurn(raw)) {
        messages.push(withOrigin({ content: raw }, { kind: "turn", turn } satisfies Origin));
        return;
      }
      const from = raw.from;
      const role = typeof from === "string" ? (ROLES[from] ?? from) : from;
      const text = typeof raw.value === "string" ? raw.value : undefined;
      if (role !== "tool") pending = [];
      const makeCalls = (calls: CallText[]): ToolCall[] =>
        calls.map((call, index) => {
          if (call.syntax === "unreadable") {
            issues.push({
              code: "call_unreadable",
              severity: "error",
              message: "the call is neither JSON nor a Python literal",
              path: found.key ? ["conversations", turn] : [turn],
              place: place(turn),
            });
          } else if (call.syntax === "python") {
            issues.push({
              code: "call_python_literal",
              severity: "warning",
              message:
                "the call is a Python literal, not JSON (a server that reads calls with json.loads refuses what a model trained on it writes)",
              path: found.key ? ["conversations", turn] : [turn],
              place: place(turn),
            });
          }
          const id = index === 0 ? `call@${turn}` : `call@${turn}.${index}`;
          pending.push(id);
          return withOrigin(
            { id, type: "function", function: { name: call.name, arguments: call.arguments } },
            { kind: "call", turn, index } satisfies Origin,
          );
        });
      if (turn === unreadTurn) return;
      if (from === "function_call" && text !== undefined) {
        const { calls, list } = functionCallTexts(text);
        if (list && calls.length === 0) {
          // No call: the turn and the observation answering it are carried through as they are, unread.
          issues.push({
            code: "call_list_empty",
            severity: "warning",
            message:
              "the function_call turn holds an empty list (no call); it and its observation are kept unread",
            path: found.key ? ["conversations", turn] : [turn],
            place: place(turn),
          });
          const next = turns[turn + 1];
          if (isTurn(next) && typeof next.from === "string" && ROLES[next.from] === "tool")
            unreadTurn = turn + 1;
          return;
        }
        messages.push(
          withOrigin({ role: "assistant", content: null, tool_calls: makeCalls(calls) }, {
            kind: "calls",
            turn,
            calls,
            list,
          } satisfies Origin),
        );
        return;
      }
      if (role === "assistant" && text !== undefined && text.includes("<tool_call>")) {
        const segments = findTagged(text, "tool_call");
        const calls = segments.map((segment) => readCallText(segment.body));
        messages.push(
          withOrigin(
            { role: "assistant", content: textOutside(text, segments), tool_calls: makeCalls(calls) },
            { kind: "calls", turn, segments, calls, list: true } satisfies Origin,
          ),
        );
        return;
      }
      // ToolACE writes an assistant's calls as a Python call list, answered by the `tool` turn after it.
      const after = turns[turn + 1];
      const answered = isTurn(after) && typeof after.from === "string" && ROLES[after.from] === "tool";
      const pythonic =
        role === "assistant" && answered && text !== undefined ? readPythonicTurn(text) : undefined;
      if (pythonic !== undefined) {
        messages.push(
          withOrigin({ role: "assistant", content: null, tool_calls: makeCalls(pythonic) }, {
            kind: "calls",
            turn,
            calls: pythonic,
            list: true,
          } satisfies Origin),
        );
        return;
      }
      if (role === "tool") {
        toolFrom ??= from;
        const shared = sharedResults(turns, turn, pending.length);
        if (shared !== undefined) {
          // One observation answering every call of the turn before it (LLaMA-Factory, ToolACE, APIGen): by position.
          shared.forEach((content, share) => {
            const id = pending.shift() as string;
            messages.push(
              withOrigin({ role: "tool", tool_call_id: id, content }, {
                kind: "result",
                turn,
                share,
                of: shared.length,
              } satisfies Origin),
            );
          });
          return;
        }
        const segments = text?.includes("<tool_response>") ? findTagged(text, "tool_response") : [];
        const bodies = segments.length > 0 ? segments.map((s) => s.body.trim()) : [raw.value];
        bodies.forEach((body, segment) => {
          const id = pending.shift() ?? `result@${turn}${segments.length > 1 ? `.${segment}` : ""}`;
          messages.push(
            withOrigin({ role: "tool", tool_call_id: id, content: body }, {
              kind: "result",
              turn,
              ...(segments.length > 0 ? { segment } : {}),
            } satisfies Origin),
          );
        });
        return;
      }
      messages.push(withOrigin({ role, content: raw.value }, { kind: "turn", turn } satisfies Origin));
    });
    const tools = record === undefined ? undefined : toolsOf(record.tools);
    const hermes = turns.some(
      (t) => isTurn(t) && typeof t.value === "string" && t.value.includes("<tool_call>"),
    );
    const before = new Map<string, unknown>();
    for (const message of messages) {
      const origin = originOf(message) as Origin;
      if (origin.kind === "result")
        before.set(`r${origin.turn}.${origin.segment ?? origin.share ?? 0}`, message);
      for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) {
        const callOrigin = originOf(call) as Origin & { kind: "call" };
        before.set(`c${callOrigin.turn}.${callOrigin.index}`, call);
      }
    }

    return {
      conversations: [
        {
          messages,
          ...(tools ? { tools } : {}),
          placeOf(path) {
            const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
            const origin = originOf(message) as Origin | undefined;
            if (origin === undefined || origin.turn === -1) return "system";
            const at = place(origin.turn);
            if (path[1] === "role") return `${at}.from`;
            if (path[1] === "tool_calls" && typeof path[2] === "number") {
              return origin.kind === "calls" && origin.calls.length > 1 ? `${at} (call ${path[2]})` : at;
            }
            return origin.kind === "result" && origin.segment !== undefined
              ? `${at} (result ${origin.segment})`
              : at;
          },
        },
      ],
      issues,
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const newTurns = new Map<number, unknown>();
        const dropped = new Set<number>();
        const added = new Map<number, unknown[]>();
        const seenResults = new Map<number, Map<number, unknown>>();
        const seenCalls = new Map<number, Map<number, ToolCall>>();
        let anchor = -1;
        for (const message of next) {
          if (!isPlainObject(message)) continue;
          const origin = originOf(message) as Origin | undefined;
          if (origin === undefined) {
            if (message.role !== "tool")
              return { ok: false, reason: `a new ${String(message.role)} turn has no ShareGPT form` };
            const content = String(message.content);
            const from = toolFrom ?? (hermes ? "tool" : "observation");
            const turn = { from, value: hermes ? `<tool_response>\n${content}\n</tool_response>` : content };
            added.set(anchor, [...(added.get(anchor) ?? []), turn]);
            continue;
          }
          anchor = Math.max(anchor, origin.turn);
          if (origin.kind === "result") {
            const results = seenResults.get(origin.turn) ?? new Map<number, unknown>();
            results.set(origin.segment ?? origin.share ?? 0, message);
            seenResults.set(origin.turn, results);
          }
          for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) {
            const callOrigin = originOf(call) as (Origin & { kind: "call" }) | undefined;
            if (callOrigin === undefined) return { ok: false, reason: "a new call has no ShareGPT form" };
            const calls = seenCalls.get(callOrigin.turn) ?? new Map<number, ToolCall>();
            calls.set(callOrigin.index, call);
            seenCalls.set(callOrigin.turn, calls);
          }
        }
        for (const message of messages) {
          const origin = originOf(message) as Origin;
          if (origin.kind === "calls") {
            const turn = turns[origin.turn] as Turn;
            const kept = seenCalls.get(origin.turn) ?? new Map<number, ToolCall>();
            const texts: Array<string | undefined | null> = [];
            let changed = false;
            for (const [index, read] of origin.calls.entries()) {
              const call = kept.get(index);
              const old = before.get(`c${origin.turn}.${index}`) as ToolCall;
              if (call === undefined) {
                texts.push(undefined);
                changed = true;
                continue;
              }
              const fn = isPlainObject(call.function) ? call.function : {};
              const oldFn = isPlainObject(old.function) ? old.function : {};
              if (fn.arguments === oldFn.arguments && fn.name === oldFn.name) {
                texts.push(null);
                continue;
              }
              const text = writeCallText(read, fn.name, fn.arguments);
              if (text === undefined)
                return {
                  ok: false,
                  reason: `${place(origin.turn)}: a call written as a Python literal is not rewritten`,
                };
              texts.push(origin.segments ? `<tool_call>\n${text}\n</tool_call>` : text);
              changed = true;
            }
            if (!changed) continue;
            if (origin.calls.some((call) => call.syntax === "pythonic"))
              return {
                ok: false,
                reason: `${place(origin.turn)}: calls written as Python code are not rewritten`,
              };
            const value = String(turn.value);
            if (origin.segments) {
              const rewritten = replaceTagged(value, origin.segments, texts);
              if (rewritten.trim() === "") dropped.add(origin.turn);
              else newTurns.set(origin.turn, { ...turn, value: rewritten });
            } else if (texts.every((t) => t === undefined)) {
              dropped.add(origin.turn);
            } else if (!origin.list) {
              newTurns.set(origin.turn, { ...turn, value: texts[0] });
            } else {
              const items = texts.flatMap((text, index) =>
                text === undefined
                  ? []
                  : [text === null ? JSON.stringify(origin.calls[index]?.object) : text],
              );
              newTurns.set(origin.turn, { ...turn, value: `[${items.join(", ")}]` });
            }
          } else if (origin.kind === "result" && (origin.segment ?? origin.share ?? 0) === 0) {
            const turn = turns[origin.turn] as Turn;
            const kept = seenResults.get(origin.turn);
            if (kept === undefined) {
              dropped.add(origin.turn);
              continue;
            }
            if (origin.of !== undefined) {
              // Results sharing one observation are written back as that one turn: all kept as they were, or none.
              for (let share = 0; share < origin.of; share++) {
                const now = kept.get(share) as Record<string, unknown> | undefined;
                const old = before.get(`r${origin.turn}.${share}`) as Record<string, unknown> | undefined;
                if (now === undefined || now.content !== old?.content)
                  return {
                    ok: false,
                    reason: `${place(origin.turn)}: one result of the ${origin.of} this observation holds cannot change alone`,
                  };
              }
              continue;
            }
            const segments = typeof turn.value === "string" ? findTagged(turn.value, "tool_response") : [];
            const count = Math.max(segments.length, 1);
            let changed = false;
            const bodies: Array<string | undefined | null> = [];
            for (let segment = 0; segment < count; segment++) {
              const now = kept.get(segment) as Record<string, unknown> | undefined;
              const old = before.get(`r${origin.turn}.${segment}`) as Record<string, unknown> | undefined;
              if (now === undefined) {
                bodies.push(undefined);
                changed = true;
              } else if (now.content !== old?.content) {
                bodies.push(String(now.content));
                changed = true;
              } else bodies.push(null);
            }
            if (!changed) continue;
            if (segments.length === 0) newTurns.set(origin.turn, { ...turn, value: bodies[0] });
            else {
              const replaced = bodies.map((body) =>
                typeof body === "string" ? `<tool_response>\n${body}\n</tool_response>` : body,
              );
              newTurns.set(origin.turn, {
                ...turn,
                value: replaceTagged(String(turn.value), segments, replaced),
              });
            }
          } else if (
            origin.kind === "turn" &&
            origin.turn >= 0 &&
            !next.some((m) => originOf(m) === origin)
          ) {
            dropped.add(origin.turn);
          }
        }
        if (newTurns.size === 0 && dropped.size === 0 && added.size === 0) return { ok: true, value };
        const out: unknown[] = [...(added.get(-1) ?? [])];
        turns.forEach((turn, index) => {
          if (!dropped.has(index)) out.push(newTurns.get(index) ?? turn);
          out.push(...(added.get(index) ?? []));
        });
        if (!found.key) return { ok: true, value: out };
        return { ok: true, value: { ...(record as object), conversations: out } };
      },
    };
  },
};
