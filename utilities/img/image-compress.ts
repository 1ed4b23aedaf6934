import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { examplePng } from "./example-image.ts";
import { encodeAs, LOSSY, type OutputFormat } from "./encoders.ts";
import { baseName, checkOutputSize, encode, EXT_OF, formatCount, MIME_OF, openImage, previewOf, savedPct, type OpenedImage } from "./image-input.ts";

interface Input {
  file: Uint8Array;
  file_name?: string;
  quality: number;
  target_kb?: number;
  to: "same" | "webp" | "avif" | "jpeg" | "png";
  keep_metadata: boolean;
}

const IMAGE_KINDS = ["jpeg", "png", "webp", "avif", "gif", "tiff", "heic"] as const;

function outputFormat(img: OpenedImage, to: Input["to"], warnings: Warning[]): OutputFormat {
  if (to !== "same") return to;
  if (img.format === "heif") {
    // No HEVC encoder here (nor a licence for one): a phone photo comes back as JPEG, as a phone exports it.
    warnings.push({ code: "heic_to_jpeg", text: "HEIC cannot be written here: the compressed photo is a JPEG (choose to: webp or avif for smaller files)" });
    return "jpeg";
  }
  if (img.format === "svg") throw new UtilityError("bad_param", "an SVG is compressed by svg_optimize; choose to: png, webp or avif to rasterise it", "input.to");
  return img.format;
}

async function once(img: OpenedImage, format: OutputFormat, quality: number, keep: boolean): Promise<{ data: Buffer; width: number; height: number }> {
  // Animation is kept where the output has it (GIF, WebP); EXIF orientation is applied so the stripped copy still stands upright.
  const animated = format === "gif" || format === "webp";
  let p = img.pipeline({ animated }).rotate();
  if (keep) p = p.keepMetadata();
  const { data, info } = await encode(encodeAs(p, format, quality, img));
  return { data, width: info.width, height: info.pageHeight ?? info.height };
}

/** The highest quality whose file fits target bytes (binary search over 5..95, seven encodes at most). */
async function toTarget(img: OpenedImage, format: OutputFormat, target: number, keep: boolean) {
  let lo = 5;
  let hi = 95;
  let best: { data: Buffer; width: number; height: number; quality: number } | null = null;
  for (let i = 0; i < 7 && lo <= hi; i++) {
    const q = Math.round((lo + hi) / 2);
    const out = await once(img, format, q, keep);
    if (out.data.length <= target) {
      best = { ...out, quality: q };
      lo = q + 1;
    } else hi = q - 1;
  }
  if (best) return best;
  const smallest = await once(img, format, 5, keep);
  return { ...smallest, quality: 5 };
}

export const imageCompress = defineUtility<Input>({
  id: "image_compress",
  group: "img",
  title: "Image compressor",
  description:
    "TinyPNG-style compression of JPEG, PNG, WebP, AVIF, GIF and HEIC photos (written as JPEG unless another format is chosen): set quality or a target size; palette PNG, progressive mozjpeg; metadata (GPS too) is stripped unless kept; can switch format to WebP or AVIF. Returns the file and the savings",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: [...IMAGE_KINDS],
  fields: [
    { name: "file", type: "file", label: "Image (JPEG, PNG, WebP, AVIF, GIF, TIFF or HEIC)", required: true },
    { name: "quality", type: "int", label: "Quality (1-100)", default: 80, min: 1, max: 100 },
    { name: "target_kb", type: "int", label: "Target size (KB): the highest quality that fits", min: 1, max: 5120 },
    { name: "to", type: "sel", label: "Output format", options: ["same", "webp", "avif", "jpeg", "png"], default: "same" },
    { name: "keep_metadata", type: "bool", label: "Keep EXIF/ICC metadata (GPS included)", default: false },
  ],
  example: { file: examplePng().toString("base64"), file_name: "blocks.png", quality: 80 },
  async run(input) {
    const img = await openImage(input.file);
    const warnings: Warning[] = [...img.warnings];
    const format = outputFormat(img, input.to, warnings);
    if (img.format === "heif" && input.keep_metadata) warnings.push({ code: "metadata_not_kept", text: "the metadata of a HEIC photo is not carried into the new file" });
    let out: { data: Buffer; width: number; height: number; quality?: number };
    if (input.target_kb !== undefined) {
      if (!LOSSY.has(format)) warnings.push({ code: "target_ignored", text: `${format.toUpperCase()} has no quality scale to search: target_kb applies to JPEG, WebP and AVIF` });
      out = LOSSY.has(format) ? await toTarget(img, format, input.target_kb * 1024, input.keep_metadata) : await once(img, format, input.quality, input.keep_metadata);
      if (LOSSY.has(format) && out.data.length > input.target_kb * 1024) warnings.push({ code: "target_missed", text: `even quality 5 gives ${formatCount(out.data.length)} bytes; resize the image to reach ${input.target_kb} KB` });
    } else out = { ...(await once(img, format, input.quality, input.keep_metadata)), quality: input.quality };
    // Same format and no smaller: the original is already as small as these settings make it
    // (unless it carries metadata the user asked to remove).
    let data = out.data;
    const carriesMetadata = Boolean(img.meta.exif ?? img.meta.xmp ?? img.meta.iptc);
    if (format === img.format && data.length >= img.bytes.length && (input.keep_metadata || !carriesMetadata)) {
      warnings.push({ code: "already_optimal", text: "the re-encoded file was not smaller; the original comes back unchanged" });
      data = img.bytes;
    }
    checkOutputSize(data, "lower the quality or resize the image first");
    const mime = MIME_OF[format] as string;
    const before = img.bytes.length;
    const saved = savedPct(before, data.length);
    return {
      result: {
        data_base64: data.toString("base64"),
        mime,
        file_name: `${baseName(input.file_name, "image")}.${EXT_OF[format]}`,
        format,
        bytes_before: before,
        bytes_after: data.length,
        saved_pct: saved,
        width: out.width,
        height: out.height,
        ...(out.quality !== undefined && LOSSY.has(format) ? { quality: out.quality } : {}),
      },
      blocks: {
        pairs: [
          { label: "Before", value: `${formatCount(before)} bytes (${img.format.toUpperCase()})` },
          { label: "After", value: `${formatCount(data.length)} bytes (${format.toUpperCase()})` },
          { label: "Saved", value: `${saved}%`, status: saved >= 10 ? "good" : saved > 0 ? "info" : "warn" },
          { label: "Dimensions", value: `${out.width}×${out.height}` },
          { label: "Metadata", value: input.keep_metadata ? "kept" : "removed (EXIF, GPS, XMP, IPTC)" },
        ],
        images: [await previewOf(data, mime, out.width, out.height, "compressed image", () => img.pipeline().rotate())],
      },
      warnings,
    };
  },
});
