import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_CALL_EXTRACTORS, detectContentCalls } from "../src/index.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

// Real chat templates and the reference renderer (Python + Jinja2, as transformers renders), outside the repo.
const SHARED = join(import.meta.dirname, "../../../../shared");
const template = (name: string) => readFileSync(join(SHARED, "templates", name), "utf8");
const BIN = join(import.meta.dirname, "../dist/cli.js");

const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Weather for a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" } },
        required: ["city"],
      },
    },
  },
];
const ARGS = { city: "Paris", days: 3 };

/** Each template, the syntax it must be detected as, and the call id its template accepts. */
const CASES = [
  { file: "Qwen-Qwen2.5-7B-Instruct.jinja", syntax: "hermes" },
  { file: "zai-org-GLM-4.7-Flash.jinja", syntax: "glm47" },
  { file: "zai-org-GLM-4.5.jinja", syntax: "glm45" },
  { file: "moonshotai-Kimi-K2-Instruct.jinja", syntax: "kimi-k2", id: "functions.get_weather:0" },
  // DeepSeek's templates concatenate the arguments: they take them as JSON text.
  { file: "deepseek-ai-DeepSeek-V3.1.jinja", syntax: "deepseek-v31", text: true },
  { file: "mistralai-Mistral-Small-3.2-24B-Instruct-2506.jinja", syntax: "mistral-call-id" },
  { file: "meta-llama-Llama-3.1-8B-Instruct.jinja", syntax: "llama3-json" },
  { file: "Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja", syntax: "qwen3-coder" },
  { file: "google-gemma-4-31B-it.jinja", syntax: "gemma4" },
] as const;

interface Rendered {
  file: string;
  syntax: string;
  /** What the model wrote: the assistant turn as the template renders it, after the generation prompt. */
  output: string;
}

/** Renders, for each template, the prompt and the conversation with the call, with the reference renderer. */
function renderOutputs(): Rendered[] {
  const jobs = CASES.flatMap((c) => {
    const id = "id" in c ? c.id : "abcDEF123";
    const user = { role: "user", content: "Weather in Paris for 3 days?" };
    const assistant = {
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id,
          type: "function",
          function: { name: "get_weather", arguments: "text" in c ? JSON.stringify(ARGS) : ARGS },
        },
      ],
    };
    const text = template(c.file);
    return [
      { template: text, messages: [user], tools: TOOLS, add_generation_prompt: false },
      { template: text, messages: [user], tools: TOOLS, add_generation_prompt: true },
      { template: text, messages: [user, assistant], tools: TOOLS, add_generation_prompt: false },
    ];
  });
  const results = JSON.parse(
    execFileSync("python3", [join(SHARED, "parity/hf_render.py")], {
      input: JSON.stringify(jobs),
    }).toString(),
  ) as Array<{ ok?: string; error?: string }>;
  return CASES.map((c, i) => {
    const [base, prompt, whole] = [0, 1, 2].map((k) => results[3 * i + k]);
    if (base?.ok === undefined || prompt?.ok === undefined || whole?.ok === undefined)
      throw new Error(`${c.file} did not render: ${base?.error ?? prompt?.error ?? whole?.error}`);
    if (!whole.ok.startsWith(base.ok) || !prompt.ok.startsWith(base.ok))
      throw new Error(`${c.file}: the conversation does not extend the user turn`);
    // The assistant turn as rendered, and what the generation prompt already wrote of it: the model writes the
    // rest. A generation prompt that differs (Gemma 4 opens an empty thought channel) is matched up to its last
    // line break or tag end, never inside a marker.
    const turn = whole.ok.slice(base.ok.length);
    const opening = prompt.ok.slice(base.ok.length);
    let shared = 0;
    if (turn.startsWith(opening)) shared = opening.length;
    else {
      while (shared < opening.length && opening[shared] === turn[shared]) shared++;
      while (shared > 0 && turn[shared - 1] !== "\n" && turn[shared - 1] !== ">") shared--;
    }
    return { file: c.file, syntax: c.syntax, output: turn.slice(shared) };
  });
}

let rendered: Rendered[];
let upstream: FakeUpstream;
/** The model output the upstream answers with, as content: the server did not parse the call. */
let answer = "";

const completion = (content: string) => ({
  id: "cmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }],
});
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

beforeAll(async () => {
  rendered = renderOutputs();
  upstream = await startUpstream((request, response) => {
    if (request.method === "GET" && request.url === "/props") {
      // llama.cpp's server: the chat template it runs, in GET /props.
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ chat_template: template("zai-org-GLM-4.7-Flash.jinja"), total_slots: 1 }),
      );
      return;
    }
    const body = request.json as { stream?: boolean };
    if (body.stream === true) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk({ role: "assistant", content: "" }));
      // Seven-character deltas: markers split across pieces.
      for (let at = 0; at < answer.length; at += 7)
        response.write(chunk({ content: answer.slice(at, at + 7) }));
      response.end(`${chunk({}, "stop")}data: [DONE]\n\n`);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(completion(answer)));
  });
});
afterAll(async () => {
  await upstream.close();
});

describe("--content-calls: every syntax, and auto from the chat template", () => {
  it("names every syntax of @toolcall/model-formats, plus qwen and gemma", () => {
    for (const name of ["hermes", "glm45", "glm47", "kimi-k2", "deepseek-v3", "deepseek-v31", "deepseek-v32"])
      expect(CONTENT_CALL_EXTRACTORS[name]?.name, name).toBe(name);
    for (const name of ["mistral-list", "mistral-args", "mistral-call-id", "llama3-json", "llama-pythonic"])
      expect(CONTENT_CALL_EXTRACTORS[name]?.name, name).toBe(name);
    for (const name of ["harmony", "harmony-stripped", "qwen", "qwen3-coder", "gemma", "gemma4"])
      expect(CONTENT_CALL_EXTRACTORS[name], name).toBeDefined();
  });

  it("auto detects each real template's syntax, and the proxy recovers the rendered call, whole and streamed", async () => {
    for (const { file, syntax, output } of rendered) {
      const detected = detectContentCalls({ template: template(file) });
      if (!detected.ok) throw new Error(`${file}: ${detected.error}`);
      expect(detected.syntax, file).toBe(syntax);
      const proxy: RunningProxy = await startProxy({
        upstream: upstream.url,
        contentCalls: [detected.extractor],
      });
      try {
        answer = output;
        const client = new OpenAI({ baseURL: proxy.baseURL, apiKey: "k", maxRetries: 0 });
        const whole = await client.chat.completions.create({ model: "m", messages: [], tools: TOOLS });
        const calls = whole.choices[0]?.message.tool_calls ?? [];
        expect(
          calls.map((c) => ("function" in c ? [c.function.name, JSON.parse(c.function.arguments)] : [])),
          `${file}: ${JSON.stringify(output)}`,
        ).toEqual([["get_weather", ARGS]]);
        expect(whole.choices[0]?.finish_reason, file).toBe("tool_calls");
        const stream = client.chat.completions.stream({ model: "m", messages: [], tools: TOOLS });
        const final = await stream.finalChatCompletion();
        const streamed = final.choices[0]?.message.tool_calls ?? [];
        expect(
          streamed.map((c) => ("function" in c ? [c.function.name, JSON.parse(c.function.arguments)] : [])),
          `${file} streamed`,
        ).toEqual([["get_weather", ARGS]]);
      } finally {
        await proxy.close();
      }
    }
  });

  it("reasoning a syntax marks goes to reasoning_content, whole and streamed (GLM-4.7 starts in reasoning)", async () => {
    const detected = detectContentCalls({ template: template("zai-org-GLM-4.7-Flash.jinja") });
    if (!detected.ok) throw new Error(detected.error);
    expect(detected.startInReasoning).toBe(true);
    const proxy = await startProxy({ upstream: upstream.url, contentCalls: [detected.extractor] });
    try {
      answer =
        "The user wants Paris.</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>";
      const client = new OpenAI({ baseURL: proxy.baseURL, apiKey: "k", maxRetries: 0 });
      const whole = await client.chat.completions.create({ model: "m", messages: [], tools: TOOLS });
      const message = whole.choices[0]?.message as { reasoning_content?: string; content: string | null };
      expect(message.reasoning_content).toBe("The user wants Paris.");
      expect(message.content).toBeNull();
      const stream = await client.chat.completions.create({
        model: "m",
        messages: [],
        tools: TOOLS,
        stream: true,
      });
      let reasoning = "";
      let content = "";
      const args: string[] = [];
      for await (const part of stream) {
        const delta = part.choices[0]?.delta as
          | { reasoning_content?: string; content?: string | null }
          | undefined;
        reasoning += delta?.reasoning_content ?? "";
        content += delta?.content ?? "";
        for (const call of part.choices[0]?.delta.tool_calls ?? []) args.push(call.function?.arguments ?? "");
      }
      expect(reasoning).toBe("The user wants Paris.");
      expect(content).toBe("");
      expect(JSON.parse(args.join(""))).toEqual(ARGS);
    } finally {
      await proxy.close();
    }
  });

  it("auto reads the template from the upstream's GET /props (llama.cpp), and from --chat-template FILE", async () => {
    const runs = [
      { args: [], expect: "glm47" },
      {
        args: ["--chat-template", join(SHARED, "templates", "Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja")],
        expect: "qwen3-coder",
      },
    ];
    for (const run of runs) {
      const child = spawn(
        process.execPath,
        [BIN, "--upstream", upstream.url, "--port", "0", "--content-calls", "auto", ...run.args],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      try {
        const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
          createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
            const entry = JSON.parse(line) as Record<string, unknown>;
            if (entry.msg === "listening") resolve(entry);
          });
          child.once("exit", (code) => reject(new Error(`the bin exited with ${code}`)));
        });
        expect(listening.contentCalls).toEqual([run.expect === "qwen3-coder" ? "qwen" : run.expect]);
      } finally {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
    }
  });

  it("auto without a template anywhere is refused at start-up, with what to do", () => {
    let failure: { status: number | null; stderr: string } = { status: 0, stderr: "" };
    try {
      execFileSync(process.execPath, [BIN, "--upstream", "http://127.0.0.1:1", "--content-calls", "auto"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      const e = error as { status: number | null; stderr: Buffer };
      failure = { status: e.status, stderr: e.stderr.toString() };
    }
    expect(failure.status).toBe(2);
    expect(failure.stderr).toContain("--chat-template FILE");
  });
});
