import { REPAIR_ORDER } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { REPAIR_HELP } from "./help.js";

describe("help", () => {
  it("names every repair core knows where --repair is described", () => {
    for (const name of REPAIR_ORDER) expect(REPAIR_HELP).toContain(name);
  });
});
