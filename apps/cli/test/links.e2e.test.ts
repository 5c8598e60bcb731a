import { readFileSync } from "node:fs";
import { link, lstat, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtures, run, tempDir } from "./helpers.js";

// Names that are one file however they are spelled: symbolic links (to a file, dangling, looping), hard links and
// other spellings of a path. No repair ever writes one file through another's name, and a link given as a path is
// never replaced by a regular file.

const mixed = () => readFileSync(join(fixtures, "mixed.jsonl"));
const repairedMixed = () => readFileSync(join(fixtures, "mixed.repaired.jsonl"));

/** A fresh directory holding mixed.jsonl as `name`. */
async function work(name = "in.jsonl"): Promise<string> {
  const path = await tempDir("toolcall-cli-links-");
  await writeFile(join(path, name), mixed());
  return path;
}

describe("--in-place through a symbolic link", () => {
  it("repairs the file the link names, keeps the link, and the backup holds the original bytes", async () => {
    const cwd = await work("s.jsonl");
    await symlink("s.jsonl", join(cwd, "l.jsonl"));
    const result = await run(["repair", "l.jsonl", "--in-place", "--quiet"], { cwd });
    expect(result.code).toBe(1); // written; two lines passed through unread
    expect((await lstat(join(cwd, "l.jsonl"))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(cwd, "l.jsonl"))).toBe("s.jsonl");
    expect((await readFile(join(cwd, "s.jsonl"))).equals(repairedMixed())).toBe(true);
    const backup = await lstat(join(cwd, "l.jsonl.bak"));
    expect(backup.isFile()).toBe(true);
    expect((await readFile(join(cwd, "l.jsonl.bak"))).equals(mixed())).toBe(true);
    await rm(cwd, { recursive: true, force: true });
  });

  it("a link in a chain (a link to a link) is followed to the file, and the backup still holds the original", async () => {
    const cwd = await work("s.jsonl");
    await symlink("s.jsonl", join(cwd, "a.jsonl"));
    await symlink("a.jsonl", join(cwd, "b.jsonl"));
    const result = await run(["repair", "b.jsonl", "--in-place", "--quiet"], { cwd });
    expect(result.code).toBe(1);
    expect((await readFile(join(cwd, "b.jsonl.bak"))).equals(mixed())).toBe(true);
    expect((await readFile(join(cwd, "s.jsonl"))).equals(repairedMixed())).toBe(true);
    expect((await lstat(join(cwd, "b.jsonl"))).isSymbolicLink()).toBe(true);
    await rm(cwd, { recursive: true, force: true });
  });
});

describe("files that are one file are refused before anything is written", () => {
  const cases: Array<{ name: string; setup: (cwd: string) => Promise<string[]>; code: string }> = [
    {
      name: "a --journal that is a link to the input",
      setup: async (cwd) => {
        await symlink("in.jsonl", join(cwd, "j.link"));
        return ["-o", "out.jsonl", "--journal", "j.link"];
      },
      code: "output_is_input",
    },
    {
      name: "a --journal that is a hard link to the input",
      setup: async (cwd) => {
        await link(join(cwd, "in.jsonl"), join(cwd, "j.hard"));
        return ["-o", "out.jsonl", "--journal", "j.hard"];
      },
      code: "output_is_input",
    },
    {
      name: "a --journal that is a link to the output (neither exists yet)",
      setup: async (cwd) => {
        await symlink("out.jsonl", join(cwd, "j.link"));
        return ["-o", "out.jsonl", "--journal", "j.link"];
      },
      code: "outputs_are_one_file",
    },
    {
      name: "a --journal spelled ./OUT for the output OUT",
      setup: async () => ["-o", "out.jsonl", "--journal", "./out.jsonl"],
      code: "outputs_are_one_file",
    },
    {
      name: "an -o that is a link to the input",
      setup: async (cwd) => {
        await symlink(join(cwd, "in.jsonl"), join(cwd, "o.link"));
        return ["-o", "o.link"];
      },
      code: "output_is_input",
    },
    {
      name: "an -o through a linked directory to the input",
      setup: async (cwd) => {
        await symlink(cwd, join(cwd, "here"));
        return ["-o", "here/in.jsonl"];
      },
      code: "output_is_input",
    },
    {
      name: "--in-place with a --journal that is a link to the input",
      setup: async (cwd) => {
        await symlink("in.jsonl", join(cwd, "j.link"));
        return ["--in-place", "--journal", "j.link"];
      },
      code: "output_is_input",
    },
    {
      name: "--in-place with a --journal where the backup goes",
      setup: async () => ["--in-place", "--journal", "in.jsonl.bak"],
      code: "outputs_are_one_file",
    },
  ];

  for (const { name, setup, code } of cases) {
    it(name, async () => {
      const cwd = await work();
      const args = await setup(cwd);
      const before = await readdir(cwd);
      const result = await run(["repair", "in.jsonl", ...args, "--quiet"], { cwd });
      expect(result.code).toBe(2);
      expect(result.err).toContain(code);
      expect((await readFile(join(cwd, "in.jsonl"))).equals(mixed())).toBe(true);
      // Nothing was made or replaced: no output, no journal, no backup, no temporary file.
      expect((await readdir(cwd)).sort()).toEqual(before.sort());
      await rm(cwd, { recursive: true, force: true });
    });
  }

  it("undo refuses to write the restored file over its journal through a link", async () => {
    const cwd = await work();
    await run(["repair", "in.jsonl", "-o", "out.jsonl", "--journal", "j.jsonl", "--quiet"], { cwd });
    await symlink("j.jsonl", join(cwd, "j.link"));
    const journal = await readFile(join(cwd, "j.jsonl"));
    const undone = await run(["undo", "out.jsonl", "--journal", "j.jsonl", "-o", "j.link"], { cwd });
    expect(undone.code).toBe(2);
    expect(undone.err).toContain("is the journal");
    expect((await readFile(join(cwd, "j.jsonl"))).equals(journal)).toBe(true);
    await rm(cwd, { recursive: true, force: true });
  });

  it("a journal and an output of their own are still written, and undo gives the input back", async () => {
    const cwd = await work();
    const result = await run(["repair", "in.jsonl", "-o", "out.jsonl", "--journal", "j.jsonl", "--quiet"], {
      cwd,
    });
    expect(result.code).toBe(1);
    const undone = await run(["undo", "out.jsonl", "--journal", "j.jsonl", "-o", "back.jsonl", "--quiet"], {
      cwd,
    });
    expect(undone.code).toBe(0);
    expect((await readFile(join(cwd, "back.jsonl"))).equals(mixed())).toBe(true);
    await rm(cwd, { recursive: true, force: true });
  });
});

describe("a symbolic link given as -o is never replaced", () => {
  it("a dangling link: the file it names is created, and the link stays a link", async () => {
    const cwd = await work();
    await symlink("made.jsonl", join(cwd, "dangling.jsonl"));
    const result = await run(["repair", "in.jsonl", "-o", "dangling.jsonl", "--quiet"], { cwd });
    expect(result.code).toBe(1);
    expect((await lstat(join(cwd, "dangling.jsonl"))).isSymbolicLink()).toBe(true);
    expect((await readFile(join(cwd, "made.jsonl"))).equals(repairedMixed())).toBe(true);
    await rm(cwd, { recursive: true, force: true });
  });

  it("a dangling link into a missing directory: output_unwritable, the link untouched", async () => {
    const cwd = await work();
    await symlink("no-such-dir/made.jsonl", join(cwd, "dangling.jsonl"));
    const result = await run(["repair", "in.jsonl", "-o", "dangling.jsonl", "--quiet"], { cwd });
    expect(result.code).toBe(2);
    expect(result.err).toContain("output_unwritable");
    expect(await readlink(join(cwd, "dangling.jsonl"))).toBe("no-such-dir/made.jsonl");
    await rm(cwd, { recursive: true, force: true });
  });

  it("a loop of links: refused with the reason, both links untouched, no temporary file", async () => {
    const cwd = await work();
    await symlink("loop2", join(cwd, "loop1"));
    await symlink("loop1", join(cwd, "loop2"));
    const result = await run(["repair", "in.jsonl", "-o", "loop1"], { cwd });
    expect(result.code).toBe(2);
    expect(result.out).toContain("output_unwritable");
    expect(result.out).toContain("too many levels of symbolic links");
    expect(await readlink(join(cwd, "loop1"))).toBe("loop2");
    expect(await readlink(join(cwd, "loop2"))).toBe("loop1");
    expect((await readdir(cwd)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    await rm(cwd, { recursive: true, force: true });
  });

  it("a journal given as a dangling link creates the file it names", async () => {
    const cwd = await work();
    await symlink("journal.jsonl", join(cwd, "j.link"));
    const result = await run(["repair", "in.jsonl", "-o", "out.jsonl", "--journal", "j.link", "--quiet"], {
      cwd,
    });
    expect(result.code).toBe(1);
    expect((await lstat(join(cwd, "j.link"))).isSymbolicLink()).toBe(true);
    expect((await stat(join(cwd, "journal.jsonl"))).size).toBeGreaterThan(0);
    await rm(cwd, { recursive: true, force: true });
  });
});

describe("a full disk names the file that could not be written", () => {
  // Large enough that the first batch is written while the input is still being read (not only at the end).
  let cwd: string;
  beforeAll(async () => {
    cwd = await work();
    await writeFile(join(cwd, "big.jsonl"), Buffer.concat(Array.from({ length: 2048 }, () => mixed())));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("the output on /dev/full: output_unwritable naming /dev/full, never input_unreadable", async () => {
    const result = await run(["repair", "big.jsonl", "-o", "/dev/full", "--quiet"], { cwd });
    expect(result.code).toBe(2);
    expect(result.err).toContain("output_unwritable: /dev/full: no space left on device");
    expect(result.err).not.toContain("input_unreadable");
  });

  it("the journal on /dev/full: output_unwritable naming it, and the output is not left behind", async () => {
    const result = await run(
      ["repair", "big.jsonl", "-o", "big.out.jsonl", "--journal", "/dev/full", "--quiet"],
      { cwd },
    );
    expect(result.code).toBe(2);
    expect(result.err).toContain("output_unwritable: /dev/full: no space left on device");
    expect(result.err).not.toContain("input_unreadable");
    const names = await readdir(cwd);
    expect(names).not.toContain("big.out.jsonl");
    expect(names.filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect((await stat("/dev/full")).isCharacterDevice()).toBe(true);
  });
});
