import { UtilityError, defineUtility } from "../utility.ts";
import { contrast, toHex, toHsl, type Rgba } from "../shared/color.ts";
import { examplePng } from "./example-image.ts";
import { encode, openImage } from "./image-input.ts";
import { medianCut, type Cluster } from "./median-cut.ts";

// Own median cut over sharp's decoded pixels instead of node-vibrant: sharp already decodes every
// format here (node-vibrant brings its own JPEG/PNG decoders and reads fewer formats), and the
// Vibrant/Muted swatch rule is a short scoring table, below.

interface Input {
  file: Uint8Array;
  file_name?: string;
  count: number;
}

/** The image is sampled at this side: shares are stable and the CPU cost is fixed. */
const SAMPLE_SIDE = 160;

interface Target {
  readonly name: string;
  readonly sat: readonly [number, number, number];
  readonly light: readonly [number, number, number];
}

// min, target, max of saturation and lightness (0..1), the Vibrant/Muted convention of Android's Palette.
const TARGETS: readonly Target[] = [
  { name: "vibrant", sat: [0.35, 1, 1], light: [0.3, 0.5, 0.7] },
  { name: "light_vibrant", sat: [0.35, 1, 1], light: [0.55, 0.74, 1] },
  { name: "dark_vibrant", sat: [0.35, 1, 1], light: [0, 0.26, 0.45] },
  { name: "muted", sat: [0, 0.3, 0.4], light: [0.3, 0.5, 0.7] },
  { name: "light_muted", sat: [0, 0.3, 0.4], light: [0.55, 0.74, 1] },
  { name: "dark_muted", sat: [0, 0.3, 0.4], light: [0, 0.26, 0.45] },
];

const rgbaOf = (c: Cluster): Rgba => ({ r: c.rgb[0], g: c.rgb[1], b: c.rgb[2], a: 1 });
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

function swatches(clusters: readonly Cluster[]): Record<string, string | null> {
  const top = Math.max(...clusters.map((c) => c.count));
  const used = new Set<Cluster>();
  const out: Record<string, string | null> = {};
  for (const t of TARGETS) {
    let best: Cluster | null = null;
    let bestScore = -Infinity;
    for (const c of clusters) {
      if (used.has(c)) continue;
      const [, s, l] = toHsl(rgbaOf(c)).map((v, i) => (i === 0 ? v : v / 100)) as [number, number, number];
      if (s < t.sat[0] || s > t.sat[2] || l < t.light[0] || l > t.light[2]) continue;
      const score = (1 - Math.abs(s - t.sat[1])) * 3 + (1 - Math.abs(l - t.light[1])) * 6.5 + (c.count / top) * 0.5;
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    if (best) used.add(best);
    out[t.name] = best ? toHex(rgbaOf(best)) : null;
  }
  return out;
}

export const colorPalette = defineUtility<Input>({
  id: "color_palette",
  group: "img",
  title: "Colour palette from image",
  description:
    "Finds the dominant colours and a Vibrant/Muted palette of an image, with HEX, RGB, HSL, share and the readable text colour (WCAG contrast) for each. Transparent pixels are left out",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["png", "jpeg", "webp", "avif", "gif", "tiff", "svg", "heic"],
  fields: [
    { name: "file", type: "file", label: "Image", required: true },
    { name: "count", type: "int", label: "Colours", default: 6, min: 2, max: 12 },
  ],
  example: { file: examplePng().toString("base64"), file_name: "blocks.png", count: 6 },
  async run(input) {
    const img = await openImage(input.file);
    const { data, info } = await encode(img.pipeline().rotate().resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: "inside", withoutEnlargement: true, kernel: "nearest" }).ensureAlpha().raw());
    const px = new Uint32Array(info.width * info.height);
    let n = 0;
    for (let i = 0; i + 3 < data.length; i += 4) {
      if ((data[i + 3] as number) < 128) continue;
      px[n++] = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
    }
    if (n === 0) throw new UtilityError("tool_failed", "the image is fully transparent: it has no colours to pick");
    const pixels = px.subarray(0, n);
    const clusters = medianCut(pixels, input.count);
    const colors = clusters.map((c) => {
      const rgba = rgbaOf(c);
      const onBlack = contrast(rgba, BLACK);
      const onWhite = contrast(rgba, WHITE);
      const [h, s, l] = toHsl(rgba);
      return {
        hex: toHex(rgba),
        rgb: [...c.rgb],
        hsl: `hsl(${Math.round(h)}, ${Math.round(s)}%, ${Math.round(l)}%)`,
        share_pct: Math.round((c.count / n) * 1000) / 10,
        text_on: onBlack >= onWhite ? "#000000" : "#ffffff",
        contrast: Math.round(Math.max(onBlack, onWhite) * 100) / 100,
      };
    });
    const palette = swatches(medianCut(pixels, 24));
    const strip = `<svg xmlns="http://www.w3.org/2000/svg" width="${colors.length * 64}" height="64">${colors.map((c, i) => `<rect x="${i * 64}" width="64" height="64" fill="${c.hex}"/>`).join("")}</svg>`;
    return {
      result: { colors, palette, sampled_pixels: n },
      blocks: {
        tables: [
          { title: "Dominant colours", columns: ["HEX", "RGB", "HSL", "Share %", "Text on it", "Contrast"], rows: colors.map((c) => [c.hex, c.rgb.join(", "), c.hsl, c.share_pct, c.text_on, c.contrast]) },
          { title: "Palette", columns: ["Swatch", "HEX"], rows: Object.entries(palette).map(([k, v]) => [k, v]) },
        ],
        images: [{ mime: "image/svg+xml", data_base64: Buffer.from(strip).toString("base64"), width: colors.length * 64, height: 64, alt: "dominant colours" }],
      },
      warnings: [...img.warnings, ...(clusters.length < input.count ? [{ code: "few_colors", text: `the image has only ${clusters.length} distinct colours` }] : [])],
    };
  },
});
