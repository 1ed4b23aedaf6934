import { defineUtility, type Warning } from "../utility.ts";
import { parseColor, toHex } from "../shared/color.ts";
import { examplePng } from "./example-image.ts";
import { encodeAs, LOSSY, type OutputFormat } from "./encoders.ts";
import { encodeIco } from "./ico.ts";
import { baseName, checkOutputSize, encode, EXT_OF, formatCount, MIME_OF, openImage, previewOf, type OpenedImage } from "./image-input.ts";

interface Input {
  file: Uint8Array;
  file_name?: string;
  to: OutputFormat | "ico";
  quality: number;
  background: string;
}

const ICO_SIZES = [16, 32, 48];

async function toIco(img: OpenedImage): Promise<{ data: Buffer; width: number; height: number }> {
  const entries = [];
  for (const size of ICO_SIZES) {
    const { data } = await encode(img.pipeline({ density: img.format === "svg" ? 300 : undefined }).rotate().resize(size, size, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } }).png());
    entries.push({ size, png: data });
  }
  return { data: encodeIco(entries), width: 48, height: 48 };
}

export const imageConvert = defineUtility<Input>({
  id: "image_convert",
  group: "img",
  title: "Image format converter",
  description:
    "Converts between JPEG, PNG, WebP, AVIF, GIF (animation kept), TIFF and ICO, rasterises SVG (sanitised first), and reads HEIC/HEIF phone photos (decoded by libheif: the primary image, upright)",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["jpeg", "png", "webp", "avif", "gif", "tiff", "svg", "heic"],
  fields: [
    { name: "file", type: "file", label: "Image (JPEG, PNG, WebP, AVIF, GIF, TIFF, SVG or HEIC)", required: true },
    { name: "to", type: "sel", label: "Convert to", options: ["jpeg", "png", "webp", "avif", "gif", "tiff", "ico"], required: true },
    { name: "quality", type: "int", label: "Quality (JPEG, WebP, AVIF)", default: 80, min: 1, max: 100 },
    { name: "background", type: "color", label: "Background for transparency (JPEG)", default: "#ffffff" },
  ],
  example: { file: examplePng().toString("base64"), file_name: "blocks.png", to: "webp" },
  async run(input) {
    const img = await openImage(input.file);
    const warnings: Warning[] = [...img.warnings];
    const bg = toHex(parseColor(input.background) ?? { r: 255, g: 255, b: 255, a: 1 });
    let out: { data: Buffer; width: number; height: number };
    if (input.to === "ico") {
      out = await toIco(img);
      if (img.width < 48 || img.height < 48) warnings.push({ code: "upscaled", text: `the source is ${img.width}×${img.height}: the 48 px icon is upscaled` });
    } else {
      const animated = img.frames > 1 && (input.to === "gif" || input.to === "webp");
      if (img.frames > 1 && !animated) warnings.push({ code: "first_frame", text: `${input.to.toUpperCase()} holds no animation: only the first of ${img.frames} frames is kept` });
      if (img.meta.hasAlpha && input.to === "jpeg") warnings.push({ code: "alpha_flattened", text: `JPEG has no transparency: transparent pixels are filled with ${bg}` });
      if (input.to === "gif" && img.format !== "gif") warnings.push({ code: "palette", text: "GIF holds 256 colours: photos lose colour detail" });
      const p = img.pipeline({ animated, ...(img.format === "svg" ? { density: 72 } : {}) }).rotate();
      const { data, info } = await encode(encodeAs(p, input.to, input.quality, img, { background: bg, palette: false }));
      out = { data, width: info.width, height: info.pageHeight ?? info.height };
    }
    if (LOSSY.has(input.to as OutputFormat) && !LOSSY.has(img.format as OutputFormat) && img.format !== "svg" && img.format !== "heif") warnings.push({ code: "lossy", text: `${input.to.toUpperCase()} at quality ${input.quality} is lossy; the ${img.format.toUpperCase()} source was lossless` });
    checkOutputSize(out.data, "choose a smaller format (WebP, AVIF) or lower the quality");
    const mime = MIME_OF[input.to] as string;
    return {
      result: {
        data_base64: out.data.toString("base64"),
        mime,
        file_name: `${baseName(input.file_name, "image")}.${EXT_OF[input.to]}`,
        bytes: out.data.length,
        bytes_before: img.bytes.length,
        from: img.format,
        width: out.width,
        height: out.height,
        frames: input.to === "gif" || input.to === "webp" ? img.frames : 1,
      },
      blocks: {
        pairs: [
          { label: "From", value: `${img.format.toUpperCase()}, ${formatCount(img.bytes.length)} bytes, ${img.width}×${img.height}` },
          { label: "To", value: `${input.to.toUpperCase()}, ${formatCount(out.data.length)} bytes, ${out.width}×${out.height}` },
        ],
        images: input.to === "ico" || input.to === "tiff" ? [] : [await previewOf(out.data, mime, out.width, out.height, `converted to ${input.to}`, () => img.pipeline().rotate())],
      },
      warnings,
    };
  },
});
