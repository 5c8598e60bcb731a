import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { walkTree } from "./walk-tree.js";

const temp = () => mkdtemp(join(tmpdir(), "toolcall-walk-"));

describe("walkTree", () => {
  it("looks at each entry once: work is the number of entries, however deep or wide the tree", async () => {
    const root = await temp();
    // 400 directories deep (the walk keeps a stack of its own, never the call stack) and 300 files wide.
    let deep = root;
    for (let i = 0; i < 400; i++) {
      deep = join(deep, "d");
      await mkdir(deep);
    }
    await writeFile(join(deep, "bottom.jsonl"), "{}\n");
    await mkdir(join(root, "wide"));
    for (let i = 0; i < 300; i++)
      await writeFile(join(root, "wide", `${String(i).padStart(3, "0")}.json`), "{}");
    const walked = await walkTree({ root });
    expect(walked.entries).toBe(400 + 1 + 1 + 300);
    expect(walked.files).toHaveLength(301);
    expect(walked.files[0]?.relative).toBe(`${"d/".repeat(400)}bottom.jsonl`);
    expect(walked.files.slice(1).map((file) => file.relative)).toEqual(
      Array.from({ length: 300 }, (_, i) => `wide/${String(i).padStart(3, "0")}.json`),
    );
  });

  it("follows no link: a loop of links and a link out of the tree end the walk where they are", async () => {
    const root = await temp();
    const outside = await temp();
    await writeFile(join(outside, "elsewhere.jsonl"), "{}\n");
    await mkdir(join(root, "a"));
    await symlink(root, join(root, "a", "back"));
    await symlink(join(root, "a", "loop2"), join(root, "a", "loop1"));
    await symlink(join(root, "a", "loop1"), join(root, "a", "loop2"));
    await symlink(outside, join(root, "out"));
    await symlink(join(outside, "elsewhere.jsonl"), join(root, "a", "linked.jsonl"));
    await writeFile(join(root, "a", "real.jsonl"), "{}\n");
    const walked = await walkTree({ root });
    expect(walked.files.map((file) => file.relative)).toEqual(["a/real.jsonl"]);
    // Reported: the links that would have been read (a directory, a file the globs take); the loop names nothing.
    expect(walked.skipped.map((entry) => [entry.path.slice(root.length + 1), entry.reason])).toEqual([
      ["out", "symbolic_link"],
      ["a/back", "symbolic_link"],
      ["a/linked.jsonl", "symbolic_link"],
    ]);
    expect(walked.entries).toBe(7);
  });

  it("matches names as names: glob characters, spaces, newlines and non-ASCII in file names", async () => {
    const root = await temp();
    const names = ["[a].jsonl", "sp ace.json", "new\nline.jsonl", "données.ndjson", "*.json", "x.sse.gz"];
    for (const name of names) await writeFile(join(root, name), "{}\n");
    await writeFile(join(root, ".hidden.json"), "{}");
    await writeFile(join(root, "notes.txt"), "");
    const walked = await walkTree({ root });
    expect(walked.files.map((file) => file.relative).sort()).toEqual([...names].sort());
    const excluded = await walkTree({ root, exclude: ["\\[a\\].jsonl", "*.gz"] });
    expect(excluded.files.map((file) => file.relative)).not.toContain("[a].jsonl");
    expect(excluded.files.map((file) => file.relative)).not.toContain("x.sse.gz");
    const pruned = await walkTree({ root, include: ["**"], exclude: ["**/*.json*"] });
    expect(pruned.files.map((file) => file.relative).sort()).toEqual([
      "données.ndjson",
      "notes.txt",
      "x.sse.gz",
    ]);
  });

  it("does not go into an excluded directory, nor one it is told to skip", async () => {
    const root = await temp();
    for (const dir of ["keep", "node_modules/pkg", "out"]) await mkdir(join(root, dir), { recursive: true });
    for (const dir of ["keep", "node_modules/pkg", "out"])
      await writeFile(join(root, dir, "x.jsonl"), "{}\n");
    const walked = await walkTree({ root, exclude: ["**/node_modules"], skip: [join(root, "out")] });
    expect(walked.files.map((file) => file.relative)).toEqual(["keep/x.jsonl"]);
    expect(walked.skipped.map((entry) => entry.reason)).toEqual(["output_inside"]);
    // node_modules itself was looked at once, never read.
    expect(walked.entries).toBe(3 + 1);
  });
});
