import { Parser } from "htmlparser2";
import { UtilityError, defineUtility, type UtilityNet, type Warning } from "../utility.ts";
import { encode, formatCount, openImage, reason, savedPct } from "./image-input.ts";

// The images of one live page, measured: every <img> is downloaded (through the node's guarded
// fetch), its real size read from the header and, for raster formats, re-encoded to WebP/AVIF to
// measure the saving rather than estimate it. Nothing is stored.

interface Input {
  url: string;
  max_images: number;
  formats: ("webp" | "avif")[];
}

interface Tag {
  readonly src: string;
  readonly alt: string | null;
  readonly loading: string | null;
  readonly width: number | null;
  readonly height: number | null;
}

const PAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const CONCURRENCY = 4;
/** Quality of the trial re-encodes: what an image CDN's "auto" setting uses. */
const TRIAL_QUALITY = { webp: 75, avif: 55 } as const;

const px = (v: string | undefined) => (v && /^\s*\d+(\.\d+)?\s*(px)?\s*$/.test(v) ? Math.round(Number.parseFloat(v)) : null);

/** The <img> elements of the HTML, in document order (src, or the first srcset candidate). */
export function imgTags(html: string): Tag[] {
  const tags: Tag[] = [];
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name !== "img") return;
        const src = (a.src ?? a["data-src"] ?? (a.srcset ?? "").split(",")[0]?.trim().split(/\s+/)[0] ?? "").trim();
        if (!src) return;
        tags.push({ src, alt: a.alt ?? null, loading: a.loading ?? null, width: px(a.width), height: px(a.height) });
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return tags;
}

async function limited<T, R>(items: readonly T[], n: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}

interface Row {
  src: string;
  alt: string | null;
  format: string | null;
  bytes: number | null;
  w: number | null;
  h: number | null;
  shown_w: number | null;
  shown_h: number | null;
  webp_bytes: number | null;
  avif_bytes: number | null;
  saving_bytes: number;
  saving_pct: number;
  lazy: boolean;
  issues: string[];
  error?: string;
}

async function measure(net: UtilityNet, tag: Tag, url: string, formats: Input["formats"], index: number): Promise<Row> {
  const row: Row = { src: url, alt: tag.alt, format: null, bytes: null, w: null, h: null, shown_w: tag.width, shown_h: tag.height, webp_bytes: null, avif_bytes: null, saving_bytes: 0, saving_pct: 0, lazy: tag.loading === "lazy", issues: [] };
  if (tag.alt === null) row.issues.push("alt_missing");
  // The first images are likely in the first screen: lazy-loading them delays LCP; later ones should be lazy.
  if (index >= 3 && !row.lazy) row.issues.push("not_lazy");
  if (tag.width === null || tag.height === null) row.issues.push("no_dimensions");
  try {
    const res = await fetchFollowing(net, url, IMAGE_MAX_BYTES);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    row.bytes = res.body.length;
    const img = await openImage(res.body, "the image");
    row.format = img.format;
    row.w = img.width;
    row.h = img.height;
    if (tag.width && img.width > tag.width * 2) row.issues.push("oversized");
    if (img.format === "jpeg" || img.format === "png" || img.format === "gif" || img.format === "tiff") row.issues.push("legacy_format");
    if (img.format !== "svg" && img.frames === 1) {
      for (const f of formats) {
        if (f === img.format) continue;
        const p = img.pipeline().rotate();
        const { data } = await encode(f === "webp" ? p.webp({ quality: TRIAL_QUALITY.webp, effort: 4 }) : p.avif({ quality: TRIAL_QUALITY.avif, effort: 2 }));
        row[`${f}_bytes`] = data.length;
      }
      const best = Math.min(...[row.webp_bytes, row.avif_bytes].filter((v): v is number => v !== null));
      if (Number.isFinite(best) && best < row.bytes) {
        row.saving_bytes = row.bytes - best;
        row.saving_pct = savedPct(row.bytes, best);
      }
    }
  } catch (err) {
    row.error = reason(err);
    row.issues.push("unreadable");
  }
  return row;
}

export const pageImagesAudit = defineUtility<Input>({
  id: "page_images_audit",
  group: "img",
  title: "Page images & next-gen savings",
  description:
    "Downloads up to 50 images of one page and reports real against displayed size, bytes, format, missing alt and lazy loading, plus the saving from WebP/AVIF measured by actually re-encoding. Unlike GET /check/images: the savings are measured, and nothing is stored",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "Page URL", required: true },
    { name: "max_images", type: "int", label: "Images to check", default: 30, min: 1, max: 50 },
    { name: "formats", type: "multi", label: "Formats to try", options: ["webp", "avif"], default: ["webp"] },
  ],
  example: { url: "https://example.com/", max_images: 10, formats: ["webp"] },
  async run(input, ports) {
    const net = ports.net as UtilityNet;
    let page: Awaited<ReturnType<UtilityNet["fetch"]>>;
    try {
      page = await fetchFollowing(net, input.url, PAGE_MAX_BYTES);
    } catch (err) {
      throw new UtilityError("tool_failed", `the page could not be fetched (${reason(err)})`);
    }
    if (page.status !== 200) throw new UtilityError("tool_failed", `the page answered HTTP ${page.status}`);
    const type = page.headers.find(([k]) => k === "content-type")?.[1] ?? "";
    if (type && !/html/i.test(type)) throw new UtilityError("tool_failed", `the page is ${type.split(";")[0]}, not HTML`);
    const warnings: Warning[] = [];
    const seen = new Set<string>();
    const tags: { tag: Tag; url: string }[] = [];
    for (const tag of imgTags(Buffer.from(page.body).toString("utf8"))) {
      let abs: URL;
      try {
        abs = new URL(tag.src, page.url);
      } catch {
        continue;
      }
      if ((abs.protocol !== "http:" && abs.protocol !== "https:") || seen.has(abs.href)) continue;
      seen.add(abs.href);
      tags.push({ tag, url: abs.href });
    }
    if (tags.length > input.max_images) warnings.push({ code: "sampled", text: `the page has ${tags.length} images; the first ${input.max_images} were checked` });
    const picked = tags.slice(0, input.max_images);
    const images = await limited(picked, CONCURRENCY, ({ tag, url }, i) => measure(net, tag, url, input.formats, i));
    const totalBytes = images.reduce((s, r) => s + (r.bytes ?? 0), 0);
    const totalSaving = images.reduce((s, r) => s + r.saving_bytes, 0);
    const count = (issue: string) => images.filter((r) => r.issues.includes(issue)).length;
    return {
      result: { url: page.url, images, total_bytes: totalBytes, total_saving: totalSaving, total_saving_pct: savedPct(totalBytes, totalBytes - totalSaving) },
      blocks: {
        pairs: [
          { label: "Images checked", value: String(images.length) },
          { label: "Total bytes", value: formatCount(totalBytes) },
          { label: `Saving with ${input.formats.join("/").toUpperCase()}`, value: `${formatCount(totalSaving)} bytes (${savedPct(totalBytes, totalBytes - totalSaving)}%)`, status: totalSaving > 100_000 ? "bad" : totalSaving > 0 ? "warn" : "good" },
          { label: "Missing alt", value: String(count("alt_missing")), status: count("alt_missing") ? "warn" : "good" },
          { label: "Oversized (over 2× shown width)", value: String(count("oversized")), status: count("oversized") ? "warn" : "good" },
          { label: "Not lazy (after the first 3)", value: String(count("not_lazy")), status: count("not_lazy") ? "warn" : "good" },
        ],
        tables: [
          {
            title: "Images",
            columns: ["Image", "Format", "Bytes", "Size", "Shown", "WebP", "AVIF", "Saving %", "Issues"],
            rows: images.map((r) => [r.src, r.format, r.bytes, r.w ? `${r.w}×${r.h}` : null, r.shown_w ? `${r.shown_w}×${r.shown_h ?? "?"}` : null, r.webp_bytes, r.avif_bytes, r.saving_pct, r.issues.join(", ") || null]),
          },
        ],
      },
      warnings,
    };
  },
});

/** The guarded fetch answers redirects without following them: the audit follows up to five. */
async function fetchFollowing(net: UtilityNet, url: string, maxBytes: number): Promise<Awaited<ReturnType<UtilityNet["fetch"]>>> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await net.fetch(current, { maxBytes });
    const location = res.headers.find(([k]) => k === "location")?.[1];
    if (res.status < 300 || res.status >= 400 || !location || hop >= 5) return res;
    current = new URL(location, current).href;
  }
}
