export { type CallText, readCallText, writeCallText } from "./call-text.js";
export { datasetFormats } from "./dataset-formats.js";
export { toolsOf } from "./dataset-tools.js";
export { llamafactoryFormat } from "./llamafactory-format.js";
export { sharegptFormat } from "./sharegpt-format.js";
export { findTagged, replaceTagged, type TaggedSegment, textOutside } from "./tagged-calls.js";
