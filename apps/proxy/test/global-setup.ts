import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The drain test runs the built bin: build it when it is missing or older than the source. */
export default function setup(): void {
  const root = join(import.meta.dirname, "..");
  const bin = join(root, "dist", "cli.js");
  const newest = Math.max(
    ...readdirSync(join(root, "src")).map((f) => statSync(join(root, "src", f)).mtimeMs),
  );
  if (existsSync(bin) && statSync(bin).mtimeMs >= newest) return;
  execFileSync(join(root, "../../node_modules/.bin/tsup"), ["--silent"], { cwd: root, stdio: "inherit" });
}
