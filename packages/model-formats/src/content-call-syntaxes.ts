import type { Issue, Result } from "@toolcall/core";
import type { ContentCallsOption, ToolCallSyntax } from "@toolcall/core/kit";
import { detectToolCallSyntax } from "./detect-tool-call-syntax.js";
import { syntaxById } from "./registry.js";

/** Why `contentCalls: "auto"` found no syntax it can stand by. */
export type ContentCallsIssueCode =
  | "chat_template_missing"
  | "syntax_undetected"
  | "syntax_ambiguous"
  | "syntax_unsure"
  | "syntax_elsewhere";

/**
 * The syntaxes a door reads content calls in, from the `contentCalls` and `chatTemplate` options every adapter
 * takes (`ToolcallOptions`): syntax objects as given; `"auto"`: the one syntax the chat template writes, found by
 * rendering it (`detectToolCallSyntax`, method `render`). Detection that is not sure is refused with an issue,
 * never guessed (a wrong syntax would run calls the model did not write): no template, a template that writes no
 * known syntax or several, a template only recognised by its source (`signature`), or a syntax this package does not
 * hold (`gemma4`: give `@toolcall/gemma-recovery`'s `gemma4` as a syntax instead).
 *
 * @example
 * import { readFileSync } from "node:fs";
 * const template = readFileSync("Qwen3-Coder.jinja", "utf8");
 * const result = contentCallSyntaxes({ contentCalls: "auto", chatTemplate: template });
 * result.success && result.value.map((syntax) => syntax.id); // ["qwen3-coder"]
 * contentCallSyntaxes({ contentCalls: "auto" }); // { success: false, error: { code: "chat_template_missing", … } }
 */
export function contentCallSyntaxes(options: {
  contentCalls?: ContentCallsOption | undefined;
  chatTemplate?: string | undefined;
}): Result<readonly ToolCallSyntax[], Issue<ContentCallsIssueCode>> {
  const option = options.contentCalls;
  if (option === undefined) return { success: true, value: [] };
  if (option !== "auto") return { success: true, value: option };
  const fail = (
    code: ContentCallsIssueCode,
    message: string,
  ): Result<readonly ToolCallSyntax[], Issue<ContentCallsIssueCode>> => ({
    success: false,
    error: { code, severity: "error", message: `contentCalls "auto": ${message}`, path: ["contentCalls"] },
  });
  if (typeof options.chatTemplate !== "string" || options.chatTemplate === "")
    return fail("chat_template_missing", "give the model's chat template as chatTemplate");
  const detected = detectToolCallSyntax(options.chatTemplate);
  if (detected.candidates.length > 1)
    return fail(
      "syntax_ambiguous",
      `the template writes several syntaxes (${detected.candidates.join(", ")})`,
    );
  if (detected.id === null)
    return fail("syntax_undetected", "the template writes no tool-call syntax known here");
  if (detected.method !== "render")
    return fail(
      "syntax_unsure",
      `the template only looks like ${detected.id} (its rendering did not show it); give the syntax itself`,
    );
  const syntax = syntaxById(detected.id);
  if (syntax === undefined)
    return fail(
      "syntax_elsewhere",
      `the template writes ${detected.id}, whose syntax lives in ${detected.module}: give it as contentCalls: [${detected.id}]`,
    );
  return { success: true, value: [syntax] };
}
