import { UtilityError, defineUtility } from "../utility.ts";

type SchemaType = "Organization" | "LocalBusiness" | "WebSite" | "BreadcrumbList" | "Article" | "Product" | "FAQPage" | "Event" | "Person" | "VideoObject";

interface Input {
  type: SchemaType;
  fields: Record<string, unknown>;
}

/** Required and recommended properties of Google's rich results for each type (developers.google.com/search/docs/appearance/structured-data). */
const RULES: Record<SchemaType, { required: string[]; recommended: string[] }> = {
  Organization: { required: ["name"], recommended: ["url", "logo", "sameAs", "contactPoint", "address"] },
  LocalBusiness: { required: ["name", "address"], recommended: ["telephone", "url", "openingHoursSpecification", "geo", "priceRange", "image"] },
  WebSite: { required: ["name", "url"], recommended: ["potentialAction", "alternateName"] },
  BreadcrumbList: { required: ["itemListElement"], recommended: [] },
  Article: { required: ["headline"], recommended: ["image", "datePublished", "dateModified", "author", "publisher"] },
  Product: { required: ["name"], recommended: ["image", "description", "offers", "brand", "sku", "aggregateRating", "review"] },
  FAQPage: { required: ["mainEntity"], recommended: [] },
  Event: { required: ["name", "startDate", "location"], recommended: ["endDate", "description", "image", "offers", "organizer", "eventStatus", "eventAttendanceMode"] },
  Person: { required: ["name"], recommended: ["url", "image", "jobTitle", "sameAs", "worksFor"] },
  VideoObject: { required: ["name", "thumbnailUrl", "uploadDate"], recommended: ["description", "contentUrl", "embedUrl", "duration"] },
};

/** Shorthands a person fills more easily than nested schema.org: turned into the real properties. */
function expand(type: SchemaType, fields: Record<string, unknown>): Record<string, unknown> {
  const f = { ...fields };
  if (type === "FAQPage" && Array.isArray(f.questions)) {
    f.mainEntity = (f.questions as { q?: string; a?: string }[]).map((x) => ({ "@type": "Question", name: x.q, acceptedAnswer: { "@type": "Answer", text: x.a } }));
    delete f.questions;
  }
  if (type === "BreadcrumbList" && Array.isArray(f.items)) {
    f.itemListElement = (f.items as { name?: string; url?: string }[]).map((x, n) => ({ "@type": "ListItem", position: n + 1, name: x.name, ...(x.url ? { item: x.url } : {}) }));
    delete f.items;
  }
  if (type === "Product" && f.price !== undefined && f.offers === undefined) {
    f.offers = { "@type": "Offer", price: f.price, priceCurrency: f.currency ?? "RUB", availability: `https://schema.org/${typeof f.availability === "string" ? f.availability : "InStock"}`, ...(f.url ? { url: f.url } : {}) };
    delete f.price;
    delete f.currency;
    delete f.availability;
  }
  if (type === "WebSite" && typeof f.search_url === "string") {
    f.potentialAction = { "@type": "SearchAction", target: { "@type": "EntryPoint", urlTemplate: f.search_url }, "query-input": "required name=search_term_string" };
    delete f.search_url;
  }
  for (const k of ["author", "publisher", "brand", "organizer"]) if (typeof f[k] === "string") f[k] = { "@type": k === "brand" ? "Brand" : k === "author" ? "Person" : "Organization", name: f[k] };
  if (typeof f.address === "string") f.address = { "@type": "PostalAddress", streetAddress: f.address };
  return f;
}

const esc = (json: string) => json.replace(/</g, "\\u003c");

export const schemaGenerator = defineUtility<Input>({
  id: "schema_generator",
  group: "seo",
  title: "Schema.org JSON-LD generator",
  description:
    "JSON-LD for Organization, LocalBusiness, WebSite+SearchAction, BreadcrumbList, Article, Product+Offer, FAQPage, Event, Person and VideoObject, with shorthands (questions, items, price, search_url). Checks required and recommended rich-result properties",
  net: false,
  file: false,
  fields: [
    { name: "type", type: "sel", label: "Type", required: true, options: Object.keys(RULES) },
    { name: "fields", type: "json", label: "Properties (schema.org names, or the shorthands)", required: true },
  ],
  example: {
    type: "FAQPage",
    fields: { questions: [{ q: "Сколько стоит доставка?", a: "Доставка по Москве бесплатная." }, { q: "Есть ли рассрочка?", a: "Да, на 12 месяцев без переплаты." }] },
  },
  run(i) {
    for (const k of Object.keys(i.fields)) if (k.startsWith("@")) throw new UtilityError("bad_param", `input.fields.${k}: @context and @type are set by the tool`, "input.fields");
    const props = expand(i.type, i.fields);
    const jsonld = { "@context": "https://schema.org", "@type": i.type, ...props };
    const rule = RULES[i.type];
    const present = (k: string) => props[k] !== undefined && props[k] !== null && props[k] !== "" && !(Array.isArray(props[k]) && (props[k] as unknown[]).length === 0);
    const missingRequired = rule.required.filter((k) => !present(k));
    const missingRecommended = rule.recommended.filter((k) => !present(k));
    const text = `<script type="application/ld+json">\n${esc(JSON.stringify(jsonld, null, 2))}\n</script>`;
    return {
      result: { jsonld, missing_required: missingRequired, missing_recommended: missingRecommended },
      blocks: {
        code: [{ lang: "html", text }],
        pairs: [
          { label: "Required", value: missingRequired.length === 0 ? "all present" : `missing: ${missingRequired.join(", ")}`, status: missingRequired.length === 0 ? "good" : "bad" },
          { label: "Recommended", value: missingRecommended.length === 0 ? "all present" : `missing: ${missingRecommended.join(", ")}`, status: missingRecommended.length === 0 ? "good" : "info" },
        ],
      },
      warnings: missingRequired.map((k) => ({ code: "required", text: `${i.type} needs ${k} for a rich result` })),
    };
  },
});
