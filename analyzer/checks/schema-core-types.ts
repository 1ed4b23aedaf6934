import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { htmlPages } from "./page-sample.ts";

// Organization and the subtypes sites commonly use for themselves, and WebSite (site name in results).
const CORE = new Set([
  "WebSite",
  "Organization",
  "Corporation",
  "LocalBusiness",
  "OnlineStore",
  "OnlineBusiness",
  "NewsMediaOrganization",
  "EducationalOrganization",
  "GovernmentOrganization",
  "NGO",
]);

export const schemaCoreTypes: CheckDef = {
  code: "schema_core_types",
  title: "Home page describes the site or organisation",
  group: "structured_data",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Describe the site on the home page with JSON-LD: a WebSite item (name, url) and an Organization item (name, url, logo).",
  run(facts) {
    const home = htmlPages(facts).find((p) => p.isHome);
    if (!home) return notApplicable("the home page did not answer 200 with HTML");
    // schemaTypes holds JSON-LD and microdata types alike.
    const found = home.page.schemaTypes.filter((t) => CORE.has(t));
    if (found.length > 0) return pass(found.join(", "), `the home page declares ${found.join(", ")}`);
    const declared = home.page.schemaTypes.length > 0 ? `only ${home.page.schemaTypes.join(", ")}` : "no structured data";
    return fail(null, `the home page has ${declared}: no WebSite or Organization`);
  },
};
