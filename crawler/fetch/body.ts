import { Readable, type Transform } from "node:stream";
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from "node:zlib";
import { prescanCharset } from "./charset-prescan.ts";

/** A response body as read: what came over the wire, what it decoded to, and whether a cap cut it. */
export interface ReadBody {
  readonly wireBytes: number;
  readonly body: Buffer;
  readonly truncated: boolean;
  /** Set when the declared Content-Encoding could not be decoded. */
  readonly decodeError: string;
}

class CapReached extends Error {}

/** Reads up to `maxBytes` wire bytes of a stream; stops (and destroys the stream) past the cap. */
export async function readWire(stream: AsyncIterable<Buffer> & { destroy?: () => void }, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const room = maxBytes - total;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      stream.destroy?.();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    total += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/** The decoder for a Content-Encoding, or null for identity. Deflate may be zlib-wrapped or raw. */
function decoderFor(encoding: string, first: Buffer): Transform | null | "unsupported" {
  const flush = { finishFlush: constants.Z_SYNC_FLUSH };
  switch (encoding) {
    case "":
    case "identity":
      return null;
    case "gzip":
    case "x-gzip":
      return createGunzip(flush);
    case "br":
      return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
    case "deflate": {
      const zlibWrapped = first.length >= 2 && (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | first[1]!) % 31 === 0;
      return zlibWrapped ? createInflate(flush) : createInflateRaw(flush);
    }
    default:
      return "unsupported";
  }
}

/**
 * Decodes a body by its Content-Encoding (gzip, br, deflate; stacked encodings right to left),
 * keeping at most `maxBytes` decoded bytes: a small compressed body cannot expand without bound.
 */
export async function decodeBody(wire: Buffer, contentEncoding: string, maxBytes: number): Promise<{ body: Buffer; truncated: boolean; error: string }> {
  const encodings = contentEncoding
    .toLowerCase()
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "" && e !== "identity")
    .reverse();
  let data = wire;
  let truncated = false;
  for (const encoding of encodings) {
    const decoder = decoderFor(encoding, data);
    if (decoder === "unsupported") return { body: data, truncated, error: `unsupported content-encoding ${encoding}` };
    if (decoder === null) continue;
    const out = await drain(Readable.from([data]).pipe(decoder), maxBytes);
    data = out.bytes;
    truncated ||= out.truncated;
    if (out.error) return { body: data, truncated, error: out.error };
  }
  return { body: data, truncated, error: "" };
}

async function drain(stream: Transform, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean; error: string }> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - total;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        throw new CapReached();
      }
      chunks.push(chunk);
      total += chunk.length;
    }
    return { bytes: Buffer.concat(chunks), truncated: false, error: "" };
  } catch (err) {
    stream.destroy();
    if (err instanceof CapReached) return { bytes: Buffer.concat(chunks), truncated: true, error: "" };
    return { bytes: Buffer.concat(chunks), truncated: false, error: (err as Error).message };
  }
}

/** Decodes bytes to text by a charset label (the WHATWG names), UTF-8 when unknown; a BOM wins. */
export function bytesToText(body: Buffer, charset: string): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder("utf-8").decode(body);
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder("utf-16le").decode(body);
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder("utf-16be").decode(body);
  try {
    return new TextDecoder(charset || "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/**
 * The charset an HTML document declares in its first 1024 bytes (`<meta charset>` or http-equiv),
 * found as the HTML standard's prescan finds it; "" when none.
 */
export function sniffHtmlCharset(body: Buffer): string {
  return prescanCharset(body);
}
