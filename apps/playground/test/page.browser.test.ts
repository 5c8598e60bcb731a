// The built page in a real browser: Debian's Chromium (installed by the test run when missing), driven by
// playwright-core, the page served from dist/ by Vite's static preview server on 127.0.0.1. Every request the page
// makes is watched: none may leave 127.0.0.1. Renders are compared with Python + Jinja2
// (../shared/parity/hf_render.py), parses and repairs with the same packages run here in Node.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeCodeFormat } from "@toolcall/anthropic";
import { createRecordEngine, providerVerdict } from "@toolcall/core";
import { sharegptFormat } from "@toolcall/datasets";
import { probeChatTemplate } from "@toolcall/jinja";
import { roundTrip, syntaxById } from "@toolcall/model-formats";
import { openaiChatFormat } from "@toolcall/openai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { preview } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultState } from "../src/examples.js";
import { encodeState, type PlaygroundState, REFERENCE_CLOCK } from "../src/state.js";
import { browserEntries } from "./browser-entries.js";
import { bundlePackage, playgroundRoot, repositoryRoot, TARGETS } from "./bundle-package.js";
import { launchChromium } from "./chromium.js";
import { renderWithPython, sharedDir } from "./reference-render.js";
import { SMOKES, workerModule } from "./worker-smoke.js";

const dist = join(playgroundRoot, "dist");
const results = join(playgroundRoot, ".test-results");
const templatesDir = join(sharedDir, "templates");
const template = (name: string) => readFileSync(join(templatesDir, `${name}.jinja`), "utf8");
const VARIABLES = { bos_token: "<s>", eos_token: "</s>" };

let server: Awaited<ReturnType<typeof preview>>;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const outside: string[] = [];
const workers = new Map<string, string>();

/** The page's update counter (each run of a tool adds one). */
async function updates(): Promise<number> {
  return Number(await page.evaluate(() => document.body.dataset.updates ?? "0"));
}

/** Does `action`, then waits for the page to finish the update it starts. */
async function andWait(action: () => Promise<unknown>): Promise<void> {
  const before = await updates();
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.updates ?? "0") > n, before);
}

/** Loads the page afresh (not a mere change of fragment) on the case. */
async function open(state: PlaygroundState): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${base}#${await encodeState(state)}`);
  await page.waitForFunction(() => Number(document.body.dataset.updates ?? "0") >= 1);
}

/** The render as text: with whitespace shown as itself, the view's text is the render's, byte for byte. */
async function renderedText(): Promise<string> {
  if (await page.isChecked("#show-whitespace")) await andWait(() => page.uncheck("#show-whitespace"));
  await page.waitForSelector('[data-testid="render-text"]', { timeout: 5000 });
  return page.evaluate(() => document.querySelector('[data-testid="render-text"]')?.textContent ?? "");
}

beforeAll(async () => {
  if (!existsSync(join(dist, "index.html")))
    throw new Error("no dist/index.html: build the page first (pnpm build)");
  mkdirSync(results, { recursive: true });
  server = await preview({
    root: playgroundRoot,
    logLevel: "silent",
    preview: { host: "127.0.0.1", port: 0, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("the preview server gave no address");
  base = url;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1360, height: 900 }, serviceWorkers: "block" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(base).origin });
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith("/__worker/") && workers.has(url.pathname))
      return route.fulfill({ contentType: "text/javascript", body: workers.get(url.pathname) ?? "" });
    if (url.hostname !== "127.0.0.1") {
      outside.push(url.href);
      return route.abort();
    }
    return route.continue();
  });
  page = await context.newPage();
}, 20 * 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server?.httpServer.close(() => resolve()));
});

describe("the chat template tool", () => {
  it("renders the shared templates exactly as Python and Jinja2 do, picked from the list", async () => {
    const state = defaultState(true);
    await open(state);
    const names = [
      "Qwen-Qwen3-8B",
      "meta-llama-Llama-3.1-8B-Instruct",
      "mistralai-Mistral-Small-3.2-24B-Instruct-2506",
      "deepseek-ai-DeepSeek-V3.1",
      "google-gemma-4-31B-it",
      "openai-gpt-oss-120b",
      "zai-org-GLM-4.7-Flash",
      "moonshotai-Kimi-K2-Instruct.rev-2025-07-15.crlf",
    ];
    const options = await page.$$eval("#template-pick option", (list) =>
      list.map((o) => (o as HTMLOptionElement).value),
    );
    expect(options.filter((value) => value !== "")).toEqual(
      readdirSync(templatesDir)
        .filter((f) => f.endsWith(".jinja"))
        .map((f) => f.slice(0, -6))
        .sort(),
    );
    const rendered: string[] = [];
    for (const name of names) {
      await andWait(() => page.selectOption("#template-pick", name));
      const error = await page.locator('[data-testid="python-error"]').count();
      rendered.push(
        error > 0
          ? `error:${await page.getAttribute('[data-testid="python-error"]', "data-python")}`
          : `ok:${await renderedText()}`,
      );
    }
    const expected = renderWithPython(
      names.map((name) => ({
        template: template(name),
        messages: JSON.parse(state.messages),
        tools: JSON.parse(state.tools),
        addGenerationPrompt: true,
        variables: VARIABLES,
        form: probeChatTemplate(template(name)).argumentsForm,
      })),
    ).map((r) => ("ok" in r ? `ok:${r.ok}` : `error:${r.error}`));
    expect(rendered).toEqual(expected);
    expect(rendered.filter((r) => r.startsWith("ok:")).length).toBeGreaterThanOrEqual(6);
  });

  it("shows whitespace and special tokens, copies the exact text, reports probe and detection", async () => {
    await open(defaultState(true));
    const tokens = await page.$$eval('[data-testid="render-text"] .tok', (list) =>
      list.map((t) => t.textContent),
    );
    expect(tokens).toContain("<|im_start|>");
    expect(tokens).toContain("<tool_call>");
    const signs = await page.$$eval('[data-testid="render-text"] .ws', (list) =>
      list.map((t) => t.textContent),
    );
    expect(signs).toContain("↵\n");
    expect(signs.some((sign) => /^·+$/.test(sign ?? ""))).toBe(true);
    await page.click('[data-testid="copy-render"]');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const [reference] = renderWithPython([
      {
        template: template("Qwen-Qwen3-8B"),
        messages: JSON.parse(defaultState(true).messages),
        tools: JSON.parse(defaultState(true).tools),
        addGenerationPrompt: true,
        variables: VARIABLES,
        form: "mapping",
      },
    ]);
    expect(reference).toEqual({ ok: copied });
    expect(await page.textContent('[data-capability="argumentsForm"] td')).toBe("mapping");
    expect(await page.textContent('[data-capability="parallelToolCalls"] td')).toBe("true");
    expect(await page.textContent('[data-testid="detected-id"]')).toBe("hermes");
  });

  it("shows an error as Python raises it", async () => {
    const name = "google-gemma-3-it";
    const messages = [
      { role: "user", content: "one" },
      { role: "user", content: "two" },
    ];
    await open({ ...defaultState(true), templateName: name, messages: JSON.stringify(messages) });
    const shown = await page.getAttribute('[data-testid="python-error"]', "data-python");
    const [reference] = renderWithPython([
      {
        template: template(name),
        messages,
        tools: JSON.parse(defaultState(true).tools),
        addGenerationPrompt: true,
        variables: VARIABLES,
        form: "mapping",
      },
    ]);
    expect(reference).toEqual({ error: shown });
    expect(await page.textContent('[data-testid="python-error"] pre')).toContain(
      `jinja2.exceptions.${shown}`,
    );
  });
});

describe("the model output tool", () => {
  it("parses a Qwen3 answer into a call, content and reasoning, and proves its round trip", async () => {
    const state = { ...defaultState(true), tab: "output" as const };
    await open(state);
    await andWait(() => page.uncheck("#show-whitespace"));
    expect(await page.textContent('[data-testid="syntax-used"]')).toMatch(/^hermes:/);
    expect(await page.$$eval('[data-testid="call-name"]', (list) => list.map((n) => n.textContent))).toEqual([
      "get_weather",
    ]);
    expect(await page.getAttribute('[data-testid="call-arguments"]', "data-arguments")).toBe(
      '{"city": "Lyon", "unit": "fahrenheit"}',
    );
    expect(await page.textContent('[data-testid="reasoning"] pre')).toBe(
      "The user wants Lyon, in fahrenheit.",
    );
    expect(await page.getAttribute('[data-testid="round-trip-verdict"]', "data-ok")).toBe("true");
  });

  it("marks the first differing character where the template rewrites the output", async () => {
    // Llama 3.1 writes a call's arguments back with `tojson`: compact JSON as a model may write it comes back with
    // spaces, so the round trip of this answer differs, and the page marks where, as roundTrip says in Node.
    const name = "meta-llama-Llama-3.1-8B-Instruct";
    const output = '{"name": "get_weather", "parameters": {"city":"Lyon"}}';
    const state = { ...defaultState(true), tab: "output" as const, templateName: name, output };
    await open(state);
    const syntax = syntaxById("llama3-json");
    const expected = roundTrip({
      template: template(name),
      output,
      messages: JSON.parse(state.messages),
      tools: JSON.parse(state.tools),
      variables: VARIABLES,
      ...(syntax ? { syntax } : {}),
    });
    expect(expected.ok).toBe(false);
    const verdict = page.locator('[data-testid="round-trip-verdict"]');
    expect(await verdict.getAttribute("data-ok")).toBe("false");
    expect(Number(await verdict.getAttribute("data-first-difference"))).toBe(expected.firstDifference);
    const marked = await page.textContent('[data-testid="expected-text"] [data-testid="diff-mark"]');
    expect(marked).toBe(output[expected.firstDifference]);
  });
});

/** The record engine as the command line runs it with `--provider` (or without, for `any`). */
function engineFor(provider: string) {
  return createRecordEngine(
    provider === "any"
      ? { providers: { mode: "errors" } }
      : { providers: { mode: "named", ids: [provider] }, provider },
  );
}

describe("the saved chat tool", () => {
  it("lists what Anthropic refuses in its own words and repairs the history, as core does in Node", async () => {
    const state = { ...defaultState(true), tab: "chat" as const, provider: "anthropic" };
    await open(state);
    const history = JSON.parse(state.chat) as unknown[];
    const engine = engineFor("anthropic");
    const issues = engine.check(openaiChatFormat, history).issues;
    expect(issues.length).toBeGreaterThan(0);
    expect(
      await page.$$eval('[data-testid="issue-message"]', (list) => list.map((n) => n.textContent)),
    ).toEqual(issues.map((issue) => issue.message));
    expect(
      await page.$$eval('[data-testid="issue"]', (list) => list.map((n) => n.getAttribute("data-code"))),
    ).toEqual(issues.map((issue) => issue.code));
    const rejectedBy = providerVerdict(history).rejectedBy;
    expect(await page.textContent('[data-testid="verdict"]')).toContain(rejectedBy.join(", "));
    const repaired = engine.repair(openaiChatFormat, history);
    expect(
      await page.$$eval('[data-testid="changes"] li', (list) => list.map((n) => n.getAttribute("data-rule"))),
    ).toEqual(repaired.changes.map((change) => change.rule));
    expect(await page.textContent('[data-testid="remaining"]')).toBe(
      "anthropic accepts the repaired history.",
    );
    expect(await page.locator(".diff-view .removed").count()).toBeGreaterThan(0);
    expect(await page.locator(".diff-view .added").count()).toBeGreaterThan(0);
    await page.click('[data-testid="copy-repaired"]');
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(repaired.value);
  });

  it("repairs the malformed arguments captured in the wild, and says so for every provider", async () => {
    const wild = JSON.parse(readFileSync(join(sharedDir, "wild/payloads.json"), "utf8")) as unknown;
    const payloads = (
      Array.isArray(wild) ? wild : ((wild as { payloads?: unknown[] }).payloads ?? [])
    ) as Array<{
      arguments?: unknown;
      raw?: unknown;
    }>;
    const texts = payloads
      .map((p) =>
        typeof p.arguments === "string" ? p.arguments : typeof p.raw === "string" ? p.raw : undefined,
      )
      .filter((text): text is string => text !== undefined);
    expect(texts.length).toBeGreaterThan(3);
    const history = [
      { role: "user", content: "Run the tools." },
      {
        role: "assistant",
        content: null,
        tool_calls: texts.map((text, i) => ({
          id: `call${i}wild`,
          type: "function",
          function: { name: "tool", arguments: text },
        })),
      },
      ...texts.map((_, i) => ({ role: "tool", tool_call_id: `call${i}wild`, content: "ok" })),
    ];
    const state = {
      ...defaultState(true),
      tab: "chat" as const,
      provider: "vllm",
      chat: JSON.stringify(history, null, 2),
    };
    await open(state);
    const engine = engineFor("vllm");
    const issues = engine.check(openaiChatFormat, history).issues;
    // The messages quote the engine's own JSON.parse error; Chromium's V8 adds "(line 1 column 24)" where Node 20's
    // stops at "position 23". Codes and places are the same everywhere.
    const engineNeutral = (text: string | null) => (text ?? "").replace(/ \(line \d+ column \d+\)/g, "");
    expect(
      (await page.$$eval('[data-testid="issue-message"]', (list) => list.map((n) => n.textContent))).map(
        engineNeutral,
      ),
    ).toEqual(issues.map((issue) => engineNeutral(issue.message)));
    expect(
      await page.$$eval('[data-testid="issue"]', (list) => list.map((n) => n.getAttribute("data-code"))),
    ).toEqual(issues.map((issue) => issue.code));
    await page.click('[data-testid="copy-repaired"]');
    const repaired = engine.repair(openaiChatFormat, history).value;
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(repaired);
    expect(await page.textContent('[data-testid="remaining"]')).toBe("vllm accepts the repaired history.");
  });
});

describe("the saved chat tool reads what the command line reads", () => {
  const fixture = (path: string) => readFileSync(join(repositoryRoot, path), "utf8");
  const lineValues = (text: string) =>
    text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as unknown);
  const pageCodes = (selector: string) =>
    page.$$eval(selector, (list) => list.map((n) => n.getAttribute("data-code")));

  it("a Claude Code session (one file of JSON lines), for Anthropic", async () => {
    const text = fixture("packages/anthropic/test/__fixtures__/claude-code-edge-cases.jsonl");
    const values = lineValues(text);
    expect(claudeCodeFormat.matches(values)).toBe(true);
    const reading = claudeCodeFormat.read(values);
    await open({ ...defaultState(true), tab: "chat", provider: "anthropic", chat: text });
    expect(
      await page.$$eval('[data-testid="record"]', (list) => list.map((n) => n.getAttribute("data-format"))),
    ).toEqual(["claude-code"]);
    expect(await pageCodes('[data-testid="format-issue"]')).toEqual(
      reading.issues.map((issue) => issue.code),
    );
    const expected = engineFor("anthropic")
      .check(claudeCodeFormat, values)
      .issues.filter((issue) => issue.scope !== "record")
      .map((issue) => issue.code);
    expect(expected.length).toBeGreaterThan(0);
    expect(await pageCodes('[data-testid="issue"]')).toEqual(expected);
    expect(await page.locator('[data-testid="conversation"]').count()).toBe(reading.conversations.length);
  });

  it("a ShareGPT data set (Hermes function calling, one record per line), for any strict provider", async () => {
    const text = fixture("packages/datasets/test/__fixtures__/hermes-function-calling-v1-card.jsonl");
    const values = lineValues(text);
    expect(values.every((value) => sharegptFormat.matches(value))).toBe(true);
    await open({ ...defaultState(true), tab: "chat", provider: "any", chat: text });
    const formats = await page.$$eval('[data-testid="record"]', (list) =>
      list.map((n) => n.getAttribute("data-format")),
    );
    expect(formats).toEqual(values.map(() => "sharegpt"));
    const engine = engineFor("any");
    const expected = values.flatMap((value) =>
      engine
        .check(sharegptFormat, value)
        .issues.filter((issue) => issue.scope !== "record")
        .map((issue) => issue.code),
    );
    expect(await pageCodes('[data-testid="issue"]')).toEqual(expected);
    expect(await page.locator('[data-testid="conversation"]').count()).toBe(values.length);
  });
});

describe("served by a plain file server (no shared templates at serve time)", () => {
  it("lists the templates, says it could not fetch one, and renders a stand-in", async () => {
    const plain = await preview({
      configFile: false,
      root: playgroundRoot,
      logLevel: "silent",
      preview: { host: "127.0.0.1", port: 0, strictPort: false, open: false },
    });
    try {
      const url = plain.resolvedUrls?.local[0];
      if (!url) throw new Error("the plain server gave no address");
      const other = await context.newPage();
      await other.goto(url);
      await other.waitForFunction(() => Number(document.body.dataset.updates ?? "0") >= 1);
      const names = await other.$$eval("#template-pick option", (list) =>
        list.map((o) => (o as HTMLOptionElement).value).filter((value) => value !== ""),
      );
      expect(names.length).toBe(readdirSync(templatesDir).filter((f) => f.endsWith(".jinja")).length);
      expect(await other.textContent('[data-testid="notice"]')).toContain(
        "The server did not give the template Qwen-Qwen3-8B",
      );
      expect(await other.inputValue("#template-pick")).toBe("");
      expect(await other.textContent('[data-testid="render-text"]')).toContain("<|im_start|>assistant");
      await other.close();
    } finally {
      await new Promise<void>((resolve) => plain.httpServer.close(() => resolve()));
    }
  });
});

describe("the address", () => {
  it("holds the case: edits land in it, and the address opens the same case elsewhere", async () => {
    await open(defaultState(true));
    await andWait(() => page.fill("#messages", JSON.stringify([{ role: "user", content: "Shared case ✓" }])));
    await page.waitForFunction(() => document.body.dataset.saved === document.body.dataset.updates);
    const address = page.url();
    expect(address).toMatch(/#s=[A-Za-z0-9_-]+$/);
    const text = await renderedText();
    expect(text).toContain("Shared case ✓");
    const other = await context.newPage();
    await other.goto(address);
    await other.waitForFunction(() => Number(document.body.dataset.updates ?? "0") >= 1);
    await other.uncheck("#show-whitespace");
    await other.waitForFunction(() => Number(document.body.dataset.updates ?? "0") >= 2);
    expect(
      await other.evaluate(() => document.querySelector('[data-testid="render-text"]')?.textContent),
    ).toBe(text);
    await other.close();
  });
});

describe("first render of a 20-message conversation", () => {
  it("is measured after load (reported, not asserted) and is Python's render", async () => {
    const conversations = JSON.parse(readFileSync(join(sharedDir, "parity/conversations.json"), "utf8")) as {
      tools: unknown[];
      conversations: Array<{ id: string; args_json: string[] }>;
    };
    const messages: Array<Record<string, unknown>> = [
      { role: "system", content: "You are a helpful assistant." },
    ];
    for (const [index, conversation] of conversations.conversations.entries()) {
      const calls = conversation.args_json.map((args, i) => ({
        id: `tc${index}${i}abcdef`.slice(0, 9),
        type: "function",
        function: {
          name: (conversations.tools[0] as { function: { name: string } }).function.name,
          arguments: args,
        },
      }));
      const turn = [
        { role: "user", content: `Please help with: ${conversation.id}` },
        { role: "assistant", content: null, tool_calls: calls },
        ...calls.map((call) => ({ role: "tool", tool_call_id: call.id, content: `result of ${call.id}` })),
        { role: "assistant", content: "Done." },
      ];
      if (messages.length + turn.length > 19) break;
      messages.push(...turn);
    }
    while (messages.length < 19)
      messages.push({ role: "user", content: "More?" }, { role: "assistant", content: "Sure." });
    messages.length = 19;
    messages.push({ role: "user", content: "Thanks!" });
    expect(messages).toHaveLength(20);
    const name = "Qwen-Qwen3-8B";
    const state = {
      ...defaultState(true),
      templateName: name,
      messages: JSON.stringify(messages),
      tools: JSON.stringify(conversations.tools),
    };
    await page.goto(`${base}#${await encodeState(state)}`);
    await page.waitForFunction(() => performance.getEntriesByName("toolcall:first-render").length > 0);
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
      const update = performance.getEntriesByName("toolcall:update")[0];
      return {
        renderWorkMs: update?.duration ?? Number.NaN,
        firstRenderAfterLoadMs: at("toolcall:first-render") - navigation.loadEventEnd,
        firstRenderAfterScriptStartMs: at("toolcall:first-render") - at("toolcall:script"),
        firstRenderSinceNavigationMs: at("toolcall:first-render"),
        domContentLoadedMs: navigation.domContentLoadedEventEnd,
        loadMs: navigation.loadEventEnd,
        marks: performance.getEntriesByType("mark").map((m) => `${m.name}@${m.startTime.toFixed(1)}`),
        resources: performance
          .getEntriesByType("resource")
          .map(
            (r) =>
              `${r.name.split("/").pop()}@${r.startTime.toFixed(1)}-${(r as PerformanceResourceTiming).responseEnd.toFixed(1)}`,
          ),
      };
    });
    const report = { messages: messages.length, template: name, ...timing, chromium: browser.version() };
    writeFileSync(join(results, "playground-timing.json"), `${JSON.stringify(report, null, 2)}\n`);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `[playground] first render of a 20-message conversation (${name}): ${ms(timing.renderWorkMs)} of work (compile, probe, detect, render, DOM); on screen ${ms(timing.firstRenderAfterLoadMs)} after the load event, ${ms(timing.firstRenderAfterScriptStartMs)} after the page's script started (the template's text fetched from 127.0.0.1 meanwhile), ${ms(timing.firstRenderSinceNavigationMs)} after navigation started`,
    );
    const [reference] = renderWithPython([
      {
        template: template(name),
        messages,
        tools: conversations.tools,
        addGenerationPrompt: true,
        variables: VARIABLES,
        form: "mapping",
      },
    ]);
    expect(reference).toEqual({ ok: await renderedText() });
  });
});

describe("a screenshot", () => {
  it("of the chat template tool is in the test output", async () => {
    await page.setViewportSize({ width: 1280, height: 760 });
    await open({ ...defaultState(true), now: REFERENCE_CLOCK });
    const file = join(results, "playground.png");
    await page.screenshot({ path: file });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("every entry point in a Web Worker", () => {
  const entries = browserEntries();
  // Bundled for the browser: a Web Worker is a browser's. (The peers go into these bundles, and their own support of
  // edge runtimes is theirs: @langchain/core's langsmith reaches node:fs under the workerd conditions. Our entries
  // are proven for workerd and edge-light, peers left out, in browser-bundles.test.ts.)
  const target = TARGETS.find((candidate) => candidate.name === "browser");
  const workerd = TARGETS.find((candidate) => candidate.name === "workerd");
  if (!target || !workerd) throw new Error("no browser or workerd target");

  async function inWorker(
    name: string,
    code: string,
  ): Promise<{ ok: boolean; value?: unknown; error?: string }> {
    const path = `/__worker/${name}.js`;
    workers.set(path, code);
    if (!page.url().startsWith(base)) await page.goto(base);
    return page.evaluate(
      (url) =>
        new Promise((resolve) => {
          const worker = new Worker(url, { type: "module" });
          worker.onmessage = (event) => {
            resolve(event.data);
            worker.terminate();
          };
          worker.onerror = (event) => {
            resolve({ ok: false, error: event.message || "the worker failed to load" });
            worker.terminate();
          };
        }),
      path,
    );
  }

  function runInNode(code: string, namespace: unknown): unknown {
    return new Function("m", `return (${code});`)(namespace);
  }

  /** JSON arguments text read as its value: the smokes know the arguments, not their spacing. */
  function decodedArguments(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(decodedArguments);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [
        key,
        key === "arguments" && typeof field === "string" ? JSON.parse(field) : decodedArguments(field),
      ]),
    );
  }

  it("imports and runs each published entry, bundled for the browser", async () => {
    const answers: Record<string, unknown> = {};
    for (const entry of entries) {
      if (entry.specifier === "@toolcall/conformance") continue;
      const bundle = await bundlePackage({
        entry: entry.specifier,
        target,
        contents: workerModule(entry.specifier),
        checkGlobals: false,
      });
      expect(bundle.leaks, entry.specifier).toEqual([]);
      const answer = await inWorker(entry.specifier.replace(/[@/]/g, "_"), bundle.code);
      expect(answer, entry.specifier).toMatchObject({ ok: true });
      answers[entry.specifier] = answer.value;
    }
    for (const [specifier, smoke] of Object.entries(SMOKES)) {
      // The same call in Node gives the same answer, byte for byte; and it is the answer the smoke knows.
      expect(answers[specifier], specifier).toEqual(runInNode(smoke.code, await import(specifier)));
      expect(decodedArguments(answers[specifier]), specifier).toEqual(decodedArguments(smoke.expected));
    }
  });

  it("runs the conformance suite against core in a worker (bundled as for Cloudflare Workers), with the same totals as in Node", async () => {
    const { casesFromVectors, runConformance } = await import("@toolcall/conformance");
    const { loadVectors } = await import("@toolcall/conformance");
    const { coreImplementation } = await import("@toolcall/core/conformance");
    const vectorsDir = join(playgroundRoot, "node_modules/@toolcall/conformance/vectors");
    const files: string[] = [];
    const walk = (dir: string, prefix: string) => {
      for (const item of readdirSync(join(vectorsDir, dir), { withFileTypes: true })) {
        const path = prefix ? `${prefix}/${item.name}` : item.name;
        if (item.isDirectory()) walk(join(dir, item.name), path);
        else if (item.name.endsWith(".json")) files.push(path);
      }
    };
    walk("", "");
    files.sort();
    const code = [
      'import { casesFromVectors, runConformance } from "@toolcall/conformance";',
      'import { coreImplementation } from "@toolcall/core/conformance";',
      ...files.map(
        (file, i) => `import v${i} from ${JSON.stringify(`@toolcall/conformance/vectors/${file}`)};`,
      ),
      `const files = [${files.map((file, i) => `{ file: ${JSON.stringify(file)}, groups: v${i} }`).join(", ")}];`,
      "try {",
      "  const summary = await runConformance({ implementation: coreImplementation, cases: casesFromVectors({ files }) });",
      "  self.postMessage({ ok: true, value: { passed: summary.passed, failed: summary.failed, skipped: summary.skipped, notApplicable: summary.notApplicable } });",
      "} catch (error) {",
      "  self.postMessage({ ok: false, error: String(error && error.stack || error) });",
      "}",
    ].join("\n");
    const bundle = await bundlePackage({
      entry: "conformance-run",
      target: workerd,
      contents: code,
      checkGlobals: false,
    });
    expect(bundle.leaks).toEqual([]);
    const answer = await inWorker("conformance-run", bundle.code);
    expect(answer).toMatchObject({ ok: true });
    const inNode = await runConformance({ implementation: coreImplementation, cases: loadVectors() });
    expect(casesFromVectors).toBeTypeOf("function");
    expect(answer.value).toEqual({
      passed: inNode.passed,
      failed: inNode.failed,
      skipped: inNode.skipped,
      notApplicable: inNode.notApplicable,
    });
    expect(inNode.passed).toBeGreaterThan(100);
  });
});

describe("the network", () => {
  it("saw no request leave 127.0.0.1", () => {
    expect(outside).toEqual([]);
  });
});
