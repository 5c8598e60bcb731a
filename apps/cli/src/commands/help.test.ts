import { REPAIR_ORDER } from "@toolcall/core/kit";
import { describe, expect, it } from "vitest";
import { REPAIR_HELP } from "./help.js";

describe("help", () => {
  it("names every repair core knows where --repair is described", () => {
    for (const name of REPAIR_ORDER) expect(REPAIR_HELP).toContain(name);
  });
});

describe("roundtrip help", () => {
  it("names every syntax --syntax takes", async () => {
    const { ROUNDTRIP_HELP } = await import("./help.js");
    const { SYNTAX_IDS } = await import("@toolcall/model-formats");
    const listed = /--syntax ID {2}[\s\S]*?(?=\n {2}--messages)/.exec(ROUNDTRIP_HELP)?.[0] ?? "";
    for (const id of SYNTAX_IDS) expect(listed).toMatch(new RegExp(`[ ,]${id}(,|\\n|$)`));
    expect(SYNTAX_IDS.length).toBeGreaterThanOrEqual(16);
  });
});
