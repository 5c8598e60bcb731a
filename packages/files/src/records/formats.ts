import { aiSdkFormats } from "@toolcall/ai-sdk/formats";
import { anthropicFormats } from "@toolcall/anthropic";
import { bedrockFormats } from "@toolcall/bedrock";
import { cohereFormats } from "@toolcall/cohere";
import { type ConversationFormat, createFormatRegistry } from "@toolcall/core/kit";
import { datasetFormats } from "@toolcall/datasets";
import { geminiFormats } from "@toolcall/gemini";
import { langchainFormats } from "@toolcall/langchain/formats";
import { openaiFormats } from "@toolcall/openai";

/**
 * The formats the command line reads: each ecosystem's package exports its formats with their detection priorities;
 * this only composes them (the playground composes the same packages, and a test keeps both equal).
 *
 * @example
 * FORMATS.detect({ conversations: [{ from: "human", value: "hi" }] }, "record")?.format.id; // "sharegpt"
 */
export const FORMATS = createFormatRegistry([
  ...openaiFormats,
  ...anthropicFormats,
  ...datasetFormats,
  ...geminiFormats,
  ...bedrockFormats,
  ...cohereFormats,
  ...aiSdkFormats,
  ...langchainFormats,
]);

/** Which package each format comes from, for the README's table and `toolcall formats`. */
export const FORMAT_PACKAGES: ReadonlyArray<{ name: string; formats: readonly ConversationFormat[] }> = [
  { name: "@toolcall/openai", formats: openaiFormats },
  { name: "@toolcall/anthropic", formats: anthropicFormats },
  { name: "@toolcall/datasets", formats: datasetFormats },
  { name: "@toolcall/gemini", formats: geminiFormats },
  { name: "@toolcall/bedrock", formats: bedrockFormats },
  { name: "@toolcall/cohere", formats: cohereFormats },
  { name: "@toolcall/ai-sdk", formats: aiSdkFormats },
  { name: "@toolcall/langchain", formats: langchainFormats },
];

/**
 * The README's table of formats, generated from the registry (a test keeps the README equal to it): each format in
 * detection order with its id, name, unit and package.
 *
 * @example
 * formatTable().split("\n")[0]; // "| id | what | one record is | package |" (padded)
 */
export function formatTable(): string {
  const rows = FORMATS.formats.map((format) => [
    `\`${format.id}\``,
    format.name,
    format.unit === "session" ? "a whole file of JSON lines" : "a JSON value",
    `\`${FORMAT_PACKAGES.find((entry) => entry.formats.includes(format))?.name ?? "?"}\``,
  ]);
  const header = ["id", "what", "one record is", "package"];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] as string).length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] as number)).join(" | ")} |`;
  return [
    line(header),
    `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`,
    ...rows.map(line),
  ].join("\n");
}

/** Formats whose record is a whole file of JSON lines (an agent's session, a log of streamed chunks). */
export const SESSION_FORMATS: readonly ConversationFormat[] = FORMATS.formats.filter(
  (format) => format.unit === "session",
);

/** Formats whose record is one JSON value (a document, an element of a JSON array, a JSONL line). */
export const RECORD_FORMATS: readonly ConversationFormat[] = FORMATS.formats.filter(
  (format) => format.unit === "record",
);

/**
 * Every format, for `--format` and `toolcall formats`.
 *
 * @example
 * ALL_FORMATS.map((format) => format.id); // ["openai-chat", …]
 */
export const ALL_FORMATS: readonly ConversationFormat[] = FORMATS.formats;

/**
 * The format `--format ID` names, or `undefined`.
 *
 * @example
 * formatById("sharegpt")?.name; // "ShareGPT (glaive, Hermes, LLaMA-Factory)"
 */
export function formatById(id: string): ConversationFormat | undefined {
  return FORMATS.byId(id);
}

/**
 * The record format that claims the value, or `undefined` (a value that only resembles a format is not read: its
 * refusal names the format).
 *
 * @example
 * detectRecordFormat({ messages: [{ role: "user", content: "hi" }] })?.id; // "openai-chat"
 */
export function detectRecordFormat(value: unknown): ConversationFormat | undefined {
  const found = FORMATS.detect(value, "record");
  return found?.claimed ? found.format : undefined;
}

/**
 * The session format whose shape the first lines of a file have, or `undefined`.
 *
 * @example
 * detectSessionFormat([{ type: "session_meta", payload: {} }])?.id; // "codex-rollout"
 */
export function detectSessionFormat(values: readonly unknown[]): ConversationFormat | undefined {
  const found = FORMATS.detect(values, "session");
  return found?.claimed ? found.format : undefined;
}

/**
 * Why a value is in no known format, for `input_format_unknown`: its shape, and the format it probably is with the
 * flag that reads it, or every format expected.
 *
 * @example
 * refusalOf({ contents: [] }); // 'an object with key "contents", in no known format; expected one of: …'
 */
export function refusalOf(value: unknown, options: { brief?: boolean } = {}): string {
  return FORMATS.refusal({ value, unit: "record", ...options });
}
