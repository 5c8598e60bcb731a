import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { root, run, tempDir } from "./helpers.js";

// The formats users keep tool calls in, as files: each detected, repaired and undone through the command line. The
// real files come from their projects (packages/datasets/test/__fixtures__/README.md); the generated ones are many
// records of one format in a JSONL file, drawn with fast-check from calls as models emit them.
const repo = join(root, "..", "..");
const datasets = (name: string) => join(repo, "packages/datasets/test/__fixtures__", name);
let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});

const PAYLOADS = [
  '{"command": "ls"}',
  "",
  "null",
  '```json\n{"path": "a.py"}\n```',
  '{"path": "a.py"',
  "{'a': 1}",
];
const payload = fc.constantFrom(...PAYLOADS);

const sweAgent = fc
  .array(fc.record({ args: payload, answered: fc.boolean() }), { minLength: 1, maxLength: 4 })
  .map((steps) => ({
    environment: "main",
    trajectory: [],
    history: [
      { role: "system", content: "SETTING", agent: "main", message_type: "system_prompt" },
      { role: "user", content: "Fix it.", agent: "main", message_type: "observation" },
      ...steps.flatMap((step, turn) => [
        {
          role: "assistant",
          content: "Let me look.",
          agent: "main",
          message_type: "action",
          tool_calls: [
            { function: { arguments: step.args, name: "bash" }, id: `call_${turn}`, type: "function" },
          ],
        },
        ...(step.answered
          ? [
              {
                role: "tool",
                content: "ok",
                agent: "main",
                message_type: "observation",
                tool_call_ids: [`call_${turn}`],
              },
            ]
          : []),
      ]),
    ],
    info: {},
  }));

const openhands = fc
  .array(fc.record({ args: payload, answered: fc.boolean() }), { minLength: 1, maxLength: 4 })
  .map((steps) => [
    { id: 0, source: "user", message: "Fix it.", action: "message", args: { content: "Fix it." } },
    ...steps.flatMap((step, turn) => {
      const metadata = {
        function_name: "execute_bash",
        tool_call_id: `toolu_${turn}`,
        model_response: {
          id: `chatcmpl-${turn}`,
          choices: [
            {
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    function: { arguments: step.args, name: "execute_bash" },
                    id: `toolu_${turn}`,
                    type: "function",
                  },
                ],
              },
            },
          ],
        },
        total_calls_in_response: 1,
      };
      return [
        { id: 2 * turn + 1, source: "agent", action: "run", tool_call_metadata: metadata, args: {} },
        ...(step.answered
          ? [
              {
                id: 2 * turn + 2,
                source: "agent",
                observation: "run",
                content: "ok",
                tool_call_metadata: metadata,
              },
            ]
          : []),
      ];
    }),
  ]);

const adk = fc
  .array(fc.record({ args: payload, answered: fc.boolean() }), { minLength: 1, maxLength: 4 })
  .map((steps) => ({
    id: "s",
    app_name: "app",
    user_id: "u",
    state: {},
    events: [
      { author: "user", invocation_id: "i", content: { role: "user", parts: [{ text: "go" }] } },
      ...steps.flatMap((step, k) => [
        {
          author: "agent",
          invocation_id: "i",
          content: { role: "model", parts: [{ function_call: { id: `c${k}`, name: "f", args: step.args } }] },
        },
        ...(step.answered
          ? [
              {
                author: "agent",
                invocation_id: "i",
                content: {
                  role: "user",
                  parts: [{ function_response: { id: `c${k}`, name: "f", response: {} } }],
                },
              },
            ]
          : []),
      ]),
    ],
  }));

/** Many generated records of one format, one per line. */
const generated = (records: fc.Arbitrary<unknown>, seed: number) =>
  `${fc
    .sample(records, { numRuns: 40, seed })
    .map((record) => JSON.stringify(record))
    .join("\n")}\n`;

const FILES: Array<{ name: string; format: string; text: string }> = [
  {
    name: "marshmallow.traj",
    format: "swe-agent-trajectory",
    text: readFileSync(datasets("swe-agent-marshmallow-1867.traj"), "utf8"),
  },
  { name: "swe-agent.jsonl", format: "swe-agent-trajectory", text: generated(sweAgent, 1) },
  {
    name: "openhands.json",
    format: "openhands-trajectory",
    text: readFileSync(datasets("openhands-wrong_initial_state.json"), "utf8").replaceAll(
      '"arguments": "{\\"command\\": \\"view\\", \\"path\\": \\"/workspace\\"}"',
      '"arguments": "```json\\n{\\"command\\": \\"view\\", \\"path\\": \\"/workspace\\"}\\n```"',
    ),
  },
  { name: "openhands.jsonl", format: "openhands-trajectory", text: generated(openhands, 2) },
  { name: "adk.jsonl", format: "adk-session", text: generated(adk, 3) },
  {
    name: "gemini-cli.json",
    format: "gemini-cli-session",
    text: readFileSync(
      join(repo, "packages/gemini/test/__fixtures__/gemini-cli-session.lookalike.json"),
      "utf8",
    ).replace(
      '"args": { "absolute_path": "/home/dev/parser/tests/test_parser.py" }',
      '"args": "{\\"absolute_path\\": \\"/home/dev/parser/tests/test_parser.py\\",}"',
    ),
  },
  {
    // Expected calls are rewritten in their own shapes too: a nameless call out of its answer.
    name: "bfcl-answers.json",
    format: "bfcl-answer",
    text: readFileSync(datasets("BFCL_v4_live_parallel.possible_answer.json"), "utf8").replace(
      '"ground_truth": [{"get_current_weather"',
      '"ground_truth": [{"": {"x": [1]}}, {"get_current_weather"',
    ),
  },
  {
    name: "adk-eval-set.json",
    format: "adk-eval-set",
    // The first expected tool use's args written as JSON text, as a converter that stringifies would.
    text: readFileSync(
      join(repo, "packages/gemini/test/__fixtures__/adk-dependent_tool_calls.test.json"),
      "utf8",
    ).replace(
      /"args": (\{[^}]*\})/,
      (_, args: string) => `"args": ${JSON.stringify(JSON.stringify(JSON.parse(args)))}`,
    ),
  },
  {
    name: "context.jsonl",
    format: "kimi-cli-context",
    text: readFileSync(
      join(repo, "packages/openai/test/formats/__fixtures__/kimi-cli-context.lookalike.jsonl"),
      "utf8",
    ).replace('"arguments":"{\\"command\\": \\"cd', '"arguments":"```json\\n{\\"command\\": \\"cd'),
  },
  {
    name: "responses-stream.sse",
    format: "openai-responses-stream",
    text: readFileSync(
      join(repo, "packages/openai/test/formats/__fixtures__/responses-stream-call.sse"),
      "utf8",
    )
      .replaceAll('"arguments":"{\\"country\\":\\"France\\"}"', '"arguments":"{\\"country\\":\\"France\\",}"')
      .replace('"delta":"\\"}"}', '"delta":"\\",}"}'),
  },
];

describe("files in each format: detected, repaired, undone byte for byte", () => {
  it.each(FILES)("$name", async ({ name, format, text }) => {
    const input = join(dir, name);
    writeFileSync(input, text);
    const checked = JSON.parse((await run(["check", input, "--json"])).out);
    expect(new Set(checked.files[0].formats)).toEqual(new Set([format]));
    const out = join(dir, `fixed-${name}`);
    const journal = join(dir, `${name}.journal`);
    const repaired = await run([
      "repair",
      input,
      "-o",
      out,
      "--journal",
      journal,
      "--repair",
      "core",
      "--quiet",
    ]);
    expect(repaired.code, repaired.err).toBeLessThan(2);
    expect(readFileSync(out).equals(readFileSync(input))).toBe(false);
    const restored = join(dir, `back-${name}`);
    expect((await run(["undo", out, "--journal", journal, "-o", restored])).code).toBe(0);
    expect(readFileSync(restored).equals(readFileSync(input))).toBe(true);
  });
});

describe("files with nothing to repair are written back as they are", () => {
  it.each([
    ["BFCL_v4_live_parallel.json", "bfcl-question"],
    ["BFCL_v4_live_parallel.possible_answer.json", "bfcl-answer"],
    ["BFCL_v4_multi_turn_base.possible_answer.head.json", "bfcl-answer"],
    ["../../../gemini/test/__fixtures__/adk-dependent_tool_calls.test.json", "adk-eval-set"],
  ])("%s", async (name, format) => {
    const checked = await run(["check", datasets(name), "--json"]);
    expect(checked.code, checked.err).toBe(0);
    const report = JSON.parse(checked.out);
    expect(report.files[0].formats).toEqual([format]);
    const out = join(dir, `fixed-${name.replaceAll("/", "_")}`);
    expect((await run(["repair", datasets(name), "-o", out, "--quiet"])).code).toBeLessThan(2);
    expect(readFileSync(out).equals(readFileSync(datasets(name)))).toBe(true);
  });
});
