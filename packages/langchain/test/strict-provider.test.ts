import {
  type AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreRepairs, createHistorySanitizer, sanitizeMessages, withSafeToolCalls } from "../src/index.js";
import { quietLangChain } from "./quiet-langchain.js";
import { replay, startServer, strictProvider, strictRejection, type TestServer } from "./servers.js";

// A strict OpenAI-compatible provider on 127.0.0.1: it answers the first turn with a recorded malformed response,
// and HTTP 400 to any later request whose history stores arguments that are not a JSON object or pairs calls and
// results badly (as DashScope, MiniMax and vLLM's own validation do), via ChatOpenAI.

let server: TestServer;
beforeAll(async () => {
  quietLangChain();
  server = await startServer((request, response) => {
    const last = request.messages.at(-1);
    if (last?.role === "user" && strictRejection(request.messages) === undefined) {
      return replay(request, response);
    }
    return strictProvider(request, response);
  });
});
afterAll(() => server.close());

const fixtures = [
  "vllm-empty-arguments",
  "vllm-null-arguments",
  "vllm-double-encoded",
  "vllm-scalar-arguments",
  "vllm-invalid-json",
  "vllm-length-stop",
  "vllm-gemma4-marker-leak",
  "vllm-parallel-calls",
];
const toolNames = [
  "get_time",
  "list_files",
  "add",
  "set_volume",
  "echo",
  "read_file",
  "glob",
  "set_value",
  "search_boe",
  "get_document",
  "get_weather",
  "skills_list",
  "patch",
];
const received: Array<{ name: string; args: unknown }> = [];
const tools = Object.fromEntries(
  toolNames.map((name) => [
    name,
    tool(
      async (args: unknown) => {
        received.push({ name, args });
        return `ran ${name}`;
      },
      { name, description: name, schema: { type: "object", properties: {}, additionalProperties: true } },
    ),
  ]),
);

const chatOpenAI = (model: string) =>
  new ChatOpenAI({ model, apiKey: "test", maxRetries: 0, configuration: { baseURL: server.baseURL } });

type Model = Runnable<BaseMessage[], BaseMessage>;

async function respond(model: Model, history: BaseMessage[], streaming: boolean): Promise<BaseMessage> {
  if (!streaming) return model.invoke(history);
  let full: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(history)) {
    full = full === undefined ? (chunk as AIMessageChunk) : full.concat(chunk as AIMessageChunk);
  }
  return full as BaseMessage;
}

/**
 * The loop every tool-calling agent runs: ask the model, run the calls it made, answer the ones it could not make
 * with an error result (as LangGraph's ToolNode does for a tool that throws), ask again.
 */
async function runAgent(
  model: Model,
  streaming: boolean,
): Promise<{ history: BaseMessage[]; answer: unknown }> {
  const history: BaseMessage[] = [new HumanMessage("Go ahead.")];
  for (let turn = 0; turn < 3; turn++) {
    const message = (await respond(model, history, streaming)) as AIMessage;
    history.push(message);
    const calls = message.tool_calls ?? [];
    const invalid = message.invalid_tool_calls ?? [];
    if (calls.length === 0 && invalid.length === 0) return { history, answer: message.content };
    for (const call of calls) {
      try {
        history.push(
          (await tools[call.name]?.invoke({ ...call, type: "tool_call" })) as unknown as ToolMessage,
        );
      } catch (error) {
        history.push(
          new ToolMessage({
            tool_call_id: call.id ?? "",
            content: `Error: ${(error as Error).message}`,
            status: "error",
          }),
        );
      }
    }
    for (const call of invalid) {
      history.push(
        new ToolMessage({ tool_call_id: call.id ?? "", content: `Error: ${call.error}`, status: "error" }),
      );
    }
  }
  throw new Error("the agent did not finish");
}

const rejected = /must be in JSON format|answers no call|without results/;

describe("a strict provider through ChatOpenAI", () => {
  for (const fixture of fixtures) {
    for (const streaming of [false, true]) {
      const mode = streaming ? "streamed" : "whole";

      // LangChain's stream path reads "" as {} (no harm done) and completes cut-off JSON into a call that runs.
      const raw = !streaming
        ? "rejected"
        : fixture === "vllm-empty-arguments"
          ? "accepted"
          : fixture === "vllm-length-stop"
            ? "runs a cut-off call"
            : "rejected";

      it(`${fixture} (${mode}): without the wrapper the history is ${raw}`, async () => {
        received.length = 0;
        const run = runAgent(chatOpenAI(fixture), streaming);
        if (raw === "rejected") await expect(run).rejects.toThrow(rejected);
        else await expect(run).resolves.toMatchObject({ answer: "Done." });
        if (raw === "runs a cut-off call") expect(received.map((call) => call.name)).toEqual(["set_value"]);
      });

      it(`${fixture} (${mode}): with one wrapper the agent finishes`, async () => {
        const model = withSafeToolCalls(chatOpenAI(fixture), {
          repairs: [...coreRepairs, gemmaQuoteMarkers],
        });
        const { answer, history } = await runAgent(model, streaming);
        expect(answer).toBe("Done.");
        // Every request the provider received was one it accepts.
        expect(strictRejection(server.requests.at(-1)?.messages ?? [])).toBeUndefined();
        // Nothing the model did was lost: every call made is still in the history the model saw last.
        const first = history[1] as AIMessage;
        const made = [...(first.tool_calls ?? []), ...(first.invalid_tool_calls ?? [])].map(
          (call) => call.id,
        );
        const sent = server.requests.at(-1)?.messages[1]?.tool_calls as Array<{ id: string }>;
        expect(sent.map((call) => call.id).sort()).toEqual(made.sort());
      });
    }
  }

  it("the sanitized history is accepted where the raw one is rejected", async () => {
    const raw = await runAgent(chatOpenAI("vllm-parallel-calls"), false).catch(() => undefined);
    expect(raw).toBeUndefined();
    const history: BaseMessage[] = [new HumanMessage("Go ahead.")];
    const message = (await chatOpenAI("vllm-parallel-calls").invoke(history)) as AIMessage;
    history.push(message);
    for (const call of message.tool_calls ?? []) {
      history.push(new ToolMessage({ tool_call_id: call.id ?? "", content: "ok" }));
    }
    for (const call of message.invalid_tool_calls ?? []) {
      history.push(new ToolMessage({ tool_call_id: call.id ?? "", content: "Error", status: "error" }));
    }
    await expect(chatOpenAI("strict").invoke(history)).rejects.toThrow(rejected);

    const { messages, changes } = sanitizeMessages(history, { repairs: coreRepairs });
    expect(changes.map((change) => change.rule)).toEqual([
      "arguments_canonicalized",
      "arguments_canonicalized",
      "arguments_raw_preserved",
    ]);
    expect((await chatOpenAI("strict").invoke(messages)).content).toBe("Done.");
    const sent = server.requests.at(-1)?.messages[1]?.tool_calls as Array<{
      function: { arguments: string };
    }>;
    expect(sent.map((call) => call.function.arguments)).toEqual([
      '{"city":"Paris"}',
      '{"city":"paris"}',
      '{"category":"research"}',
      '{"_raw_arguments":"[{\\"mode\\": \\"replace\\", \\"path\\": \\"config.yaml\\"}]"}',
    ]);
    // The input history is untouched, and sanitizing again changes nothing.
    expect(history[1]).toBe(message);
    expect(sanitizeMessages(messages, { repairs: coreRepairs }).messages).toBe(messages);
  });

  it("a history sanitizer piped before any chat model makes the same history acceptable", async () => {
    const history: BaseMessage[] = [new HumanMessage("Go ahead.")];
    const message = (await chatOpenAI("vllm-scalar-arguments").invoke(history)) as AIMessage;
    history.push(message, new ToolMessage({ tool_call_id: "chatcmpl-tool-e9400", content: "ok" }));
    await expect(chatOpenAI("strict").invoke(history)).rejects.toThrow(rejected);
    const chain = createHistorySanitizer().pipe(chatOpenAI("strict"));
    expect((await chain.invoke(history)).content).toBe("Done.");
  });

  it("a call cut off by a length stop never runs", async () => {
    received.length = 0;
    const { history } = await runAgent(withSafeToolCalls(chatOpenAI("vllm-length-stop")), true);
    expect(received).toEqual([]);
    expect((history[2] as ToolMessage).content).toBe("Error: arguments_truncated");
  });

  it("the tools receive the recovered arguments", async () => {
    received.length = 0;
    const model = withSafeToolCalls(chatOpenAI("vllm-double-encoded"));
    await runAgent(model, true);
    expect(received).toEqual([{ name: "add", args: { a: 3, b: 4 } }]);
  });
});
