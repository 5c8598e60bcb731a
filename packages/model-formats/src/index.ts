export type {
  EncodableToolCall,
  SyntaxIssue,
  SyntaxParseOptions,
  SyntaxParseResult,
  SyntaxStream,
  SyntaxStreamEvent,
  SyntaxToolCall,
  ToolCallSyntax,
  WorkCounter,
} from "@toolcall/core";
export { type DetectedSyntax, detectToolCallSyntax } from "./detect-tool-call-syntax.js";
export { foldEvents } from "./engine/define-syntax.js";
export { deepseekV3, deepseekV31 } from "./families/deepseek.js";
export { deepseekV32 } from "./families/deepseek-dsml.js";
export { glm45, glm47 } from "./families/glm.js";
export { harmony, harmonyStripped } from "./families/harmony.js";
export { hermes } from "./families/hermes.js";
export { kimiK2 } from "./families/kimi.js";
export { llama3Json, llamaPythonic } from "./families/llama.js";
export { mistralArgs, mistralCallIdSyntax, mistralList } from "./families/mistral.js";
export { SYNTAX_DESCRIPTORS, SYNTAXES, type SyntaxDescriptor, syntaxById } from "./registry.js";
export { assistantMessage, type RoundTripOptions, type RoundTripResult, roundTrip } from "./round-trip.js";
export { type RoundTripDifference, roundTripDifference } from "./round-trip-difference.js";
