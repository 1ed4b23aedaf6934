import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { defineUtility, type Warning } from "../utility.ts";
import { contrast, parseColor, toHex, type Rgba } from "../shared/color.ts";
import { checkOutputSize, encode, loadSharp, MAX_INPUT_PIXELS, openImage } from "./image-input.ts";

// A sharing image drawn by satori (HTML/CSS layout → SVG with the text as paths, so no system
// fonts are needed) and rasterised by sharp. Roboto's Latin and Cyrillic subsets are registered as
// two families listed in fontFamily: satori uses only the first font of a name, and falls back
// across names glyph by glyph (a Cyrillic subset alone lacks ':' and digits). Loaded once per thread.

interface Input {
  title: string;
  subtitle?: string;
  site?: string;
  size: "1200x630" | "1080x1080" | "1200x1200";
  bg: string;
  fg: string;
  file?: Uint8Array;
  file_name?: string;
  file_role: "logo" | "background";
  format: "png" | "jpeg";
}

type Font = { name: string; data: Buffer; weight: 400 | 700; style: "normal" };
let fonts: Font[] | null = null;
function fontsOnce(): Font[] {
  if (fonts) return fonts;
  const require = createRequire(import.meta.url);
  const load = (subset: string, weight: 400 | 700): Font => ({ name: `Roboto ${subset}`, data: readFileSync(require.resolve(`@fontsource/roboto/files/roboto-${subset}-${weight}-normal.woff`)), weight, style: "normal" });
  fonts = [load("latin", 400), load("cyrillic", 400), load("latin", 700), load("cyrillic", 700)];
  return fonts;
}

/** The largest title size whose estimated wrapped lines fit the room (Roboto Bold averages ~0.55 em a character). */
function titleSize(title: string, width: number, maxLines: number): number {
  for (const size of [88, 80, 72, 64, 56, 48, 42, 36]) {
    const perLine = Math.floor(width / (size * 0.55));
    const words = title.split(/\s+/);
    let lines = 1;
    let used = 0;
    for (const w of words) {
      const len = w.length + (used ? 1 : 0);
      if (used + len > perLine) {
        lines += Math.ceil(w.length / perLine);
        used = w.length % perLine;
      } else used += len;
    }
    if (lines <= maxLines) return size;
  }
  return 36;
}

type Node = { type: string; props: Record<string, unknown> };
const el = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({ type, props: { style, ...(children !== undefined ? { children } : {}), ...extra } });

async function dataUri(bytes: Uint8Array, box: [number, number], cover: boolean): Promise<string> {
  const img = await openImage(bytes, "the uploaded image");
  const { data } = await encode(img.pipeline().rotate().resize(box[0], box[1], { fit: cover ? "cover" : "inside", withoutEnlargement: !cover }).png());
  return `data:image/png;base64,${data.toString("base64")}`;
}

export const ogImageGenerator = defineUtility<Input>({
  id: "og_image_generator",
  group: "img",
  title: "Social image (OG) generator",
  description:
    "Makes a sharing image (1200×630, 1080×1080 or 1200×1200) from a title, subtitle, site name and colours, with an optional logo or background upload. Text wraps and shrinks to fit; PNG or JPEG",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["png", "jpeg", "webp", "avif", "gif", "svg", "heic"],
  fields: [
    { name: "title", type: "str", label: "Title", required: true, max: 200 },
    { name: "subtitle", type: "str", label: "Subtitle", max: 300 },
    { name: "site", type: "str", label: "Site name", max: 100 },
    { name: "size", type: "sel", label: "Size", options: ["1200x630", "1080x1080", "1200x1200"], default: "1200x630" },
    { name: "bg", type: "color", label: "Background", default: "#0f172a" },
    { name: "fg", type: "color", label: "Text colour", default: "#ffffff" },
    { name: "file", type: "file", label: "Logo or background image" },
    { name: "file_role", type: "sel", label: "The upload is a", options: ["logo", "background"], default: "logo" },
    { name: "format", type: "sel", label: "Format", options: ["png", "jpeg"], default: "png" },
  ],
  example: { title: "Как ускорить сайт: 12 проверок", subtitle: "Core Web Vitals, images and caching", site: "speedlab.dev", size: "1200x630" },
  async run(input) {
    const [width, height] = input.size.split("x").map(Number) as [number, number];
    const warnings: Warning[] = [];
    const bg = parseColor(input.bg) as Rgba;
    const fg = parseColor(input.fg) as Rgba;
    const ratio = contrast({ ...fg, a: 1 }, { ...bg, a: 1 });
    if (ratio < 4.5 && !(input.file && input.file_role === "background")) warnings.push({ code: "low_contrast", text: `text on background contrast is ${ratio.toFixed(2)}:1 (WCAG asks 4.5:1)` });
    const pad = Math.round(width * 0.06);
    const room = width - 2 * pad;
    const size = titleSize(input.title, room, input.subtitle ? 3 : 4);
    const logo = input.file && input.file_role === "logo" ? await dataUri(input.file, [160, 160], false) : null;
    const background = input.file && input.file_role === "background" ? await dataUri(input.file, [width, height], true) : null;
    const children: Node[] = [];
    if (background) {
      children.push(el("img", { position: "absolute", left: 0, top: 0, width, height, objectFit: "cover" }, undefined, { src: background, width, height }));
      children.push(el("div", { position: "absolute", left: 0, top: 0, width, height, backgroundColor: "rgba(0,0,0,0.55)" }));
    }
    const head: Node[] = [];
    if (logo) head.push(el("img", { height: 72, marginRight: 24 }, undefined, { src: logo, height: 72 }));
    if (input.site) head.push(el("div", { fontSize: 34, fontWeight: 400, opacity: 0.85 }, input.site));
    children.push(el("div", { display: "flex", alignItems: "center", height: 80, width: room }, head));
    const body: Node[] = [el("div", { width: room, fontSize: size, fontWeight: 700, lineHeight: 1.15, lineClamp: input.subtitle ? 3 : 4 }, input.title)];
    if (input.subtitle) body.push(el("div", { width: room, fontSize: Math.max(28, Math.round(size * 0.45)), fontWeight: 400, marginTop: 24, opacity: 0.85, lineClamp: 2 }, input.subtitle));
    children.push(el("div", { display: "flex", flexDirection: "column", justifyContent: "center", flexGrow: 1, width: room }, body));
    const root = el("div", { display: "flex", flexDirection: "column", width, height, padding: pad, backgroundColor: toHex(bg), color: toHex(fg), fontFamily: "Roboto latin, Roboto cyrillic", position: "relative" }, children);
    const { default: satori } = await import("satori");
    const svg = await satori(root, { width, height, fonts: fontsOnce() });
    const sharp = await loadSharp();
    const p = sharp(Buffer.from(svg), { limitInputPixels: MAX_INPUT_PIXELS });
    const { data } = await encode(input.format === "png" ? p.png({ compressionLevel: 9, palette: !background, quality: 90 }) : p.flatten({ background: toHex(bg) }).jpeg({ quality: 88, mozjpeg: true }));
    checkOutputSize(data, "choose JPEG");
    const mime = input.format === "png" ? "image/png" : "image/jpeg";
    return {
      result: { data_base64: data.toString("base64"), mime, file_name: `og-image.${input.format === "png" ? "png" : "jpg"}`, width, height, bytes: data.length, title_px: size },
      blocks: {
        images: [{ mime, data_base64: data.toString("base64"), width, height, alt: input.title }],
        code: [{ lang: "html", text: `<meta property="og:image" content="https://example.com/og-image.${input.format === "png" ? "png" : "jpg"}">\n<meta property="og:image:width" content="${width}">\n<meta property="og:image:height" content="${height}">\n<meta name="twitter:card" content="summary_large_image">` }],
      },
      warnings,
    };
  },
});
