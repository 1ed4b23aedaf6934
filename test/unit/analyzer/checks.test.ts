// Every catalogued check passes on one fixture and fails on another, with exact values.
import { describe, expect, it } from "vitest";
import { CHECKS } from "../../../analyzer/index.ts";
import { BROWSER_CASES, METRIC_WEIGHTS } from "./cases/browser.ts";
import { runCheck, type CheckCase } from "./cases/check-case.ts";
import { CRAWL_CASES } from "./cases/crawl.ts";
import { INDEXING_CASES } from "./cases/indexing.ts";
import { PAGE_CASES } from "./cases/page-content.ts";
import { PRESENTATION_CASES } from "./cases/presentation.ts";
import { SECURITY_CASES } from "./cases/security.ts";
import { TECHNICAL_CASES } from "./cases/technical.ts";
import { healthySite } from "./site-builder.ts";

const CASES: Record<string, CheckCase> = { ...INDEXING_CASES, ...TECHNICAL_CASES, ...SECURITY_CASES, ...PAGE_CASES, ...PRESENTATION_CASES, ...CRAWL_CASES, ...BROWSER_CASES };

describe("check table", () => {
  it("has a passing and a failing case for every check, and no case for a check that does not exist", () => {
    expect(Object.keys(CASES).sort()).toEqual(CHECKS.map((c) => c.code).sort());
  });

  it("has unique codes, catalogue weights and levels, and a hint for every check", () => {
    expect(new Set(CHECKS.map((c) => c.code)).size).toBe(CHECKS.length);
    for (const c of CHECKS) {
      expect(c.weight, c.code).toBe(METRIC_WEIGHTS[c.code] ?? { bad: 6, warn: 3, info: 1 }[c.level]);
      expect(c.hint.length, c.code).toBeGreaterThan(20);
    }
  });

  it("covers every rank group", () => {
    expect(new Set(CHECKS.map((c) => c.rankGroup))).toEqual(
      new Set(["indexing", "technical", "security", "performance", "content", "links", "presentation"]),
    );
  });
});

describe.each(Object.entries(CASES))("%s", (code, c) => {
  it("passes", () => {
    const out = runCheck(code, healthySite(c.pass));
    expect({ status: out.status, value: out.value, score: out.score, cap: out.cap, pages: out.pages }).toEqual({
      status: "pass",
      value: c.passValue,
      score: 1,
      cap: undefined,
      pages: [],
    });
  });

  it("fails", () => {
    const out = runCheck(code, healthySite(c.fail));
    expect({ status: out.status, value: out.value, cap: out.cap }).toEqual({ status: c.failStatus, value: c.failValue, cap: c.cap });
    expect(out.score).toBeCloseTo(c.failScore, 12);
    expect(out.detail).not.toBe("");
  });
});
