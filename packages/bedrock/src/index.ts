export { sanitizeBedrockConverse, validateBedrockConverse } from "./bedrock-door.js";
export { bedrockFormats } from "./bedrock-formats.js";
export { bedrockConverseFormat } from "./converse-format.js";
export { TOOL_CONFIG_MISSING } from "./converse-shapes.js";
