// The images social cards name (og:image, twitter:image), fetched through the egress guard so that
// their reachability, type and size can be judged. Dimensions come from the image's header.
import { SocialImage, type PageFacts } from "../../proto/index.ts";
import type { FetchResult } from "../fetch/fetch-page.ts";

/** Images fetched per analysis, at most. */
export const SOCIAL_IMAGES_MAX = 10;
const IMAGE_KEYS = new Set(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"]);

/** The card images of these pages, absolute, each once, in page order. */
export function socialImageUrls(pages: readonly PageFacts[]): string[] {
  const out = new Set<string>();
  for (const page of pages) {
    const base = page.response?.finalUrl || page.response?.requestedUrl || "";
    for (const tag of [...page.openGraph, ...page.twitter]) {
      if (!IMAGE_KEYS.has(tag.key) || !tag.content.trim()) continue;
      try {
        const url = new URL(tag.content.trim(), base || undefined);
        if (url.protocol === "http:" || url.protocol === "https:") out.add(url.href);
      } catch {
        // An unparsable address is judged by the card's validation (the image is not reachable).
      }
    }
  }
  return [...out].slice(0, SOCIAL_IMAGES_MAX);
}

/** Fetches each image with `fetch` (refusing other hosts unless `mayFetch` allows them). */
export async function fetchSocialImages(urls: readonly string[], fetch: (url: string) => Promise<FetchResult>, mayFetch: (url: URL) => boolean): Promise<SocialImage[]> {
  return Promise.all(
    urls.map(async (href) => {
      const url = new URL(href);
      if (!mayFetch(url)) return SocialImage.fromPartial({ url: href, error: "not fetched: another host than the site's (SVC_EGRESS_ALLOW)" });
      const r = await fetch(href);
      const size = r.response.status >= 200 && r.response.status < 300 ? imageSize(r.body) : null;
      const type = r.response.headers.find((h) => h.name.toLowerCase() === "content-type")?.value.split(";")[0]?.trim().toLowerCase() ?? "";
      return SocialImage.fromPartial({ url: href, status: r.response.status, contentType: type, width: size?.width ?? 0, height: size?.height ?? 0, error: r.response.error });
    }),
  );
}

/** Width and height from a PNG, JPEG, GIF or WebP header; null for anything else. */
export function imageSize(b: Buffer): { width: number; height: number } | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString("ascii", 12, 16) === "IHDR") return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString("ascii", 0, 3) === "GIF") return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 30 && b.toString("ascii", 0, 4) === "RIFF" && b.toString("ascii", 8, 12) === "WEBP") {
    const chunk = b.toString("ascii", 12, 16);
    if (chunk === "VP8X") return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
    if (chunk === "VP8 ") return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    if (chunk === "VP8L") {
      const bits = b.readUInt32LE(21);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1] as number;
      const length = b.readUInt16BE(i + 2);
      // Start-of-frame markers (SOF0-SOF15 but DHT, JPG and DAC) carry the dimensions.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      i += 2 + length;
    }
  }
  return null;
}
