import type { ServerResponse } from "node:http";
import type { Recorded } from "./server.js";

// A strict provider, as DashScope, MiniMax or vLLM behave: every stored call's arguments must be a JSON object,
// every call must be answered by exactly one tool result before the next assistant turn, and every result must
// answer a call. Written apart from the package on purpose: it judges the package's output.

const ARGUMENTS_ERROR =
  'InternalError.Algo.InvalidParameter: The "function.arguments" parameter of the code model must be in JSON format.';

function isObjectText(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const parsed = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

type Message = {
  role?: string;
  tool_calls?: Array<{ id?: string; type?: string; function?: { arguments?: unknown } }>;
  tool_call_id?: string;
};

function checkChat(messages: Message[]): string | undefined {
  let open: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      if (open.length > 0) return `tool_call_ids did not have response messages: ${open.join(", ")}`;
      open = [];
      for (const call of message.tool_calls ?? []) {
        if (call.type === "function" && !isObjectText(call.function?.arguments)) return ARGUMENTS_ERROR;
        if (typeof call.id !== "string") return "tool call without id";
        open.push(call.id);
      }
    } else if (message.role === "tool") {
      const at = open.indexOf(message.tool_call_id ?? "");
      if (at === -1)
        return `messages with role 'tool' must be a response to a preceding message with 'tool_calls': ${message.tool_call_id}`;
      open.splice(at, 1);
    }
  }
  return open.length > 0 ? `tool_call_ids did not have response messages: ${open.join(", ")}` : undefined;
}

type Item = { type?: string; call_id?: string; arguments?: unknown };

function checkResponses(input: unknown): string | undefined {
  if (!Array.isArray(input)) return undefined;
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const item of input as Item[]) {
    if (item.type === "function_call") {
      if (!isObjectText(item.arguments)) return ARGUMENTS_ERROR;
      open.add(item.call_id ?? "");
    } else if (item.type === "function_call_output") {
      if (!open.has(item.call_id ?? "") || answered.has(item.call_id ?? ""))
        return `No tool call found for function call output with call_id ${item.call_id}.`;
      answered.add(item.call_id ?? "");
    }
  }
  const missing = [...open].filter((id) => !answered.has(id));
  return missing.length > 0 ? `No tool output found for function call ${missing.join(", ")}.` : undefined;
}

/** What a strict provider refuses in a request's history, in its own words; `undefined` when it accepts it. */
export function strictError(request: Recorded): string | undefined {
  const body = request.body as { messages?: Message[]; input?: unknown };
  return request.url.endsWith("/chat/completions")
    ? checkChat(body.messages ?? [])
    : checkResponses(body.input);
}

/** Answers HTTP 400 with the error body strict OpenAI-compatible providers send. */
export function refuse(response: ServerResponse, message: string): void {
  response.writeHead(400, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      error: { message, type: "invalid_request_error", param: null, code: "invalid_parameter" },
    }),
  );
}

export function strictProvider(request: Recorded, response: ServerResponse): void {
  const body = request.body as { model?: string };
  const error = strictError(request);
  if (error !== undefined) {
    refuse(response, error);
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  if (request.url.endsWith("/chat/completions")) {
    response.end(
      JSON.stringify({
        id: "chatcmpl-strict",
        object: "chat.completion",
        created: 1775000000,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "Accepted.", refusal: null },
            finish_reason: "stop",
            logprobs: null,
          },
        ],
      }),
    );
  } else {
    response.end(
      JSON.stringify({
        id: "resp_strict",
        object: "response",
        created_at: 1775000000,
        status: "completed",
        model: body.model,
        output: [
          {
            type: "message",
            id: "msg_1",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: "Accepted.", annotations: [] }],
          },
        ],
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
      }),
    );
  }
}
