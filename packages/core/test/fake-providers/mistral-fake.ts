import type { Refusal } from "./fake-server.js";

// Mistral's API as its strict models validate a history (mistral_common's validator: tool call ids of nine letters
// and digits, user/assistant/tool order, as many results as calls), answering with its literal error bodies
// (anomalyco/opencode#1680, zed-industries/zed#37021, mistralai/client-ts#106, Gage-Technologies/mistral-go#8).
// Written apart from core on purpose: it judges what core sends.

type Message = { role?: unknown; tool_calls?: Array<{ id?: unknown }>; tool_call_id?: unknown };

const ID = /^[a-zA-Z0-9]{9}$/;

function refuse(message: string, type: string, code: string | null): Refusal {
  return { status: 400, body: { object: "error", message, type, param: null, code } };
}

const idError = (id: unknown) =>
  refuse(
    `Tool call id was ${String(id)} but must be a-z, A-Z, 0-9, with a length of 9.`,
    "invalid_function_call",
    "3280",
  );
const orderError = (message: string) => refuse(message, "invalid_request_message_order", "3230");

export function checkMistral(body: unknown): Refusal | undefined {
  const messages = ((body as { messages?: Message[] })?.messages ?? []) as Message[];
  // Ids first: the validator checks every message's fields before the list's structure.
  for (const message of messages) {
    for (const call of message.role === "assistant" ? (message.tool_calls ?? []) : [])
      if (typeof call.id !== "string" || !ID.test(call.id)) return idError(call.id);
    if (message.role === "tool") {
      if (typeof message.tool_call_id !== "string")
        return refuse("Tool call id has to be defined.", "invalid_request_error", null);
      if (!ID.test(message.tool_call_id)) return idError(message.tool_call_id);
    }
  }
  let previous: unknown;
  let pending: string[] = [];
  let expected = 0;
  for (const message of messages) {
    const role = message.role;
    if (role === "user" && previous === "tool") return orderError("Unexpected role 'user' after role 'tool'");
    if (role === "tool") {
      if (previous !== "assistant" && previous !== "tool")
        return orderError(`Unexpected role 'tool' after role '${String(previous)}'`);
      const at = pending.indexOf(message.tool_call_id as string);
      if (at === -1)
        return orderError(`Unexpected tool call id ${String(message.tool_call_id)} in tool results`);
      pending.splice(at, 1);
      expected--;
    }
    if (role === "assistant") {
      if (expected !== 0) return orderError("Not the same number of function calls and responses");
      pending = (message.tool_calls ?? []).map((call) => call.id as string);
      expected = pending.length;
    }
    previous = role;
  }
  if (expected !== 0) return orderError("Not the same number of function calls and responses");
  return undefined;
}
