import { UtilityError, defineUtility, type NetResponse, type Warning } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { fetchFollowing, netOf, requireHtml } from "./net-util.ts";

interface Input {
  url?: string;
  html?: string;
}

/**
 * Google's rich-result rules for the types the catalogue names: properties a result needs
 * (`a|b`: one of them) and those it recommends.
 */
const RULES: Readonly<Record<string, { required: readonly string[]; recommended: readonly string[] }>> = {
  Product: { required: ["name", "offers|review|aggregateRating"], recommended: ["image", "description", "brand", "sku"] },
  Article: { required: [], recommended: ["headline", "image", "datePublished", "dateModified", "author"] },
  NewsArticle: { required: [], recommended: ["headline", "image", "datePublished", "dateModified", "author"] },
  BlogPosting: { required: [], recommended: ["headline", "image", "datePublished", "dateModified", "author"] },
  FAQPage: { required: ["mainEntity"], recommended: [] },
  BreadcrumbList: { required: ["itemListElement"], recommended: [] },
  Organization: { required: [], recommended: ["name", "url", "logo", "sameAs"] },
  LocalBusiness: { required: ["name", "address"], recommended: ["telephone", "openingHoursSpecification", "geo", "url", "priceRange"] },
  Event: { required: ["name", "startDate", "location"], recommended: ["endDate", "description", "image", "offers", "eventStatus", "organizer"] },
  Recipe: { required: ["name", "image"], recommended: ["author", "datePublished", "description", "recipeIngredient", "recipeInstructions", "totalTime"] },
  VideoObject: { required: ["name", "thumbnailUrl", "uploadDate"], recommended: ["description", "contentUrl", "duration", "embedUrl"] },
};

interface Item {
  type: string;
  source: "json-ld" | "microdata";
  props: string[];
  errors: string[];
  warnings: string[];
}

/** The nodes of a JSON-LD document that carry a type: the top level and an @graph's members. */
function nodes(data: unknown): Record<string, unknown>[] {
  if (Array.isArray(data)) return data.flatMap(nodes);
  if (data === null || typeof data !== "object") return [];
  const obj = data as Record<string, unknown>;
  const graph = obj["@graph"];
  return [...(obj["@type"] !== undefined ? [obj] : []), ...(graph !== undefined ? nodes(graph) : [])];
}

function present(node: Record<string, unknown>, prop: string): boolean {
  const v = node[prop];
  return v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);
}

function check(type: string, node: Record<string, unknown> | null): Pick<Item, "errors" | "warnings"> {
  const rule = RULES[type];
  if (!rule || node === null) return { errors: [], warnings: [] };
  const errors = rule.required.filter((r) => !r.split("|").some((p) => present(node, p))).map((r) => `missing required ${r.split("|").join(" or ")}`);
  const warnings = rule.recommended.filter((p) => !present(node, p)).map((p) => `missing recommended ${p}`);
  return { errors, warnings };
}

export const structuredData = defineUtility<Input>({
  id: "structured_data",
  group: "site",
  title: "Structured data extractor",
  description:
    "Extracts JSON-LD and Microdata from a URL or pasted HTML. Reports syntax errors, @types, and missing required or recommended properties for rich-result types (Product, Article, FAQPage, BreadcrumbList, Organization, LocalBusiness, Event, Recipe, VideoObject)",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL" },
    { name: "html", type: "text", label: "HTML" },
  ],
  oneOf: [["url", "html"]],
  example: { url: "https://example.com/" },
  async run(input, ports) {
    const net = netOf(ports);
    let res: NetResponse;
    if (input.html !== undefined) {
      // Pasted HTML is read by the same parser, as if a page at example.invalid answered it.
      const body = new TextEncoder().encode(input.html);
      res = {
        url: "https://example.invalid/",
        status: 200,
        status_text: "OK",
        http_version: "1.1",
        ip: "",
        headers: [["content-type", "text/html; charset=utf-8"]],
        body,
        encoded_bytes: body.length,
        truncated: false,
        timings_ms: { dns: 0, connect: 0, tls: 0, ttfb: 0, total: 0 },
      };
    } else {
      res = (await fetchFollowing(netOf(ports), input.url as string, { headers: { "user-agent": USER_AGENTS.googlebot } })).res;
      requireHtml(res, res.url);
    }
    const { facts } = net.page(res);
    if (!facts.isHtml) throw new UtilityError("tool_failed", `${input.url ?? "the input"} is not an HTML page`);
    const items: Item[] = [];
    const normalised: unknown[] = [];
    const jsonLdTypes = new Set<string>();
    facts.jsonLd.forEach((block, i) => {
      let data: unknown;
      try {
        data = JSON.parse(block);
      } catch (err) {
        items.push({ type: "(invalid JSON-LD)", source: "json-ld", props: [], errors: [`block ${i + 1}: ${(err as Error).message}`], warnings: [] });
        return;
      }
      normalised.push(data);
      for (const node of nodes(data)) {
        const types = (Array.isArray(node["@type"]) ? node["@type"] : [node["@type"]]).filter((t): t is string => typeof t === "string");
        for (const type of types) {
          jsonLdTypes.add(type);
          const props = Object.keys(node).filter((k) => !k.startsWith("@"));
          const context = node["@context"] ?? (data as Record<string, unknown>)["@context"];
          const ctxWarn = typeof context === "string" && !/schema\.org/i.test(context) ? [`@context is ${context}, not schema.org`] : [];
          const found = check(type, node);
          items.push({ type, source: "json-ld", props, errors: found.errors, warnings: [...ctxWarn, ...found.warnings] });
        }
      }
    });
    // Microdata: the parser records each itemtype (its properties are not read out).
    for (const type of facts.schemaTypes.filter((t) => !jsonLdTypes.has(t))) {
      items.push({ type, source: "microdata", props: [], errors: [], warnings: RULES[type] ? ["properties of microdata items are not checked"] : [] });
    }
    const warnings: Warning[] = [];
    if (items.length === 0) warnings.push({ code: "none", text: "the page has no JSON-LD or microdata" });
    const errors = items.reduce((n, i) => n + i.errors.length, 0);
    return {
      result: { url: input.url ?? null, final_url: input.url ? res.url : null, items, json_ld_blocks: facts.jsonLd.length, json_ld_invalid: facts.jsonLdInvalid, errors },
      blocks: {
        pairs: [
          { label: "Items", value: String(items.length) },
          { label: "Errors", value: String(errors), status: errors > 0 ? "bad" : "good" },
        ],
        tables: [{ title: "Items", columns: ["Type", "Source", "Properties", "Errors", "Warnings"], rows: items.map((i) => [i.type, i.source, i.props.join(", "), i.errors.join("; "), i.warnings.join("; ")]) }],
        code: normalised.length > 0 ? [{ lang: "json", text: JSON.stringify(normalised.length === 1 ? normalised[0] : normalised, null, 2) }] : [],
      },
      warnings,
    };
  },
});
