import { describe, expect, it } from "vitest";
import { decodeBase64InPlace } from "../../gateway/imports/base64-text.ts";
import { nestingDepth, parseJsonBody, parseJsonBodyWithBytes } from "../../gateway/pipeline/json-body.ts";

// The body depth guard skips strings natively (a utility body is one long base64 string): the
// brackets inside strings, escaped quotes and runs of backslashes must still be read right.

describe("nestingDepth", () => {
  it("counts only the brackets outside strings", () => {
    expect(nestingDepth('{"a":[1,{"b":"x]]]\\"[[["}]}', 32)).toBe(3);
    expect(nestingDepth('"\\\\"', 32)).toBe(0);
    expect(nestingDepth('["\\\\\\"[["]', 32)).toBe(1);
    expect(nestingDepth('[[["\\\\"]]]', 32)).toBe(3);
    expect(nestingDepth('{"a":"never closed [[[', 32)).toBe(1);
    expect(nestingDepth("", 32)).toBe(0);
  });

  it("stops counting above the limit, and parseJsonBody refuses such a body", () => {
    expect(nestingDepth("[".repeat(3000), 32)).toBe(33);
    expect(() => parseJsonBody(`${"[".repeat(40)}${"]".repeat(40)}`)).toThrow(/nested deeper than 32 levels/);
    const big = JSON.stringify({ input: { file: Buffer.alloc(300_000, 7).toString("base64"), note: 'a "quoted" [text]' } });
    expect(nestingDepth(big, 32)).toBe(2);
    expect(parseJsonBody(big)).toMatchObject({ input: { note: 'a "quoted" [text]' } });
  });
});

describe("jsonBytes (the utility log line's byte counts)", () => {
  it("equals the length of JSON.stringify for values without escapes, a file counted as its base64", async () => {
    const { jsonBytes } = await import("../../gateway/utility-pool/utility-runner.ts");
    const values: unknown[] = [{ a: "x", b: [1, 2], c: { d: null, e: true, f: [] }, g: {} }, [], {}, "ж", 12.5, { file: Buffer.alloc(5000, 1).toString("base64"), to: "webp", skipped: undefined }];
    for (const v of values) expect(jsonBytes(v)).toBe(Buffer.byteLength(JSON.stringify(v)));
    expect(jsonBytes(new Uint8Array(5000))).toBe(JSON.stringify(Buffer.alloc(5000).toString("base64")).length);
  });
});

describe("parseJsonBodyWithBytes: a utility run's long base64 input.file decoded from the request's bytes", () => {
  // 300,000 bytes of every value: 400,000 base64 characters, a body over the 256 KB where the bytes path starts.
  const file = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7 + (i >> 8)) % 256));
  const b64 = file.toString("base64");
  const body = (input: Record<string, unknown>, text?: string) => Buffer.from(text ?? JSON.stringify({ input }));

  it("gives input.file as a Uint8Array of exactly the bytes and every other field as JSON.parse does", () => {
    const parsed = parseJsonBodyWithBytes(body({ width: 1200, file: b64, note: "é ✓" }), ["input", "file"]) as { input: Record<string, unknown> };
    expect(parsed.input.file).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(parsed.input.file as Uint8Array).equals(file)).toBe(true);
    expect({ ...parsed.input, file: null }).toEqual({ width: 1200, file: null, note: "é ✓" });
    // Whitespace around the colon, and padding.
    const spaced = parseJsonBodyWithBytes(body({}, `{ "input" : { "file" :\n "${b64.slice(0, 399_996)}AB==" } }`), ["input", "file"]) as { input: { file: Uint8Array } };
    expect(spaced.input.file.length).toBe(299_998);
    expect(Buffer.from(spaced.input.file).subarray(0, 299_997).equals(file.subarray(0, 299_997))).toBe(true);
  });

  it("decodes in place in a body that owns its memory (which the pool then transfers), into memory of its own in a view of a larger one", () => {
    const owned = body({ file: b64, width: 5 });
    const parsed = parseJsonBodyWithBytes(owned, ["input", "file"]) as { input: { file: Uint8Array } };
    expect(parsed.input.file.buffer).toBe(owned.buffer);
    expect(parsed.input.file.byteOffset).toBe(owned.indexOf('"file":"') + 8);
    expect(Buffer.from(parsed.input.file).equals(file)).toBe(true);

    const text = JSON.stringify({ input: { file: b64, width: 5 } });
    const shared = Buffer.alloc(text.length + 10);
    shared.write(text, 10, "latin1");
    const view = shared.subarray(10);
    const fromView = parseJsonBodyWithBytes(view, ["input", "file"]) as { input: { file: Uint8Array } };
    expect(fromView.input.file.buffer).not.toBe(shared.buffer);
    expect(fromView.input.file.buffer.byteLength).toBe(file.length);
    expect(Buffer.from(fromView.input.file).equals(file)).toBe(true);
    expect(view.toString("latin1")).toBe(text);
  });

  it("leaves to the ordinary parse what it cannot prove clean: the answer is then JSON.parse's own", () => {
    const plain = (text: string) => {
      const parsed = parseJsonBodyWithBytes(Buffer.from(text), ["input", "file"]) as { input: Record<string, unknown> };
      expect(parsed).toEqual(JSON.parse(text));
    };
    plain(JSON.stringify({ input: { file: `data:image/png;base64,${b64}` } }));
    plain(JSON.stringify({ input: { file: `${b64.slice(0, 200_000)}*${b64.slice(200_001)}` } }));
    plain(JSON.stringify({ input: { file: `${b64.slice(0, 200_000)}=${b64.slice(200_001)}` } }));
    plain(JSON.stringify({ input: { file: b64.slice(0, 399_997) } }));
    plain(JSON.stringify({ input: { file: b64 } }).replace(/\//g, "\\/"));
    // A key "file" elsewhere first, and the marker smuggled in by the caller.
    plain(JSON.stringify({ input: { options: { file: b64 }, file: "AAAA" } }));
    plain(JSON.stringify({ input: { file: b64, x: "\u0000svc-bytes\u0000" } }));
    plain(JSON.stringify({ input: { text: "short", file: "AAAA" } }));
  });

  it("answers malformed JSON and a body nested too deep as parseJsonBody does", () => {
    expect(() => parseJsonBodyWithBytes(Buffer.from(`{"input":{"file":"${b64}"`), ["input", "file"])).toThrow("the body is not valid JSON");
    expect(() => parseJsonBodyWithBytes(Buffer.from(`{"input":{"file":"${b64}","x":${"[".repeat(40)}${"]".repeat(40)}}}`), ["input", "file"])).toThrow(/nested deeper than 32 levels/);
  });
});

describe("an import's body over 8 MB: its base64 file decoded by a thread, the rest parsed here", () => {
  // 7,000,000 bytes: 9,333,336 base64 characters, a body over DECODE_IN_THREAD_BYTES.
  const file = Buffer.from(Array.from({ length: 7_000_000 }, (_, i) => (i * 13 + (i >> 9)) % 256));
  const b64 = file.toString("base64");
  /** The decoder as the import parser's thread runs it, here in place (the thread is tested through the gateway). */
  const inPlace = async (raw: Buffer, start: number, end: number) => {
    const at = decodeBase64InPlace(raw, start, end);
    return at ? new Uint8Array(raw.buffer, at.byteOffset, at.byteLength) : null;
  };

  it("hands the string to the decoder, escapes and line breaks included, and keeps the other fields", async () => {
    const calls: number[] = [];
    const decoder = (raw: Buffer, start: number, end: number) => (calls.push(end - start), inPlace(raw, start, end));
    const parsed = (await parseJsonBodyWithBytes(Buffer.from(JSON.stringify({ file_name: "Queries.csv", file: b64 })), ["file"], decoder)) as { file: Uint8Array; file_name: string };
    expect(calls).toEqual([b64.length]);
    expect(parsed.file_name).toBe("Queries.csv");
    expect(Buffer.compare(Buffer.from(parsed.file), file)).toBe(0);
    // PHP's json_encode writes every / as \/; MIME encoders break lines every 76 characters.
    const escaped = b64.replace(/(.{76})/g, "$1\\r\\n").replace(/\//g, "\\/");
    const again = (await parseJsonBodyWithBytes(Buffer.from(`{"file":"${escaped}","file_name":"a.csv"}`), ["file"], decoder)) as { file: Uint8Array };
    expect(Buffer.compare(Buffer.from(again.file), file)).toBe(0);
  });

  it("refuses, without parsing it whole, a body whose bulk is not the base64 file", async () => {
    const decoder = inPlace;
    const notBase64 = `{"file":"${"!".repeat(9_000_000)}","file_name":"a.csv"}`;
    await expect(parseJsonBodyWithBytes(Buffer.from(notBase64), ["file"], decoder) as Promise<unknown>).rejects.toMatchObject({ code: "bad_param", options: { param: "file" }, message: "file must be base64-encoded" });
    const misshapen = "file must be base64-encoded, the one long value of the body (a body over 8 MB is read only so)";
    expect(() => parseJsonBodyWithBytes(Buffer.from(JSON.stringify({ file: "AAAA", file_name: "x".repeat(9_000_000) })), ["file"], decoder)).toThrow(misshapen);
    expect(() => parseJsonBodyWithBytes(Buffer.from(JSON.stringify({ x: { file: b64 }, file_name: "a.csv" })), ["file"], decoder)).toThrow(misshapen);
    expect(() => parseJsonBodyWithBytes(Buffer.from(JSON.stringify({ file: b64, file_name: "a.csv", note: "n".repeat(100_000) })), ["file"], decoder)).toThrow(misshapen);
  });
});

describe("decodeBase64InPlace", () => {
  const decode = (text: string) => {
    const buf = Buffer.from(`"${text}"`, "latin1");
    const at = decodeBase64InPlace(buf, 1, buf.length - 1);
    return at ? Buffer.from(buf.buffer, at.byteOffset, at.byteLength).toString("latin1") : null;
  };

  it("decodes what Node's decoder does and refuses what is not base64", () => {
    expect(decode(Buffer.from("hello world?>").toString("base64"))).toBe("hello world?>");
    expect(decode("aGVsbG8")).toBe("hello");
    expect(decode("aGVs\\nbG8=\\r\\n")).toBe("hello");
    expect(decode("P\\/8=")).toBe("?\u00ff");
    expect(decode("")).toBe("");
    expect(decode("aGVsbG8=x")).toBeNull();
    expect(decode("aGVsbG8===")).toBeNull();
    expect(decode("aGVsb")).toBeNull();
    expect(decode("aGV*bG8=")).toBeNull();
    expect(decode('aGV\\"bG8=')).toBeNull();
    expect(decode("aGV\\u0041bG8=")).toBeNull();
  });
});
