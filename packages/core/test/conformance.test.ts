import { describeConformance } from "@toolcall/conformance/vitest";
import { coreImplementation } from "../src/conformance-implementation.js";

describeConformance({ implementation: coreImplementation });
