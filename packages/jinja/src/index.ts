export { type ArgumentNote, renderArgumentNotes } from "./chat/argument-notes.js";
export {
  ChatConversation,
  type ChatConversationOptions,
  type ChatConversationRenderOptions,
  createChatConversation,
} from "./chat/chat-conversation.js";
export { type ChatTemplateCapabilities, probeChatTemplate } from "./chat/probe-chat-template.js";
export {
  type RenderChatTemplateOptions,
  type RenderChatTemplateResult,
  renderChatTemplate,
  safeRenderChatTemplate,
} from "./chat/render-chat-template.js";
export { compileTemplate, type RenderOptions, Template, type TemplateOptions } from "./compiler/template.js";
export { getCompiledTemplate } from "./compiler/template-cache.js";
export { type PythonJsonOptions, pythonJsonDumps } from "./filters/python-json.js";
export { strftime } from "./filters/strftime.js";
export { pyRepr, pyStr } from "./runtime/python-repr.js";
export { fromPython, PyFloat, toPython, Undefined } from "./runtime/python-values.js";
export { TemplateError } from "./runtime/template-error.js";
