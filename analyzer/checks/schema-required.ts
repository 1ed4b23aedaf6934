import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { hasValue, isRecord, schemaNodes, typesOf, type SchemaNode } from "./schema-nodes.ts";

// Required properties per type (seo-anchors §2.8 schema_required); "a|b" means one of them.
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  Organization: ["name", "url", "logo"],
  WebSite: ["name", "url"],
  Product: ["name", "offers|review|aggregateRating"],
  Article: ["headline", "image", "datePublished", "author"],
  NewsArticle: ["headline", "image", "datePublished", "author"],
  BlogPosting: ["headline", "image", "datePublished", "author"],
  LocalBusiness: ["name", "address"],
};

/** Breadcrumb entries need a position and a name, and a URL (item) except the last one (the page itself). */
function breadcrumbProblem(node: SchemaNode): string | undefined {
  const list = node.itemListElement;
  if (!Array.isArray(list) || list.length === 0) return "BreadcrumbList without itemListElement";
  for (const [i, el] of list.entries()) {
    if (!isRecord(el)) return `BreadcrumbList entry ${i + 1} is not an object`;
    const item = el.item;
    const named = hasValue(el, "name") || (isRecord(item) && hasValue(item, "name"));
    const missing = [...(hasValue(el, "position") ? [] : ["position"]), ...(named ? [] : ["name"]), ...(item || i === list.length - 1 ? [] : ["item"])];
    if (missing.length > 0) return `BreadcrumbList entry ${i + 1} lacks ${missing.join(", ")}`;
  }
  return undefined;
}

/** Whether any item has a type with required properties, and the first one missing. */
export function schemaProblem(nodes: readonly SchemaNode[]): { judged: boolean; problem?: string } {
  let judged = false;
  for (const node of nodes) {
    for (const type of typesOf(node)) {
      if (type === "BreadcrumbList") {
        judged = true;
        const problem = breadcrumbProblem(node);
        if (problem) return { judged, problem };
      }
      const required = REQUIRED[type];
      if (!required) continue;
      judged = true;
      const missing = required.filter((p) => !p.split("|").some((alt) => hasValue(node, alt)));
      if (missing.length > 0) return { judged, problem: `${type} lacks ${missing.map((m) => m.replace(/\|/g, " or ")).join(", ")}` };
    }
  }
  return { judged };
}

export const schemaRequired: CheckDef = {
  code: "schema_required",
  title: "Structured data items have their required properties",
  group: "structured_data",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Complete each JSON-LD item: Organization name, url, logo; WebSite name, url; Product name and offers, review or aggregateRating; Article headline, image, datePublished, author; LocalBusiness name, address; breadcrumb entries position, name, item.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const { judged, problem } = schemaProblem(schemaNodes(page.jsonLd));
        if (!judged) return "na";
        return problem === undefined ? "pass" : { verdict: "fail", why: problem };
      },
      { problem: "structured data item without a required property", none: "no page has JSON-LD items of a checked type" },
    );
  },
};
