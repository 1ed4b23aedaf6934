import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

export const notFoundStatus: CheckDef = {
  code: "not_found_status",
  title: "Missing pages answer 404",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Make unknown URLs answer 404 (or 410) with a helpful page instead of 200 or a redirect to the home page (soft 404s waste crawl budget).",
  run(facts) {
    const probe = facts.notFoundProbe;
    if (!probe) return notApplicable("the missing-page probe was not run");
    // No answer to the probe says nothing about 404 handling; availability is home_status's concern.
    if (probe.status === 0) return notApplicable(`the probe got no answer (${probe.error || "no answer"})`);
    if (probe.status === 404 || probe.status === 410) return pass(probe.status, `a random URL answers ${probe.status}`);
    const via = probe.redirects.length > 0 ? ` after redirecting to ${probe.finalUrl}` : "";
    return fail(probe.status, `a random URL answers ${probe.status}${via} instead of 404`);
  },
};
