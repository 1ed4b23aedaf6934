import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.ts";

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * A request body sent with Content-Encoding gzip, deflate or br is decoded before parsing; the
 * operation's body limit then counts decoded bytes (Fastify counts what this stream yields), so
 * a small compressed body cannot expand past it. Another encoding is 400 bad_request naming
 * the ones accepted, rather than "not valid JSON".
 */
export function decodeRequestBody(request: FastifyRequest, payload: Readable): Readable {
  const header = request.headers["content-encoding"];
  const encoding = (Array.isArray(header) ? header.join(",") : (header ?? "")).trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return payload;
  const decoder = DECODERS[encoding];
  if (!decoder) {
    throw new ApiError("bad_request", `Content-Encoding ${encoding} is not supported; send the body as is, or with gzip, deflate or br`, {
      details: { reason: "unsupported_encoding" },
    });
  }
  const decoded = decoder();
  const stream = decoded as unknown as Readable & { receivedEncodedLength?: number };
  // Fastify compares the bytes received on the wire, not the decoded ones, with Content-Length.
  stream.receivedEncodedLength = 0;
  payload.on("data", (chunk: Buffer) => {
    stream.receivedEncodedLength = (stream.receivedEncodedLength ?? 0) + chunk.length;
  });
  payload.on("error", (err) => decoded.emit("error", err));
  decoded.on("error", () => undefined);
  payload.pipe(decoded);
  return stream;
}
