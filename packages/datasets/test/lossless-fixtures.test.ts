import { readFileSync } from "node:fs";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import type { ConversationFormat } from "@toolcall/core/kit";
import { describe, it } from "vitest";
import { llamafactoryFormat, sharegptFormat } from "../src/index.js";

// The properties every format keeps, held on each record of the real data sets of __fixtures__: read then written
// with no change is the record itself, and a repair loses no message, call or result without naming it.
const engine = createRecordEngine();
const text = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const jsonl = (name: string) =>
  text(name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

const SETS: Array<[string, ConversationFormat, () => unknown[]]> = [
  ["glaive_toolcall_en_demo.json", sharegptFormat, () => JSON.parse(text("glaive_toolcall_en_demo.json"))],
  [
    "hermes-function-calling-v1-card.jsonl",
    sharegptFormat,
    () => jsonl("hermes-function-calling-v1-card.jsonl"),
  ],
  ["reason_tool_use_demo_50.jsonl", llamafactoryFormat, () => jsonl("reason_tool_use_demo_50.jsonl")],
];

describe("lossless on the real data sets", () => {
  it.each(SETS)("%s", (_name, format, records) => {
    for (const value of records()) expectFormatLossless(format, value, { repair: engine.repair });
  });
});
