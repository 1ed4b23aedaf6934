import type { Sharp } from "sharp";
import { UtilityError } from "../utility.ts";

// One encoder per output format, as the img utilities use them: the settings a size-minded web
// tool picks (progressive mozjpeg, palette PNG with quantisation, WebP and AVIF at a CPU-bounded
// effort). AVIF's effort stays low: the pool gives a run 10 s, and effort 9 can take minutes on
// a 12 MP photo.

export type OutputFormat = "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff";

export const LOSSY: ReadonlySet<OutputFormat> = new Set(["jpeg", "webp", "avif"]);

interface EncodeOptions {
  /** PNG: quantise to a palette (TinyPNG-style); false keeps truecolour. */
  readonly palette?: boolean;
  /** JPEG: the colour transparent pixels are flattened onto. */
  readonly background?: string;
}

const ENCODERS: Readonly<Record<OutputFormat, (p: Sharp, quality: number, opts: EncodeOptions) => Sharp>> = {
  jpeg: (p, quality, opts) => p.flatten({ background: opts.background ?? "#ffffff" }).jpeg({ quality, mozjpeg: true, progressive: true }),
  png: (p, quality, opts) => (opts.palette === false ? p.png({ compressionLevel: 9, effort: 7 }) : p.png({ compressionLevel: 9, palette: true, quality, effort: 7 })),
  webp: (p, quality) => p.webp({ quality, effort: 4, smartSubsample: true }),
  avif: (p, quality) => p.avif({ quality, effort: 2 }),
  gif: (p) => p.gif({ effort: 7, dither: 0.5 }),
  tiff: (p) => p.tiff({ compression: "lzw", predictor: "horizontal" }),
};

/**
 * The largest picture (pixels of one frame) each encoder is given. An encoder's memory grows with
 * the picture and is libvips' own, outside the V8 heap (measured on a 2-core machine at the
 * settings above, sharp 0.35 / libvips 8.18, 12 MP and 40 MP): libaom's AVIF needs ≈22 bytes and
 * ≈0.8 s of CPU a pixel-megapixel, WebP ≈15 bytes and ≈0.4 s, JPEG ≈7 bytes, palette PNG ≈5; so
 * AVIF stops at 10 MP (≈250 MB, within the 10 s a run has), WebP at 20 MP, the others at the
 * 40 MP every input is held to.
 */
export const ENCODER_PIXEL_BUDGET: Readonly<Record<OutputFormat, number>> = {
  avif: 10_000_000,
  webp: 20_000_000,
  jpeg: 40_000_000,
  png: 40_000_000,
  gif: 40_000_000,
  tiff: 40_000_000,
};

const fmt = (n: number) => n.toLocaleString("en-US");

/** Refuses, before any pixel is encoded, a picture over its encoder's budget; tool_failed saying what to do. */
export function checkEncoderBudget(format: OutputFormat, width: number, height: number): void {
  const budget = ENCODER_PIXEL_BUDGET[format];
  const pixels = width * height;
  if (pixels <= budget) return;
  const others = (Object.keys(ENCODER_PIXEL_BUDGET) as OutputFormat[]).filter((f) => f !== "gif" && f !== "tiff" && ENCODER_PIXEL_BUDGET[f] >= pixels).map((f) => f.toUpperCase());
  throw new UtilityError(
    "tool_failed",
    `${format.toUpperCase()} is written here up to ${fmt(budget)} pixels (its encoder's memory grows with the picture); this one is ${width}×${height} = ${fmt(pixels)}: make it smaller first (image_resize)${others.length ? ` or choose ${others.join(" or ")}` : ""}`,
  );
}

/** The encoder of a format over a pipeline whose frames are width×height (checked against the budget first). */
export function encodeAs(p: Sharp, format: OutputFormat, quality: number, size: { readonly width: number; readonly height: number }, opts: EncodeOptions = {}): Sharp {
  checkEncoderBudget(format, size.width, size.height);
  return ENCODERS[format](p, quality, opts);
}
