import { describe, expect, it } from "vitest";
import { formToBody, multipartBoundary, parseMultipart } from "../../gateway/http/multipart.ts";

// The gateway's multipart/form-data reader (uploads to POST /imports/{host}).

const part = (b: string, disposition: string, body: string | Buffer) => Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.from(body), Buffer.from("\r\n")]);
const close = (b: string) => Buffer.from(`--${b}--\r\n`);

describe("multipart/form-data", () => {
  it("finds the boundary, quoted or not, and nothing in other types", () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("Multipart/Form-Data;boundary=xyz; charset=utf-8")).toBe("xyz");
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary("multipart/mixed; boundary=xyz")).toBeNull();
  });

  it("keeps a binary file part byte for byte, CRLFs and boundary-like text inside included", () => {
    const data = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x0d, 0x0a, 0x2d, 0x2d, 0x78, 0x00, 0xff]);
    const body = Buffer.concat([part("xyz", 'form-data; name="kind"', "performance"), part("xyz", 'form-data; name="file"; filename="a \\"b\\".zip"', data), close("xyz")]);
    const parts = parseMultipart(body, "xyz");
    expect(parts.map((p) => [p.name, p.filename])).toEqual([["kind", null], ["file", 'a "b".zip']]);
    expect(Buffer.compare(parts[1]!.data, data)).toBe(0);
    expect(formToBody(parts)).toEqual({ kind: "performance", file: new Uint8Array(data), file_name: 'a "b".zip' });
  });

  it("prefers a file_name field to the part's filename", () => {
    const body = Buffer.concat([part("b", 'form-data; name="file"; filename="Table.csv"', "x"), part("b", 'form-data; name="file_name"', "Coverage/Table.csv"), close("b")]);
    expect(formToBody(parseMultipart(body, "b"))).toEqual({ file: new Uint8Array([0x78]), file_name: "Coverage/Table.csv" });
  });

  it("refuses malformed forms with the reason", () => {
    expect(() => parseMultipart(Buffer.from("no boundary here"), "b")).toThrow("the boundary does not occur");
    expect(() => parseMultipart(Buffer.concat([part("b", 'attachment; name="file"', "x"), close("b")]), "b")).toThrow("a part has no Content-Disposition: form-data");
    expect(() => parseMultipart(Buffer.concat([part("b", "form-data", "x"), close("b")]), "b")).toThrow("a part has no name");
    const many = Buffer.concat([...Array.from({ length: 33 }, (_, i) => part("b", `form-data; name="f${i}"`, "x")), close("b")]);
    expect(() => parseMultipart(many, "b")).toThrow("more than 32 parts");
    const twice = parseMultipart(Buffer.concat([part("b", 'form-data; name="kind"', "a"), part("b", 'form-data; name="kind"', "b"), close("b")]), "b");
    expect(() => formToBody(twice)).toThrow("the form field kind is sent twice");
  });
});
