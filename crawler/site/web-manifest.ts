import { ManifestIcon, WebManifestFacts, type HttpResponse } from "../../proto/index.ts";

/** Manifests are small; a larger body is read no further (and then does not parse). */
export const MANIFEST_MAX_BYTES = 256 * 1024;

/**
 * The members of a web app manifest the analyzer judges (W3C Web Application Manifest: name,
 * short_name, start_url, display, icons), as written; `parsed` is false when the body is not a
 * JSON object. The body is read as UTF-8, the only encoding the specification allows.
 */
export function parseWebManifest(href: string, response: HttpResponse, body: Buffer): WebManifestFacts {
  const facts = WebManifestFacts.fromPartial({ href, response });
  if (response.status !== 200 || response.error !== "") return facts;
  let data: unknown;
  try {
    data = JSON.parse(body.toString("utf8").replace(/^\uFEFF/, ""));
  } catch {
    return facts;
  }
  if (!isRecord(data)) return facts;
  facts.parsed = true;
  facts.name = text(data.name);
  facts.shortName = text(data.short_name);
  facts.startUrl = text(data.start_url);
  facts.display = text(data.display);
  const icons = Array.isArray(data.icons) ? data.icons : [];
  facts.icons = icons.filter(isRecord).map((i) => ManifestIcon.fromPartial({ src: text(i.src), sizes: text(i.sizes), type: text(i.type), purpose: text(i.purpose) }));
  return facts;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}
