import type { CertificateVariant } from "./ca.ts";
import type { Zone } from "./dns-server.ts";
import { htmlPage } from "./html.ts";
import type { Resource, SiteContent, WwwPolicy } from "./site-server.ts";

// What a fixture site is: what it serves, its DNS zone, its certificate, and what an analysis of
// it must find; and the small pieces every site is made of (assets, a not-found page, MX records).

export type SiteKey = "shop" | "blog" | "news" | "broken" | "forum" | "slow";

export interface CheckExpectation {
  readonly status: "pass" | "warn" | "fail" | "na";
  /** The report item's value, when it is known exactly. */
  readonly value?: string | number | null;
}

/** What an analysis of the site must report. */
export interface SiteExpectations {
  /** By check code; checks not listed are not asserted. */
  readonly checks: Readonly<Record<string, CheckExpectation>>;
  /** rank.caps without titles, in the report's order (lowest cap first). */
  readonly caps: readonly { readonly code: string; readonly cap: number }[];
  /** The exact rank where a cap binds it. */
  readonly rank?: number;
  /** The lowest rank a healthy site may get. */
  readonly minRank?: number;
  /** Paths robots.txt disallows: the crawler must never request them. */
  readonly neverFetched: readonly string[];
}

/** How expectations depend on the run: ports 80/443 or one high port, and the CA's name. */
export interface ExpectationContext {
  /** Sites on ports 80/443 (false: host:port names, so no http:// and no www twin probes). */
  readonly standardPorts: boolean;
  /** The fixture CA as a certificate's issuer reads ("CN=…, O=…"). */
  readonly issuer: string;
}

export interface SiteDefinition {
  readonly key: SiteKey;
  readonly domain: string;
  readonly address: string;
  readonly certificate: CertificateVariant;
  readonly httpToHttps: boolean;
  readonly www: WwwPolicy;
  readonly hsts: string | null;
  readonly gzip: boolean;
  readonly delayMs: number;
  readonly zone: Zone;
  /** The pages and files, for the origin the site is reached at (e.g. "https://shop-a.test"). */
  content(origin: string): SiteContent;
  /** The scheme the home page ends up on: https for the good sites, http for the broken-certificate ones. */
  readonly servedOver: "https" | "http";
  expectations(ctx: ExpectationContext): SiteExpectations;
}

export const HTML = "text/html; charset=utf-8";
export const TEXT = "text/plain; charset=utf-8";
export const XML = "application/xml; charset=utf-8";

// A few bytes that start like the real formats; the crawler reads only their status and type.
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]), Buffer.alloc(64, 0x11)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]), Buffer.alloc(512, 0x22), Buffer.from([0xff, 0xd9])]);

/** An HTML page as a resource. */
export function page(body: string): Resource {
  return { type: HTML, body };
}

/** The stylesheet, script, favicon and images every site links. */
export function assets(images: readonly string[], favicon: boolean): [string, Resource][] {
  const out: [string, Resource][] = [
    ["/assets/site.css", { type: "text/css; charset=utf-8", body: `body{font-family:system-ui,sans-serif;margin:0 auto;max-width:72rem;line-height:1.6}${" ".repeat(300)}` }],
    ["/assets/site.js", { type: "application/javascript; charset=utf-8", body: `document.documentElement.classList.add("js");${" ".repeat(300)}` }],
    ...images.map((src): [string, Resource] => [src, { type: "image/jpeg", body: JPEG }]),
  ];
  if (favicon) out.push(["/favicon.ico", { type: "image/x-icon", body: ICO }]);
  return out;
}

/** The page unknown URLs get: with `status` 404, or 200 for a soft 404. */
export function notFoundPage(siteName: string, origin: string, status: number): Resource {
  const body = htmlPage({
    lang: "en",
    title: `Page not found – ${siteName}`,
    url: `${origin}/`,
    canonical: false,
    siteName,
    h1: "We could not find that page",
    paragraphs: ["The page you asked for has moved or never existed. Try the home page or the search box instead."],
    nav: [{ href: "/", text: "Home" }],
  });
  return { status, type: HTML, body };
}

/** MX records in order of preference (10, 20, …). */
export function mx(...hosts: string[]) {
  return hosts.map((exchange, i) => ({ preference: 10 * (i + 1), exchange }));
}
