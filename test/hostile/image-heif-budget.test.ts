import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { peakTreeRssMb, treeRssMb } from "../harness/process-memory.ts";

// Q3's pixel budgets against HEIF-family files that declare large pictures: an AVIF and a HEIC
// (HEVC brand) of a few hundred bytes whose header (ispe) says 4500×4000 or 20000×20000, made
// here from a small AVIF sharp writes. Every guard must answer from the header, before a decoder
// (libheif's, whose WASM memory never shrinks; AV1's) allocates for those pixels: the clear error
// naming the budget, the process tree's memory unchanged, and the next run served.

const IMAGE_MEMORY_MB = 512;
/** What the process tree may grow by while refusing headers: nothing is decoded. */
const REFUSAL_SLACK_MB = 100;

let gw: TestGateway;
let small: Buffer;

/** The AVIF with its image's declared size replaced, and its brands made HEIC's when `heic`. */
function declaring(width: number, height: number, heic = false): string {
  const b = Buffer.from(small);
  const ispe = b.indexOf("ispe");
  b.writeUInt32BE(width, ispe + 8);
  b.writeUInt32BE(height, ispe + 12);
  if (heic) {
    const ftyp = b.indexOf("ftyp");
    const end = ftyp - 4 + b.readUInt32BE(ftyp - 4);
    for (let at = ftyp + 4; at < end; at += 4) if (b.toString("latin1", at, at + 4) === "avif") b.write("heic", at, "latin1");
  }
  return b.toString("base64");
}

const convert = async (file: string, fileName: string) => {
  const res = await gw.call("POST", "/api/v1/utilities/image_convert", { body: { input: { file, file_name: fileName, to: "png" } } });
  return { status: res.statusCode, ...(res.statusCode === 200 ? {} : { code: res.json<{ code: string }>().code, error: res.json<{ error: string }>().error }) };
};

beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_UTILITY_THREADS: "1", SVC_UTILITY_IMAGE_MEMORY_MB: String(IMAGE_MEMORY_MB), SVC_RATE_PER_HOUR: "100000" } });
  small = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#336699" } }).avif({ effort: 0 }).toBuffer();
  // The image process loaded by a run of the real file: the start the bound is measured from.
  expect((await convert(small.toString("base64"), "small.avif")).status).toBe(200);
}, 120_000);
afterAll(() => gw.close());

describe("Q3: HEIF-family files declaring large pictures", () => {
  it.each([
    ["an AVIF of 4500×4000 (over the AVIF decoder's 16 MP)", 4500, 4000, false, "the file is an AVIF of 4500×4000 = 18,000,000 pixels; AVIF is decoded here up to 16,000,000 pixels (its decoder's memory grows with the picture): send it smaller, or as PNG or JPEG"],
    ["an AVIF of 20000×20000", 20000, 20000, false, "the file declares 20000×20000 = 400,000,000 pixels; images over 40,000,000 pixels are refused before decoding (a decompression bomb guard)"],
    ["a HEIC of 20000×20000", 20000, 20000, true, "the file declares 20000×20000 = 400,000,000 pixels; images over 40,000,000 pixels are refused before decoding (a decompression bomb guard)"],
  ])("%s is refused from its header, naming the budget; memory unchanged; the next run served", async (_what, width, height, heic, error) => {
    const startMb = treeRssMb();
    const { peakMb, value } = await peakTreeRssMb(() => convert(declaring(width, height, heic), heic ? "a.heic" : "a.avif"));
    expect(value).toEqual({ status: 422, code: "tool_failed", error });
    expect(peakMb).toBeLessThan(startMb + REFUSAL_SLACK_MB);
    expect((await convert(small.toString("base64"), "small.avif")).status).toBe(200);
  });
});
