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
export { hermes } from "./families/hermes.js";
