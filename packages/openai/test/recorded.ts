import { fixture } from "./server.js";

/** The lines of a recorded file (one JSON chunk or event each). */
export function recordedLines(name: string): string[] {
  return fixture(`recorded/${name}`)
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** A recorded Chat Completions stream as its server sent it: each chunk a `data:` event, then `data: [DONE]`. */
export function chatSse(lines: readonly string[]): Buffer {
  return Buffer.from(`${lines.map((line) => `data: ${line}\n\n`).join("")}data: [DONE]\n\n`);
}

/** A recorded Responses API stream as its server sent it: each event with its `event:` line. */
export function responsesSse(lines: readonly string[]): Buffer {
  return Buffer.from(
    lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join(""),
  );
}

/** The recorded Responses conversation split into its streams (each from `response.created` on). */
export function responsesTurns(): string[][] {
  const turns: string[][] = [];
  for (const line of recordedLines("openai-responses-reasoning-tool-call.chunks.txt")) {
    if ((JSON.parse(line) as { type: string }).type === "response.created") turns.push([]);
    turns[turns.length - 1]?.push(line);
  }
  return turns;
}

/** The xAI recording with its one call's arguments replaced by `text` (everything else as recorded). */
export function xaiWithArguments(text: string): string[] {
  return recordedLines("xai-grok-3-mini-tool-call.chunks.txt").map((line) => {
    const chunk = JSON.parse(line) as {
      choices: Array<{ delta?: { tool_calls?: Array<{ function: { arguments: string } }> } }>;
    };
    const call = chunk.choices[0]?.delta?.tool_calls?.[0];
    if (call === undefined) return line;
    call.function.arguments = text;
    return JSON.stringify(chunk);
  });
}

/** A recorded Responses stream with the arguments of every function call replaced by `text`, in one delta. */
export function responsesWithArguments(lines: readonly string[], text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const event = JSON.parse(line) as Record<string, unknown> & { type: string };
    if (event.type === "response.function_call_arguments.delta") {
      const item = event.item_id as string;
      if (seen.has(item)) continue;
      seen.add(item);
      out.push(JSON.stringify({ ...event, delta: text }));
      continue;
    }
    if (event.type === "response.function_call_arguments.done") {
      out.push(JSON.stringify({ ...event, arguments: text }));
      continue;
    }
    const item = event.item as { type?: string } | undefined;
    if (event.type === "response.output_item.done" && item?.type === "function_call") {
      out.push(JSON.stringify({ ...event, item: { ...item, arguments: text } }));
      continue;
    }
    const response = event.response as { output?: Array<{ type?: string }> } | undefined;
    if (event.type === "response.completed" && Array.isArray(response?.output)) {
      const output = response.output.map((o) => (o.type === "function_call" ? { ...o, arguments: text } : o));
      out.push(JSON.stringify({ ...event, response: { ...response, output } }));
      continue;
    }
    out.push(line);
  }
  return out;
}
