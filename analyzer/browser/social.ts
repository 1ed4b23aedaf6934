// GET /social/{host}: the site's presence on social networks (profile links on its pages) and its
// share cards (Open Graph and Twitter cards in the raw HTML, as the networks' scrapers read it —
// they do not run JavaScript), validated: required properties, the image reachable, of a usable
// size and aspect. Pure: the images were fetched by the crawler (SiteFacts.social_images).
import type { PageFacts, SiteFacts, SocialImage } from "../../proto/index.ts";
import { networkOf } from "./social-networks.ts";

export type CheckState = "pass" | "warn" | "fail";

export interface CardImage {
  readonly url: string;
  readonly status: number;
  readonly content_type: string;
  readonly width: number;
  readonly height: number;
  /** false: not fetched (beyond the per-analysis limit, or on another host the operator did not allow). */
  readonly checked: boolean;
}

export interface CardCheck {
  readonly code: string;
  readonly status: CheckState;
  readonly detail: string;
}

export interface SocialCard {
  readonly url: string;
  readonly open_graph: Record<string, string>;
  readonly twitter: Record<string, string>;
  /** The card's image (og:image, else twitter:image), null when none is named; a different twitter:image is judged in image_reachable. */
  readonly image: CardImage | null;
  readonly checks: CardCheck[];
  /** Passed checks over all, 0-100. */
  readonly score: number;
}

export interface SocialProfile {
  readonly network: string;
  readonly urls: string[];
}

export interface SiteCheck {
  readonly code: string;
  readonly title: string;
  readonly status: CheckState;
  readonly value: string | number;
  readonly group: "social";
}

export interface SocialReport {
  readonly profiles: SocialProfile[];
  readonly cards: SocialCard[];
  /** Mean of the pages' card scores, 0-100; null without an HTML page. */
  readonly card_score: number | null;
  readonly pages: number;
  readonly checks: SiteCheck[];
}

/** The Open Graph protocol's required properties (ogp.me). */
export const OG_REQUIRED = Object.freeze(["og:title", "og:type", "og:image", "og:url"]);
const OG_IMAGE_KEYS = ["og:image", "og:image:url", "og:image:secure_url"] as const;
const TWITTER_IMAGE_KEYS = ["twitter:image", "twitter:image:src"] as const;
const TWITTER_CARDS = new Set(["summary", "summary_large_image", "app", "player"]);
/** The smallest image Facebook accepts for a share card; X's large card needs 300 × 157. */
export const MIN_IMAGE = Object.freeze({ width: 200, height: 200 });
export const MIN_LARGE_IMAGE = Object.freeze({ width: 300, height: 157 });
/** Large cards are shown at 1.91:1, summary cards at 1:1; outside these ranges the image is cropped badly. */
export const LARGE_ASPECT = Object.freeze({ min: 1.6, max: 2.2 });
export const SQUARE_ASPECT = Object.freeze({ min: 0.8, max: 1.25 });

function tags(list: readonly { key: string; content: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of list) if (!(t.key in out)) out[t.key] = t.content.trim();
  return out;
}

/** Whether a tag's value is an absolute http(s) URL: scrapers do not resolve a relative one against the page. */
function isAbsolute(value: string): boolean {
  return /^https?:\/\/[^/]/i.test(value);
}

function absolute(value: string, base: string): string {
  try {
    return new URL(value, base || undefined).href;
  } catch {
    return value;
  }
}

/** One page's card, validated. */
export function socialCard(page: PageFacts, images: ReadonlyMap<string, SocialImage>): SocialCard {
  const url = page.response?.finalUrl || page.response?.requestedUrl || "";
  const og = tags(page.openGraph);
  const tw = tags(page.twitter);
  const ogKey = OG_IMAGE_KEYS.find((k) => og[k]) ?? "";
  const twKey = TWITTER_IMAGE_KEYS.find((k) => tw[k]) ?? "";
  const ogRef = ogKey ? (og[ogKey] ?? "") : "";
  const twRef = twKey ? (tw[twKey] ?? "") : "";
  const imageRef = ogRef || twRef;
  const image = imageRef ? cardImage(absolute(imageRef, url), images) : null;
  // X shows twitter:image when both are named: a different one is a second image to judge.
  const twImage = ogRef && twRef && absolute(twRef, url) !== image?.url ? cardImage(absolute(twRef, url), images) : null;
  const cardType = tw["twitter:card"] ?? "";
  const large = cardType !== "summary";
  const checks: CardCheck[] = [];
  const missing = OG_REQUIRED.filter((k) => !(k === "og:image" ? imageRef : og[k]));
  checks.push(missing.length === 0 ? { code: "og_required", status: "pass", detail: "og:title, og:type, og:image and og:url present" } : { code: "og_required", status: "fail", detail: `missing ${missing.join(", ")}` });
  checks.push(og["og:description"] ? { code: "og_description", status: "pass", detail: "og:description present" } : { code: "og_description", status: "warn", detail: "no og:description: networks take a snippet of their own" });
  if (!cardType) checks.push({ code: "twitter_card", status: "fail", detail: "no twitter:card (X shows a bare link)" });
  else if (!TWITTER_CARDS.has(cardType)) checks.push({ code: "twitter_card", status: "fail", detail: `twitter:card "${cardType}" is not a card type (summary, summary_large_image, app, player)` });
  else checks.push({ code: "twitter_card", status: "pass", detail: `twitter:card ${cardType}` });
  const [reachable, ...rest] = imageChecks(image, large);
  const named = [[ogKey, ogRef], [twKey, twRef]] as const;
  checks.push(withCardImages(reachable as CardCheck, named, twImage), ...rest);
  const passed = checks.filter((c) => c.status === "pass").length;
  return { url, open_graph: og, twitter: tw, image, checks, score: Math.round((100 * passed) / checks.length) };
}

function cardImage(url: string, images: ReadonlyMap<string, SocialImage>): CardImage {
  const fetched = images.get(url);
  return { url, status: fetched?.status ?? 0, content_type: fetched?.contentType ?? "", width: fetched?.width ?? 0, height: fetched?.height ?? 0, checked: fetched !== undefined && !fetched.error.startsWith("not fetched") };
}

const WORSE: Record<CheckState, number> = { pass: 0, warn: 1, fail: 2 };

/**
 * image_reachable over every image the card names: a relative og:image or twitter:image fails
 * (the Open Graph protocol and X's cards take absolute URLs only), and a twitter:image other than
 * the og:image must load too.
 */
function withCardImages(reachable: CardCheck, refs: readonly (readonly [string, string])[], twImage: CardImage | null): CardCheck {
  const found: CardCheck[] = [reachable];
  for (const [key, ref] of refs) if (ref && !isAbsolute(ref)) found.push({ code: "image_reachable", status: "fail", detail: `${key} "${ref}" is relative: scrapers need an absolute URL` });
  if (twImage) {
    const own = imageChecks(twImage, false)[0] as CardCheck;
    found.push({ ...own, detail: `twitter:image ${own.detail}` });
  }
  const worst = found.reduce((a, b) => (WORSE[b.status] > WORSE[a.status] ? b : a));
  const failing = found.filter((c) => c.status !== "pass");
  return { code: "image_reachable", status: worst.status, detail: (failing.length > 0 ? failing : found).map((c) => c.detail).join("; ") };
}

function imageChecks(image: CardImage | null, large: boolean): CardCheck[] {
  if (!image) return [
    { code: "image_reachable", status: "fail", detail: "the card names no image" },
    { code: "image_size", status: "fail", detail: "no image" },
    { code: "image_aspect", status: "fail", detail: "no image" },
  ];
  if (!image.checked) return [
    { code: "image_reachable", status: "warn", detail: `${image.url} was not fetched (another host, or past the limit of images per check)` },
    { code: "image_size", status: "warn", detail: "not known" },
    { code: "image_aspect", status: "warn", detail: "not known" },
  ];
  const ok = image.status >= 200 && image.status < 300 && (image.content_type.startsWith("image/") || image.width > 0);
  if (!ok) return [
    { code: "image_reachable", status: "fail", detail: `${image.url} answered ${image.status || "nothing"}${image.content_type ? ` (${image.content_type})` : ""}` },
    { code: "image_size", status: "fail", detail: "the image cannot be loaded" },
    { code: "image_aspect", status: "fail", detail: "the image cannot be loaded" },
  ];
  const reachable: CardCheck = { code: "image_reachable", status: "pass", detail: `${image.url} answered ${image.status} (${image.content_type || "image"})` };
  if (image.width === 0 || image.height === 0) return [reachable, { code: "image_size", status: "warn", detail: "the image's format was not recognised: size unknown" }, { code: "image_aspect", status: "warn", detail: "size unknown" }];
  const min = large ? MIN_LARGE_IMAGE : MIN_IMAGE;
  const need = { width: Math.max(min.width, MIN_IMAGE.width), height: Math.max(min.height, MIN_IMAGE.height) };
  const bigEnough = image.width >= need.width && image.height >= need.height;
  const size: CardCheck = bigEnough
    ? { code: "image_size", status: "pass", detail: `${image.width} × ${image.height}` }
    : { code: "image_size", status: "fail", detail: `${image.width} × ${image.height} is smaller than ${need.width} × ${need.height}` };
  const ratio = image.width / image.height;
  const range = large ? LARGE_ASPECT : SQUARE_ASPECT;
  const aspect: CardCheck =
    ratio >= range.min && ratio <= range.max
      ? { code: "image_aspect", status: "pass", detail: `aspect ${ratio.toFixed(2)}:1` }
      : { code: "image_aspect", status: "warn", detail: `aspect ${ratio.toFixed(2)}:1, outside ${range.min}-${range.max}:1 for a ${large ? "large" : "summary"} card: it will be cropped` };
  return [reachable, size, aspect];
}

/** The site's social presence and cards from an analysis's facts. */
export function socialReport(facts: SiteFacts): SocialReport {
  const pages = [facts.home, ...facts.pages].filter((p): p is PageFacts => !!p && p.isHtml && (p.response?.status ?? 0) >= 200 && (p.response?.status ?? 0) < 300);
  const seen = new Set<string>();
  const unique = pages.filter((p) => {
    const url = p.response?.finalUrl || p.response?.requestedUrl || "";
    return !seen.has(url) && seen.add(url);
  });
  const images = new Map(facts.socialImages.map((i) => [i.url, i]));
  const cards = unique.map((p) => socialCard(p, images));
  const byNetwork = new Map<string, Set<string>>();
  for (const p of unique) for (const link of p.links) {
    if (link.internal) continue;
    const network = networkOf(link.href);
    if (network) byNetwork.set(network, (byNetwork.get(network) ?? new Set()).add(link.href));
  }
  const profiles = [...byNetwork].sort(([a], [b]) => a.localeCompare(b)).map(([network, urls]) => ({ network, urls: [...urls].sort().slice(0, 10) }));
  const cardScore = cards.length ? Math.round(cards.reduce((s, c) => s + c.score, 0) / cards.length) : null;
  return { profiles, cards, card_score: cardScore, pages: cards.length, checks: siteChecks(profiles, cards) };
}

function siteChecks(profiles: readonly SocialProfile[], cards: readonly SocialCard[]): SiteCheck[] {
  const share = (code: string, title: string): SiteCheck => {
    const states = cards.map((c) => c.checks.find((x) => x.code === code)?.status ?? "fail");
    const passed = states.filter((s) => s === "pass").length;
    const status: CheckState = cards.length > 0 && passed === cards.length ? "pass" : states.includes("fail") ? "fail" : "warn";
    return { code, title, status, value: `${passed}/${cards.length}`, group: "social" };
  };
  return [
    { code: "social_profiles", title: "The site links its profiles on social networks", status: profiles.length > 0 ? "pass" : "warn", value: profiles.length, group: "social" },
    share("og_required", "Pages carry the required Open Graph properties"),
    share("og_description", "Pages carry an og:description"),
    share("twitter_card", "Pages name a Twitter/X card type"),
    share("image_reachable", "Card images load"),
    share("image_size", "Card images are large enough"),
    share("image_aspect", "Card images have the card's aspect"),
  ];
}
