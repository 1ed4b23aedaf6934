import { createRequire } from "node:module";
import { UtilityError } from "../utility.ts";

// HEIC/HEIF (HEVC-coded) photos, as iPhones and many Android phones take them. sharp's prebuilt
// libvips reads the HEIF container but has no HEVC decoder, so the pixels come from libheif built
// to WebAssembly (libheif-js, LGPL-3.0, with libde265 inside) and sharp does the rest from raw
// pixels. The WASM module is loaded on first use, once per pool thread (≈0.1 s, ≈2 MB of code).
//
// What libheif does here: the primary image only (a burst or a Live Photo's other images are not
// decoded), grids of tiles joined, the file's transforms (irot rotation, imir mirror, clap crop)
// applied, 10-bit images reduced to 8 bits, an alpha plane kept. The EXIF orientation tag a HEIC
// also carries is informational for HEIF (the transforms already stand the picture upright), so
// the pixels returned are the ones to show and nothing rotates them again.

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

export interface DecodedHeic {
  /** Interleaved 8-bit pixels, row after row, no padding. */
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  /** Top-level images in the file (the primary one is decoded). */
  readonly images: number;
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
      return { data, width, height, channels, images };
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
