import { contextMeter, type RepairRule } from "./repair-rule.js";

/**
 * R6 `markdown-fence`: the whole text wrapped in a Markdown code fence (```` ```json … ``` ````).
 *
 * @example
 * decodeArguments("```json\n{\"city\":\"paris\"}\n```", { repairs: [markdownFence] }).arguments; // { city: "paris" }
 */
export const markdownFence: RepairRule = {
  specificationVersion: "1",
  id: "markdown-fence",
  description: "the whole text wrapped in a ```json fence",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    // The trim, the fence checks and the search for an inner fence each cover the text once, at most.
    meter?.charge(4 * text.length);
    const trimmed = text.trim();
    if (!trimmed.startsWith("```") || !trimmed.endsWith("```") || trimmed.length < 6) return undefined;
    const firstLineEnd = trimmed.indexOf("\n");
    if (firstLineEnd === -1) return undefined;
    const info = trimmed.slice(3, firstLineEnd).trim();
    // An info string is one word (json, JSON, javascript); anything else is content on the fence line.
    if (!/^[A-Za-z0-9_+-]*$/.test(info)) return undefined;
    const inner = trimmed.slice(firstLineEnd + 1, trimmed.length - 3);
    if (inner.includes("```")) return undefined;
    return inner.trim();
  },
};
