// The formats entry (`@toolcall/langchain/formats`): LangChain's saved-message formats alone, for a tool that reads
// files without loading `@langchain/core`.
export { langchainFormats } from "./langchain-formats.js";
export { langchainSerializedFormat } from "./langchain-serialized-format.js";
export { langchainStoredFormat } from "./langchain-stored-format.js";
