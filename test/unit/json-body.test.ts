import { describe, expect, it } from "vitest";
import { nestingDepth, parseJsonBody } from "../../gateway/pipeline/json-body.ts";

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
