import type { FormPart } from "../contracts/contract.ts";
import { ApiError } from "../errors.ts";

// multipart/form-data bodies (RFC 7578), for uploads (POST /imports/{host}). The route's body limit
// has already been enforced by Fastify when the buffer arrives (parseAs: "buffer"), so the whole body
// is in memory and bounded; a streaming parser would buy nothing at these sizes.

export type { FormPart } from "../contracts/contract.ts";

/** Largest number of parts read from one body: a form of a few fields, not thousands. */
const MAX_PARTS = 32;

/** The boundary of a multipart/form-data Content-Type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** A header parameter (name="…" or filename="…") of a Content-Disposition line. */
function dispositionParam(line: string, param: string): string | null {
  const m = new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(line) ?? new RegExp(`;\\s*${param}=([^;\\s]+)`, "i").exec(line);
  return m ? (m[1] ?? "").replace(/\\(.)/g, "$1") : null;
}

/** Splits a multipart/form-data body into its parts; a malformed body is bad_request. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const bad = (why: string) => new ApiError("bad_request", `malformed multipart/form-data body: ${why}`, { details: { reason: "bad_multipart" } });
  const delimiter = Buffer.from(`--${boundary}`, "latin1");
  let at = body.indexOf(delimiter);
  if (at < 0) throw bad("the boundary does not occur");
  const parts: FormPart[] = [];
  for (;;) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // --boundary-- closes the body
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw bad("a boundary line does not end in CRLF");
    at += 2;
    const headEnd = body.indexOf("\r\n\r\n", at, "latin1");
    if (headEnd < 0) throw bad("a part's headers do not end");
    const headers = body.subarray(at, headEnd).toString("utf8").split("\r\n");
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n", "latin1"), delimiter]), headEnd + 4);
    if (next < 0) throw bad("the closing boundary is missing");
    const disposition = headers.find((h) => /^content-disposition\s*:/i.test(h));
    if (!disposition || !/:\s*form-data\s*(;|$)/i.test(disposition)) throw bad("a part has no Content-Disposition: form-data");
    const name = dispositionParam(disposition, "name");
    if (name === null) throw bad("a part has no name");
    if (parts.length >= MAX_PARTS) throw bad(`more than ${MAX_PARTS} parts`);
    parts.push({ name, filename: dispositionParam(disposition, "filename"), data: body.subarray(headEnd + 4, next) });
    at = next + 2;
  }
}

/**
 * The JSON body an upload operation takes, from a form: the part `file` as its bytes (as a JSON
 * body's base64 arrives decoded: the contract's bytesField), `file_name` from its own field or
 * else the file part's filename, every other field as text. A field sent twice is bad_request;
 * what the fields hold is left to the contract.
 */
export function formToBody(parts: readonly FormPart[]): Record<string, string | Uint8Array> {
  const body: Record<string, string | Uint8Array> = {};
  let fileName: string | null = null;
  for (const part of parts) {
    if (Object.hasOwn(body, part.name)) throw new ApiError("bad_request", `the form field ${part.name} is sent twice`, { param: part.name });
    if (part.name === "file") {
      body.file = new Uint8Array(part.data.buffer, part.data.byteOffset, part.data.length);
      fileName = part.filename;
    } else body[part.name] = part.data.toString("utf8");
  }
  if (body.file_name === undefined && fileName) body.file_name = fileName;
  return body;
}
