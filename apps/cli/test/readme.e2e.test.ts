import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bin, cleanEnv, fixtures, root, runProcess, tempDir } from "./helpers.js";

/**
 * The READMEs' command lines, run as printed: every line of every `sh` block of this package's README, in order, in
 * a shell whose `toolcall` is the built bin, in a directory holding the files the lines name. The lines that build
 * or test the repository itself (`pnpm …`, `npx -y pnpm@… install`) are the only ones left out; the root README's
 * `start -- COMMAND` forms are run through the command the root `start` script ends with.
 */

const repository = join(root, "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** Each command line of the README's `sh` blocks (a line ending in `\` continues on the next). */
function shellLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    let pending = "";
    for (const line of (block[1] ?? "").split("\n")) {
      if (line.endsWith("\\")) {
        pending += `${line.slice(0, -1)} `;
        continue;
      }
      const whole = (pending + line).trim();
      pending = "";
      if (whole !== "" && !whole.startsWith("#")) lines.push(whole);
    }
  }
  return lines;
}

/** Lines about building and testing the repository, not about using the command line. */
const isDevelopment = (line: string) =>
  /^(pnpm |npx -y pnpm@)/.test(line) || /UPDATE_GOLDEN=1 pnpm /.test(line);

/** A Hermes-style template (calls in `<tool_call>` JSON, as Qwen's write them), so `probe` and `roundtrip` find a syntax. */
const CHAT_TEMPLATE = `{%- if tools %}<|im_start|>system
Tools: {% for tool in tools %}{{ tool.function.name }} {% endfor %}<|im_end|>
{% endif -%}
{%- for message in messages -%}
<|im_start|>{{ message.role }}
{{ message.content if message.content is string else '' }}
{%- if message.tool_calls %}{% for call in message.tool_calls %}<tool_call>
{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}
</tool_call>{% endfor %}{% endif %}
{%- if message.tool_call_id %} [{{ message.tool_call_id }}]{% endif %}<|im_end|>
{% endfor -%}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif -%}
`;

/** A model's output, as a completions endpoint returns it (the stop token stripped). */
const RAW = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
const COMPLETION = {
  id: "cmpl-8f2c",
  object: "text_completion",
  created: 1767323045,
  model: "Qwen/Qwen2.5-7B-Instruct",
  choices: [{ index: 0, text: RAW, logprobs: null, finish_reason: "stop", stop_reason: null }],
  usage: { prompt_tokens: 61, total_tokens: 84, completion_tokens: 23 },
};

const ROLLOUT = {
  messages: [
    { role: "user", content: "Weather in Paris?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "get_weather", arguments: '{"city": "Paris", "n": 1.0}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "18C" },
  ],
};
const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

/** A directory holding every file the README's lines name. */
async function workspace(): Promise<string> {
  const work = await tempDir("toolcall-readme-");
  await copyFile(join(root, "examples", "poisoned-session.json"), join(work, "session.json"));
  const sessions = await readFile(join(fixtures, "mixed.jsonl"));
  await writeFile(join(work, "sessions.jsonl"), sessions);
  await writeFile(join(work, "session.jsonl"), sessions);
  await writeFile(join(work, "sessions.jsonl.gz"), gzipSync(sessions));
  await writeFile(join(work, "copy-a.jsonl"), sessions);
  await writeFile(join(work, "copy-b.jsonl"), sessions);
  await copyFile(
    join(repository, "packages", "datasets", "test", "__fixtures__", "glaive_toolcall_en_demo.json"),
    join(work, "data.json"),
  );
  // A folder of data sets, for the lines on folders.
  await mkdir(join(work, "data", "archive"), { recursive: true });
  await writeFile(join(work, "data", "sessions.jsonl"), sessions);
  await writeFile(join(work, "data", "archive", "old.jsonl.gz"), gzipSync(sessions));
  await copyFile(
    join(repository, "packages", "datasets", "test", "__fixtures__", "glaive_toolcall_en_demo.json"),
    join(work, "data", "glaive.json"),
  );
  await writeFile(join(work, "chat_template.jinja"), CHAT_TEMPLATE);
  await writeFile(
    join(work, "tokenizer_config.json"),
    `${JSON.stringify({ chat_template: CHAT_TEMPLATE, bos_token: "<s>", eos_token: "</s>" }, null, 2)}\n`,
  );
  await writeFile(join(work, "rollout.json"), `${JSON.stringify(ROLLOUT, null, 2)}\n`);
  await writeFile(join(work, "tools.json"), `${JSON.stringify(TOOLS, null, 2)}\n`);
  await writeFile(join(work, "raw.txt"), RAW);
  await writeFile(join(work, "completion.json"), `${JSON.stringify(COMPLETION, null, 2)}\n`);
  const core = pathToFileURL(
    join(root, "node_modules", "@toolcall", "core", "dist", "conformance-implementation.js"),
  ).href;
  await mkdir(join(work, "dist"));
  await writeFile(
    join(work, "dist", "toolcall-implementation.js"),
    `export { coreImplementation as implementation } from ${JSON.stringify(core)};\n`,
  );
  await writeFile(
    join(work, "impl.mjs"),
    `export { coreImplementation as myImplementation } from ${JSON.stringify(core)};\n`,
  );
  await mkdir(join(work, "bin"));
  await writeFile(
    join(work, "bin", "toolcall"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} "$@"\n`,
  );
  await chmod(join(work, "bin", "toolcall"), 0o755);
  return work;
}

interface ShellResult {
  code: number | null;
  out: string;
  err: string;
}

/** Runs one line in bash with `pipefail` (a failing `toolcall` before `| jq` counts), `toolcall` on the PATH. */
function shell(line: string, cwd: string): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-o", "pipefail", "-c", line], {
      cwd,
      env: cleanEnv({ PATH: `${join(cwd, "bin")}:${process.env.PATH ?? ""}`, TMPDIR: cwd }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("the README's command lines", () => {
  const lines = shellLines(readme);
  const used = lines.filter((line) => !isDevelopment(line));

  it("finds the lines of every command", () => {
    for (const command of [
      "check",
      "repair",
      "undo",
      "formats",
      "providers",
      "conformance",
      "render",
      "probe",
      "roundtrip",
    ])
      expect(
        used.some((line) => line.startsWith(`toolcall ${command} `) || line === `toolcall ${command}`),
      ).toBe(true);
    expect(used.some((line) => line.startsWith("split "))).toBe(true);
  });

  it("runs every line as printed: 0, or 1 for a file with errors; never a usage error or an unreadable file", async () => {
    const work = await workspace();
    for (const line of used) {
      const result = await shell(line, work);
      const context = `${line}\n${result.err}`;
      expect(result.code === 0 || result.code === 1, context).toBe(true);
      expect(result.err, context).not.toMatch(
        /usage|unknown (command|option)|No such file|command not found/i,
      );
      // Commands on inputs without errors, and listing commands, exit 0.
      if (
        /^toolcall (formats|providers|conformance|render|probe|undo|roundtrip)\b/.test(line) ||
        /\| toolcall roundtrip\b/.test(line) ||
        line.startsWith("split ")
      )
        expect(result.code, context).toBe(0);
    }
    // What the lines wrote is what they say: undo gives the input back byte for byte; the shards join into a repair.
    expect(await readFile(join(work, "session.original.json"))).toEqual(
      await readFile(join(work, "session.json")),
    );
    const joined = (await readFile(join(work, "sessions.fixed.jsonl"), "utf8")).split("\n").length;
    expect(joined).toBe((await readFile(join(work, "sessions.jsonl"), "utf8")).split("\n").length);
    expect((await readFile(join(work, "piped.jsonl"))).length).toBeGreaterThan(0);
    expect(
      (await readFile(join(work, "copy-a.jsonl.bak"))).equals(await readFile(join(work, "sessions.jsonl"))),
    ).toBe(true);
    // The folder: undo gave every file back; --in-place kept each changed file's original beside it.
    for (const [restored, original] of [
      ["restored/sessions.jsonl", "sessions.jsonl"],
      ["restored/glaive.json", "data.json"],
      ["data/sessions.jsonl.bak", "sessions.jsonl"],
    ] as const) {
      expect(
        (await readFile(join(work, restored))).equals(await readFile(join(work, original))),
        restored,
      ).toBe(true);
    }
    expect((await readFile(join(work, "restored/archive/old.jsonl.gz"))).length).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(join(work, "report.json"), "utf8")).summary.files).toBe(1);
  }, 300_000);
});

describe("the root README's command forms", () => {
  const rootReadme = readFileSync(join(repository, "README.md"), "utf8");
  const rootPackage = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };

  it("start runs the built command line from where the user stands (`start -- check FILE`)", async () => {
    expect(rootPackage.scripts.start).toMatch(/&& node scripts\/start\.mjs$/);
    const forms = [...rootReadme.matchAll(/start -- ([^`]+)`/g)].map((match) => (match[1] ?? "").trim());
    expect(forms.length).toBeGreaterThanOrEqual(2);
    const work = await workspace();
    for (const form of forms) {
      // As pnpm runs it: from the repository root, with INIT_CWD naming the user's directory and `--` passed through.
      const result = await runProcess(
        [join(repository, "scripts", "start.mjs"), "--", ...form.split(/\s+/)],
        { cwd: repository, env: { INIT_CWD: work } },
      );
      expect(result.code === 0 || result.code === 1, `${form}\n${result.err}`).toBe(true);
      expect(result.err).not.toMatch(/unknown command|usage|ENOENT|cannot read/i);
    }
  }, 120_000);

  it("start resolves a relative FILE from the caller's directory, not the repository root", async () => {
    const work = await workspace();
    const result = await runProcess(
      [join(repository, "scripts", "start.mjs"), "--", "check", "session.json"],
      {
        cwd: repository,
        env: { INIT_CWD: work },
      },
    );
    expect(result.code, result.err).toBe(1);
    expect(result.out).toMatch(/session\.json/);
  }, 60_000);
});
