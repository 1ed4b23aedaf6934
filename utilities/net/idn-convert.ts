import { domainToASCII, domainToUnicode } from "node:url";
import { defineUtility } from "../utility.ts";

interface Input {
  values: string[];
  direction: "auto" | "to_ascii" | "to_unicode";
}

interface Row {
  input: string;
  output: string | null;
  valid: boolean;
  warnings: string[];
}

const SCRIPTS: readonly [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
];

/** Labels that mix Latin with Cyrillic or Greek letters: the usual homoglyph spoof (раураl.com). */
function mixedScripts(unicodeHost: string): string[] {
  const out: string[] = [];
  for (const label of unicodeHost.split(".")) {
    const found = SCRIPTS.filter(([, re]) => re.test(label)).map(([name]) => name);
    if (found.length > 1) out.push(`the label "${label}" mixes ${found.join(" and ")} letters: a look-alike of another name?`);
  }
  return out;
}

/** Splits a value into what comes before the host, the host, and what follows (URL, e-mail or bare domain). */
function splitHost(value: string): { before: string; host: string; after: string } {
  const url = /^([a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?)([^/:?#]+)(.*)$/i.exec(value);
  if (url) return { before: url[1] as string, host: url[2] as string, after: url[3] as string };
  const at = value.lastIndexOf("@");
  if (at > 0) return { before: value.slice(0, at + 1), host: value.slice(at + 1), after: "" };
  return { before: "", host: value, after: "" };
}

function convert(value: string, direction: Input["direction"]): Row {
  const { before, host, after } = splitHost(value.trim());
  const toAscii = direction === "to_ascii" || (direction === "auto" && /[^\x00-\x7f]/.test(host));
  if (toAscii) {
    const ascii = domainToASCII(host);
    if (!ascii) return { input: value, output: null, valid: false, warnings: ["not a valid internationalised domain name (UTS #46)"] };
    return { input: value, output: `${before}${ascii}${after}`, valid: true, warnings: mixedScripts(domainToUnicode(ascii)) };
  }
  const ascii = domainToASCII(host);
  if (!ascii) return { input: value, output: null, valid: false, warnings: ["not a valid domain name (UTS #46)"] };
  const unicode = domainToUnicode(ascii);
  return { input: value, output: `${before}${unicode}${after}`, valid: true, warnings: mixedScripts(unicode) };
}

export const idnConvert = defineUtility<Input>({
  id: "idn_convert",
  group: "net",
  title: "IDN ⇄ Punycode",
  description: "Converts domains, e-mails and URLs in bulk (пример.рф ⇄ xn--e1afmkfd.xn--p1ai) with UTS #46 validation and mixed-script/homoglyph warnings",
  net: false,
  file: false,
  fields: [
    { name: "values", type: "list", label: "Domains, e-mails or URLs (one per line)", required: true, max: 1000 },
    { name: "direction", type: "sel", label: "Direction", options: ["auto", "to_ascii", "to_unicode"], default: "auto" },
  ],
  example: { values: ["пример.рф", "xn--d1acpjx3f.xn--p1ai", "почта@пример.рф", "https://пример.рф/путь?q=1"], direction: "auto" },
  run(input) {
    const rows = input.values.map((v) => convert(v, input.direction));
    return {
      result: { rows },
      blocks: {
        tables: [{ title: "Conversions", columns: ["Input", "Output", "Valid", "Warnings"], rows: rows.map((r) => [r.input, r.output, r.valid, r.warnings.join("; ")]) }],
      },
    };
  },
});
