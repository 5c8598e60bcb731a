// The formats entry (`@toolcall/ai-sdk/formats`): the AI SDK's saved-message formats alone, for a tool that reads
// files and loads neither `ai` nor a model provider.
export { aiSdkFormats } from "./ai-sdk-formats.js";
export { aiSdkModelMessagesFormat } from "./model-messages-format.js";
export { aiSdkUiMessagesFormat } from "./ui-messages-format.js";
