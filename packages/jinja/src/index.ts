export { type ChatTemplateCapabilities, probeChatTemplate } from "./probe-chat-template.js";
export { type PythonJsonOptions, pythonJsonDumps } from "./python-json.js";
export { pyRepr, pyStr } from "./python-repr.js";
export {
  type RenderChatTemplateOptions,
  type RenderChatTemplateResult,
  renderChatTemplate,
  safeRenderChatTemplate,
} from "./render-chat-template.js";
export { strftime } from "./strftime.js";
export { compileTemplate, type RenderOptions, Template, type TemplateOptions } from "./template.js";
export { getCompiledTemplate } from "./template-cache.js";
export { TemplateError } from "./template-error.js";
export { fromPython, PyFloat, toPython, Undefined } from "./values.js";
