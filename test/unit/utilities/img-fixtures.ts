import { crc32 } from "node:zlib";
import sharp from "sharp";

// Images the img tests make with sharp itself: exact sizes and formats, EXIF with a GPS position
// planted here, a noisy "photo", an animation, and a decompression bomb's header.

/** Moscow, Red Square: 55°45'21.6" N, 37°37'18" E. */
export const PLANTED_GPS = { latitude: 55.756, longitude: 37.621667 };

/** A JPEG with camera EXIF and the planted GPS position. */
export async function jpegWithGps(width = 40, height = 30, orientation?: number): Promise<Buffer> {
  const p = sharp({ create: { width, height, channels: 3, background: "#336699" } }).withExif({
    IFD0: { Make: "TestCam", Model: "X100", Software: "svc-test" },
    IFD2: { DateTimeOriginal: "2026:11:22 10:00:00" },
    IFD3: { GPSLatitudeRef: "N", GPSLatitude: "55/1 45/1 2160/100", GPSLongitudeRef: "E", GPSLongitude: "37/1 37/1 1800/100" },
  });
  const jpg = await p.jpeg({ quality: 90 }).toBuffer();
  return orientation ? sharp(jpg).keepExif().withMetadata({ orientation }).jpeg({ quality: 90 }).toBuffer() : jpg;
}

/** A noisy gradient "photo" (noise makes it as hard to compress as a real one). */
export async function photo(width: number, height: number, quality = 92): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 64) - 32;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = Math.max(0, Math.min(255, Math.round((255 * x) / width) + rnd()));
      raw[i + 1] = Math.max(0, Math.min(255, Math.round((255 * y) / height) + rnd()));
      raw[i + 2] = Math.max(0, Math.min(255, 128 + rnd()));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
}

/** A flat PNG of one colour, with alpha when asked. */
export function flat(width: number, height: number, color: string, format: "png" | "webp" | "gif" = "png", alpha = 1): Promise<Buffer> {
  const c = sharp({ create: { width, height, channels: 4, background: { ...hex(color), alpha } } });
  return (format === "png" ? c.png() : format === "webp" ? c.webp({ lossless: true }) : c.gif()).toBuffer();
}

function hex(c: string): { r: number; g: number; b: number } {
  return { r: Number.parseInt(c.slice(1, 3), 16), g: Number.parseInt(c.slice(3, 5), 16), b: Number.parseInt(c.slice(5, 7), 16) };
}

/** An animated GIF of n frames of w×h (sharp joins the frames). */
export async function animatedGif(n: number, w: number, h: number): Promise<Buffer> {
  const colors = ["#ff0000", "#00ff00", "#0000ff", "#ffff00"];
  const frames = await Promise.all(Array.from({ length: n }, (_, i) => flat(w, h, colors[i % colors.length] as string)));
  return sharp(frames, { join: { animated: true } }).gif({ delay: 100 }).toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG that declares side × side pixels: a few bytes that would decode to gigabytes. */
export function bombPng(side: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), chunk("IEND", Buffer.alloc(0))]);
}

export const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");
export const unb64 = (s: unknown) => Buffer.from(s as string, "base64");
