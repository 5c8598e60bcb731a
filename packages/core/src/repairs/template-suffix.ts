import type { WorkMeter } from "../work-budget.js";
import { contextMeter, type RepairRule, scanOutsideStrings } from "./repair-rule.js";

/** Tokens chat templates and parsers are seen to leave after the arguments. */
export const TEMPLATE_SUFFIX_TOKENS: readonly string[] = [
  "</tool_call>",
  "<tool_call|>",
  "</function>",
  "</arg_value>",
  "</s>",
  "<|im_end|>",
  "<|eot_id|>",
  "<|eom_id|>",
  "<|end|>",
  "<|call|>",
  "<|endoftext|>",
  "<|end_of_text|>",
  "<end_of_turn>",
  "<|tool_call_end|>",
  "<｜tool▁call▁end｜>",
  "<｜tool▁calls▁end｜>",
];

/** What trying every token once at one place costs at most: each comparison covers a token's length. */
const TOKENS_COST = TEMPLATE_SUFFIX_TOKENS.reduce((sum, token) => sum + token.length, 0);

function stripTokens(text: string, meter: WorkMeter | undefined): string {
  let end = text.length;
  let steps = 0;
  for (;;) {
    while (end > 0 && /\s/.test(text.charAt(end - 1))) {
      end--;
      steps++;
    }
    // Every token is at least 4 characters, so this costs at most TOKENS_COST / 4 per character stripped.
    steps += TOKENS_COST;
    const token = TEMPLATE_SUFFIX_TOKENS.find((t) => text.startsWith(t, end - t.length) && end >= t.length);
    if (token === undefined) {
      meter?.charge(steps + end);
      return text.slice(0, end);
    }
    end -= token.length;
  }
}

/**
 * R6 `template-suffix`: trailing template tokens (`</tool_call>`, `</s>`, `<|im_end|>`, `<tool_call|>` …) and the
 * excess closing braces that come with them.
 *
 * @example
 * decodeArguments("{\"a\":1}}</tool_call>", { repairs: [templateSuffix] }).arguments; // { a: 1 }
 */
export const templateSuffix: RepairRule = {
  specificationVersion: "1",
  id: "template-suffix",
  description: "trailing template tokens and excess closing braces",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    const stripped = stripTokens(text, meter);
    let balance = 0;
    scanOutsideStrings(stripped, (_, c) => {
      if (c === 0x7b || c === 0x5b) balance++;
      else if (c === 0x7d || c === 0x5d) balance--;
    });
    let end = stripped.length;
    // Excess closing braces at the very end only (balance < 0 means more closers than openers).
    while (balance < 0 && end > 0) {
      const c = stripped.charCodeAt(end - 1);
      if (c === 0x7d) {
        end--;
        balance++;
      } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) end--;
      else break;
    }
    const result = stripped.slice(0, end);
    // The scan of the stripped text, the excess braces (at most the text), the copy, the comparison.
    meter?.charge(4 * stripped.length);
    return result === text ? undefined : result;
  },
};
