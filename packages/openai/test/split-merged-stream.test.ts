import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergedCallsAnswer } from "../../core/test/fake-providers/vllm-answers.js";
import { guardFetch, REPAIRS_HEADER, type ToolcallReport } from "../src/index.js";
import { startServer, type TestServer } from "./server.js";

// `splitMergedCalls` through the real openai SDK against a loopback server answering as a gateway that merged
// parallel calls into one call's arguments (LiteLLM sessions in issue 33's reports: `{…}{…}` in one call): a whole
// answer and its stream, cut anywhere, give the client the same calls, with the same fresh ids.

interface Ask {
  calls: string[];
  cuts: number[];
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer((request, response) => {
    const body = request.body as { stream?: boolean; metadata?: { ask?: string } };
    const answer = mergedCallsAnswer({
      ...(JSON.parse(body.metadata?.ask ?? "{}") as Ask),
      stream: body.stream,
    });
    response.writeHead(200, { "content-type": answer.contentType });
    response.end(answer.body);
  });
});
afterAll(() => server.close());

const reports: ToolcallReport[] = [];
const client = new OpenAI({
  apiKey: "none",
  baseURL: "http://127.0.0.1:9/v1",
  maxRetries: 0,
  fetch: guardFetch(
    (input, init) => fetch(String(input).replace("http://127.0.0.1:9/v1", server.baseURL), init),
    { repairs: coreRepairs, splitMergedCalls: true, onReport: (report) => reports.push(report) },
  ),
});
const messages = [{ role: "user" as const, content: "Search." }];

/** Arguments to compare: parsed when JSON, else the text (a merged call that is not split stays as it came). */
function argumentsValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function whole(ask: Ask) {
  const data = await client.chat.completions.create({
    model: "m",
    messages,
    metadata: { ask: JSON.stringify(ask) },
  });
  return (data.choices[0]?.message.tool_calls ?? []).map((call) =>
    call.type === "function"
      ? { id: call.id, name: call.function.name, arguments: argumentsValue(call.function.arguments) }
      : call,
  );
}

async function streamed(ask: Ask) {
  const stream = await client.chat.completions.create({
    model: "m",
    messages,
    stream: true,
    metadata: { ask: JSON.stringify(ask) },
  });
  const calls: { id: string; name: string; arguments: string }[] = [];
  for await (const chunk of stream)
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      calls[delta.index] ??= { id: "", name: "", arguments: "" };
      const call = calls[delta.index] as { id: string; name: string; arguments: string };
      call.id += delta.id ?? "";
      call.name += delta.function?.name ?? "";
      call.arguments += delta.function?.arguments ?? "";
    }
  // The client's order: by index (split calls take indexes after every one in use).
  return calls.map((call) => ({ ...call, arguments: argumentsValue(call.arguments) }));
}

const byId = <T extends { id: string }>(calls: T[]) => [...calls].sort((a, b) => a.id.localeCompare(b.id));

describe("guardFetch({ splitMergedCalls }) with the openai SDK", () => {
  it("splits merged calls in a whole answer and in its stream alike, and reports the split", async () => {
    const ask = { calls: ['{"query":"first"}{"query":"second"}', '{"query":"third"}'], cuts: [4, 20] };
    const expected = [
      { id: "call_0", name: "search", arguments: { query: "first" } },
      { id: "call_0_2", name: "search", arguments: { query: "second" } },
      { id: "call_1", name: "search", arguments: { query: "third" } },
    ];
    reports.length = 0;
    expect(await whole(ask)).toEqual(expected);
    expect(byId(await streamed(ask))).toEqual(expected);
    expect(reports.map((report) => report.calls?.[0])).toEqual([
      expect.objectContaining({
        id: "call_0",
        status: "repaired",
        repairs: ["call_split"],
        split: ["call_0", "call_0_2"],
      }),
      expect.objectContaining({
        id: "call_0",
        status: "repaired",
        repairs: ["call_split"],
        split: ["call_0", "call_0_2"],
      }),
    ]);
  });

  it("whole ≡ stream for any merged calls and any cut of the fragments", async () => {
    const object = fc.dictionary(fc.constantFrom("query", "n", "page"), fc.oneof(fc.integer(), fc.string()), {
      minKeys: 1,
      maxKeys: 2,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(object, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
        fc.array(fc.nat(80), { maxLength: 5 }),
        async (groups, cuts) => {
          const ask = {
            calls: groups.map((objects) => objects.map((o) => JSON.stringify(o)).join("")),
            cuts,
          };
          expect(byId(await streamed(ask))).toEqual(byId(await whole(ask)));
        },
      ),
      // First: a fragment ending between two equal objects of `{A}{A}{B}` (no unique split: one call as it came).
      { numRuns: 40, examples: [[[[{ n: 1 }, { n: 1 }, { page: 2 }]], [7, 14]]] },
    );
  });

  it("says so in the header of a whole answer", async () => {
    const ask = { calls: ['{"query":"a"}{"query":"b"}'], cuts: [] };
    const { response } = await client.chat.completions
      .create({ model: "m", messages, metadata: { ask: JSON.stringify(ask) } })
      .withResponse();
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}").calls).toMatchObject([
      { choice: 0, id: "call_0", repairs: ["call_split"], split: ["call_0", "call_0_2"] },
    ]);
  });
});
