import type { Metadata, OutputInfo, Sharp } from "sharp";
import { crc32, deflateSync } from "node:zlib";
import { UtilityError, type Warning } from "../utility.ts";
import { FILE_MAX_BYTES } from "../validate.ts";
import { isSvgText } from "../shared/sniff.ts";
import { safeSvg } from "./svg-clean.ts";

// How the img group opens and writes images (utilities-catalogue.md §4): the header is read
// first and an image is refused before any pixel is decoded when it declares more than 40 MP
// (a decompression bomb: a few KB of PNG that would inflate to gigabytes), more than 200 frames,
// or animated frames that add up past 100 MP. sharp's own limitInputPixels stays as the backstop,
// libvips' cache is off and it uses one thread (the pool's threads are the parallelism).
//
// The image libraries are imported on first use, not with the module: the catalogue (and so the
// contracts, the CLI and every gateway process) loads utilities/table.ts, and sharp, satori, SVGO
// and playwright-core would add seconds to each start.

export const MAX_INPUT_PIXELS = 40_000_000;
export const MAX_FRAMES = 200;
export const MAX_ANIMATION_PIXELS = 100_000_000;
export const MAX_OUTPUT_SIDE = 8000;
/**
 * AVIF is decoded up to 16 MP: libaom's decoder needs ≈18 bytes of native memory a pixel and
 * ≈0.4 s a megapixel (a 39.7 MP AVIF: +690 MB and 20 s, past both limits of a run; 16 MP: +290 MB,
 * 7.6 s to JPEG, measured with sharp 0.35 on the 2-core machine). The other decoders stream or
 * need ≤ 7 bytes a pixel and keep the 40 MP guard.
 */
export const MAX_AVIF_INPUT_PIXELS = 16_000_000;

type SharpFn = (typeof import("sharp"))["default"];
let loading: Promise<SharpFn> | null = null;

/** sharp, loaded and configured once per thread. */
export function loadSharp(): Promise<SharpFn> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

export type ImageFormat = "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff" | "svg" | "heif";

export const MIME_OF: Readonly<Record<string, string>> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  heif: "image/heif",
  ico: "image/x-icon",
};

export const EXT_OF: Readonly<Record<string, string>> = { jpeg: "jpg", png: "png", webp: "webp", avif: "avif", gif: "gif", tiff: "tif", svg: "svg", heif: "heic", ico: "ico" };

export interface OpenedImage {
  readonly bytes: Buffer;
  readonly meta: Metadata;
  /** The format as sharp reads it (avif for AVIF files, which libvips calls heif; heif for HEVC-coded HEIC/HEIF). */
  readonly format: ImageFormat;
  readonly width: number;
  /** Of one frame. */
  readonly height: number;
  readonly frames: number;
  /** What reading the image found worth telling (a HEIC colour space not converted). */
  readonly warnings: readonly Warning[];
  /** A new pipeline over the bytes (all frames when animated is asked and the image has them). */
  pipeline(options?: { animated?: boolean; density?: number }): Sharp;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** The decompression-bomb guards on a declared size, before any pixel is decoded. */
function guardPixels(width: number, height: number, frames: number, what: string): void {
  const pixels = width * height;
  if (pixels > MAX_INPUT_PIXELS) {
    throw new UtilityError(
      "tool_failed",
      `${what} declares ${width}×${height} = ${fmt(pixels)} pixels; images over ${fmt(MAX_INPUT_PIXELS)} pixels are refused before decoding (a decompression bomb guard)`,
    );
  }
  if (frames > MAX_FRAMES) throw new UtilityError("tool_failed", `${what} has ${fmt(frames)} frames; at most ${MAX_FRAMES} are decoded`);
  if (frames > 1 && pixels * frames > MAX_ANIMATION_PIXELS) {
    throw new UtilityError("tool_failed", `${what} has ${frames} frames of ${width}×${height}: ${fmt(pixels * frames)} pixels in all, over the ${fmt(MAX_ANIMATION_PIXELS)} decoded for an animation`);
  }
}

/** Reads the header of an uploaded image and applies the guards; tool_failed saying why. */
export async function openImage(data: Uint8Array, what = "the file"): Promise<OpenedImage> {
  // An SVG is sanitised before the rasteriser sees it (no scripts, no external references).
  const sharp = await loadSharp();
  const bytes = isSvgText(data) ? await safeSvg(Buffer.from(data).toString("utf8")) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new UtilityError("tool_failed", `${what} is not a readable image (${reason(err)})`);
  }
  const width = meta.width ?? 0;
  const frames = meta.pages ?? 1;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) throw new UtilityError("tool_failed", `${what} declares no dimensions`);
  guardPixels(width, height, frames, what);
  const format = formatOf(meta);
  if (format === "avif" && width * height > MAX_AVIF_INPUT_PIXELS) {
    throw new UtilityError(
      "tool_failed",
      `${what} is an AVIF of ${width}×${height} = ${fmt(width * height)} pixels; AVIF is decoded here up to ${fmt(MAX_AVIF_INPUT_PIXELS)} pixels (its decoder's memory grows with the picture): send it smaller, or as PNG or JPEG`,
    );
  }
  if (format === "heif") return openHeic(bytes, meta, what);
  return {
    bytes,
    meta,
    format,
    width,
    height,
    frames,
    warnings: [],
    pipeline: (options = {}) =>
      sharp(bytes, {
        limitInputPixels: frames > 1 && options.animated ? MAX_ANIMATION_PIXELS : MAX_INPUT_PIXELS,
        ...(frames > 1 && options.animated ? { animated: true } : {}),
        ...(options.density ? { density: options.density } : {}),
        failOn: "error",
      }),
  };
}

/**
 * A HEIC/HEIF photo (HEVC): libvips reads its header (the guards above ran on it), libheif (WASM)
 * decodes the primary image with the file's transforms applied, and every pipeline starts from
 * those pixels. `meta` keeps the header's EXIF/ICC/XMP but no orientation: nothing rotates the
 * decoded pixels again (see heic.ts).
 *
 * The pixels are in the file's colour space (an iPhone's are Display P3): with an ICC profile, or
 * nclx P3 primaries, they are wrapped once in an uncompressed PNG carrying that profile, which sharp
 * converts to sRGB pixels as it does for any tagged input (≈0.2 s of CPU for 12 MP, beside a
 * second or more of HEVC decoding). A space not converted here warns.
 */
async function openHeic(bytes: Buffer, header: Metadata, what: string): Promise<OpenedImage> {
  const sharp = await loadSharp();
  const { decodeHeic, heicColourPlan } = await import("./heic.ts");
  const px = await decodeHeic(bytes, what, (w, h) => guardPixels(w, h, 1, what));
  const { orientation: _shown, ...rest } = header;
  const meta: Metadata = { ...rest, width: px.width, height: px.height, pages: 1, channels: px.channels, hasAlpha: px.channels === 4 };
  const plan = heicColourPlan(px.colour);
  const raw = { raw: { width: px.width, height: px.height, channels: px.channels }, limitInputPixels: MAX_INPUT_PIXELS } as const;
  const icc = plan.icc === "embedded" && px.colour.kind === "icc" ? px.colour.icc : plan.icc === "p3" ? await p3Profile() : null;
  // Converted once, to sRGB pixels every pipeline starts from (a quality search runs many).
  let srgb: { data: Buffer; channels: number } | null = null;
  if (icc) {
    const tagged = withIcc(await sharp(px.data, raw).png({ compressionLevel: 0, adaptiveFiltering: false }).toBuffer(), icc);
    const { data, info } = await encode(sharp(tagged, { limitInputPixels: MAX_INPUT_PIXELS }).raw(), what);
    srgb = { data, channels: info.channels };
  }
  return {
    bytes,
    meta,
    format: "heif",
    width: px.width,
    height: px.height,
    frames: 1,
    warnings: plan.warning ? [{ code: "heic_color_profile_ignored", text: plan.warning }] : [],
    pipeline: () => (srgb ? sharp(srgb.data, { raw: { width: px.width, height: px.height, channels: srgb.channels as 3 | 4 }, limitInputPixels: MAX_INPUT_PIXELS }) : sharp(px.data, raw)),
  };
}

let p3: Promise<Buffer> | null = null;

/** libvips' built-in Display P3 profile, as bytes (attached to a 1-pixel image and read back). */
function p3Profile(): Promise<Buffer> {
  p3 ??= loadSharp().then(async (sharp) => {
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000000" } }).withIccProfile("p3").png().toBuffer();
    const icc = (await sharp(png).metadata()).icc;
    if (!icc) throw new Error("libvips has no built-in p3 profile");
    return icc;
  });
  return p3;
}

/** A PNG with an iCCP chunk (the profile, deflated) inserted after its IHDR. */
export function withIcc(png: Buffer, icc: Buffer): Buffer {
  const data = Buffer.concat([Buffer.from("ICC profile\0\0", "latin1"), deflateSync(icc)]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write("iCCP", 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  // The signature (8 bytes) and IHDR (4 + 4 + 13 + 4) come first in every PNG.
  return Buffer.concat([png.subarray(0, 33), head, data, crc, png.subarray(33)]);
}

function formatOf(meta: Metadata): ImageFormat {
  const f = meta.format as string;
  if (f === "heif") return meta.compression === "av1" ? "avif" : "heif";
  if (f === "jpeg" || f === "png" || f === "webp" || f === "gif" || f === "tiff" || f === "svg") return f;
  if (f === "jpg") return "jpeg";
  throw new UtilityError("tool_failed", `the image format ${f} is not supported here (JPEG, PNG, WebP, AVIF, GIF, TIFF and SVG are)`);
}

/** The message of a library error, without paths or stacks. */
export function reason(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s+/g, " ").trim().slice(0, 200) || "unknown error";
}

/** Runs a sharp pipeline's output step; a libvips failure (a truncated file) is tool_failed. */
export async function encode(p: Sharp, what = "the image"): Promise<{ data: Buffer; info: OutputInfo }> {
  try {
    return await p.toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (err instanceof UtilityError) throw err;
    throw new UtilityError("tool_failed", `${what} could not be decoded or encoded (${reason(err)}); the file may be truncated or corrupt`);
  }
}

/** A result file must fit the 5 MB a response carries. */
export function checkOutputSize(data: Uint8Array, hint: string): void {
  if (data.length > FILE_MAX_BYTES) throw new UtilityError("tool_failed", `the result is ${fmt(data.length)} bytes, over the ${fmt(FILE_MAX_BYTES)} a result file may have; ${hint}`);
}

/** Output sides stay within 8000 px. */
export function checkOutputSides(width: number, height: number): void {
  if (width > MAX_OUTPUT_SIDE || height > MAX_OUTPUT_SIDE) throw new UtilityError("tool_failed", `the result would be ${width}×${height}; output sides are at most ${MAX_OUTPUT_SIDE} px`);
}

/**
 * A preview block: the image itself when small (≤ 200 KB, ≤ 2048 px), else a WebP scaled to at most 512 px, decoded from
 * the result. An AVIF result is the exception when `source` is given (a pipeline over the input
 * with the same geometry, before encoding): AV1 has no reduced-size decode, and decoding a 10 MP
 * AVIF only to shrink it cost a quarter of the encode (bench:utilities-img), while JPEG and WebP
 * decode straight at a fraction of their size. At 512 px the codec's artefacts do not show.
 */
export async function previewOf(data: Buffer, mime: string, width: number, height: number, alt: string, source?: () => Sharp): Promise<{ mime: string; data_base64: string; width: number; height: number; alt: string }> {
  // Up to 200 KB the result itself is the preview (a client scales it): decoding and re-encoding a
  // small 1200 px result cost a resize run a tenth of its time for a worse picture.
  if (data.length <= 200_000 && width <= 2048 && height <= 2048 && mime !== "image/tiff" && mime !== "image/x-icon") return { mime, data_base64: data.toString("base64"), width, height, alt };
  const sharp = await loadSharp();
  const from = mime === "image/avif" && source ? source() : sharp(data, { limitInputPixels: MAX_INPUT_PIXELS });
  const { data: small, info } = await encode(from.resize(512, 512, { fit: "inside", withoutEnlargement: true }).webp({ quality: 70 }));
  return { mime: "image/webp", data_base64: small.toString("base64"), width: info.width, height: info.height, alt };
}

export function savedPct(before: number, after: number): number {
  return before > 0 ? Math.round(((before - after) / before) * 1000) / 10 : 0;
}

export function baseName(fileName: string | undefined, fallback: string): string {
  const n = (fileName ?? "").split(/[\\/]/).pop() ?? "";
  const stem = n.replace(/\.[A-Za-z0-9]{1,5}$/, "").replace(/[^\p{L}\p{N}._-]+/gu, "-").slice(0, 80);
  return stem || fallback;
}

export { fmt as formatCount };
