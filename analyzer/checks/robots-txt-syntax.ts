import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

// Google reads the first 500 KiB of robots.txt and ignores the rest (RFC 9309 §2.5 allows such a limit).
const MAX_BYTES = 500 * 1024;

export const robotsTxtSyntax: CheckDef = {
  code: "robots_txt_syntax",
  title: "robots.txt parses without errors",
  group: "indexing",
  rankGroup: "indexing",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Fix the robots.txt lines the parser rejects (unknown directives, rules before any User-agent, paths not starting with / or *, relative Sitemap URLs) and keep the file under 500 KiB.",
  run(facts) {
    const robots = facts.robots;
    // No body, no syntax: robots_txt_fetch reports a failed or missing file.
    if (!robots?.present) return notApplicable("no robots.txt body to parse");
    const problems = [...robots.syntaxErrors];
    if (robots.sizeBytes > MAX_BYTES) problems.push(`${robots.sizeBytes} bytes: Google ignores everything after 500 KiB`);
    if (problems.length === 0) return pass(0, "robots.txt parses cleanly");
    return fail(problems.length, `${problems.length} problem${problems.length === 1 ? "" : "s"} in robots.txt (${problems[0]})`);
  },
};
