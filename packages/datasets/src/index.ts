export { type CallText, readCallText, writeCallText } from "./call-text.js";
export { datasetFormats } from "./dataset-formats.js";
export { toolsOf } from "./dataset-tools.js";
export { llamafactoryFormat } from "./llamafactory-format.js";
export { openhandsTrajectoryFormat } from "./openhands-format.js";
export { sharegptFormat } from "./sharegpt-format.js";
export { sweAgentTrajectoryFormat } from "./swe-agent-format.js";
export { findTagged, replaceTagged, type TaggedSegment, textOutside } from "./tagged-calls.js";
