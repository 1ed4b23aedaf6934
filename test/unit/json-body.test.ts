import { describe, expect, it } from "vitest";
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
