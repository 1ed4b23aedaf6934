import { defineUtility, type Warning } from "../utility.ts";
import { parseColor, toHex } from "../shared/color.ts";
import { zipFiles } from "../shared/zip.ts";
import { EXAMPLE_SVG } from "./example-image.ts";
import { encodeIco } from "./ico.ts";
import { encode, loadSharp, MAX_INPUT_PIXELS, openImage, type OpenedImage } from "./image-input.ts";

interface Input {
  file: Uint8Array;
  file_name?: string;
  background?: string;
  padding_pct: number;
  app_name?: string;
  theme_color?: string;
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** One square PNG: the source fitted inside size less padding, on the background (or transparent). */
async function square(master: Buffer, size: number, paddingPct: number, background: string | null): Promise<Buffer> {
  const sharp = await loadSharp();
  const inner = Math.max(1, Math.round(size * (1 - (2 * paddingPct) / 100)));
  const { data: icon } = await encode(sharp(master, { limitInputPixels: MAX_INPUT_PIXELS }).resize(inner, inner, { fit: "contain", background: TRANSPARENT }).png());
  const canvas = sharp({ create: { width: size, height: size, channels: 4, background: background ?? TRANSPARENT } }).composite([{ input: icon, gravity: "centre" }]);
  const { data } = await encode(canvas.png({ compressionLevel: 9 }));
  return data;
}

/** The source as a large upright PNG master (an SVG rendered at 512 px). */
async function masterOf(img: OpenedImage): Promise<Buffer> {
  const density = img.format === "svg" ? Math.min(2400, Math.max(72, Math.ceil((72 * 512) / Math.max(img.width, img.height)))) : undefined;
  const { data } = await encode(img.pipeline({ ...(density ? { density } : {}) }).rotate().resize(512, 512, { fit: "contain", background: TRANSPARENT, withoutEnlargement: img.format !== "svg" }).png());
  return data;
}

export const faviconGenerator = defineUtility<Input>({
  id: "favicon_generator",
  group: "img",
  title: "Favicon & app-icon generator",
  description:
    "From one image or SVG makes favicon.ico (16/32/48), favicon.svg, apple-touch-icon 180, PWA icons 192/512 (+maskable), site.webmanifest and the <link> tags, all returned as a ZIP",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["png", "jpeg", "webp", "avif", "gif", "svg", "heic"],
  fields: [
    { name: "file", type: "file", label: "Image or SVG (square, 512 px or more)", required: true },
    { name: "background", type: "color", label: "Background (transparent when empty; apple-touch-icon and maskable always get one)" },
    { name: "padding_pct", type: "int", label: "Padding (%)", default: 0, min: 0, max: 30 },
    { name: "app_name", type: "str", label: "App name (site.webmanifest)", max: 45 },
    { name: "theme_color", type: "color", label: "Theme colour" },
  ],
  example: { file: Buffer.from(EXAMPLE_SVG).toString("base64"), file_name: "logo.svg", app_name: "Example", theme_color: "#1e40af" },
  async run(input) {
    const img = await openImage(input.file);
    const warnings: Warning[] = [...img.warnings];
    if (img.format !== "svg" && Math.min(img.width, img.height) < 512) warnings.push({ code: "small_source", text: `the source is ${img.width}×${img.height}: icons over ${Math.min(img.width, img.height)} px are upscaled (512 px or an SVG is best)` });
    if (img.width !== img.height) warnings.push({ code: "not_square", text: `the source is ${img.width}×${img.height}: it is centred in a square with ${input.background ? "the background" : "transparent"} margins` });
    const bg = input.background ? toHex(parseColor(input.background) ?? { r: 255, g: 255, b: 255, a: 1 }) : null;
    const solid = bg ?? (input.theme_color ? toHex(parseColor(input.theme_color) ?? { r: 255, g: 255, b: 255, a: 1 }) : "#ffffff");
    const master = await masterOf(img);
    const pad = input.padding_pct;
    const png = async (size: number, p = pad, b: string | null = bg) => square(master, size, p, b);
    const files: Record<string, Buffer | string> = {};
    files["favicon.ico"] = encodeIco(await Promise.all([16, 32, 48].map(async (size) => ({ size, png: await png(size) }))));
    files["favicon-16x16.png"] = await png(16);
    files["favicon-32x32.png"] = await png(32);
    // iOS draws transparency black: the touch icon is always opaque.
    files["apple-touch-icon.png"] = await png(180, pad, solid);
    files["icon-192.png"] = await png(192);
    files["icon-512.png"] = await png(512);
    // Maskable: the safe zone is the inner 80% circle, so at least 10% padding and no transparency.
    files["icon-512-maskable.png"] = await png(512, Math.max(pad, 10), solid);
    if (img.format === "svg") files["favicon.svg"] = img.bytes.toString("utf8");
    else warnings.push({ code: "no_svg", text: "favicon.svg is made only from an SVG source" });
    const theme = input.theme_color ? toHex(parseColor(input.theme_color) ?? { r: 255, g: 255, b: 255, a: 1 }) : solid;
    const manifest = {
      name: input.app_name ?? "",
      short_name: (input.app_name ?? "").slice(0, 12),
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
        { src: "/icon-512-maskable.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      ],
      theme_color: theme,
      background_color: solid,
      display: "standalone",
    };
    files["site.webmanifest"] = `${JSON.stringify(manifest, null, 2)}\n`;
    const links = [
      '<link rel="icon" href="/favicon.ico" sizes="48x48">',
      ...(files["favicon.svg"] ? ['<link rel="icon" href="/favicon.svg" type="image/svg+xml">'] : ['<link rel="icon" href="/favicon-32x32.png" type="image/png" sizes="32x32">']),
      '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
      '<link rel="manifest" href="/site.webmanifest">',
      `<meta name="theme-color" content="${theme}">`,
    ].join("\n");
    files["head.html"] = `${links}\n`;
    const zip = zipFiles(files);
    const list = Object.entries(files).map(([name, data]) => ({ name, bytes: typeof data === "string" ? Buffer.byteLength(data) : data.length }));
    const preview = files["icon-192.png"];
    return {
      result: { data_base64: zip.toString("base64"), mime: "application/zip", file_name: "favicons.zip", bytes: zip.length, files: list },
      blocks: {
        code: [
          { lang: "html", text: links, filename: "head.html" },
          { lang: "json", text: files["site.webmanifest"], filename: "site.webmanifest" },
        ],
        images: [{ mime: "image/png", data_base64: preview.toString("base64"), width: 192, height: 192, alt: "icon 192×192" }],
        tables: [{ title: "Files", columns: ["File", "Bytes"], rows: list.map((f) => [f.name, f.bytes]) }],
      },
      warnings,
    };
  },
});
