import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mentionsSchemaOrg(context: unknown): boolean {
  return JSON.stringify(context ?? "").includes("schema.org");
}

/** The first problem of one JSON-LD block, or undefined when it parses and names schema.org types. */
export function jsonLdProblem(raw: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return "does not parse as JSON";
  }
  const roots = Array.isArray(parsed) ? parsed : [parsed];
  for (const root of roots) {
    if (!isRecord(root)) return "is not a JSON object";
    if (!mentionsSchemaOrg(root["@context"])) return "has no schema.org @context";
    const nodes = Array.isArray(root["@graph"]) ? (root["@graph"] as unknown[]) : [root];
    if (nodes.some((n) => !isRecord(n) || n["@type"] === undefined)) return "has an item without @type";
  }
  return undefined;
}

export const jsonldSyntax: CheckDef = {
  code: "jsonld_syntax",
  title: "Structured data (JSON-LD) is valid",
  group: "structured_data",
  rankGroup: "presentation",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Make every `<script type="application/ld+json">` valid JSON with `"@context": "https://schema.org"` and an `@type` on each item.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        if (page.jsonLd.length === 0 && page.jsonLdInvalid === 0) return "na";
        if (page.jsonLdInvalid > 0) return { verdict: "fail", why: `${page.jsonLdInvalid} block(s) do not parse` };
        const why = page.jsonLd.map(jsonLdProblem).find((p) => p !== undefined);
        return why === undefined ? "pass" : { verdict: "fail", why: `a JSON-LD block ${why}` };
      },
      { problem: "invalid JSON-LD", none: "no page has JSON-LD" },
    );
  },
};
