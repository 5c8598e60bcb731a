import { vi } from "vitest";

/**
 * Silences the advice `AIMessage`'s constructor prints whenever a turn has provider tool calls but no valid
 * ones, which `ChatOpenAI` builds for every response whose calls are all invalid (the cases under test).
 */
export function quietLangChain(): void {
  const warn = console.warn.bind(console);
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("New LangChain packages are available")) return;
    warn(...args);
  });
}
