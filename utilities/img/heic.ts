import { createRequire } from "node:module";
import { UtilityError } from "../utility.ts";

// HEIC/HEIF (HEVC-coded) photos, as iPhones and many Android phones take them. sharp's prebuilt
// libvips reads the HEIF container but has no HEVC decoder, so the pixels come from libheif built
// to WebAssembly (libheif-js, LGPL-3.0, with libde265 inside) and sharp does the rest from raw
// pixels. The WASM module is loaded on first use, once per pool thread (≈0.1 s, ≈2 MB of code).
//
// What libheif does here: the primary image only (a burst or a Live Photo's other images are not
// decoded), grids of tiles joined, the file's transforms (irot rotation, imir mirror, clap crop)
// applied, 10-bit images reduced to 8 bits, an alpha plane kept, the colour profile read (libheif
// does not convert colours: image-input.ts attaches the profile so that sharp converts to sRGB).
// The EXIF orientation tag a HEIC also carries is informational for HEIF (the transforms already
// stand the picture upright), so the pixels returned are the ones to show and nothing rotates them
// again.

// libheif's embind objects: contexts, handles and images are opaque; an error's code is an enum
// object compared by identity with heif_error_code.heif_error_Ok.
type Opaque = object;

interface HeifError {
  readonly code?: unknown;
  readonly message?: string;
}

interface HeifChannel {
  readonly id: number;
  readonly width: number;
  readonly height: number;
  readonly stride: number;
  readonly data: Uint8Array;
}

/** The embind wrapper of a C object: its pointer into the WASM memory. */
interface Wrapped {
  readonly $$?: { readonly ptr?: number };
}

interface LibHeif {
  heif_context_alloc(): Opaque | null;
  heif_context_free(ctx: Opaque): void;
  heif_context_read_from_memory(ctx: Opaque, data: Uint8Array): HeifError;
  heif_js_context_get_primary_image_handle(ctx: Opaque): (Opaque & HeifError) | null;
  heif_context_get_number_of_top_level_images(ctx: Opaque): number;
  heif_image_handle_get_width(handle: Opaque): number;
  heif_image_handle_get_height(handle: Opaque): number;
  heif_image_handle_has_alpha_channel(handle: Opaque): number;
  heif_image_handle_release(handle: Opaque): void;
  heif_js_decode_image2(handle: Opaque, colorspace: unknown, chroma: unknown): Promise<(HeifError & { image?: Opaque; channels?: HeifChannel[] }) | null>;
  heif_image_release(image: Opaque): void;
  heif_get_version(): string;
  // The C API itself (pointers into the WASM memory): the colour profile of an image handle.
  _malloc(size: number): number;
  _free(ptr: number): void;
  _heif_image_handle_get_color_profile_type(handle: number): number;
  _heif_image_handle_get_raw_color_profile_size(handle: number): number;
  /** (heif_error* result, handle, void* out). */
  _heif_image_handle_get_raw_color_profile(error: number, handle: number, out: number): void;
  /** (heif_error* result, handle, heif_color_profile_nclx** out). */
  _heif_image_handle_get_nclx_color_profile(error: number, handle: number, out: number): void;
  _heif_nclx_color_profile_free(ptr: number): void;
  readonly HEAPU8: Uint8Array;
  readonly HEAP32: Int32Array;
  readonly HEAPU32: Uint32Array;
  readonly heif_error_code: { readonly heif_error_Ok: unknown };
  readonly heif_colorspace: { readonly heif_colorspace_RGB: unknown };
  readonly heif_chroma: { readonly heif_chroma_interleaved_RGB: unknown; readonly heif_chroma_interleaved_RGBA: unknown };
  readonly heif_channel: { readonly heif_channel_interleaved: unknown };
}

let lib: LibHeif | null = null;

function libheif(): LibHeif {
  // The bundle carries its .wasm inside (no file read at a path relative to the working directory).
  lib ??= createRequire(import.meta.url)("libheif-js/wasm-bundle.js") as LibHeif;
  return lib;
}

/** The colour description a HEIC carries (its colr box): an ICC profile, nclx code points (ITU-T H.273), or none. */
export type HeicColour =
  | { readonly kind: "icc"; readonly icc: Buffer }
  | { readonly kind: "nclx"; readonly primaries: number; readonly transfer: number; readonly matrix: number }
  | { readonly kind: "none" };

/**
 * What the decoded pixels need to show right: the ICC profile to attach ("embedded": the file's own;
 * "p3": Display P3, for nclx P3-D65 primaries), nothing (sRGB already), or a warning when the
 * colours are in a space this server does not convert (BT.2020, PQ or HLG video transfers): the
 * pixels are then shown as sRGB, and the warning says so rather than shifting colours silently.
 */
export function heicColourPlan(colour: HeicColour): { readonly icc: "embedded" | "p3" | null; readonly warning: string | null } {
  if (colour.kind === "icc") return { icc: "embedded", warning: null };
  if (colour.kind === "none") return { icc: null, warning: null };
  // H.273: primaries 1 BT.709 (sRGB's), 2 unspecified, 12 P3-D65; transfers 1/6/14/15 BT.709 family, 2 unspecified, 13 sRGB.
  const srgbLikeTransfer = [1, 2, 6, 13, 14, 15].includes(colour.transfer);
  if ((colour.primaries === 1 || colour.primaries === 2) && srgbLikeTransfer) return { icc: null, warning: null };
  if (colour.primaries === 12 && srgbLikeTransfer) return { icc: "p3", warning: null };
  const names: Record<number, string> = { 9: "BT.2020", 11: "DCI-P3 (theatre white)", 12: "Display P3", 1: "BT.709" };
  const transfers: Record<number, string> = { 16: "PQ (HDR)", 18: "HLG (HDR)", 8: "linear" };
  const space = [names[colour.primaries] ?? `primaries ${colour.primaries}`, transfers[colour.transfer] ?? `transfer ${colour.transfer}`].join(", ");
  return {
    icc: null,
    warning: `the HEIC declares its colours as ${space} (nclx ${colour.primaries}/${colour.transfer}/${colour.matrix}), which is not converted here: they are read as sRGB and may look shifted`,
  };
}

/** The colr box of a handle, through libheif's C API (the embind bindings do not expose it). */
function colourOf(h: LibHeif, handle: Opaque): HeicColour {
  const ptr = (handle as Wrapped).$$?.ptr;
  if (typeof ptr !== "number" || typeof h._heif_image_handle_get_color_profile_type !== "function") return { kind: "none" };
  const type = h._heif_image_handle_get_color_profile_type(ptr) >>> 0;
  const fourcc = String.fromCharCode((type >>> 24) & 255, (type >>> 16) & 255, (type >>> 8) & 255, type & 255);
  // heif_error is { code, subcode, message* }: 12 bytes.
  const error = h._malloc(16);
  const out = h._malloc(4);
  try {
    if (fourcc === "prof" || fourcc === "rICC") {
      const size = h._heif_image_handle_get_raw_color_profile_size(ptr);
      if (size <= 0 || size > 4 * 1024 * 1024) return { kind: "none" };
      const data = h._malloc(size);
      try {
        h._heif_image_handle_get_raw_color_profile(error, ptr, data);
        if (h.HEAP32[error >> 2] !== 0) return { kind: "none" };
        return { kind: "icc", icc: Buffer.from(h.HEAPU8.subarray(data, data + size)) };
      } finally {
        h._free(data);
      }
    }
    if (fourcc === "nclx") {
      h._heif_image_handle_get_nclx_color_profile(error, ptr, out);
      const nclx = h.HEAPU32[out >> 2] as number;
      if (h.HEAP32[error >> 2] !== 0 || !nclx) return { kind: "none" };
      // heif_color_profile_nclx: uint8 version, then the three enums (int32) from offset 4.
      const colour = { kind: "nclx" as const, primaries: h.HEAP32[(nclx + 4) >> 2] as number, transfer: h.HEAP32[(nclx + 8) >> 2] as number, matrix: h.HEAP32[(nclx + 12) >> 2] as number };
      h._heif_nclx_color_profile_free(nclx);
      return colour;
    }
    return { kind: "none" };
  } finally {
    h._free(error);
    h._free(out);
  }
}

export interface DecodedHeic {
  /** Interleaved 8-bit pixels, row after row, no padding. */
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  /** Top-level images in the file (the primary one is decoded). */
  readonly images: number;
  /** The file's colour description (the pixels are in that space, not converted). */
  readonly colour: HeicColour;
}

const failed = (what: string, why: string) => new UtilityError("tool_failed", `${what} is a HEIC/HEIF file that could not be decoded (${why.replace(/\s+/g, " ").trim().slice(0, 160)})`);

/**
 * Decodes the primary image of a HEIC file. `guard` sees the (transformed) size before any pixel
 * is decoded and throws to refuse it (the pixel-count guard of the img group).
 */
export async function decodeHeic(bytes: Uint8Array, what: string, guard: (width: number, height: number) => void): Promise<DecodedHeic> {
  const h = libheif();
  const ctx = h.heif_context_alloc();
  if (!ctx) throw failed(what, "no decoder context");
  let handle: Opaque | null = null;
  try {
    const read = h.heif_context_read_from_memory(ctx, bytes);
    if (read.code !== h.heif_error_code.heif_error_Ok) throw failed(what, read.message ?? "unreadable container");
    const images = h.heif_context_get_number_of_top_level_images(ctx);
    const got = h.heif_js_context_get_primary_image_handle(ctx);
    if (!got || got.code) throw failed(what, got?.message ?? "no primary image");
    handle = got;
    const width = h.heif_image_handle_get_width(handle);
    const height = h.heif_image_handle_get_height(handle);
    if (!width || !height) throw failed(what, "the primary image declares no dimensions");
    guard(width, height);
    const colour = colourOf(h, handle);
    const channels = h.heif_image_handle_has_alpha_channel(handle) ? 4 : 3;
    const decoded = await h.heif_js_decode_image2(handle, h.heif_colorspace.heif_colorspace_RGB, channels === 4 ? h.heif_chroma.heif_chroma_interleaved_RGBA : h.heif_chroma.heif_chroma_interleaved_RGB);
    if (!decoded || decoded.code || !decoded.image || !decoded.channels) throw failed(what, decoded?.message ?? "the HEVC stream did not decode");
    const image = decoded.image;
    try {
      const plane = decoded.channels.find((c) => c.id === h.heif_channel.heif_channel_interleaved);
      if (!plane || plane.width !== width || plane.height !== height) throw failed(what, "the decoder returned no interleaved plane of the declared size");
      const row = width * channels;
      const data = Buffer.allocUnsafe(row * height);
      if (plane.stride === row) data.set(plane.data.subarray(0, row * height));
      else for (let y = 0; y < height; y++) data.set(plane.data.subarray(y * plane.stride, y * plane.stride + row), y * row);
      return { data, width, height, channels, images, colour };
    } finally {
      h.heif_image_release(image);
    }
  } finally {
    if (handle) h.heif_image_handle_release(handle);
    h.heif_context_free(ctx);
  }
}

/** The libheif version this server decodes HEIC with. */
export function heicDecoderVersion(): string {
  return libheif().heif_get_version();
}
