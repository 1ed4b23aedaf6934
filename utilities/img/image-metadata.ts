import { createHash } from "node:crypto";
import { defineUtility, type Pair, type Warning } from "../utility.ts";
import { examplePng } from "./example-image.ts";
import { encodeAs, type OutputFormat } from "./encoders.ts";
import { baseName, encode, EXT_OF, MIME_OF, openImage, type OpenedImage } from "./image-input.ts";
import { stripJpeg, stripPng } from "./strip-metadata.ts";

interface Input {
  file: Uint8Array;
  file_name?: string;
  strip: boolean;
}

type Scalar = string | number | boolean;

/** The JSON-safe tags of one exifr block (binary and nested values left out). */
function scalars(block: unknown): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  if (!block || typeof block !== "object") return out;
  for (const [k, v] of Object.entries(block as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v.replace(/\0+$/, "").slice(0, 500);
    else if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean") out[k] = v;
    else if (Array.isArray(v) && v.length <= 8 && v.every((x) => typeof x === "number")) out[k] = v.join(", ");
  }
  return out;
}

const EXIFR_OPTIONS = { tiff: true, exif: true, gps: true, interop: false, iptc: true, xmp: true, icc: true, jfif: false, ihdr: false, reviveValues: false, translateValues: true, mergeOutput: false } as const;

/**
 * The tags exifr reads from the file. `exifBlock` is the EXIF block as libvips found it in the
 * container, read when exifr finds no EXIF in the file itself: exifr reads Apple's HEIC EXIF item
 * but not every writer's layout (libheif's heif-enc puts the TIFF header where exifr does not look).
 */
async function readTags(bytes: Buffer, exifBlock?: Buffer): Promise<{ groups: Record<string, Record<string, Scalar>>; gps: { latitude: number; longitude: number; altitude_m?: number } | null }> {
  const { default: exifr } = await import("exifr");
  // Damaged metadata is not a damaged image: the dimensions still come from sharp.
  const parse = async (data: Buffer) => ((await exifr.parse(data, EXIFR_OPTIONS).catch(() => undefined)) ?? undefined) as Record<string, unknown> | undefined;
  let parsed = await parse(bytes);
  if (exifBlock && !parsed?.ifd0 && !parsed?.exif) {
    const fromBlock = await parse(exifBlock);
    if (fromBlock) parsed = { ...parsed, ...fromBlock };
  }
  if (parsed && "errors" in parsed) delete parsed.errors;
  const groups: Record<string, Record<string, Scalar>> = {};
  for (const [name, block] of Object.entries(parsed ?? {})) {
    const tags = scalars(block);
    if (Object.keys(tags).length > 0) groups[name] = tags;
  }
  const g = (parsed?.gps ?? {}) as { latitude?: number; longitude?: number; GPSAltitude?: number };
  const gps =
    typeof g.latitude === "number" && typeof g.longitude === "number" && Number.isFinite(g.latitude) && Number.isFinite(g.longitude)
      ? { latitude: Math.round(g.latitude * 1e6) / 1e6, longitude: Math.round(g.longitude * 1e6) / 1e6, ...(typeof g.GPSAltitude === "number" ? { altitude_m: g.GPSAltitude } : {}) }
      : null;
  return { groups, gps };
}

/** The format of the copy without metadata: the same, but PNG for SVG and JPEG for HEIC (no HEVC encoder here). */
function cleanFormat(img: OpenedImage): OutputFormat {
  return img.format === "svg" ? "png" : img.format === "heif" ? "jpeg" : img.format;
}

/** The copy without metadata: lossless for JPEG and PNG, re-encoded (orientation applied) otherwise. */
async function stripped(img: OpenedImage, warnings: Warning[]): Promise<Buffer> {
  const orientation = img.meta.orientation ?? 1;
  if (orientation === 1) {
    const lossless = img.format === "jpeg" ? stripJpeg(img.bytes) : img.format === "png" ? stripPng(img.bytes) : null;
    if (lossless) return lossless;
  }
  if (img.format === "heif") warnings.push({ code: "heic_to_jpeg", text: "HEIC cannot be written here: the copy without metadata is a JPEG (quality 92)" });
  else warnings.push({ code: "reencoded", text: orientation !== 1 ? `the EXIF orientation (${orientation}) was applied to the pixels, so the copy was re-encoded` : `${img.format.toUpperCase()} was re-encoded to drop its metadata` });
  const format = cleanFormat(img);
  const { data } = await encode(encodeAs(img.pipeline({ animated: true }).rotate(), format, 92, img, { palette: false }));
  return data;
}

export const imageMetadata = defineUtility<Input>({
  id: "image_metadata",
  group: "img",
  title: "EXIF viewer & remover",
  description:
    "Shows format, dimensions, DPI, colour space, ICC profile, alpha, frames, orientation, EXIF/IPTC/XMP (camera, date, GPS with a privacy warning) and hashes. Can return a copy with all metadata removed (JPEG and PNG without re-encoding)",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["jpeg", "png", "webp", "avif", "gif", "tiff", "heic"],
  fields: [
    { name: "file", type: "file", label: "Image", required: true },
    { name: "strip", type: "bool", label: "Return a copy without metadata", default: false },
  ],
  example: { file: examplePng().toString("base64"), file_name: "blocks.png", strip: true },
  async run(input) {
    const img = await openImage(input.file);
    const { groups, gps } = await readTags(img.bytes, img.format === "heif" ? img.meta.exif : undefined);
    const warnings: Warning[] = [...img.warnings];
    if (gps) warnings.push({ code: "gps", text: `the photo holds its GPS position (${gps.latitude}, ${gps.longitude}): anyone who downloads it can see where it was taken` });
    const m = img.meta;
    const hashes = { md5: createHash("md5").update(img.bytes).digest("hex"), sha256: createHash("sha256").update(img.bytes).digest("hex") };
    const described = groups.icc?.ProfileDescription ?? groups.icc?.description;
    const icc = described !== undefined ? String(described) : m.icc ? "embedded" : null;
    const result: Record<string, unknown> = {
      format: img.format,
      mime: MIME_OF[img.format],
      bytes: img.bytes.length,
      width: img.width,
      height: img.height,
      frames: img.frames,
      density: m.density ?? null,
      space: m.space ?? null,
      channels: m.channels ?? null,
      depth: m.depth ?? null,
      has_alpha: m.hasAlpha ?? false,
      orientation: m.orientation ?? 1,
      progressive: m.isProgressive ?? false,
      icc_profile: icc,
      exif: groups,
      gps,
      hashes,
    };
    if (input.strip) {
      const copy = await stripped(img, warnings);
      Object.assign(result, {
        data_base64: copy.toString("base64"),
        file_name: `${baseName(input.file_name, "image")}-clean.${EXT_OF[cleanFormat(img)]}`,
        stripped_bytes: copy.length,
      });
    }
    const pairs: Pair[] = [
      { label: "Format", value: `${img.format.toUpperCase()}${img.frames > 1 ? `, ${img.frames} frames` : ""}` },
      { label: "Dimensions", value: `${img.width}×${img.height}` },
      ...(m.density ? [{ label: "DPI", value: String(m.density) }] : []),
      { label: "Colour space", value: `${m.space ?? "?"}${m.hasAlpha ? " + alpha" : ""}, ${m.depth ?? "?"}` },
      { label: "ICC profile", value: icc ?? "none" },
      { label: "GPS", value: gps ? `${gps.latitude}, ${gps.longitude}` : "none", status: gps ? "warn" : "good" },
      { label: "SHA-256", value: hashes.sha256 },
    ];
    const rows = Object.entries(groups).flatMap(([group, tags]) => Object.entries(tags).map(([tag, value]) => [group, tag, String(value)] as const));
    return { result, blocks: { pairs, tables: rows.length ? [{ title: "Metadata tags", columns: ["Group", "Tag", "Value"], rows }] : [] }, warnings };
  },
});
