import { isPlainObject } from "@toolcall/core/kit";
import { dictOriginOf } from "./message-dict-view.js";

/** A neutral path as a place in the record: `messages[3].data.tool_calls[0]`, `[2].kwargs.invalid_tool_calls[1]`. */
export function placeOfDict(options: {
  messages: readonly unknown[];
  path: readonly (string | number)[];
  key: string | undefined;
  field: string;
}): string {
  const { messages, path } = options;
  const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
  const origin = dictOriginOf(message);
  if (origin === undefined) return options.key ?? "";
  const base = `${options.key ?? ""}[${origin.message}]`;
  if (path[1] === "tool_calls" && typeof path[2] === "number" && isPlainObject(message)) {
    const call = dictOriginOf((message.tool_calls as unknown[] | undefined)?.[path[2]]);
    if (call?.list !== undefined) return `${base}.${options.field}.${call.list}[${call.index}]`;
  }
  return base;
}
