import { ApiError } from "../errors.ts";

/** Deeper than any body of the contract needs (utilities' inputs are a few levels deep). */
export const MAX_BODY_DEPTH = 32;

/**
 * Parses a JSON request body. The nesting depth is measured on the text first, in one linear
 * pass, so that nothing after this — the idempotency fingerprint, validation, handlers — ever walks
 * a body deep enough to exhaust the stack (6 KB of brackets is 3,000 levels).
 */
export function parseJsonBody(text: string): unknown {
  const depth = nestingDepth(text, MAX_BODY_DEPTH);
  if (depth > MAX_BODY_DEPTH) throw new ApiError("bad_request", `the JSON body is nested deeper than ${MAX_BODY_DEPTH} levels`, { details: { reason: "too_deep" } });
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "the body is not valid JSON");
  }
}

/**
 * The deepest nesting of arrays and objects in a JSON text, counted up to `stopAbove` + 1. Strings
 * are skipped with indexOf (native, no per-character loop in JS): a utility's body is mostly one
 * base64 string of up to 7 MB, which a character loop took 10–20 ms to walk.
 */
export function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i + 1);
      if (i < 0) return deepest;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The index of the quote that closes a string whose content starts at `from` (-1: it never closes). */
function stringEnd(text: string, from: number): number {
  let q = text.indexOf('"', from);
  while (q >= 0) {
    // A quote preceded by an odd run of backslashes is escaped.
    let slashes = 0;
    for (let j = q - 1; j >= from && text.charCodeAt(j) === 0x5c; j--) slashes++;
    if (slashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

/** Bodies from this size on look for their long base64 string in the bytes (below it, parsing is cheap). */
const BYTES_PATH_MIN = 256 * 1024;
/** A base64 string shorter than this is left to JSON.parse. */
const BYTES_MIN_CHARS = 64 * 1024;
/** What stands in the body text for the string taken out, while the rest is parsed. */
const MARKER = "\u0000svc-bytes\u0000";
/** The marker as the content of a JSON string (control characters must be escaped there). */
const MARKER_JSON = JSON.stringify(MARKER).slice(1, -1);

/** Decodes the base64 text raw[start, end) off the serving thread (null: not base64); raw is given up. */
export type BytesDecoder = (raw: Buffer, start: number, end: number) => Promise<Uint8Array | null>;
/**
 * A body above this is never parsed whole on the serving thread: its long base64 string goes to
 * the decoder, and the rest may be at most REST_MAX_BYTES. Only an import's body is this large (a
 * utility's is at most 7.6 MB): a 62 MB body took the serving thread seconds as a string (the
 * text, JSON.parse's copy, validation's walk over it, the base64 check, the decode).
 */
export const DECODE_IN_THREAD_BYTES = 8 * 1024 * 1024;
/** What a body handed to the decoder may hold besides its long string. */
const REST_MAX_BYTES = 64 * 1024;

/**
 * Parses a JSON request body whose one long base64 string sits at `path` (input.file of a utility
 * run, file of an import), decoding that string straight from the request's bytes into a
 * Uint8Array: the text never becomes a V8 string (a UTF-8 body text and JSON.parse's copy of the
 * string were two heap strings of its size, and their garbage collection most of the JSON path's
 * overhead). The rest of the body is parsed as usual with a marker in the string's place, and the
 * result is kept only when that marker comes out exactly once, at `path`. Below
 * DECODE_IN_THREAD_BYTES anything else — a string with escapes or not clean base64, a data: URL,
 * a key "file" elsewhere — is parsed the ordinary way, so validation answers exactly as for any
 * JSON body; above it, the string (escapes and all) is decoded by `decoder`, and a body that is not
 * so shaped is bad_param naming the field.
 */
export function parseJsonBodyWithBytes(raw: Buffer, path: readonly string[], decoder?: BytesDecoder): unknown {
  const plain = () => parseJsonBody(raw.toString("utf8"));
  const key = path[path.length - 1];
  if (raw.length < BYTES_PATH_MIN || key === undefined) return plain();
  const inThread = decoder !== undefined && raw.length > DECODE_IN_THREAD_BYTES;
  const field = path.join(".");
  const misshapen = () => new ApiError("bad_param", `${field} must be base64-encoded, the one long value of the body (a body over ${DECODE_IN_THREAD_BYTES / 1024 / 1024} MB is read only so)`, { param: field });
  const span = base64Span(raw, key, inThread);
  if (!span || (inThread && raw.length - (span.end - span.start) > REST_MAX_BYTES)) {
    if (inThread) throw misshapen();
    return plain();
  }
  // The rest first: the decode may write over the text (in place), after which only this parse stands.
  const body = parseJsonBody(`${raw.toString("utf8", 0, span.start)}${MARKER_JSON}${raw.toString("utf8", span.end)}`);
  let parent: unknown = body;
  for (const name of path.slice(0, -1)) parent = parent !== null && typeof parent === "object" && !Array.isArray(parent) ? (parent as Record<string, unknown>)[name] : undefined;
  if (parent === null || typeof parent !== "object" || Array.isArray(parent) || (parent as Record<string, unknown>)[key] !== MARKER || markers(body) !== 1) {
    if (inThread) throw misshapen();
    return plain();
  }
  const put = (bytes: Uint8Array) => {
    (parent as Record<string, unknown>)[key] = bytes;
    return body;
  };
  if (inThread) {
    return decoder(raw, span.start, span.end).then((bytes) => {
      if (!bytes) throw new ApiError("bad_param", `${field} must be base64-encoded`, { param: field });
      return put(bytes);
    });
  }
  const bytes = decodeBase64(raw, span.start, span.end);
  return bytes ? put(bytes) : plain();
}

/** Characters of base64 decoded at a time: small strings die young (a 7 MB one cost a full garbage collection). */
const DECODE_CHUNK = 64 * 1024;

/**
 * The bytes of the base64 text raw[start, end), or null when the text is not clean base64. Node's
 * decoder skips what is not in the alphabet, so a clean text is proved by the count: every piece
 * but the last gives exactly three bytes per four characters, and the whole what its length and
 * padding say.
 *
 * The text is decoded twice, in 64 KB pieces: once into a small scratch buffer for the proof, then,
 * proved, in place over the text itself when the body owns its memory (Fastify copies every body
 * into a Buffer of its own). The writing never passes the reading (3 bytes for 4 characters, each
 * piece read into a string first), and the body's memory becomes what the pool transfers to its
 * thread: a 6.6 MB body and a 5 MB copy left as garbage at every run made the serving thread's full
 * collections follow one another once its heap had grown. A second decode of 5 MB costs a few ms.
 */
function decodeBase64(raw: Buffer, start: number, end: number): Uint8Array | null {
  const length = end - start;
  const pad = raw[end - 1] === 0x3d ? (raw[end - 2] === 0x3d ? 2 : 1) : 0;
  if (length % 4 === 1) return null;
  const expected = Math.floor(((length - pad) * 3) / 4);
  const decodeInto = (out: Buffer, fixed: boolean): boolean => {
    let written = 0;
    for (let at = start; at < end; at += DECODE_CHUNK) {
      const stop = Math.min(end, at + DECODE_CHUNK);
      const n = out.write(raw.toString("latin1", at, stop), fixed ? 0 : written, "base64");
      if (stop < end && n !== ((stop - at) / 4) * 3) return false;
      written += n;
    }
    return written === expected;
  };
  const owned = raw.byteOffset === 0 && raw.buffer.byteLength === raw.length;
  if (!owned) {
    const out = Buffer.allocUnsafeSlow(expected);
    return decodeInto(out, false) ? new Uint8Array(out.buffer, 0, expected) : null;
  }
  if (!decodeInto(scratch, true)) return null;
  decodeInto(raw.subarray(start), false);
  return new Uint8Array(raw.buffer, start, expected);
}

/** Where a piece is decoded for the proof (three quarters of a piece, reused). */
const scratch = Buffer.allocUnsafeSlow((DECODE_CHUNK / 4) * 3);

/**
 * Where the value of the first `"key": "…"` holds a long string, as byte offsets of its inside:
 * without a backslash (clean base64), or with the escapes base64 may carry when `escapes` (the
 * decoder's path); the string ends at the first quote not escaped.
 */
function base64Span(raw: Buffer, key: string, escapes: boolean): { start: number; end: number } | null {
  const needle = Buffer.from(`"${key}"`, "latin1");
  for (let at = raw.indexOf(needle); at >= 0; at = raw.indexOf(needle, at + 1)) {
    let i = at + needle.length;
    while (isSpace(raw[i])) i++;
    if (raw[i] !== 0x3a) continue; // :
    i++;
    while (isSpace(raw[i])) i++;
    if (raw[i] !== 0x22) continue; // "
    const start = i + 1;
    let end = raw.indexOf(0x22, start);
    while (escapes && end > 0 && escapedAt(raw, end, start)) end = raw.indexOf(0x22, end + 1);
    if (end < 0 || end - start < BYTES_MIN_CHARS) continue;
    if (!escapes && raw.subarray(start, end).includes(0x5c)) continue;
    return { start, end };
  }
  return null;
}

/** Whether the quote at raw[at] is escaped (an odd run of backslashes before it, back to `from`). */
function escapedAt(raw: Buffer, at: number, from: number): boolean {
  let slashes = 0;
  for (let j = at - 1; j >= from && raw[j] === 0x5c; j--) slashes++;
  return slashes % 2 === 1;
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** How many strings equal to the marker a parsed body holds (keys included). */
function markers(value: unknown): number {
  if (value === MARKER) return 1;
  if (value === null || typeof value !== "object") return 0;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + markers(v), 0);
  let n = 0;
  for (const [k, v] of Object.entries(value)) n += (k === MARKER ? 1 : 0) + markers(v);
  return n;
}
