import { type ChatMessage, parseJson, type ToolCall, type ToolDefinition } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  originOf,
  serializeJson,
  withOrigin,
} from "@toolcall/core/kit";

type Item = Record<string, unknown>;

/** Which content and parts a neutral message or call was read from. */
interface Origin {
  content: number;
  parts: number[];
}

function partsOf(content: unknown): unknown[] | undefined {
  return isPlainObject(content) && Array.isArray(content.parts) ? content.parts : undefined;
}

function isContentList(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((content) => partsOf(content) !== undefined && (content as Item).role !== undefined)
  );
}

/** The contents of a value: a request body `{contents}`, or a bare list of contents. */
function contentsOf(value: unknown): { list: unknown[]; key?: "contents" } | undefined {
  if (isPlainObject(value) && Array.isArray(value.contents)) return { list: value.contents, key: "contents" };
  if (isContentList(value)) return { list: value };
  return undefined;
}

/** The tools a request declares, as OpenAI tool definitions (`functionDeclarations`, either schema key). */
function toolsOf(value: unknown): ToolDefinition[] | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.tools)) return undefined;
  const tools: ToolDefinition[] = [];
  for (const tool of value.tools) {
    const declarations =
      isPlainObject(tool) && Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    for (const declaration of declarations) {
      if (!isPlainObject(declaration) || typeof declaration.name !== "string") continue;
      const parameters =
        declaration.parameters_json_schema ?? declaration.parametersJsonSchema ?? declaration.parameters;
      tools.push({
        type: "function",
        function: { name: declaration.name, ...(isPlainObject(parameters) ? { parameters } : {}) },
      } as ToolDefinition);
    }
  }
  return tools.length > 0 ? tools : undefined;
}

function jsonText(value: unknown): unknown {
  const written = serializeJson(value);
  return written.success ? written.value : value;
}

function define(target: Item, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The Gemini API's history (`generateContent` request bodies `{contents, tools?, systemInstruction?, …}`, or a bare
 * list of contents): a `model` content's `functionCall` parts are its calls (`args`, an object, read as its JSON
 * text), a `user` content's `functionResponse` parts are tool results, each answering the call of the same `id` or,
 * without one, the next unanswered call of that name; text parts are content, `thought` parts reasoning, and every
 * other part (a `thoughtSignature` beside a call, inline data) is kept where it is. Writing back changes only the
 * parts the rules changed (a call's `args` as an object again, a part dropped, a `functionResponse` added after its
 * call's content); every other content is the same object.
 *
 * @example
 * const reading = geminiContentsFormat.read({ contents: [{ role: "model", parts: [{ functionCall: { name: "f", args: {} } }] }] });
 * reading.conversations[0].messages[0].tool_calls[0].function.arguments; // "{}"
 */
export const geminiContentsFormat: ConversationFormat = {
  id: "gemini-contents",
  name: "Gemini API contents (functionCall / functionResponse parts)",
  expected:
    '{"contents": [{"role": "user" | "model", "parts": [{"text"} | {"functionCall"} | {"functionResponse"}]}]}',
  unit: "record",
  priority: 30,
  matches: (value) => {
    const found = contentsOf(value);
    return (
      found !== undefined &&
      (found.key === undefined || found.list.every((content) => partsOf(content) !== undefined))
    );
  },
  resembles: (value) => isPlainObject(value) && ("contents" in value || "systemInstruction" in value),
  read(value): FormatReading {
    const found = contentsOf(value) ?? { list: [] };
    const messages: ChatMessage[] = [];
    let pending: Array<{ id: string; name: unknown }> = [];
    found.list.forEach((content, index) => {
      const parts = partsOf(content);
      const role = isPlainObject(content) ? content.role : undefined;
      if (parts === undefined) {
        messages.push(
          withOrigin({ role, content: null } as ChatMessage, { content: index, parts: [] } satisfies Origin),
        );
        return;
      }
      if (role === "model") {
        pending = [];
        const calls: ToolCall[] = [];
        const own: number[] = [];
        const text: string[] = [];
        const thoughts: string[] = [];
        parts.forEach((part, j) => {
          const call =
            isPlainObject(part) && isPlainObject(part.functionCall) ? part.functionCall : undefined;
          if (call === undefined) {
            own.push(j);
            if (isPlainObject(part) && typeof part.text === "string")
              (part.thought === true ? thoughts : text).push(part.text);
            return;
          }
          const id =
            typeof call.id === "string"
              ? call.id
              : `call@${index}${calls.length === 0 ? "" : `.${calls.length}`}`;
          pending.push({ id, name: call.name });
          calls.push(
            withOrigin(
              {
                id,
                type: "function",
                // A string `args` (which Gemini refuses) is taken as the wire text it holds, as data sets store it.
                function: {
                  name: call.name,
                  arguments: typeof call.args === "string" ? call.args : jsonText(call.args),
                },
                // Where core's Gemini profile looks for a call's thought signature.
                ...(typeof (part as Item).thoughtSignature === "string"
                  ? { extra_content: { google: { thought_signature: (part as Item).thoughtSignature } } }
                  : {}),
              } as ToolCall,
              {
                content: index,
                parts: [j],
              } satisfies Origin,
            ),
          );
        });
        const others = own.length - text.length - thoughts.length;
        messages.push(
          withOrigin(
            {
              role: "assistant",
              content:
                text.length > 0
                  ? text.join("")
                  : calls.length > 0
                    ? null
                    : others > 0
                      ? `[${others} parts]`
                      : "",
              ...(calls.length > 0 ? { tool_calls: calls } : {}),
              ...(thoughts.length > 0 ? { reasoning_content: thoughts.join("") } : {}),
            } as ChatMessage,
            { content: index, parts: own } satisfies Origin,
          ),
        );
        return;
      }
      const own: number[] = [];
      const text: string[] = [];
      parts.forEach((part, j) => {
        const response =
          isPlainObject(part) && isPlainObject(part.functionResponse) ? part.functionResponse : undefined;
        if (response === undefined) {
          own.push(j);
          if (isPlainObject(part) && typeof part.text === "string") text.push(part.text);
          return;
        }
        const named = typeof response.id === "string" ? response.id : undefined;
        const at =
          named !== undefined
            ? pending.findIndex((call) => call.id === named)
            : pending.findIndex((call) => call.name === response.name);
        const taken = at >= 0 ? pending.splice(at, 1)[0] : undefined;
        messages.push(
          withOrigin(
            {
              role: "tool",
              tool_call_id: named ?? taken?.id ?? `result@${index}.${j}`,
              content: jsonText(response.response),
            } as ChatMessage,
            { content: index, parts: [j] } satisfies Origin,
          ),
        );
      });
      if (own.length > 0 || parts.length === 0)
        messages.push(
          withOrigin({ role: "user", content: text.join("") } as ChatMessage, {
            content: index,
            parts: own,
          } satisfies Origin),
        );
    });
    const before = new Map<unknown, ChatMessage | ToolCall>();
    for (const message of messages) {
      before.set(originOf(message), message);
      for (const call of (message.tool_calls as ToolCall[] | undefined) ?? [])
        before.set(originOf(call), call);
    }
    const tools = toolsOf(value);
    return {
      conversations: [
        {
          messages,
          ...(tools ? { tools } : {}),
          placeOf(path) {
            const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
            let origin = originOf(message) as Origin | undefined;
            if (path[1] === "tool_calls" && typeof path[2] === "number")
              origin = originOf((message?.tool_calls as unknown[] | undefined)?.[path[2]]) as
                | Origin
                | undefined;
            if (origin === undefined) return found.key ?? "contents";
            const prefix = `${found.key ?? ""}[${origin.content}]`;
            return origin.parts.length === 1 ? `${prefix}.parts[${origin.parts[0]}]` : prefix;
          },
        },
      ],
      issues: [],
      write([next]) {
        if (next === undefined) return { ok: true, value };
        return writeContents({ value, list: found.list, key: found.key, next, before });
      },
    };
  },
};

/** The contents with the parts a sanitized history keeps, changes and adds. */
function writeContents(options: {
  value: unknown;
  list: readonly unknown[];
  key: "contents" | undefined;
  next: readonly unknown[];
  before: ReadonlyMap<unknown, unknown>;
}): { ok: true; value: unknown } | { ok: false; reason: string } {
  const { value, list, key, next, before } = options;
  const kept = new Map<number, Map<number, unknown>>();
  const added = new Map<number, unknown[]>();
  let anchor = -1;
  let lastCalls: Array<{ id: unknown; name: unknown }> = [];
  const keep = (origin: Origin, part: number, to: unknown) => {
    const parts = kept.get(origin.content) ?? new Map<number, unknown>();
    parts.set(part, to);
    kept.set(origin.content, parts);
  };
  const original = (content: number, part: number) => partsOf(list[content])?.[part];
  for (const message of next) {
    if (!isPlainObject(message)) return { ok: false, reason: "a message is not an object" };
    const origin = originOf(message) as Origin | undefined;
    if (origin === undefined) {
      if (message.role !== "tool")
        return { ok: false, reason: `a new ${String(message.role)} message has no Gemini form` };
      const call = lastCalls.find((entry) => entry.id === message.tool_call_id);
      const response: Item = { name: call?.name, response: { result: message.content } };
      if (typeof message.tool_call_id === "string" && !message.tool_call_id.startsWith("call@"))
        define(response, "id", message.tool_call_id);
      added.set(anchor, [...(added.get(anchor) ?? []), { functionResponse: response }]);
      continue;
    }
    anchor = Math.max(anchor, origin.content);
    const old = before.get(origin) as Item | undefined;
    if (message.role === "tool" && old !== undefined && message.content !== old.content)
      return {
        ok: false,
        reason: `contents[${origin.content}].parts[${origin.parts[0]}]: a changed functionResponse is not rewritten`,
      };
    if (!kept.has(origin.content)) kept.set(origin.content, new Map());
    for (const part of origin.parts) keep(origin, part, original(origin.content, part));
    if (message.role === "assistant") lastCalls = [];
    for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) {
      const callOrigin = originOf(call) as Origin | undefined;
      if (callOrigin === undefined) return { ok: false, reason: "a new call has no Gemini form" };
      const part = callOrigin.parts[0] as number;
      const raw = original(callOrigin.content, part) as Item;
      const oldCall = before.get(callOrigin) as ToolCall;
      const fn = (call.function ?? {}) as { name?: unknown; arguments?: unknown };
      const oldFn = (oldCall.function ?? {}) as { name?: unknown; arguments?: unknown };
      lastCalls.push({ id: call.id, name: fn.name });
      if (fn.arguments === oldFn.arguments && fn.name === oldFn.name) {
        keep(callOrigin, part, raw);
        continue;
      }
      const parsed =
        typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
      if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value))
        return { ok: false, reason: "Gemini takes args as an object; these are not one" };
      const functionCall: Item = { ...(raw.functionCall as Item) };
      define(functionCall, "args", parsed.success ? parsed.value : undefined);
      define(functionCall, "name", fn.name);
      const rewritten: Item = { ...raw };
      define(rewritten, "functionCall", functionCall);
      keep(callOrigin, part, rewritten);
    }
  }
  const out: unknown[] = [...(added.get(-1) ?? []).map((part) => ({ role: "user", parts: [part] }))];
  let changed = out.length > 0;
  list.forEach((content, index) => {
    const parts = partsOf(content);
    const keptParts = kept.get(index);
    if (parts === undefined) {
      if (keptParts !== undefined) out.push(content);
      else changed = true;
    } else {
      const next = parts.flatMap((_part, j) => (keptParts?.has(j) ? [keptParts.get(j)] : []));
      const same = next.length === parts.length && next.every((part, j) => part === parts[j]);
      if (same) out.push(content);
      else if (next.length > 0) {
        changed = true;
        const copy: Item = { ...(content as Item) };
        define(copy, "parts", next);
        out.push(copy);
      } else changed = true;
    }
    const extra = added.get(index);
    if (extra === undefined) return;
    changed = true;
    // A result added answers a call of this content: it goes in a user content of its own after it, never into the
    // next content, whose parts stay as they are.
    out.push({ role: "user", parts: extra });
  });
  if (!changed) return { ok: true, value };
  if (key === undefined) return { ok: true, value: out };
  const record: Item = {};
  for (const field of Object.keys(value as Item))
    define(record, field, field === "contents" ? out : (value as Item)[field]);
  return { ok: true, value: record };
}
