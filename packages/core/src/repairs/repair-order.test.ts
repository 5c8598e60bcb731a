import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "../decode-arguments.js";
import { coreRepairs } from "./index.js";
import { orderRepairs, parseRepairNames, REPAIR_ORDER } from "./repair-order.js";
import type { RepairRule } from "./repair-rule.js";

/** A rule that only reports it ran (for the order of rules from other packages, which core cannot import). */
function marker(id: string, seen: string[] = []): RepairRule {
  return {
    specificationVersion: "1",
    id,
    description: id,
    repair() {
      seen.push(id);
      return undefined;
    },
  };
}

const wild = (
  JSON.parse(
    readFileSync(join(import.meta.dirname, "../../../../../shared/wild/payloads.json"), "utf8"),
  ) as Array<{
    raw: string;
  }>
).map((payload) => payload.raw);

describe("REPAIR_ORDER", () => {
  it("is Gemma's quote markers, core's pipeline in its own order, then jsonrepair", () => {
    expect(REPAIR_ORDER).toEqual([
      "gemma-quote-markers",
      "markdown-fence",
      "family-markup",
      "template-suffix",
      "literal-escapes",
      "python-literal",
      "unquoted-values",
      "control-characters",
      "trailing-commas",
      "stray-text",
      "repeated-object",
      "jsonrepair",
    ]);
    expect(REPAIR_ORDER.slice(1, -1)).toEqual(coreRepairs.map((rule) => rule.id));
    expect(Object.isFrozen(REPAIR_ORDER)).toBe(true);
  });

  it("is the Python conformance runner's too", () => {
    const printed = execFileSync(
      "python3",
      [
        "-c",
        "import json, toolcall_conformance as r; print(json.dumps([r.REPAIR_ORDER, r.CORE_REPAIR_IDS]))",
      ],
      { cwd: join(import.meta.dirname, "../../../conformance/python/src"), encoding: "utf8" },
    );
    expect(JSON.parse(printed)).toEqual([REPAIR_ORDER, coreRepairs.map((rule) => rule.id)]);
  });
});

describe("orderRepairs", () => {
  it("returns a list already in order as it is, without a copy", () => {
    expect(orderRepairs(coreRepairs)).toBe(coreRepairs);
    const empty: RepairRule[] = [];
    expect(orderRepairs(empty)).toBe(empty);
  });

  it("puts rules R6 names in its order and the caller's own after core's, before jsonrepair", () => {
    const rules = [
      "jsonrepair",
      "mine",
      "trailing-commas",
      "gemma-quote-markers",
      "yours",
      "markdown-fence",
    ].map((id) => marker(id));
    const before = [...rules];
    expect(orderRepairs(rules).map((rule) => rule.id)).toEqual([
      "gemma-quote-markers",
      "markdown-fence",
      "trailing-commas",
      "mine",
      "yours",
      "jsonrepair",
    ]);
    expect(rules).toEqual(before);
  });

  it("orders any list: a permutation of it, named rules by rank, the caller's own in their order", () => {
    const ids = [...REPAIR_ORDER, "mine-1", "mine-2", "mine-3"];
    fc.assert(
      fc.property(fc.shuffledSubarray(ids), (picked) => {
        const rules = picked.map((id) => marker(id));
        const ordered = orderRepairs(rules);
        expect([...ordered].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
          [...rules].sort((a, b) => a.id.localeCompare(b.id)),
        );
        const rank = (id: string) => {
          const at = REPAIR_ORDER.indexOf(id);
          return at >= 0 ? at : REPAIR_ORDER.length - 1.5;
        };
        for (let i = 1; i < ordered.length; i++)
          expect(rank((ordered[i] as RepairRule).id)).toBeGreaterThanOrEqual(
            rank((ordered[i - 1] as RepairRule).id),
          );
        const own = (list: readonly RepairRule[]) =>
          list.map((rule) => rule.id).filter((id) => id.startsWith("mine"));
        expect(own(ordered)).toEqual(own(rules));
        expect(orderRepairs(ordered)).toBe(ordered);
      }),
    );
  });

  it("treats a rule whose id cannot be read, or is not a string, as the caller's own", () => {
    const hostile = new Proxy(marker("x"), {
      get(target, key) {
        if (key === "id") throw new Error("no id");
        return Reflect.get(target, key);
      },
    });
    const numeric = { ...marker("y"), id: 7 as unknown as string };
    const ordered = orderRepairs([marker("jsonrepair"), hostile, numeric, marker("markdown-fence")]);
    expect(ordered[0]?.description).toBe("markdown-fence");
    expect(ordered[1]).toBe(hostile);
    expect(ordered[2]).toBe(numeric);
    expect(ordered[3]?.description).toBe("jsonrepair");
  });
});

describe("decodeArguments runs repairs in REPAIR_ORDER's order, whatever order they are listed in", () => {
  it("tries them in that order", () => {
    const seen: string[] = [];
    const listed = ["jsonrepair", "trailing-commas", "gemma-quote-markers", "mine"].map((id) =>
      marker(id, seen),
    );
    expect(decodeArguments("{not json", { repairs: listed }).status).toBe("invalid");
    expect(seen).toEqual(["gemma-quote-markers", "trailing-commas", "mine", "jsonrepair"]);
  });

  it("gives one result for every order of core's rules (wild payloads and arbitrary text)", () => {
    const text = fc.oneof(
      fc.constantFrom(...wild),
      fc.string(),
      fc
        .tuple(fc.constantFrom(...wild), fc.constantFrom(",}", "```", "</tool_call>", "\n", "'", "True"))
        .map(([payload, extra]) => payload + extra),
    );
    fc.assert(
      fc.property(text, fc.shuffledSubarray([...coreRepairs], { minLength: 1 }), (input, listed) => {
        const canonical = coreRepairs.filter((rule) => listed.includes(rule));
        expect(decodeArguments(input, { repairs: listed })).toEqual(
          decodeArguments(input, { repairs: canonical }),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("never applies, and never throws on, a rule without a readable string id (R6 reports repairs by id)", () => {
    const fixes = (text: string) => text.replace(",}", "}");
    const throwingId = new Proxy(
      { specificationVersion: "1", description: "x", repair: fixes },
      {
        get(target, key) {
          if (key === "id") throw new Error("no id");
          return Reflect.get(target, key);
        },
      },
    ) as unknown as RepairRule;
    const numericId = {
      specificationVersion: "1",
      id: 7,
      description: "y",
      repair: fixes,
    } as unknown as RepairRule;
    for (const rule of [throwingId, numericId]) {
      expect(decodeArguments('{"a": 1,}', { repairs: [rule] })).toMatchObject({
        status: "invalid",
        repairs: [],
      });
      expect(decodeArguments('{"a": 1,}', { repairs: [rule, ...coreRepairs] })).toMatchObject({
        status: "repaired",
        repairs: ["trailing-commas"],
      });
    }
  });

  it("stays total with holes and rules that are not rules", () => {
    const listed = [marker("jsonrepair"), undefined, null, 42] as unknown as RepairRule[];
    listed.length = 6;
    const result = decodeArguments("{'a': 1}", { repairs: [...listed, ...coreRepairs] });
    expect(result).toMatchObject({ status: "repaired", arguments: { a: 1 }, repairs: ["python-literal"] });
  });
});

describe("parseRepairNames", () => {
  const coreIds = coreRepairs.map((rule) => rule.id);

  it("expands core, takes repeated and comma-separated names, and answers in REPAIR_ORDER's order", () => {
    expect(parseRepairNames(["jsonrepair, core", "gemma-quote-markers"])).toEqual({
      ok: true,
      ids: ["gemma-quote-markers", ...coreIds, "jsonrepair"],
    });
    expect(parseRepairNames(["trailing-commas,,markdown-fence ", "trailing-commas"])).toEqual({
      ok: true,
      ids: ["markdown-fence", "trailing-commas"],
    });
    expect(parseRepairNames([])).toEqual({ ok: true, ids: [] });
    expect(parseRepairNames(["none"])).toEqual({ ok: true, ids: [] });
  });

  it("refuses unknown names with the known ones, and none beside others", () => {
    for (const name of ["fix-everything", "__proto__", "constructor", "Core", "toString"]) {
      const parsed = parseRepairNames(["core", name]);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toContain(JSON.stringify(name));
        expect(parsed.error).toContain(`known: core, none, ${REPAIR_ORDER.join(", ")}`);
      }
    }
    expect(parseRepairNames("markdown-fence, core")).toMatchObject({ ok: true, ids: coreIds });
    for (const bad of [[1], [null], [["core"]], null, 5] as unknown as string[][])
      expect(parseRepairNames(bad)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^repair names are strings/),
      });
    expect(parseRepairNames(["none", "core"])).toEqual({
      ok: false,
      error: "repair none cannot be combined with other repairs",
    });
  });

  it("gives the same ids whatever the order, grouping and repetition of the names", () => {
    const names = [...REPAIR_ORDER, "core"];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(names),
        fc.array(fc.constantFrom(...names), { maxLength: 3 }),
        fc.integer({ min: 1, max: 3 }),
        (picked, repeated, group) => {
          const all = [...picked, ...repeated];
          const grouped: string[] = [];
          for (let i = 0; i < all.length; i += group) grouped.push(all.slice(i, i + group).join(","));
          const parsed = parseRepairNames(grouped);
          const wanted = new Set(all.flatMap((name) => (name === "core" ? coreIds : [name])));
          expect(parsed).toEqual({ ok: true, ids: REPAIR_ORDER.filter((id) => wanted.has(id)) });
        },
      ),
    );
  });
});
