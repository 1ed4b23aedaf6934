import { readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { P3_QUADRANTS, QUADRANTS } from "../../fixtures/heic/make.ts";
import { heicColourPlan } from "../../../utilities/img/heic.ts";
import { withIcc } from "../../../utilities/img/image-input.ts";
import { b64, PLANTED_GPS, unb64 } from "./img-fixtures.ts";
import { refusal, run } from "./run.ts";

// HEIC phone photos through the img utilities, on a real HEVC-coded file made by libheif's
// heif-enc (test/fixtures/heic/make.ts says how): 96×64 in four flat quadrants of known colours,
// iPhone-style EXIF with a GPS position. sharp alone cannot decode it (no HEVC in its libvips);
// the pixels below come from libheif (WASM).

const HEIC = readFileSync(new URL("../../fixtures/heic/quadrants.heic", import.meta.url));
const file = b64(HEIC);

/** The colour at the centre of each quadrant of a decoded result, in the fixture's order. */
async function quadrantColours(data: Buffer): Promise<number[][]> {
  const { data: px, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...px.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  const [qx, qy] = [Math.floor(info.width / 4), Math.floor(info.height / 4)];
  return [at(qx, qy), at(3 * qx, qy), at(qx, 3 * qy), at(3 * qx, 3 * qy)];
}

/** Each channel within `tol` of the fixture's colours (HEVC at quality 60, then a lossy output). */
function expectQuadrants(got: number[][], tol: number, want: readonly (readonly number[])[] = QUADRANTS.colors): void {
  got.forEach((c, i) => c.forEach((v, ch) => expect(Math.abs(v - (want[i] as readonly number[])[ch]!), `quadrant ${i}: ${c.join(",")}`).toBeLessThanOrEqual(tol)));
}

describe("HEIC input", () => {
  it("the fixture is HEVC-coded HEIF that sharp's own libvips cannot decode", async () => {
    expect(HEIC.subarray(4, 12).toString("latin1")).toBe("ftypheic");
    const header = await sharp(HEIC).metadata();
    expect([header.format, header.compression, header.width, header.height]).toEqual(["heif", "hevc", 96, 64]);
    await expect(sharp(HEIC).png().toBuffer()).rejects.toThrow();
  });

  it("image_convert reads it to PNG with the right pixels, and to WebP and JPEG", async () => {
    const png = await run("image_convert", { file, file_name: "IMG_0042.HEIC", to: "png" });
    expect(png.result).toMatchObject({ mime: "image/png", file_name: "IMG_0042.png", from: "heif", width: 96, height: 64, frames: 1, bytes_before: HEIC.length });
    expect(png.warnings).toEqual([]);
    const data = unb64(png.result.data_base64);
    expect(await sharp(data).metadata()).toMatchObject({ format: "png", width: 96, height: 64 });
    expectQuadrants(await quadrantColours(data), 4);
    const webp = await run("image_convert", { file, to: "webp", quality: 90 });
    expect(webp.result).toMatchObject({ mime: "image/webp", from: "heif", width: 96, height: 64 });
    expectQuadrants(await quadrantColours(unb64(webp.result.data_base64)), 12);
    const jpeg = await run("image_convert", { file, to: "jpeg" });
    expect((await sharp(unb64(jpeg.result.data_base64)).metadata()).format).toBe("jpeg");
  });

  it("image_compress writes a JPEG without the GPS position (HEIC cannot be written), or WebP when asked", async () => {
    const out = await run("image_compress", { file, file_name: "IMG_0042.HEIC" });
    expect(out.result).toMatchObject({ mime: "image/jpeg", format: "jpeg", file_name: "IMG_0042.jpg", width: 96, height: 64, bytes_before: HEIC.length, quality: 80 });
    expect(out.warnings).toEqual([{ code: "heic_to_jpeg", text: "HEIC cannot be written here: the compressed photo is a JPEG (choose to: webp or avif for smaller files)" }]);
    const data = unb64(out.result.data_base64);
    expect(out.result.bytes_after).toBe(data.length);
    expect((await sharp(data).metadata()).exif).toBeUndefined();
    expectQuadrants(await quadrantColours(data), 12);
    const webp = await run("image_compress", { file, to: "webp", keep_metadata: true });
    expect(webp.result).toMatchObject({ format: "webp", width: 96, height: 64 });
    expect(webp.warnings).toEqual([{ code: "metadata_not_kept", text: "the metadata of a HEIC photo is not carried into the new file" }]);
  });

  it("image_resize scales it (to JPEG)", async () => {
    const out = await run("image_resize", { file, file_name: "IMG_0042.HEIC", width: 48 });
    expect(out.result).toMatchObject({ original: { width: 96, height: 64, format: "heif" } });
    const files = out.result.files as { width: number; height: number; mime: string; file_name: string; data_base64: string }[];
    expect(files.map((f) => [f.width, f.height, f.mime, f.file_name])).toEqual([[48, 32, "image/jpeg", "IMG_0042-48w.jpg"]]);
    expect(out.warnings).toEqual([{ code: "heic_to_jpeg", text: "HEIC cannot be written here: the resized photo is a JPEG" }]);
    expectQuadrants(await quadrantColours(unb64(files[0]!.data_base64)), 12);
  });

  it("image_metadata reads the camera EXIF and GPS position, and strips them into a JPEG copy", async () => {
    const out = await run("image_metadata", { file, file_name: "IMG_0042.HEIC", strip: true });
    expect(out.result).toMatchObject({ format: "heif", mime: "image/heif", bytes: HEIC.length, width: 96, height: 64, frames: 1, has_alpha: false, gps: PLANTED_GPS, file_name: "IMG_0042-clean.jpg" });
    expect((out.result.exif as Record<string, Record<string, unknown>>).ifd0).toMatchObject({ Make: "Apple", Model: "iPhone 15", Software: "17.1" });
    expect(out.warnings.map((w) => w.code)).toEqual(["gps", "heic_to_jpeg"]);
    const clean = unb64(out.result.data_base64);
    const m = await sharp(clean).metadata();
    expect([m.format, m.width, m.height, m.exif]).toEqual(["jpeg", 96, 64, undefined]);
  });

  it("color_palette finds the four quadrant colours", async () => {
    const out = await run("color_palette", { file });
    const top = (out.result.colors as { rgb: number[]; share_pct: number }[]).slice(0, 4);
    expect(top.every((c) => c.share_pct >= 20)).toBe(true);
    for (const want of QUADRANTS.colors) expect(top.some((c) => c.rgb.every((v, ch) => Math.abs(v - want[ch]!) <= 4))).toBe(true);
  });

  it("refuses a truncated HEIC with libheif's reason", async () => {
    expect(await refusal("image_convert", { file: b64(HEIC.subarray(0, 900)), to: "png" })).toMatchObject({
      code: "tool_failed",
      message: expect.stringMatching(/^the file (is a HEIC\/HEIF file that could not be decoded|is not a readable image) \(/) as unknown,
    });
  });

  describe("colour profiles", () => {
    const P3 = readFileSync(new URL("../../fixtures/heic/display-p3.heic", import.meta.url));

    it("a Display P3 photo (ICC profile in its colr box) converts to the sRGB colours it shows, not its raw P3 numbers", async () => {
      expect((await sharp(P3).metadata()).icc?.length).toBeGreaterThan(0);
      const png = await run("image_convert", { file: b64(P3), to: "png" });
      expect(png.warnings).toEqual([]);
      const got = await quadrantColours(unb64(png.result.data_base64));
      // Read as sRGB the red quadrant would be about (234, 51, 34): 21 and 51 away from the truth.
      expectQuadrants(got, 8, P3_QUADRANTS.colors);
      const jpeg = await run("image_resize", { file: b64(P3), width: 48 });
      expectQuadrants(await quadrantColours(unb64((jpeg.result.files as { data_base64: string }[])[0]!.data_base64)), 10, P3_QUADRANTS.colors);
      const palette = await run("color_palette", { file: b64(P3) });
      for (const want of P3_QUADRANTS.colors) expect((palette.result.colors as { rgb: number[] }[]).some((c) => c.rgb.every((v, ch) => Math.abs(v - want[ch]!) <= 8))).toBe(true);
    });

    it("nclx colours: sRGB and BT.709 as they are, P3 through the Display P3 profile, HDR or BT.2020 warned of and read as sRGB", () => {
      expect(heicColourPlan({ kind: "none" })).toEqual({ icc: null, warning: null });
      expect(heicColourPlan({ kind: "icc", icc: Buffer.from("x") })).toEqual({ icc: "embedded", warning: null });
      expect(heicColourPlan({ kind: "nclx", primaries: 1, transfer: 13, matrix: 6 })).toEqual({ icc: null, warning: null });
      expect(heicColourPlan({ kind: "nclx", primaries: 2, transfer: 2, matrix: 2 })).toEqual({ icc: null, warning: null });
      expect(heicColourPlan({ kind: "nclx", primaries: 12, transfer: 13, matrix: 6 })).toEqual({ icc: "p3", warning: null });
      expect(heicColourPlan({ kind: "nclx", primaries: 9, transfer: 16, matrix: 9 })).toEqual({
        icc: null,
        warning: "the HEIC declares its colours as BT.2020, PQ (HDR) (nclx 9/16/9), which is not converted here: they are read as sRGB and may look shifted",
      });
      expect(heicColourPlan({ kind: "nclx", primaries: 12, transfer: 18, matrix: 6 }).warning).toBe(
        "the HEIC declares its colours as Display P3, HLG (HDR) (nclx 12/18/6), which is not converted here: they are read as sRGB and may look shifted",
      );
    });

    it("withIcc tags a PNG with a profile that sharp reads back and converts from", async () => {
      const p3Png = await sharp({ create: { width: 2, height: 1, channels: 3, background: "#ff0000" } }).withIccProfile("p3").png().toBuffer();
      const icc = (await sharp(p3Png).metadata()).icc as Buffer;
      const bare = await sharp(p3Png, { ignoreIcc: true }).png().toBuffer();
      expect((await sharp(bare).metadata()).icc).toBeUndefined();
      const tagged = withIcc(bare, icc);
      expect((await sharp(tagged).metadata()).icc?.equals(icc)).toBe(true);
      const [r, g, b] = await sharp(tagged).raw().toBuffer();
      expect([r, g, b]).toEqual([255, 0, 0]);
    });
  });
});
