import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sanitizeOllamaChat, validateOllamaChat } from "../src/index.js";

const fixtures = fileURLToPath(new URL("./formats/__fixtures__/", import.meta.url));
const text = readFileSync(join(fixtures, "ollama-chat-tools.json"), "utf8");
const fresh = () => JSON.parse(text) as { messages: Array<Record<string, unknown>> };

describe("the door onto Ollama's native /api/chat (core's ollama-native profile)", () => {
  it("a body Ollama takes is clean, and repair leaves it as it is", () => {
    expect(validateOllamaChat(fresh()).issues).toEqual([]);
    expect(sanitizeOllamaChat(fresh()).value).toBeUndefined();
  });

  it("arguments stored as text that is no object are refused in Ollama's words and written back as an object", () => {
    const body = fresh();
    const calls = body.messages[1]?.tool_calls as Array<{ function: { arguments: unknown } }>;
    (calls[1] as { function: { arguments: unknown } }).function.arguments =
      "{'format': 'celsius', 'location': 'Toronto, CA'}";
    const issues = validateOllamaChat(body).issues;
    expect(issues.map((issue) => [issue.code, issue.place, issue.refusedBy])).toEqual([
      ["arguments_invalid_json", "messages[1].tool_calls[1].function.arguments", ["ollama-native"]],
    ]);
    const repaired = sanitizeOllamaChat(body);
    const written = repaired.value as { messages: Array<Record<string, unknown>> };
    const writtenCalls = written.messages[1]?.tool_calls as Array<{ function: { arguments: unknown } }>;
    expect(writtenCalls[1]?.function.arguments).toEqual({ format: "celsius", location: "Toronto, CA" });
    expect(writtenCalls[0]).toBe(calls[0]);
    expect(repaired.remaining).toEqual([]);
  });
});
