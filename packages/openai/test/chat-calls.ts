import type OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionMessageParam } from "openai/resources/chat/completions";

/** The one tool the recorded upstream answers call, and the one-line request the tests send. */
export const tools = [
  { type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } },
];
export const ask: ChatCompletionMessageParam[] = [{ role: "user", content: "Go." }];

/** Each call's arguments text in a whole Chat Completions response (the recorded fixture is named by `model`). */
export async function completionCalls(client: OpenAI, model: string) {
  const completion = await client.chat.completions.create({ model, messages: ask, tools });
  return (completion.choices[0]?.message.tool_calls ?? []).map((call) =>
    call.type === "function" ? call.function.arguments : call,
  );
}

/** What a consumer builds from a stream: content, and each call's arguments as the concatenation of its deltas. */
export async function consume(stream: AsyncIterable<ChatCompletionChunk>) {
  let content = "";
  const calls = new Map<number, { id?: string; name: string; arguments: string }>();
  let finish: string | null = null;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    content += choice.delta.content ?? "";
    for (const call of choice.delta.tool_calls ?? []) {
      const entry = calls.get(call.index) ?? { name: "", arguments: "" };
      if (call.id) entry.id = call.id;
      entry.name += call.function?.name ?? "";
      entry.arguments += call.function?.arguments ?? "";
      calls.set(call.index, entry);
    }
    finish = choice.finish_reason ?? finish;
  }
  return { content, calls: [...calls.values()], finish };
}

/**
 * What a streamed Responses API answer says of each function call (the recorded fixture is named by `model`, sent
 * in pieces of 9 bytes): its argument deltas (with the item they belong to), the `done` events' texts, and the texts
 * in the final `response.completed`.
 */
export async function responsesStreamCalls(client: OpenAI, model: string) {
  const stream = await client.responses.create({
    model,
    input: "Go.",
    stream: true,
    metadata: { piece: "9" },
  });
  const deltas: Array<[string, string]> = [];
  const done: string[] = [];
  let completed: string[] | undefined;
  for await (const event of stream) {
    if (event.type === "response.function_call_arguments.delta") deltas.push([event.item_id, event.delta]);
    else if (event.type === "response.function_call_arguments.done") done.push(event.arguments);
    else if (event.type === "response.completed")
      completed = event.response.output.map((o) => (o.type === "function_call" ? o.arguments : ""));
  }
  return { deltas, done, completed };
}

/** Each recorded whole Chat Completions response with a malformation, and its calls' arguments once repaired. */
export const repairedCompletions: Array<[string, string[]]> = [
  ["chat-empty-arguments.json", ["{}"]],
  ["chat-null-arguments.json", ["{}"]],
  ["chat-double-encoded.json", ['{"a":3,"b":4}']],
  // No repair fixes `{invalid`: it keeps the model's text, so no client parses it into arguments.
  ["chat-invalid-json.json", ['{"paths":["*.py"]}', "{invalid"]],
  ["chat-parallel.json", ['{"city": "Paris"}', '{"city":"Rome"}', '{"city":"Oslo"}']],
];

/**
 * What `responses-stream.sse` (a clean call, then one fenced in Markdown) reads as once repaired: the clean call's
 * deltas as the server sent them, the fenced one held from its first delta and handed on repaired in one.
 */
export const repairedResponsesStream = {
  deltas: [
    ["fc_1", '{"ci'],
    ["fc_1", 'ty":'],
    ["fc_1", ' "Pa'],
    ["fc_1", 'ris"'],
    ["fc_1", "}"],
    ["fc_2", '{"city":"Rome"}'],
  ],
  done: ['{"city": "Paris"}', '{"city":"Rome"}'],
  completed: ['{"city": "Paris"}', '{"city":"Rome"}'],
};
