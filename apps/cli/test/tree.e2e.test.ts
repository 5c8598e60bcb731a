import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fixtures, root, run, tempDir } from "./helpers.js";

// `check DIR/`, `repair DIR/ -o OUT/` and `undo OUT/` on a tree of real files: the apps' and packages' fixtures (see
// their __fixtures__/README.md for sources and licences), laid out as a user's data folder would be.
const packages = join(root, "..", "..", "packages");
const REAL: Array<[string, string]> = [
  [join(fixtures, "mixed.jsonl"), "mixed.jsonl"],
  [join(fixtures, "doors", "repros.jsonl"), "doors/repros.jsonl"],
  [
    join(packages, "openai", "test", "formats", "__fixtures__", "chat-requests.jsonl"),
    "openai/chat requests.jsonl",
  ],
  [
    join(packages, "openai", "test", "formats", "__fixtures__", "ollama-chat-tools.json"),
    "openai/[ollama].json",
  ],
  [
    join(packages, "datasets", "test", "__fixtures__", "glaive_toolcall_en_demo.json"),
    "datasets/glaive.json",
  ],
  [
    join(packages, "anthropic", "test", "__fixtures__", "claude-code-session.jsonl"),
    "sessions/claude-code.jsonl",
  ],
  [
    join(packages, "gemini", "test", "__fixtures__", "google-requests.jsonl"),
    "sessions/gemini/requests.jsonl",
  ],
];

interface Tree {
  dir: string;
  data: string;
  /** The files a walk reads, by path in the tree. */
  files: string[];
}

/** A data folder: the real files, one gzipped, a file that is no JSON, notes, a hidden folder, links and a loop. */
async function makeTree(): Promise<Tree> {
  const dir = await tempDir();
  const data = join(dir, "data");
  for (const [from, to] of REAL) {
    await mkdir(join(data, to, ".."), { recursive: true });
    await copyFile(from, join(data, to));
  }
  await writeFile(
    join(data, "datasets", "repros.jsonl.gz"),
    gzipSync(await readFile(join(fixtures, "doors", "repros.jsonl"))),
  );
  await writeFile(join(data, "README.md"), "# notes\n");
  await writeFile(join(data, "doors", "broken.json"), "{ not json\n");
  await mkdir(join(data, ".cache"));
  await copyFile(join(fixtures, "mixed.jsonl"), join(data, ".cache", "mixed.jsonl"));
  await symlink(join(data, "mixed.jsonl"), join(data, "sessions", "latest.jsonl"));
  await symlink("..", join(data, "sessions", "gemini", "up"));
  const files = [
    "mixed.jsonl",
    "datasets/glaive.json",
    "datasets/repros.jsonl.gz",
    "doors/broken.json",
    "doors/repros.jsonl",
    "openai/[ollama].json",
    "openai/chat requests.jsonl",
    "sessions/claude-code.jsonl",
    "sessions/gemini/requests.jsonl",
  ];
  return { dir, data, files };
}

interface FileEntry {
  file: string;
  [key: string]: unknown;
}

describe("the CLI on folders", () => {
  it("check DIR/ reads every file of the tree once, as each would be read alone; links are not followed", async () => {
    const tree = await makeTree();
    const walked = await run(["check", "data/", "--json"], { cwd: tree.dir });
    expect(walked.code, walked.err).toBe(2);
    const report = JSON.parse(walked.out) as {
      files: FileEntry[];
      summary: { files: number; conversations: number; skipped: Array<{ path: string; reason: string }> };
      findings: FileEntry[];
    };
    expect(report.files.map((file) => file.file)).toEqual(tree.files.map((file) => join("data", file)));
    expect(report.summary.skipped).toEqual([
      { path: "data/sessions/latest.jsonl", reason: "symbolic_link" },
      { path: "data/sessions/gemini/up", reason: "symbolic_link" },
    ]);
    let conversations = 0;
    for (const file of tree.files) {
      const alone = await run(["check", join("data", file), "--json"], { cwd: tree.dir });
      const single = JSON.parse(alone.out) as { files: FileEntry[]; findings: FileEntry[] };
      expect(report.files.find((entry) => entry.file === join("data", file))).toEqual(single.files[0]);
      expect(report.findings.filter((finding) => finding.file === join("data", file))).toEqual(
        single.findings,
      );
      conversations += (single.files[0]?.conversations as number | undefined) ?? 0;
    }
    expect(report.summary.conversations).toBe(conversations);
    expect(report.summary.files).toBe(tree.files.length);

    const human = await run(["check", "data", "--summary"], { cwd: tree.dir });
    expect(human.out).toContain("data/doors/broken.json: unreadable (input_not_json)");
    expect(human.out).toContain("data/sessions/latest.jsonl: skipped, a symbolic link, not followed");
    expect(human.out).toMatch(/^Total: 9 files, [\d,]+ conversations, .* 1 file not read$/m);
  });

  it("--include and --exclude choose the files; a file named on the command line is always read", async () => {
    const tree = await makeTree();
    const only = await run(
      ["check", "data/", "--include", "**/*.jsonl", "--exclude", "sessions/**", "--json"],
      { cwd: tree.dir },
    );
    expect(only.code, only.err).toBe(1);
    const files = (JSON.parse(only.out) as { files: FileEntry[] }).files.map((file) => file.file);
    expect(files).toEqual(["data/mixed.jsonl", "data/doors/repros.jsonl", "data/openai/chat requests.jsonl"]);
    const hidden = await run(["check", "data/", "--include", ".cache/*.jsonl", "--json"], { cwd: tree.dir });
    expect((JSON.parse(hidden.out) as { files: FileEntry[] }).files.map((file) => file.file)).toEqual([
      "data/.cache/mixed.jsonl",
    ]);
    const clean = await run(["check", "data/openai", "--include", "*requests*"], { cwd: tree.dir });
    expect(clean.code, clean.out).toBe(0);
    const none = await run(["check", "data/", "--include", "**/*.parquet"], { cwd: tree.dir });
    expect(none.code).toBe(2);
    expect(none.out).toContain(
      "data/: unreadable (input_unreadable): a directory with no file matching **/*.parquet",
    );
    const named = await run(["check", "data/README.md", "--exclude", "**"], { cwd: tree.dir });
    expect(named.err + named.out).toContain("data/README.md");
  });

  it("repair DIR/ -o OUT/ writes each file as its own repair would, and undo restores the tree byte for byte", async () => {
    const tree = await makeTree();
    // The output and the journals inside the tree: never read back as input.
    const repaired = await run(
      ["repair", "data/", "-o", "data/fixed/", "--journal", "data/journals/", "--json"],
      {
        cwd: tree.dir,
      },
    );
    expect(repaired.code, repaired.err).toBe(2);
    const report = JSON.parse(repaired.out) as { files: FileEntry[]; summary: { changed: number } };
    expect(report.files.map((file) => file.file)).toEqual(tree.files.map((file) => join("data", file)));
    expect(report.files.find((file) => file.file === "data/doors/broken.json")?.error).toMatchObject({
      code: "input_not_json",
    });
    expect(report.summary.changed).toBeGreaterThan(0);
    for (const file of tree.files.filter((name) => name !== "doors/broken.json")) {
      // Named as in the tree (a .gz output is gzipped), beside it.
      const out = `alone.${file.replaceAll("/", "_")}`;
      const alone = await run(["repair", join("data", file), "-o", out, "--quiet"], { cwd: tree.dir });
      expect(alone.code, file).not.toBe(2);
      const mine = await readFile(join(tree.data, "fixed", file));
      expect(mine.equals(await readFile(join(tree.dir, out))), file).toBe(true);
    }
    // Run again: the output and journal directories now exist inside the tree, and are not read as input.
    const again = await run(
      ["repair", "data/", "-o", "data/fixed/", "--journal", "data/journals/", "--json"],
      {
        cwd: tree.dir,
      },
    );
    const second = JSON.parse(again.out) as { files: FileEntry[]; summary: { skipped: unknown[] } };
    expect(second.files.map((file) => file.file)).toEqual(tree.files.map((file) => join("data", file)));
    expect(second.summary.skipped).toEqual([
      { path: "data/fixed", reason: "output_inside" },
      { path: "data/journals", reason: "output_inside" },
      { path: "data/sessions/latest.jsonl", reason: "symbolic_link" },
      { path: "data/sessions/gemini/up", reason: "symbolic_link" },
    ]);

    const undone = await run(["undo", "data/fixed/", "--journal", "data/journals/", "-o", "restored/"], {
      cwd: tree.dir,
    });
    expect(undone.code, undone.err).toBe(0);
    for (const file of tree.files.filter((name) => name !== "doors/broken.json")) {
      const restored = await readFile(join(tree.dir, "restored", file));
      expect(restored.equals(await readFile(join(tree.data, file))), file).toBe(true);
    }
  });

  it("repair DIR/ --in-place keeps a backup of each changed file; undo --in-place gives every byte back", async () => {
    const tree = await makeTree();
    const before = new Map<string, Buffer>();
    for (const file of tree.files) before.set(file, await readFile(join(tree.data, file)));
    const repaired = await run(
      [
        "repair",
        "data/",
        "--in-place",
        "--journal",
        "journals/",
        "--exclude",
        "doors/broken.json",
        "--summary",
      ],
      { cwd: tree.dir },
    );
    expect(repaired.code, repaired.err).toBe(1);
    expect(repaired.out).toMatch(/^Total: 8 files, .* changed/m);
    expect((await readFile(join(tree.data, "mixed.jsonl"))).equals(before.get("mixed.jsonl") as Buffer)).toBe(
      false,
    );
    expect(
      (await readFile(join(tree.data, "mixed.jsonl.bak"))).equals(before.get("mixed.jsonl") as Buffer),
    ).toBe(true);
    const undone = await run(["undo", "data/", "--journal", "journals/", "--in-place", "--quiet"], {
      cwd: tree.dir,
    });
    expect(undone.code, undone.err).toBe(0);
    for (const file of tree.files) {
      expect((await readFile(join(tree.data, file))).equals(before.get(file) as Buffer), file).toBe(true);
    }
  });

  it("refuses what would lose data: a file as OUT, standard output, the input as its own output", async () => {
    const tree = await makeTree();
    await writeFile(join(tree.dir, "out.jsonl"), "");
    for (const args of [
      ["repair", "data/", "-o", "out.jsonl"],
      ["repair", "data/", "-o", "-"],
      ["repair", "data/", "-o", "data"],
      ["repair", "data/", "-o", "out/", "--journal", "out/"],
      ["undo", "data/", "--journal", "j/", "-o", "-"],
    ]) {
      const refused = await run(args, { cwd: tree.dir });
      expect(refused.code, args.join(" ")).toBe(2);
    }
    expect(await readdir(tree.dir)).toEqual(["data", "out.jsonl"]);
  });
});
