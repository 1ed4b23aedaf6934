import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  text: string;
  mode: "encode_min" | "encode_named" | "encode_numeric" | "decode" | "js_escape" | "js_unescape";
}

/** Everything outside printable ASCII, and the five HTML specials, as &#decimal; references. */
function encodeNumeric(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    out += cp > 126 || '&<>"\''.includes(ch) ? `&#${cp};` : ch;
  }
  return out;
}

/** A JavaScript/JSON string body: quotes, backslashes and control characters escaped, non-ASCII as \uXXXX. */
function jsEscape(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/'/g, "\\'")
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const SIMPLE: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0", "'": "'", '"': '"', "\\": "\\", "/": "/" };

function jsUnescape(text: string): string {
  return text.replace(/\\(u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))/gs, (_m, _all, braces?: string, u4?: string, x2?: string, other?: string) => {
    if (braces) {
      const cp = parseInt(braces, 16);
      if (cp > 0x10ffff) throw new UtilityError("tool_failed", `\\u{${braces}} is beyond Unicode`);
      return String.fromCodePoint(cp);
    }
    if (u4) return String.fromCharCode(parseInt(u4, 16));
    if (x2) return String.fromCharCode(parseInt(x2, 16));
    return SIMPLE[other as string] ?? (other as string);
  });
}

export const htmlEntities = defineUtility<Input>({
  id: "html_entities",
  group: "dev",
  title: "HTML entities & string escape",
  description: "Encodes or decodes HTML entities (minimal &<>\"', or all non-ASCII as named or numeric) and escapes or unescapes JS/JSON strings (\\uXXXX)",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text", required: true },
    { name: "mode", type: "sel", label: "Mode", required: true, options: ["encode_min", "encode_named", "encode_numeric", "decode", "js_escape", "js_unescape"] },
  ],
  example: { text: '<a title="Цена">5 € & «скидка»</a>', mode: "encode_min" },
  async run(i) {
    const { decodeHTML, encodeHTML, escapeUTF8 } = await import("entities");
    const text =
      i.mode === "encode_min"
        ? escapeUTF8(i.text)
        : i.mode === "encode_named"
          ? encodeHTML(i.text)
          : i.mode === "encode_numeric"
            ? encodeNumeric(i.text)
            : i.mode === "decode"
              ? decodeHTML(i.text)
              : i.mode === "js_escape"
                ? jsEscape(i.text)
                : jsUnescape(i.text);
    return { result: { text }, blocks: { code: [{ lang: "text", text }] } };
  },
});
