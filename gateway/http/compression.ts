import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Smaller answers gain less than the compression costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Compresses a JSON or HTML answer of at least 1 KB with what the client accepts (br, then gzip),
 * as Svc's own checks ask of the sites it analyses (openapi.json is 383 KB, about 40 KB gzipped).
 * The ETag stays the one of the uncompressed answer: it is weak, so it may match either encoding.
 */
export async function compressAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const encoding = answerEncoding(request, reply, payload);
  return encoding === null ? payload : compressWith(reply, payload as string | Buffer, encoding);
}

/**
 * The encoding an answer is to be compressed with, null for none; sets Vary: Accept-Encoding on
 * every answer that could be compressed. The synchronous half of compressAnswer, so that a caller
 * can answer without a promise when nothing is to be compressed.
 */
export function answerEncoding(request: FastifyRequest, reply: FastifyReply, payload: unknown): "br" | "gzip" | null {
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return null;
  // A string's UTF-8 length is at least its length, at most 4 times it: the bytes are counted
  // (a scan of the whole answer) only when the length alone cannot tell.
  if (payload.length < COMPRESS_MIN_BYTES / 4 || (payload.length < COMPRESS_MIN_BYTES && Buffer.byteLength(payload) < COMPRESS_MIN_BYTES)) return null;
  const type = String(reply.getHeader("Content-Type") ?? "");
  if (reply.hasHeader("Content-Encoding") || !/json|html|text/.test(type)) return null;
  reply.header("Vary", appendVary(reply.getHeader("Vary"), "Accept-Encoding"));
  return chooseEncoding(request.headers["accept-encoding"]);
}

/** Compresses an answer with the encoding answerEncoding chose, and says so in its headers. */
export async function compressWith(reply: FastifyReply, payload: string | Buffer, encoding: "br" | "gzip"): Promise<Buffer> {
  const size = Buffer.byteLength(payload);
  const compressed =
    encoding === "br"
      ? await brotliAsync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: size } })
      : await gzipAsync(payload, { level: 6 });
  reply.header("Content-Encoding", encoding);
  reply.removeHeader("Content-Length");
  return compressed;
}

/** br or gzip when the client accepts it (q > 0), br first; null for identity. */
export function chooseEncoding(header: string | string[] | undefined): "br" | "gzip" | null {
  const accepted = new Map<string, number>();
  for (const part of ([] as string[]).concat(header ?? []).join(",").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (name === "") continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name, q ? Number(q[1]) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return null;
}

function appendVary(current: unknown, name: string): string {
  const text = Array.isArray(current) ? current.join(", ") : typeof current === "string" ? current : "";
  if (text.split(",").some((v) => v.trim().toLowerCase() === name.toLowerCase())) return text;
  return text ? `${text}, ${name}` : name;
}
