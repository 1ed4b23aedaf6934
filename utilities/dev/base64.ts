import { UtilityError, defineUtility } from "../utility.ts";
import { sniffFile } from "../shared/sniff.ts";
import { decodeCp1251, encodeCp1251 } from "../shared/cp1251.ts";

interface Input {
  text?: string;
  file?: Uint8Array;
  file_name?: string;
  mode: "encode" | "decode";
  variant: "standard" | "url_safe";
  data_uri: boolean;
  charset: "utf-8" | "windows-1251";
}

const MIME: Record<string, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  zip: "application/zip",
  text: "text/plain",
  pem: "application/x-pem-file",
  svg: "image/svg+xml",
};

function mimeOf(bytes: Uint8Array, name?: string): string {
  const kind = sniffFile(bytes);
  if (kind && MIME[kind]) {
    if (kind === "text" && name?.endsWith(".svg")) return "image/svg+xml";
    if (kind === "text" && name?.endsWith(".css")) return "text/css";
    return MIME[kind];
  }
  if (name?.endsWith(".woff2")) return "font/woff2";
  if (name?.endsWith(".woff")) return "font/woff";
  return "application/octet-stream";
}

export const base64 = defineUtility<Input>({
  id: "base64",
  group: "dev",
  title: "Base64 encode/decode",
  description:
    "Encodes or decodes text (UTF-8 or windows-1251) or a file, with a URL-safe variant. Makes data URIs with a ready CSS/HTML snippet for images and fonts. Decoded binaries come back as files",
  net: false,
  file: true,
  fileKinds: ["any"],
  fields: [
    { name: "text", type: "text", label: "Text (to encode, or base64 to decode)" },
    { name: "file", type: "file", label: "File to encode (base64 in the request)" },
    { name: "mode", type: "sel", label: "Mode", options: ["encode", "decode"], default: "encode" },
    { name: "variant", type: "sel", label: "Alphabet", options: ["standard", "url_safe"], default: "standard" },
    { name: "data_uri", type: "bool", label: "Make a data URI", default: false },
    { name: "charset", type: "sel", label: "Text charset", options: ["utf-8", "windows-1251"], default: "utf-8" },
  ],
  oneOf: [["text", "file"]],
  example: { text: "Привет, world", mode: "encode" },
  run(input) {
    if (input.mode === "encode") {
      const bytes = input.file ? Buffer.from(input.file) : input.charset === "windows-1251" ? encodeCp1251(input.text ?? "") : Buffer.from(input.text ?? "", "utf8");
      const text = bytes.toString(input.variant === "url_safe" ? "base64url" : "base64");
      const mime = input.file ? mimeOf(input.file, input.file_name) : `text/plain;charset=${input.charset}`;
      const code = [{ lang: "text", text }];
      if (input.data_uri) {
        const uri = `data:${mime};base64,${bytes.toString("base64")}`;
        code.push({ lang: "css", text: mime.startsWith("font/") ? `@font-face { src: url("${uri}"); }` : `background-image: url("${uri}");` });
        if (mime.startsWith("image/")) code.push({ lang: "html", text: `<img src="${uri}" alt="">` });
        return { result: { text: uri, mime, bytes: bytes.length }, blocks: { code, pairs: [{ label: "Bytes", value: String(bytes.length) }] } };
      }
      return { result: { text, mime, bytes: bytes.length }, blocks: { code, pairs: [{ label: "Bytes", value: String(bytes.length) }, { label: "Base64 length", value: String(text.length) }] } };
    }
    if (input.file) throw new UtilityError("bad_param", "input.file is already sent as base64: decode takes input.text", "input.file");
    const raw = (input.text ?? "").trim().replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(raw) || raw.length % 4 === 1) throw new UtilityError("tool_failed", "the text is not base64: only A-Z, a-z, 0-9, +, /, - and _ with up to two = at the end");
    const bytes = Buffer.from(raw, raw.includes("-") || raw.includes("_") ? "base64url" : "base64");
    const kind = sniffFile(bytes);
    if (kind === "text" || kind === "pem" || kind === "svg") {
      const text = input.charset === "windows-1251" ? decodeCp1251(bytes) : bytes.toString("utf8");
      return { result: { text, mime: "text/plain", bytes: bytes.length }, blocks: { code: [{ lang: "text", text }], pairs: [{ label: "Bytes", value: String(bytes.length) }] } };
    }
    const mime = mimeOf(bytes);
    return {
      result: { data_base64: bytes.toString("base64"), mime, bytes: bytes.length, file_name: `decoded.${kind ?? "bin"}` },
      blocks: { pairs: [{ label: "Bytes", value: String(bytes.length) }, { label: "Type", value: mime }] },
      warnings: [{ code: "binary", text: "the decoded bytes are not text; they come back as a file" }],
    };
  },
});
