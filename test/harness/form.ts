/** A part of a multipart/form-data body built by a test: a text field, or a file when filename is given. */
export interface TestPart {
  readonly name: string;
  readonly data: string | Uint8Array;
  readonly filename?: string;
  readonly type?: string;
}

/** A multipart/form-data body (RFC 7578) of the given parts, and its Content-Type. */
export function formBody(parts: readonly TestPart[], boundary = "----svc-form-7MA4YWxkTrZu0gW"): { payload: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const type = part.type ?? (part.filename !== undefined ? "application/octet-stream" : null);
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n`));
    chunks.push(typeof part.data === "string" ? Buffer.from(part.data) : Buffer.from(part.data.buffer, part.data.byteOffset, part.data.byteLength), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
