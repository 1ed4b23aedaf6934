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
  readonly generator?: RegExp;
  readonly header?: readonly [name: string, value: RegExp];
  readonly script?: RegExp;
}

// One row per technology; a row matches on any of its signals. Generic Server and X-Powered-By
// products are named from the header itself (below), so only signals that name something else are here.
const RULES: readonly TechRule[] = [
  { name: "WordPress", generator: /^wordpress/i, script: /\/wp-(content|includes)\// },
  { name: "Drupal", generator: /^drupal/i, header: ["x-generator", /drupal/i] },
  { name: "Joomla", generator: /^joomla/i },
  { name: "1C-Bitrix", generator: /bitrix/i, script: /\/bitrix\//, header: ["x-powered-cms", /bitrix/i] },
  { name: "Tilda", generator: /tilda/i, script: /tildacdn\./ },
  { name: "Shopify", script: /cdn\.shopify\.com\//, header: ["x-shopid", /./] },
  { name: "Next.js", script: /\/_next\/static\//, header: ["x-powered-by", /next\.js/i] },
  { name: "Nuxt", script: /\/_nuxt\//, generator: /^nuxt/i },
  { name: "Gatsby", generator: /^gatsby/i },
  { name: "Hugo", generator: /^hugo/i },
  { name: "jQuery", script: /jquery[.-]?[\d.]*(\.min)?\.js/i },
  { name: "Google Tag Manager", script: /googletagmanager\.com\/gtm\.js/ },
  { name: "Google Analytics", script: /google-analytics\.com\/(analytics|ga)\.js|googletagmanager\.com\/gtag\/js/ },
  { name: "Yandex Metrica", script: /mc\.yandex\.(ru|com)\/metrika\// },
  { name: "Cloudflare", header: ["server", /^cloudflare/i] },
];

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
