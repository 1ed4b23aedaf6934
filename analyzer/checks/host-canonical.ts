import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { originOf, statusOrError } from "./response.ts";

const PERMANENT = new Set([301, 308]);

export const hostCanonical: CheckDef = {
  code: "host_canonical",
  title: "One host version, the other redirects",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Make the www and non-www host both resolve, and redirect the one you do not use to the main one with a single 301.",
  run(facts) {
    const twin = facts.wwwVariant;
    // The crawler skips the twin where it makes no sense (IP addresses, ports, deep subdomains).
    if (!twin) return notApplicable("the www/non-www twin was not checked");
    const name = twin.requestedUrl;
    // The catalogue wants both names to resolve: a dead twin loses the visitors who type it.
    if (twin.status === 0) return fail(statusOrError(twin), `${name} does not answer (${statusOrError(twin)})`);
    const first = twin.redirects[0];
    if (!first) return fail(twin.status, `${name} answers ${twin.status} itself: the site is served under two hosts`);
    const target = originOf(first.location);
    if (!PERMANENT.has(first.status)) return fail(first.status, `${name} redirects with ${first.status}, not 301/308`);
    if (target !== originOf(facts.origin)) return fail(first.status, `${name} redirects to ${first.location}, not to ${facts.origin}`);
    return pass(first.status, `${name} redirects with ${first.status} to ${facts.origin}`);
  },
};
