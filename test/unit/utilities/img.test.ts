import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { EXAMPLE_COLORS, EXAMPLE_HEIGHT, EXAMPLE_SVG, EXAMPLE_WIDTH, examplePng } from "../../../utilities/img/example-image.ts";
import { icoSizes } from "../../../utilities/img/ico.ts";
import { readZipEntry, zipEntries } from "../../../utilities/shared/zip.ts";
import { animatedGif, b64, bombPng, flat, jpegWithGps, photo, PLANTED_GPS, unb64 } from "./img-fixtures.ts";
import { refusal, run, runExample } from "./run.ts";

// The img group on images made here with sharp: exact sizes and formats, a planted GPS position,
// a QR code generated and then read back, a decompression bomb's header, truncated files.

const meta = (data: unknown) => sharp(unb64(data)).metadata();

describe("image_compress", () => {
  it("recompresses its example and converts a GPS-tagged JPEG to WebP without its metadata", async () => {
    const ex = await runExample("image_compress");
    expect(ex.result).toMatchObject({ mime: "image/png", format: "png", file_name: "blocks.png", width: EXAMPLE_WIDTH, height: EXAMPLE_HEIGHT, bytes_before: examplePng().length });
    expect(ex.result.bytes_after).toBe(unb64(ex.result.data_base64).length);
    const jpg = await jpegWithGps(400, 300);
    const out = await run("image_compress", { file: b64(jpg), to: "webp", quality: 70 });
    expect(out.result).toMatchObject({ mime: "image/webp", format: "webp", width: 400, height: 300, bytes_before: jpg.length, quality: 70 });
    const m = await meta(out.result.data_base64);
    expect([m.format, m.width, m.height, m.exif, m.xmp]).toEqual(["webp", 400, 300, undefined, undefined]);
    // keep_metadata keeps the position.
    const kept = await run("image_compress", { file: b64(jpg), keep_metadata: true });
    expect(await exifr.gps(unb64(kept.result.data_base64))).toMatchObject({ latitude: PLANTED_GPS.latitude });
  });

  it("finds the highest quality under a target size", async () => {
    const big = await photo(800, 600, 95);
    const out = await run("image_compress", { file: b64(big), target_kb: 40 });
    expect(out.result.bytes_after as number).toBeLessThanOrEqual(40 * 1024);
    expect(out.result.bytes_after).toBe(unb64(out.result.data_base64).length);
    const q = out.result.quality as number;
    expect(q).toBeGreaterThanOrEqual(5);
    // One step up the quality scale would not have fitted.
    const above = await run("image_compress", { file: b64(big), quality: q + 1 });
    expect(above.result.bytes_after as number).toBeGreaterThan(40 * 1024);
  });

  it("keeps a GIF's frames and recompresses AVIF as AVIF", async () => {
    const gif = await run("image_compress", { file: b64(await animatedGif(4, 40, 20)) });
    expect(gif.result).toMatchObject({ format: "gif", width: 40, height: 20 });
    expect((await sharp(unb64(gif.result.data_base64), { animated: true }).metadata()).pages).toBe(4);
    const avif = await sharp(await photo(200, 100)).avif({ quality: 90 }).toBuffer();
    const out = await run("image_compress", { file: b64(avif), quality: 40 });
    expect(out.result).toMatchObject({ format: "avif", mime: "image/avif", width: 200, height: 100, bytes_before: avif.length });
    expect(out.result.bytes_after as number).toBeLessThan(avif.length);
  });

  it("refuses a wrong type, a decompression bomb and a truncated file", async () => {
    expect(await refusal("image_compress", { file: b64(Buffer.from("%PDF-1.4\n%…")) })).toMatchObject({ code: "bad_param", field: "input.file", message: expect.stringContaining("the bytes look like pdf") as unknown });
    expect(await refusal("image_compress", { file: b64(bombPng(20_000)) })).toEqual({
      code: "tool_failed",
      message: "the file declares 20000×20000 = 400,000,000 pixels; images over 40,000,000 pixels are refused before decoding (a decompression bomb guard)",
    });
    const cut = (await photo(200, 150)).subarray(0, 600);
    expect(await refusal("image_compress", { file: b64(cut) })).toMatchObject({ code: "tool_failed", message: expect.stringMatching(/truncated or corrupt|not a readable image/) as unknown });
  });
});

describe("image_resize", () => {
  it("resizes its example, smart-crops, makes a srcset set and applies EXIF orientation", async () => {
    const ex = await runExample("image_resize");
    expect(ex.result.files).toMatchObject([{ width: 48, height: 32, mime: "image/png", density: "1x", file_name: "blocks-48w.png" }]);
    const src = await photo(400, 300);
    const crop = await run("image_resize", { file: b64(src), width: 100, height: 100, crop: "attention" });
    expect((crop.result.files as { width: number; height: number }[])[0]).toMatchObject({ width: 100, height: 100 });
    const set = await run("image_resize", { file: b64(src), width: 100, srcset: true });
    const files = set.result.files as { width: number; height: number; data_base64: string }[];
    expect(files.map((f) => [f.width, f.height])).toEqual([
      [100, 75],
      [200, 150],
      [300, 225],
    ]);
    expect((await meta(files[2]?.data_base64)).width).toBe(300);
    expect(set.blocks.code[0]?.text).toContain('srcset="image-100w.jpg 1x, image-200w.jpg 2x, image-300w.jpg 3x"');
    const rotated = await run("image_resize", { file: b64(examplePng()), rotate: 90 });
    expect((rotated.result.files as { width: number; height: number }[])[0]).toMatchObject({ width: 64, height: 96 });
    // Orientation 6 (rotate 90° to view): the 40×30 stored pixels are a 30×40 picture.
    const upright = await run("image_resize", { file: b64(await jpegWithGps(40, 30, 6)), percent: 50 });
    expect(upright.result.original).toEqual({ width: 30, height: 40, format: "jpeg" });
    expect((upright.result.files as { width: number; height: number }[])[0]).toMatchObject({ width: 15, height: 20 });
  });

  it("refuses conflicting sizes, a side over 8000 px and a bomb", async () => {
    expect(await refusal("image_resize", { file: b64(examplePng()), width: 10, percent: 50 })).toMatchObject({ code: "bad_param", field: "input.percent" });
    expect(await refusal("image_resize", { file: b64(examplePng()), width: 9000 })).toMatchObject({ code: "bad_param", field: "input.width" });
    expect(await refusal("image_resize", { file: b64(examplePng()), width: 3000, srcset: true })).toEqual({ code: "tool_failed", message: "the result would be 9000×6000; output sides are at most 8000 px" });
    expect(await refusal("image_resize", { file: b64(bombPng(7000)), width: 10 })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("49,000,000 pixels") as unknown });
  });
});

describe("image_convert", () => {
  it("converts to WebP, ICO and AVIF, keeps a GIF animation, and rasterises an SVG", async () => {
    const ex = await runExample("image_convert");
    expect(ex.result).toMatchObject({ mime: "image/webp", from: "png", width: 96, height: 64, file_name: "blocks.webp" });
    expect((await meta(ex.result.data_base64)).format).toBe("webp");
    const ico = await run("image_convert", { file: b64(examplePng()), to: "ico" });
    expect(ico.result.mime).toBe("image/x-icon");
    expect(icoSizes(unb64(ico.result.data_base64))).toEqual([16, 32, 48]);
    const avif = await run("image_convert", { file: b64(await photo(120, 80)), to: "avif" });
    expect(await meta(avif.result.data_base64)).toMatchObject({ format: "heif", compression: "av1", width: 120, height: 80 });
    const gif = await animatedGif(3, 20, 10);
    const webp = await run("image_convert", { file: b64(gif), to: "webp" });
    expect(webp.result).toMatchObject({ frames: 3, width: 20, height: 10 });
    expect((await sharp(unb64(webp.result.data_base64), { animated: true }).metadata()).pages).toBe(3);
    const png = await run("image_convert", { file: b64(gif), to: "png" });
    expect(png.warnings).toContainEqual({ code: "first_frame", text: "PNG holds no animation: only the first of 3 frames is kept" });
    const svg = await run("image_convert", { file: b64(Buffer.from(EXAMPLE_SVG)), to: "png" });
    expect(svg.result).toMatchObject({ from: "svg", width: 64, height: 64 });
    const { data } = await sharp(unb64(svg.result.data_base64)).extract({ left: 32, top: 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0x1e, 0x40, 0xaf]);
  });

  it("refuses a broken HEIC, an unknown target and a corrupt file", async () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic"), Buffer.alloc(12), Buffer.alloc(64, 1)]);
    expect(await refusal("image_convert", { file: b64(heic), to: "jpeg" })).toMatchObject({ code: "tool_failed", message: expect.stringMatching(/not a readable image|could not be decoded/) as unknown });
    expect(await refusal("image_convert", { file: b64(examplePng()), to: "bmp" })).toMatchObject({ code: "bad_param", field: "input.to" });
    expect(await refusal("image_convert", { file: b64(await animatedGif(201, 4, 4)), to: "webp" })).toEqual({ code: "tool_failed", message: "the file has 201 frames; at most 200 are decoded" });
    const broken = Buffer.concat([examplePng().subarray(0, 40), Buffer.alloc(40, 7)]);
    expect(await refusal("image_convert", { file: b64(broken), to: "webp" })).toMatchObject({ code: "tool_failed" });
  });
});

describe("image_metadata", () => {
  it("reads the planted EXIF and GPS, hashes the file and strips it without touching the pixels", async () => {
    const jpg = await jpegWithGps(40, 30);
    const out = await run("image_metadata", { file: b64(jpg), strip: true });
    expect(out.result).toMatchObject({ format: "jpeg", width: 40, height: 30, space: "srgb", has_alpha: false, gps: PLANTED_GPS, hashes: { sha256: createHash("sha256").update(jpg).digest("hex") } });
    expect((out.result.exif as Record<string, Record<string, unknown>>).ifd0).toMatchObject({ Make: "TestCam", Model: "X100", Software: "svc-test" });
    expect((out.result.exif as Record<string, Record<string, unknown>>).exif).toMatchObject({ DateTimeOriginal: "2026:11:22 10:00:00" });
    expect(out.warnings[0]?.code).toBe("gps");
    const clean = unb64(out.result.data_base64);
    expect(clean.length).toBeLessThan(jpg.length);
    expect((await sharp(clean).metadata()).exif).toBeUndefined();
    expect(await exifr.gps(clean)).toBeUndefined();
    const pixels = (b: Buffer) => sharp(b).raw().toBuffer();
    expect((await pixels(clean)).equals(await pixels(jpg))).toBe(true);
    const ex = await runExample("image_metadata");
    expect(ex.result).toMatchObject({ format: "png", width: 96, height: 64, gps: null, exif: {} });
  });

  it("refuses a text file and a corrupt image", async () => {
    expect(await refusal("image_metadata", { file: b64(Buffer.from("just text")) })).toMatchObject({ code: "bad_param", field: "input.file" });
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(30, 0)]);
    expect(await refusal("image_metadata", { file: b64(broken) })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("not a readable image") as unknown });
  });
});

describe("favicon_generator", () => {
  it("makes the icon set, the manifest and the tags from its SVG example", async () => {
    const out = await runExample("favicon_generator");
    const zip = unb64(out.result.data_base64);
    const entries = zipEntries(zip);
    expect(entries.map((e) => e.name)).toEqual(["favicon.ico", "favicon-16x16.png", "favicon-32x32.png", "apple-touch-icon.png", "icon-192.png", "icon-512.png", "icon-512-maskable.png", "favicon.svg", "site.webmanifest", "head.html"]);
    const file = (name: string) => readZipEntry(zip, entries.find((e) => e.name === name) as (typeof entries)[number]);
    expect(icoSizes(file("favicon.ico"))).toEqual([16, 32, 48]);
    const touch = await sharp(file("apple-touch-icon.png")).stats();
    expect(touch.isOpaque).toBe(true);
    expect(await sharp(file("apple-touch-icon.png")).metadata()).toMatchObject({ width: 180, height: 180 });
    expect(await sharp(file("icon-512.png")).metadata()).toMatchObject({ width: 512, height: 512 });
    expect(JSON.parse(file("site.webmanifest").toString())).toMatchObject({ name: "Example", theme_color: "#1e40af", icons: [{ sizes: "192x192" }, { sizes: "512x512" }, { purpose: "maskable" }] });
    expect(file("favicon.svg").toString()).toContain('viewBox="0 0 64 64"');
    expect(out.blocks.code[0]?.text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it("warns about a small raster source and refuses a PDF", async () => {
    const out = await run("favicon_generator", { file: b64(examplePng()), background: "#ffffff", padding_pct: 10 });
    expect(out.warnings.map((w) => w.code)).toEqual(["small_source", "not_square", "no_svg"]);
    expect(await refusal("favicon_generator", { file: b64(Buffer.from("%PDF-1.7 x")) })).toMatchObject({ code: "bad_param", field: "input.file" });
    expect(await refusal("favicon_generator", { file: b64(examplePng()), padding_pct: 40 })).toMatchObject({ code: "bad_param", field: "input.padding_pct" });
  });
});

describe("qr_code", () => {
  it("generates its example and reads it back; Wi-Fi and vCard payloads round-trip", async () => {
    const gen = await runExample("qr_code");
    expect(gen.result).toMatchObject({ payload: "https://qr.example.org/menu?table=12", mime: "image/png", width: 256, height: 256, ecc: "M" });
    const back = await run("qr_code", { file: gen.result.data_base64 });
    expect(back.result).toMatchObject({ text: "https://qr.example.org/menu?table=12", kind: "url" });
    const wifi = await run("qr_code", { content: "ssid: My;Net\npassword: pa:ss\ntype: WPA", kind: "wifi", ecc: "H" });
    expect(wifi.result.payload).toBe("WIFI:T:WPA;S:My\\;Net;P:pa\\:ss;;");
    // A printed code photographed small inside a larger JPEG.
    const shot = await sharp({ create: { width: 900, height: 700, channels: 3, background: "#dddddd" } })
      .composite([{ input: await sharp(unb64(wifi.result.data_base64)).resize(300).toBuffer(), left: 350, top: 200 }])
      .jpeg({ quality: 80 })
      .toBuffer();
    expect((await run("qr_code", { file: b64(shot), mode: "decode" })).result).toMatchObject({ text: "WIFI:T:WPA;S:My\\;Net;P:pa\\:ss;;", kind: "wifi" });
    const svg = await run("qr_code", { content: "name: Иван Петров\nphone: +7 900 000-00-00", kind: "vcard", format: "svg" });
    expect(svg.result.payload).toBe("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Петров;Иван;;;\r\nFN:Иван Петров\r\nTEL;TYPE=CELL:+7 900 000-00-00\r\nEND:VCARD");
    expect(svg.result.svg as string).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const fromSvg = await sharp(Buffer.from(svg.result.svg as string)).png().toBuffer();
    expect((await run("qr_code", { file: b64(fromSvg) })).result.text).toBe(svg.result.payload);
  });

  it("refuses bad structured content, an image without a code and a missing input", async () => {
    expect(await refusal("qr_code", { content: "north pole", kind: "geo" })).toMatchObject({ code: "bad_param", field: "input.content" });
    expect(await refusal("qr_code", { content: "x", kind: "url", fg: "not-a-colour" })).toMatchObject({ code: "bad_param", field: "input.fg" });
    expect(await refusal("qr_code", { file: b64(examplePng()) })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("no QR code was found") as unknown });
    expect(await refusal("qr_code", { kind: "text" })).toMatchObject({ code: "bad_param", field: "input.content" });
  });
});

describe("svg_optimize", () => {
  it("optimises its example and removes scripts, handlers and external references", async () => {
    const out = await runExample("svg_optimize");
    const svg = out.result.svg as string;
    expect(out.result.bytes_before).toBe(Buffer.byteLength(EXAMPLE_SVG));
    expect(out.result.bytes_after).toBe(Buffer.byteLength(svg));
    expect(out.result.bytes_after as number).toBeLessThan(out.result.bytes_before as number);
    for (const gone of ["<metadata", "inkscape:", "sodipodi:", "<!--", 'display="none"', "<?xml", ".000000"]) expect(svg).not.toContain(gone);
    expect(svg).toContain('viewBox="0 0 64 64"');
    expect(out.blocks.images[0]).toMatchObject({ mime: "image/png", width: 256, height: 256 });
    const evil =
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" onload="alert(1)"><script>alert(2)</script><image xlink:href="http://169.254.169.254/latest/x.png" width="5" height="5"/><a href="javascript:alert(3)"><rect width="10" height="10" fill="red" style="fill:url(http://evil.example/a.svg#x)"/></a><foreignObject><p>hi</p></foreignObject></svg>';
    const clean = (await run("svg_optimize", { svg: evil })).result.svg as string;
    for (const gone of ["onload", "<script", "169.254", "javascript:", "evil.example", "foreignObject"]) expect(clean).not.toContain(gone);
    expect(clean).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image width="5" height="5"/><a><path fill="red" d="M0 0h10v10H0z" style="fill:none"/></a></svg>');
    const risky = await run("svg_optimize", { svg: evil, sanitize: false });
    expect(risky.warnings[0]?.code).toBe("unsafe_content");
  });

  it("refuses text that is not SVG and a missing input", async () => {
    expect(await refusal("svg_optimize", { svg: "<html><body/></html>" })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("not an SVG") as unknown });
    expect(await refusal("svg_optimize", { precision: 2 })).toMatchObject({ code: "bad_param", field: "input.svg" });
    // An external entity is never expanded: the document is refused, before anything rasterises it.
    const xxe = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]><svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><text>&x;</text></svg>';
    expect(await refusal("svg_optimize", { svg: xxe })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("Invalid character entity") as unknown });
    expect(await refusal("image_convert", { file: b64(Buffer.from(xxe)), to: "png" })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("could not be parsed") as unknown });
    expect(await refusal("svg_optimize", { svg: "<svg><g></svg>" })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("could not be parsed") as unknown });
  });
});

describe("og_image_generator", () => {
  it("draws its Cyrillic example at 1200×630 and a square JPEG with a logo", async () => {
    const out = await runExample("og_image_generator");
    expect(out.result).toMatchObject({ mime: "image/png", width: 1200, height: 630, file_name: "og-image.png" });
    expect(await meta(out.result.data_base64)).toMatchObject({ format: "png", width: 1200, height: 630 });
    // The title is drawn in the text colour: the image has white pixels on the dark background.
    const stats = await sharp(unb64(out.result.data_base64)).stats();
    expect(stats.channels[0]?.max).toBe(255);
    const corner = await sharp(unb64(out.result.data_base64)).extract({ left: 5, top: 5, width: 1, height: 1 }).raw().toBuffer();
    expect([...corner.subarray(0, 3)]).toEqual([0x0f, 0x17, 0x2a]);
    const sq = await run("og_image_generator", { title: "Square", size: "1080x1080", format: "jpeg", file: b64(examplePng()), bg: "#ffffff", fg: "#111111" });
    expect(await meta(sq.result.data_base64)).toMatchObject({ format: "jpeg", width: 1080, height: 1080 });
  });

  it("refuses an unknown size, a long title and a corrupt upload", async () => {
    expect(await refusal("og_image_generator", { title: "x", size: "800x600" })).toMatchObject({ code: "bad_param", field: "input.size" });
    expect(await refusal("og_image_generator", { title: "x".repeat(201) })).toMatchObject({ code: "bad_param", field: "input.title" });
    const broken = Buffer.concat([examplePng().subarray(0, 30), Buffer.alloc(20)]);
    expect(await refusal("og_image_generator", { title: "x", file: b64(broken) })).toMatchObject({ code: "tool_failed" });
  });
});

describe("color_palette", () => {
  it("gives the exact colours and shares of its example and the Vibrant/Muted swatches", async () => {
    const out = await runExample("color_palette");
    expect(out.result.colors).toEqual([
      { hex: "#1e40af", rgb: [...EXAMPLE_COLORS.left], hsl: "hsl(226, 71%, 40%)", share_pct: 50, text_on: "#ffffff", contrast: 8.72 },
      { hex: "#f59e0b", rgb: [...EXAMPLE_COLORS.topRight], hsl: "hsl(38, 92%, 50%)", share_pct: 25, text_on: "#000000", contrast: 9.78 },
      { hex: "#ffffff", rgb: [255, 255, 255], hsl: "hsl(0, 0%, 100%)", share_pct: 25, text_on: "#000000", contrast: 21 },
    ]);
    expect(out.result.palette).toEqual({ vibrant: "#f59e0b", light_vibrant: null, dark_vibrant: "#1e40af", muted: null, light_muted: "#ffffff", dark_muted: null });
    expect(out.result.sampled_pixels).toBe(96 * 64);
  });

  it("leaves transparent pixels out and refuses an empty image and a bad count", async () => {
    const half = await sharp({ create: { width: 10, height: 10, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: await flat(5, 10, "#00ff00"), left: 0, top: 0 }])
      .png()
      .toBuffer();
    expect((await run("color_palette", { file: b64(half) })).result).toMatchObject({ colors: [{ hex: "#00ff00", share_pct: 100 }], sampled_pixels: 50 });
    expect(await refusal("color_palette", { file: b64(await flat(8, 8, "#123456", "png", 0)) })).toMatchObject({ code: "tool_failed", message: expect.stringContaining("fully transparent") as unknown });
    expect(await refusal("color_palette", { file: b64(examplePng()), count: 20 })).toMatchObject({ code: "bad_param", field: "input.count" });
  });
});

describe("the catalogue without the image libraries", () => {
  it("loading the contracts (CLI, gateway start) imports no image library: they load on first use", async () => {
    const root = new URL("../../../", import.meta.url);
    const script = fileURLToPath(new URL("../../harness/loaded-modules.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, fileURLToPath(new URL("gateway/contracts/index.ts", root))], { cwd: fileURLToPath(root) });
    const loaded = JSON.parse(stdout) as string[];
    expect(loaded).toContain(new URL("utilities/img/image-compress.ts", root).href);
    expect(loaded.filter((u) => /\/node_modules\/(sharp|@img|satori|svgo|exifr|qrcode|jsqr|playwright-core|libheif-js)\//.test(u))).toEqual([]);
    expect(loaded).not.toContain(new URL("utilities/img/heic.ts", root).href);
  }, 30_000);
});
