import type QRCodeLib from "qrcode";
import { UtilityError, defineUtility, type UtilityOutput } from "../utility.ts";
import { contrast, parseColor, toHex, type Rgba } from "../shared/color.ts";
import { encode, openImage, reason } from "./image-input.ts";
import { qrPayload, type QrKind } from "./qr-payload.ts";

interface Input {
  mode: "generate" | "decode";
  content?: string;
  file?: Uint8Array;
  file_name?: string;
  kind: QrKind;
  ecc: "L" | "M" | "Q" | "H";
  size: number;
  margin: number;
  format: "png" | "svg";
  fg: string;
  bg: string;
}

type JsQr = (data: Uint8ClampedArray, w: number, h: number, o?: { inversionAttempts?: "attemptBoth" }) => { data: string; version: number; binaryData: number[] } | null;

/** jsqr is CommonJS with exports.default: under NodeNext its default import is the module object. */
async function loadJsQr(): Promise<JsQr> {
  const m = (await import("jsqr")) as unknown as { default: { default?: unknown } };
  return (m.default.default ?? m.default) as JsQr;
}

/** The longest side a QR image is scanned at: enough for any printable code, bounded in CPU. */
const DECODE_SIDE = 1200;

const rgba = (s: string): Rgba => parseColor(s) ?? { r: 0, g: 0, b: 0, a: 1 };
const hex8 = (c: Rgba) => `${toHex({ ...c, a: 1 })}${Math.round(c.a * 255).toString(16).padStart(2, "0")}`;

async function generate(input: Input): Promise<UtilityOutput> {
  if (input.content === undefined) throw new UtilityError("bad_param", "generate takes input.content", "input.content");
  const payload = qrPayload(input.kind, input.content);
  const fg = rgba(input.fg);
  const bg = rgba(input.bg);
  const ratio = Math.round(contrast(fg, { ...bg, a: 1 }) * 100) / 100;
  const warnings = ratio < 4 ? [{ code: "low_contrast", text: `foreground and background contrast is ${ratio}:1; scanners need about 4:1 or more` }] : [];
  const { default: QRCode } = await import("qrcode");
  let qr: QRCodeLib.QRCode;
  try {
    qr = QRCode.create(payload, { errorCorrectionLevel: input.ecc });
  } catch (err) {
    throw new UtilityError("tool_failed", `the content does not fit a QR code at error correction ${input.ecc} (${reason(err)}); shorten it or choose L`);
  }
  const modules = qr.modules.size;
  const color = { dark: hex8(fg), light: hex8(bg) };
  const opts = { errorCorrectionLevel: input.ecc, margin: input.margin, color };
  const common = { payload, version: qr.version, modules, ecc: input.ecc };
  const pairs = [
    { label: "Encoded", value: payload.length > 200 ? `${payload.slice(0, 200)}…` : payload },
    { label: "Version", value: `${qr.version} (${modules}×${modules} modules)` },
    { label: "Error correction", value: input.ecc },
  ];
  if (input.format === "svg") {
    const svg = await QRCode.toString(payload, { ...opts, type: "svg", width: input.size });
    return {
      result: { ...common, svg, mime: "image/svg+xml", file_name: "qr.svg", bytes: Buffer.byteLength(svg) },
      blocks: { pairs, code: [{ lang: "xml", text: svg, filename: "qr.svg" }], images: [{ mime: "image/svg+xml", data_base64: Buffer.from(svg).toString("base64"), width: input.size, height: input.size, alt: "QR code" }] },
      warnings,
    };
  }
  const png = await QRCode.toBuffer(payload, { ...opts, type: "png", width: input.size });
  return {
    result: { ...common, data_base64: png.toString("base64"), mime: "image/png", file_name: "qr.png", bytes: png.length, width: input.size, height: input.size },
    blocks: { pairs, images: [{ mime: "image/png", data_base64: png.toString("base64"), width: input.size, height: input.size, alt: "QR code" }] },
    warnings,
  };
}

async function decode(input: Input): Promise<UtilityOutput> {
  if (!input.file) throw new UtilityError("bad_param", "decode takes input.file (an image with a QR code)", "input.file");
  const img = await openImage(input.file);
  const scale = Math.min(1, DECODE_SIDE / Math.max(img.width, img.height));
  // White under transparency: a transparent PNG code would otherwise read as black on black.
  let p = img.pipeline().rotate().flatten({ background: "#ffffff" });
  if (scale < 1) p = p.resize(Math.max(1, Math.round(img.width * scale)), Math.max(1, Math.round(img.height * scale)), { fit: "fill" });
  const { data, info } = await encode(p.ensureAlpha().raw());
  const jsQR = await loadJsQr();
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height, { inversionAttempts: "attemptBoth" });
  if (!found) throw new UtilityError("tool_failed", "no QR code was found in the image (a sharper, straighter photo with a quiet margin around the code helps)");
  const kind = /^WIFI:/i.test(found.data) ? "wifi" : /^BEGIN:VCARD/i.test(found.data) ? "vcard" : /^mailto:/i.test(found.data) ? "email" : /^SMSTO:/i.test(found.data) ? "sms" : /^geo:/i.test(found.data) ? "geo" : /^https?:\/\//i.test(found.data) ? "url" : "text";
  return {
    result: { text: found.data, kind, version: found.version, bytes: found.binaryData.length },
    blocks: { pairs: [{ label: "Text", value: found.data }, { label: "Kind", value: kind }, { label: "Version", value: String(found.version) }], code: [{ lang: "text", text: found.data }] },
    warnings: [],
  };
}

export const qrCode = defineUtility<Input>({
  id: "qr_code",
  group: "img",
  title: "QR code generator & reader",
  description:
    "Generates a QR code for a URL, text, Wi-Fi, vCard, e-mail, SMS or geo location (error correction, size, margin, colours, PNG or SVG), or decodes an uploaded QR image. Structured kinds take \"key: value\" lines: wifi ssid/password/type/hidden; vcard name/org/title/phone/email/url/address/note; email to/subject/body; sms phone/body; geo \"lat, lon\"",
  net: false,
  nativeMemory: true,
  file: true,
  fileKinds: ["png", "jpeg", "webp", "avif", "gif", "tiff", "heic"],
  fields: [
    // content first: it is what `svc util qr_code <text>` fills (the catalogue lists mode first).
    { name: "content", type: "text", label: "Content (generate)", max: 2000 },
    { name: "file", type: "file", label: "Image with a QR code (decode)" },
    { name: "mode", type: "sel", label: "Mode (decode when a file is given)", options: ["generate", "decode"], default: "generate" },
    { name: "kind", type: "sel", label: "Kind of content", options: ["text", "url", "wifi", "vcard", "email", "sms", "geo"], default: "url" },
    { name: "ecc", type: "sel", label: "Error correction", options: ["L", "M", "Q", "H"], default: "M" },
    { name: "size", type: "int", label: "Size (px)", default: 512, min: 64, max: 2048 },
    { name: "margin", type: "int", label: "Quiet zone (modules)", default: 4, min: 0, max: 16 },
    { name: "format", type: "sel", label: "Image format", options: ["png", "svg"], default: "png" },
    { name: "fg", type: "color", label: "Foreground", default: "#000000" },
    { name: "bg", type: "color", label: "Background", default: "#ffffff" },
  ],
  oneOf: [["content", "file"]],
  example: { content: "https://qr.example.org/menu?table=12", kind: "url", size: 256 },
  run(input) {
    // A file and no content means decode, whatever mode says by default.
    return input.mode === "decode" || (input.file && input.content === undefined) ? decode(input) : generate(input);
  },
});
