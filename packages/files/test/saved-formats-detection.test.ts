import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FORMATS } from "../src/records/formats.js";

// The saved-history formats of the AI SDK and LangChain rank above OpenAI Chat and Gemini's contents, whose shapes
// theirs resemble: every real file of every other format keeps the format it had, and theirs are claimed for sure.
const repo = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");
const OWN = ["packages/ai-sdk/test/__fixtures__/saved", "packages/langchain/test/__fixtures__/saved"];
const NEW_IDS = new Set([
  "ai-sdk-ui-messages",
  "ai-sdk-ui-messages-v4",
  "ai-sdk-model-messages",
  "langchain-stored",
  "langchain-serialized",
]);

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : fixtureFiles(path);
    return /\.(json|jsonl|traj)$/.test(name) && path.includes("__fixtures__") ? [path] : [];
  });
}

function recordsOf(path: string): unknown[] {
  const text = readFileSync(path, "utf8");
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) && !value.every((item) => FORMATS.detect(item, "record") === undefined)
      ? [value, ...value]
      : [value];
  } catch {
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .flatMap((line) => {
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      });
  }
}

describe("detection of saved AI SDK and LangChain histories", () => {
  const others = ["packages", "apps"]
    .flatMap((group) => fixtureFiles(join(repo, group)))
    .filter((path) => !OWN.some((own) => path.startsWith(join(repo, own))));

  it("takes no record of any other format's fixtures", () => {
    expect(others.length).toBeGreaterThan(50);
    for (const path of others) {
      for (const record of recordsOf(path)) {
        const found = FORMATS.detect(record, "record");
        expect(
          NEW_IDS.has(found?.format.id ?? ""),
          `${path.slice(repo.length + 1)}: ${found?.format.id}`,
        ).toBe(false);
      }
    }
  });

  it.each(OWN.flatMap((own) => readdirSync(join(repo, own)).map((name) => join(own, name))))(
    "%s is claimed, certain",
    (file) => {
      const found = FORMATS.detect(JSON.parse(readFileSync(join(repo, file), "utf8")), "record");
      expect(found?.certainty).toBe("certain");
      expect(NEW_IDS.has(found?.format.id ?? "")).toBe(true);
    },
  );
});
