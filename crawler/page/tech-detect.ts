import type { Header } from "../../proto/index.ts";

/** What a page reveals about the software behind it. */
export interface TechEvidence {
  /** `<meta name="generator">` content. */
  readonly generator: string;
  readonly headers: readonly Header[];
  /** Absolute `<script src>` URLs. */
  readonly scriptSrcs: readonly string[];
}

interface TechRule {
  readonly name: string;
  readonly categories: readonly string[];
  readonly generator?: RegExp;
  readonly header?: readonly [name: string, value: RegExp];
  readonly script?: RegExp;
}

// One row per technology; a row matches on any of its signals. Generic Server and X-Powered-By
// products are named from the header itself (below), so only signals that name something else are here.
const RULES: readonly TechRule[] = [
  { name: "WordPress", categories: ["CMS"], generator: /^wordpress/i, script: /\/wp-(content|includes)\// },
  { name: "Drupal", categories: ["CMS"], generator: /^drupal/i, header: ["x-generator", /drupal/i] },
  { name: "Joomla", categories: ["CMS"], generator: /^joomla/i },
  { name: "1C-Bitrix", categories: ["CMS"], generator: /bitrix/i, script: /\/bitrix\//, header: ["x-powered-cms", /bitrix/i] },
  { name: "Tilda", categories: ["Website builder"], generator: /tilda/i, script: /tildacdn\./ },
  { name: "Shopify", categories: ["Ecommerce"], script: /cdn\.shopify\.com\//, header: ["x-shopid", /./] },
  { name: "Next.js", categories: ["JavaScript framework"], script: /\/_next\/static\//, header: ["x-powered-by", /next\.js/i] },
  { name: "Nuxt", categories: ["JavaScript framework"], script: /\/_nuxt\//, generator: /^nuxt/i },
  { name: "Gatsby", categories: ["Static site generator"], generator: /^gatsby/i },
  { name: "Hugo", categories: ["Static site generator"], generator: /^hugo/i },
  { name: "jQuery", categories: ["JavaScript library"], script: /jquery[.-]?[\d.]*(\.min)?\.js/i },
  { name: "Google Tag Manager", categories: ["Tag manager"], script: /googletagmanager\.com\/gtm\.js/ },
  { name: "Google Analytics", categories: ["Analytics"], script: /google-analytics\.com\/(analytics|ga)\.js|googletagmanager\.com\/gtag\/js/ },
  { name: "Yandex Metrica", categories: ["Analytics"], script: /mc\.yandex\.(ru|com)\/metrika\// },
  { name: "Cloudflare", categories: ["CDN"], header: ["server", /^cloudflare/i] },
];

/** A detected technology with its version (when a signal carries one), categories and the signal that named it. */
export interface TechnologyDetail {
  readonly name: string;
  readonly version: string | null;
  readonly categories: readonly string[];
  readonly evidence: "generator" | "header" | "script" | "cookie";
}

/** Categories of products named only by a generic header (Server, X-Powered-By) or generator. */
const GENERIC_CATEGORIES: Readonly<Record<string, string>> = {
  nginx: "Web server",
  apache: "Web server",
  "microsoft-iis": "Web server",
  litespeed: "Web server",
  caddy: "Web server",
  openresty: "Web server",
  php: "Programming language",
  "asp.net": "Web framework",
  express: "Web framework",
};

// Session cookies that name the software behind a site (the tech_detect utility sees Set-Cookie).
const COOKIE_RULES: readonly { readonly name: string; readonly categories: readonly string[]; readonly cookie: RegExp }[] = [
  { name: "PHP", categories: ["Programming language"], cookie: /^PHPSESSID=/i },
  { name: "1C-Bitrix", categories: ["CMS"], cookie: /^BITRIX_SM_/ },
  { name: "Java", categories: ["Programming language"], cookie: /^JSESSIONID=/ },
  { name: "ASP.NET", categories: ["Web framework"], cookie: /^ASP\.NET_SessionId=/i },
  { name: "Laravel", categories: ["Web framework"], cookie: /^laravel_session=/ },
  { name: "Django", categories: ["Web framework"], cookie: /^csrftoken=/ },
];

/**
 * The technologies with their details: the same rules as detectTechnologies (in the same order),
 * plus the version a generator, Server or X-Powered-By value or a script file name carries, and
 * session cookies (Set-Cookie headers) that name a language or framework.
 */
export function technologyDetails(evidence: TechEvidence): TechnologyDetail[] {
  const found: TechnologyDetail[] = [];
  const add = (d: TechnologyDetail) => {
    if (d.name === "") return;
    const at = found.findIndex((f) => f.name.toLowerCase() === d.name.toLowerCase());
    if (at < 0) found.push(d);
    else if ((found[at] as TechnologyDetail).version === null && d.version !== null) found[at] = { ...(found[at] as TechnologyDetail), version: d.version };
  };
  const header = (name: string) =>
    evidence.headers
      .filter((h) => h.name === name)
      .map((h) => h.value)
      .join(", ");
  for (const rule of RULES) {
    if (rule.generator && rule.generator.test(evidence.generator)) add({ name: rule.name, version: versionIn(evidence.generator), categories: rule.categories, evidence: "generator" });
    else if (rule.header && rule.header[1].test(header(rule.header[0]))) add({ name: rule.name, version: null, categories: rule.categories, evidence: "header" });
    else {
      const src = rule.script ? evidence.scriptSrcs.find((s) => rule.script?.test(s)) : undefined;
      if (src !== undefined) add({ name: rule.name, version: scriptVersion(src), categories: rule.categories, evidence: "script" });
    }
  }
  const generic = (value: string, evidenceKind: "generator" | "header") => {
    const name = productName(value);
    add({ name, version: versionIn(value.split(",")[0] ?? ""), categories: [GENERIC_CATEGORIES[name.toLowerCase()] ?? (evidenceKind === "generator" ? "CMS" : "Web server")], evidence: evidenceKind });
  };
  generic(evidence.generator, "generator");
  generic(header("server"), "header");
  const powered = productName(header("x-powered-by"));
  if (powered !== "") add({ name: powered, version: versionIn(header("x-powered-by").split(",")[0] ?? ""), categories: [GENERIC_CATEGORIES[powered.toLowerCase()] ?? "Web framework"], evidence: "header" });
  for (const cookie of evidence.headers.filter((h) => h.name === "set-cookie")) {
    for (const rule of COOKIE_RULES) if (rule.cookie.test(cookie.value)) add({ name: rule.name, version: null, categories: rule.categories, evidence: "cookie" });
  }
  return found;
}

/** `nginx/1.25.3` → 1.25.3; `WordPress 6.4.2` → 6.4.2; none → null. */
function versionIn(value: string): string | null {
  return /[/\s]v?(\d+(?:\.\d+)+|\d+)\b/.exec(value)?.[1] ?? null;
}

/** `jquery-3.7.1.min.js` or `…?ver=6.4.2` → the version; none → null. */
function scriptVersion(src: string): string | null {
  return /[-.@](\d+\.\d+(?:\.\d+)?)(?:\.min)?\.js/i.exec(src)?.[1] ?? /[?&]ver=(\d+(?:\.\d+)+)/.exec(src)?.[1] ?? null;
}

/** Names of detected technologies, in order of discovery, each once. */
export function detectTechnologies(evidence: TechEvidence): string[] {
  const found: string[] = [];
  const add = (name: string) => {
    if (name !== "" && !found.some((f) => f.toLowerCase() === name.toLowerCase())) found.push(name);
  };
  const header = (name: string) =>
    evidence.headers
      .filter((h) => h.name === name)
      .map((h) => h.value)
      .join(", ");
  for (const rule of RULES) {
    const hit =
      (rule.generator && rule.generator.test(evidence.generator)) ||
      (rule.header && rule.header[1].test(header(rule.header[0]))) ||
      (rule.script && evidence.scriptSrcs.some((s) => rule.script?.test(s)));
    if (hit) add(rule.name);
  }
  // Anything else a generator meta, Server or X-Powered-By names: the product before its version.
  add(productName(evidence.generator));
  add(productName(header("server")));
  add(productName(header("x-powered-by")));
  return found;
}

/** `nginx/1.25.3` → `nginx`; `WordPress 6.4.2` → `WordPress`; `Apache/2.4 (Debian)` → `Apache`. */
function productName(value: string): string {
  const first = value.split(",")[0]?.trim() ?? "";
  return first.replace(/[/\s]+v?\d.*$/, "").replace(/\s*\(.*$/, "").trim();
}
