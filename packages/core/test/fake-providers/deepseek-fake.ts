import type { Refusal } from "./fake-server.js";

// DeepSeek V4 in thinking mode (https://api-docs.deepseek.com/guides/thinking_mode): an assistant message with tool
// calls must carry its reasoning_content back; its calls must be answered by the tool messages right after it; a
// tool message must answer one of them. Literal bodies from earendil-works/pi#3636 and langgenius/dify#32222.
// Written apart from core on purpose: it judges what core sends.

type Message = {
  role?: unknown;
  tool_calls?: Array<{ id?: unknown }>;
  tool_call_id?: unknown;
  reasoning_content?: unknown;
};

function refuse(message: string): Refusal {
  return {
    status: 400,
    body: { error: { message, type: "invalid_request_error", param: null, code: "invalid_request_error" } },
  };
}

const INSUFFICIENT =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)";

export function checkDeepseek(body: unknown): Refusal | undefined {
  const messages = ((body as { messages?: Message[] })?.messages ?? []) as Message[];
  for (const message of messages) {
    if (
      message.role === "assistant" &&
      (message.tool_calls?.length ?? 0) > 0 &&
      typeof message.reasoning_content !== "string"
    )
      return refuse("The `reasoning_content` in the thinking mode must be passed back to the API.");
  }
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === "tool")
      return refuse("Messages with role 'tool' must be a response to a preceding message with 'tool_calls'");
    if (message.role !== "assistant" || (message.tool_calls?.length ?? 0) === 0) continue;
    const open = new Set((message.tool_calls ?? []).map((call) => call.id));
    while (messages[index + 1]?.role === "tool") {
      index++;
      const id = (messages[index] as Message).tool_call_id;
      if (!open.delete(id))
        return refuse(
          "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        );
    }
    if (open.size > 0) return refuse(INSUFFICIENT);
  }
  return undefined;
}
