import { describeConformance } from "@toolcall/conformance/vitest";
import { coreImplementation } from "./core-implementation.js";

describeConformance({ implementation: coreImplementation });
