import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { parseColor, toHex } from "../shared/color.ts";
import { examplePng } from "./example-image.ts";
import { encodeAs, type OutputFormat } from "./encoders.ts";
import { baseName, checkOutputSides, checkOutputSize, encode, EXT_OF, loadSharp, MIME_OF, openImage, previewOf, type OpenedImage } from "./image-input.ts";

interface Input {
  file: Uint8Array;
  file_name?: string;
  width?: number;
  height?: number;
  percent?: number;
  fit: "inside" | "cover" | "contain" | "fill" | "outside";
  crop: "none" | "center" | "attention" | "entropy";
  rotate?: number;
  flip: boolean;
  flop: boolean;
  background: string;
  srcset: boolean;
  quality: number;
}

/** The target box of the 1x image: from width/height, or a percentage of the upright source. */
function targetOf(input: Input, w: number, h: number): { width?: number; height?: number } {
  if (input.percent !== undefined) {
    if (input.width !== undefined || input.height !== undefined) throw new UtilityError("bad_param", "give percent or width/height, not both", "input.percent");
    return { width: Math.max(1, Math.round((w * input.percent) / 100)), height: Math.max(1, Math.round((h * input.percent) / 100)) };
  }
  if (input.width === undefined && input.height === undefined && input.rotate === undefined && !input.flip && !input.flop) {
    throw new UtilityError("bad_param", "give width, height or percent (or a rotate/flip to apply)", "input.width");
  }
  return { ...(input.width !== undefined ? { width: input.width } : {}), ...(input.height !== undefined ? { height: input.height } : {}) };
}

/** The size the resize will give, computed before anything is decoded (the output-side guard). */
function plannedSize(t: { width?: number; height?: number }, w: number, h: number, fit: Input["fit"]): [number, number] {
  if (t.width !== undefined && t.height !== undefined) {
    if (fit === "inside") {
      const s = Math.min(t.width / w, t.height / h);
      return [Math.round(w * s), Math.round(h * s)];
    }
    if (fit === "outside") {
      const s = Math.max(t.width / w, t.height / h);
      return [Math.round(w * s), Math.round(h * s)];
    }
    return [t.width, t.height];
  }
  if (t.width !== undefined) return [t.width, Math.max(1, Math.round((h * t.width) / w))];
  if (t.height !== undefined) return [Math.max(1, Math.round((w * t.height) / h)), t.height];
  return [w, h];
}

async function render(img: OpenedImage, input: Input, t: { width?: number; height?: number }, scale: number, format: OutputFormat, size: { width: number; height: number }) {
  const sharp = await loadSharp();
  const bg = toHex(parseColor(input.background) ?? { r: 255, g: 255, b: 255, a: 1 });
  let p = img.pipeline({ animated: format === "gif" || format === "webp" }).rotate();
  if (input.rotate !== undefined && input.rotate % 360 !== 0) p = sharp(await encode(p.png()).then((r) => r.data), { limitInputPixels: 40_000_000 }).rotate(input.rotate, { background: bg });
  if (input.flip) p = p.flip();
  if (input.flop) p = p.flop();
  if (t.width !== undefined || t.height !== undefined) {
    const position = input.crop === "attention" ? sharp.strategy.attention : input.crop === "entropy" ? sharp.strategy.entropy : "centre";
    p = p.resize({
      ...(t.width !== undefined ? { width: Math.round(t.width * scale) } : {}),
      ...(t.height !== undefined ? { height: Math.round(t.height * scale) } : {}),
      fit: input.crop !== "none" ? "cover" : input.fit,
      position,
      background: bg,
    });
  }
  const { data, info } = await encode(encodeAs(p, format, input.quality, size, { background: bg, palette: false }));
  return { data, width: info.width, height: info.pageHeight ?? info.height };
}

export const imageResize = defineUtility<Input>({
  id: "image_resize",
  group: "img",
  title: "Resize, crop & rotate",
  description:
    "Resizes by width, height or percent with a fit mode (cover, contain, inside, fill); smart crop (attention or entropy); rotate, flip, background. Can return a 1x/2x/3x set with a srcset/<picture> snippet",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["jpeg", "png", "webp", "avif", "gif", "tiff", "heic"],
  fields: [
    { name: "file", type: "file", label: "Image", required: true },
    { name: "width", type: "int", label: "Width (px)", min: 1, max: 8000 },
    { name: "height", type: "int", label: "Height (px)", min: 1, max: 8000 },
    { name: "percent", type: "int", label: "Scale (%)", min: 1, max: 400 },
    { name: "fit", type: "sel", label: "Fit when both sides are given", options: ["inside", "cover", "contain", "fill", "outside"], default: "inside" },
    { name: "crop", type: "sel", label: "Crop to the box", options: ["none", "center", "attention", "entropy"], default: "none" },
    { name: "rotate", type: "int", label: "Rotate (degrees, clockwise)", min: -360, max: 360 },
    { name: "flip", type: "bool", label: "Flip vertically", default: false },
    { name: "flop", type: "bool", label: "Mirror horizontally", default: false },
    { name: "background", type: "color", label: "Background (contain, rotation, JPEG)", default: "#ffffff" },
    { name: "srcset", type: "bool", label: "Also make 2x and 3x with a srcset snippet", default: false },
    { name: "quality", type: "int", label: "Quality (lossy formats)", default: 82, min: 1, max: 100 },
  ],
  example: { file: examplePng().toString("base64"), file_name: "blocks.png", width: 48 },
  async run(input) {
    const img = await openImage(input.file);
    // HEIC cannot be written here (no HEVC encoder): a resized phone photo is a JPEG.
    const format: OutputFormat = img.format === "heif" ? "jpeg" : (img.format as OutputFormat);
    const quarter = input.rotate !== undefined && Math.abs(input.rotate) % 180 === 90;
    const [w, h] = quarter !== [5, 6, 7, 8].includes(img.meta.orientation ?? 1) ? [img.height, img.width] : [img.width, img.height];
    const t = targetOf(input, w, h);
    const [pw, ph] = plannedSize(t, w, h, input.crop !== "none" ? "cover" : input.fit);
    const scales = input.srcset ? [1, 2, 3] : [1];
    checkOutputSides(pw * (scales.at(-1) as number), ph * (scales.at(-1) as number));
    const warnings: Warning[] = [...img.warnings, ...(img.format === "heif" ? [{ code: "heic_to_jpeg", text: "HEIC cannot be written here: the resized photo is a JPEG" }] : [])];
    const files: { data_base64: string; width: number; height: number; bytes: number; mime: string; file_name: string; density: string }[] = [];
    const stem = baseName(input.file_name, "image");
    const mime = MIME_OF[format] as string;
    let total = 0;
    for (const scale of scales) {
      if (scale > 1 && (pw * scale > w || ph * scale > h)) {
        warnings.push({ code: "upscaled", text: `the ${scale}x image is larger than the original (${w}×${h}): it is upscaled and adds no detail` });
      }
      const out = await render(img, input, t, scale, format, { width: pw * scale, height: ph * scale });
      total += out.data.length;
      files.push({ data_base64: out.data.toString("base64"), width: out.width, height: out.height, bytes: out.data.length, mime, file_name: `${stem}-${out.width}w.${EXT_OF[format]}`, density: `${scale}x` });
    }
    checkOutputSize(new Uint8Array(total), "ask for a smaller size, or leave out the srcset");
    const first = files[0] as (typeof files)[number];
    if (scales.length === 1 && (first.width > w || first.height > h)) warnings.push({ code: "upscaled", text: `the result is larger than the original (${w}×${h}): upscaling adds no detail` });
    const code = input.srcset
      ? [
          {
            lang: "html",
            text: `<img src="${first.file_name}"\n     srcset="${files.map((f) => `${f.file_name} ${f.density}`).join(", ")}"\n     width="${first.width}" height="${first.height}" alt="" loading="lazy" decoding="async">`,
          },
        ]
      : [];
    return {
      result: { files, original: { width: w, height: h, format: img.format } },
      blocks: {
        pairs: [
          { label: "Original", value: `${w}×${h}` },
          ...files.map((f) => ({ label: `Result ${f.density}`, value: `${f.width}×${f.height}, ${f.bytes} bytes` })),
        ],
        images: [await previewOf(Buffer.from(first.data_base64, "base64"), mime, first.width, first.height, "resized image")],
        code,
      },
      warnings,
    };
  },
});
