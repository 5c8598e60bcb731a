import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

// The R6 vectors of arguments that are valid JSON but wrong for the tool's schema, each from the report that showed
// it (packages/conformance/vectors/r6/schema-types.json names the sources).
interface Vector {
  id: string;
  input: string;
  options?: { schema?: unknown };
  expected: { status: string; arguments: unknown; repairs?: string[] };
}
const suite = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "../../../packages/conformance/vectors/r6/schema-types.json"),
    "utf8",
  ),
) as Array<{ options: { schema: unknown }; tests: Vector[] }>;
const group = suite[0] as { options: { schema: unknown }; tests: Vector[] };
const typed = group.tests.filter((test) => test.expected.repairs?.includes("schema-types"));
/** The tools a request advertises for a vector: its own schema where it names one, else its group's. */
const toolsFor = (id: string) => [
  {
    type: "function" as const,
    function: {
      name: "update_task",
      parameters: (typed.find((test) => test.id === id)?.options?.schema ?? group.options.schema) as Record<
        string,
        unknown
      >,
    },
  },
];

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

let upstream: FakeUpstream;
let proxy: RunningProxy;
let untyped: RunningProxy;

beforeAll(async () => {
  // The request's `model` is the vector's id; the upstream answers with its arguments, whole or streamed in pieces.
  upstream = await startUpstream((request, response) => {
    const body = request.json as { model: string; stream?: boolean };
    const vector = typed.find((test) => test.id === body.model) as Vector;
    const call = {
      id: "call_1",
      type: "function",
      function: { name: "update_task", arguments: vector.input },
    };
    if (body.stream !== true) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: null, tool_calls: [call] },
              finish_reason: "tool_calls",
            },
          ],
        }),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(chunk({ role: "assistant", content: "" }));
    response.write(
      chunk({ tool_calls: [{ index: 0, ...call, function: { name: "update_task", arguments: "" } }] }),
    );
    for (let at = 0; at < vector.input.length; at += 5)
      response.write(
        chunk({ tool_calls: [{ index: 0, function: { arguments: vector.input.slice(at, at + 5) } }] }),
      );
    response.end(`${chunk({}, "tool_calls")}data: [DONE]\n\n`);
  });
  proxy = await startProxy({ upstream: upstream.url });
  untyped = await startProxy({ upstream: upstream.url, repairs: [] });
});

afterAll(async () => {
  await proxy.close();
  await untyped.close();
  await upstream.close();
});

const client = (running: RunningProxy) =>
  new OpenAI({ baseURL: running.baseURL, apiKey: "test-key", maxRetries: 0 });

async function wholeArguments(
  running: RunningProxy,
  id: string,
): Promise<{ text: string; header: string | null }> {
  const { data, response } = await client(running)
    .chat.completions.create({ model: id, messages: [{ role: "user", content: "go" }], tools: toolsFor(id) })
    .withResponse();
  const call = data.choices[0]?.message.tool_calls?.[0];
  return {
    text: call?.type === "function" ? call.function.arguments : "",
    header: response.headers.get("x-toolcall-repairs"),
  };
}

async function streamedArguments(running: RunningProxy, id: string): Promise<string> {
  const stream = await client(running).chat.completions.create({
    model: id,
    messages: [{ role: "user", content: "go" }],
    tools: toolsFor(id),
    stream: true,
  });
  let text = "";
  for await (const part of stream) text += part.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
  return text;
}

describe("the request's tools type the answer's arguments (schema-types)", () => {
  it("has reported shapes to serve", () => {
    expect(typed.length).toBeGreaterThanOrEqual(4);
  });

  it("whole answers: each reported shape reaches the client typed, and the header says schema-types", async () => {
    for (const vector of typed) {
      const { text, header } = await wholeArguments(proxy, vector.id);
      expect(JSON.parse(text), vector.id).toEqual(vector.expected.arguments);
      expect(header, vector.id).toContain("schema-types");
    }
  });

  it("with repairs off (--repair none) the arguments go through as the model wrote them, whole and streamed", async () => {
    for (const vector of typed) {
      expect((await wholeArguments(untyped, vector.id)).text, vector.id).toBe(vector.input);
      expect(await streamedArguments(untyped, vector.id), vector.id).toBe(vector.input);
    }
  });
});
