import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gemmaContentCalls } from "../src/index.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

// Python servers write numbers JavaScript's JSON.parse cannot keep: integers beyond 2^53 (seeds, ids), floats
// written `1.0` or `1e-05`. A body the proxy rewrites must keep them as written, in the fields it never touches as
// in the arguments it repairs (RULES.md R1, R2).

/** An answer with a call whose arguments need a repair (a trailing comma), and numbers JSON.parse would change. */
const answer = [
  '{"id": "chatcmpl-n", "object": "chat.completion", "created": 1775000000, "model": "m",',
  ' "x_trace": 12345678901234567891, "x_score": 1.0, "x_small": 1e-05,',
  ' "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": {"role": "assistant",',
  ' "content": null, "tool_calls": [{"id": "c1", "type": "function",',
  ' "function": {"name": "f", "arguments": "{\\"n\\": 12345678901234567891, \\"x\\": 1.0,}"}}]}}],',
  ' "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}',
].join("");

let upstream: FakeUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  upstream = await startUpstream((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(answer);
  });
  proxy = await startProxy({ upstream: upstream.url });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const post = (body: string) =>
  fetch(`${proxy.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });

describe("numbers in bodies the proxy rewrites", () => {
  it("keeps every digit of a sanitized request, and counts each change once", async () => {
    const request = [
      '{"model": "m", "seed": 12345678901234567891, "temperature": 1.0, "top_p": 1e-05,',
      ' "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object",',
      ' "properties": {"n": {"type": "integer", "minimum": 1.0}}}}}],',
      ' "messages": [{"role": "user", "content": "Go."},',
      ' {"role": "assistant", "content": null, "tool_calls": [',
      '{"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}},',
      '{"id": "c2", "type": "function", "function": {"name": "f", "arguments": {"n": 12345678901234567891, "x": 1.0}}}]},',
      ' {"role": "tool", "tool_call_id": "c1", "content": "ok"},',
      ' {"role": "tool", "tool_call_id": "c2", "content": "ok"}]}',
    ].join("");
    expect((await post(request)).status).toBe(200);
    const sent = upstream.requests.at(-1)?.body as string;
    expect(sent).toContain('"seed":12345678901234567891');
    expect(sent).toContain('"temperature":1.0');
    expect(sent).toContain('"top_p":1e-05');
    expect(sent).toContain('"minimum":1.0');
    // The empty arguments became "{}", the mapping its JSON text with its numbers as written.
    const calls = (
      JSON.parse(sent) as { messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }> }
    ).messages[1]?.tool_calls;
    expect(calls?.map((call) => call.function.arguments)).toEqual([
      "{}",
      '{"n":12345678901234567891,"x":1.0}',
    ]);
    // Two request changes, and the answer's one repair, each under its own name.
    expect(proxy.logs.at(-1)?.history).toEqual({ arguments_canonicalized: 2 });
    expect(proxy.logs.at(-1)?.repairs).toEqual({ "trailing-commas": 1 });
  });

  it("keeps every digit of a repaired answer, and counts the repair once", async () => {
    const response = await post('{"model": "m", "messages": [{"role": "user", "content": "Go."}]}');
    const text = await response.text();
    // Only the call's arguments changed: the rest is the upstream's own text, layout and numbers as it wrote them.
    expect(text).toContain('"x_trace": 12345678901234567891, "x_score": 1.0, "x_small": 1e-05,');
    expect(text).toContain('"usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}');
    const parsed = JSON.parse(text) as {
      choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }>;
    };
    expect(parsed.choices[0]?.message.tool_calls[0]?.function.arguments).toBe(
      '{"n":12345678901234567891,"x":1.0}',
    );
    expect(proxy.logs.at(-1)?.repairs).toEqual({ "trailing-commas": 1 });
  });

  it("keeps the exact numbers of a changed choice's logprobs, and the id of a call recovered from content", async () => {
    const withCall = [
      '{"id": "chatcmpl-g", "object": "chat.completion", "created": 1775000000, "model": "gemma", "x_score": 1.0,',
      ' "choices": [{"index": 0, "finish_reason": "stop",',
      ' "logprobs": {"content": [{"token": "x", "logprob": 0.0, "bytes": [120], "top_logprobs": []}]},',
      ' "message": {"role": "assistant", "content": "<|tool_call>call:search{q:<|\\"|>x<|\\"|>}<tool_call|>"}}]}',
    ].join("");
    const gemmaUpstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(withCall);
    });
    const via = await startProxy({ upstream: gemmaUpstream.url, contentCalls: [gemmaContentCalls] });
    try {
      const response = await fetch(`${via.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"model": "gemma", "messages": [{"role": "user", "content": "Go."}]}',
      });
      const text = await response.text();
      expect(text).toContain('"x_score":1.0');
      expect(text).toContain('"logprob":0.0');
      const choice = (JSON.parse(text) as { choices: Array<Record<string, unknown>> }).choices[0] as {
        finish_reason: string;
        message: {
          content: string | null;
          tool_calls: Array<{ id: string; function: { arguments: string } }>;
        };
      };
      expect(choice.finish_reason).toBe("tool_calls");
      expect(choice.message.tool_calls.map((call) => call.function.arguments)).toEqual(['{"q": "x"}']);
      expect(choice.message.tool_calls[0]?.id).toMatch(/^call_/);
    } finally {
      await via.close();
      await gemmaUpstream.close();
    }
  });

  it("writes a body whose numbers JSON.parse keeps with JSON.stringify, unchanged in shape", async () => {
    const request =
      '{"model": "m", "seed": 7, "messages": [{"role": "assistant", "content": null, "tool_calls": [' +
      '{"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}]},' +
      ' {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}';
    expect((await post(request)).status).toBe(200);
    const sent = upstream.requests.at(-1)?.body as string;
    expect(JSON.parse(sent)).toEqual({ ...JSON.parse(request), messages: expect.any(Array) });
    expect(sent.startsWith('{"model":"m","seed":7,"messages":[')).toBe(true);
  });
});
