import type { Sharp } from "sharp";

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

export function encodeAs(p: Sharp, format: OutputFormat, quality: number, opts: EncodeOptions = {}): Sharp {
  return ENCODERS[format](p, quality, opts);
}
