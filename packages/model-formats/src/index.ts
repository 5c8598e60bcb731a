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
} from "@toolcall/core/kit";
export { type ContentCallsIssueCode, contentCallSyntaxes } from "./content-call-syntaxes.js";
export { detectOutputSyntax, type OutputSyntax } from "./detect-output-syntax.js";
export { type DetectedSyntax, detectToolCallSyntax } from "./detect-tool-call-syntax.js";
export { foldEvents } from "./engine/define-syntax.js";
export { apertus } from "./families/apertus.js";
export { commandA } from "./families/command-a.js";
export { commandR7b } from "./families/command-r7b.js";
export { deepseekV3, deepseekV31 } from "./families/deepseek.js";
export { deepseekV32 } from "./families/deepseek-dsml.js";
export { exaone4 } from "./families/exaone4.js";
export { functionaryV31, functionaryV32 } from "./families/functionary.js";
export { functionGemma } from "./families/functiongemma.js";
export { gemma4 } from "./families/gemma4.js";
export { gigaChat3 } from "./families/gigachat3.js";
export { glm45, glm47 } from "./families/glm.js";
export { granite } from "./families/granite.js";
export { harmony, harmonyStripped } from "./families/harmony.js";
export { hermes } from "./families/hermes.js";
export { type FencedCall, type FencedCallsResult, readFencedJsonCalls } from "./families/hermes-fenced.js";
export { hyV3, hyV4 } from "./families/hy.js";
export { internS1 } from "./families/interns1.js";
export { kimiK2 } from "./families/kimi.js";
export { kimiK3 } from "./families/kimi3.js";
export { lfm2 } from "./families/lfm2.js";
export { llama3Json, llamaPythonic } from "./families/llama.js";
export { longcat } from "./families/longcat.js";
export { mimo } from "./families/mimo.js";
export { minimaxM2 } from "./families/minimax.js";
export { minimaxM3 } from "./families/minimax-m3.js";
export { mistralArgs, mistralCallIdSyntax, mistralList } from "./families/mistral.js";
export { nemotronNanoV2 } from "./families/nemotron-nano-v2.js";
export { olmo3 } from "./families/olmo3.js";
export { phi4Mini } from "./families/phi4-mini.js";
export { qwen3Coder } from "./families/qwen3-coder.js";
export { seedOss } from "./families/seed-oss.js";
export { step3 } from "./families/step3.js";
export { step35 } from "./families/step3p5.js";
export { hunyuan, jamba } from "./families/tool-calls-list.js";
export { xlam } from "./families/xlam.js";
export { SYNTAX_DESCRIPTORS, SYNTAX_IDS, SYNTAXES, type SyntaxDescriptor, syntaxById } from "./registry.js";
export { assistantMessage, type RoundTripOptions, type RoundTripResult, roundTrip } from "./round-trip.js";
export { type RoundTripDifference, roundTripDifference } from "./round-trip-difference.js";
