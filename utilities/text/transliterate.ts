import { defineUtility } from "../utility.ts";

type Standard = "icao" | "gost_b" | "iso9" | "bgn";

interface Input {
  text: string;
  mode: "translit" | "slug" | "layout_en_ru" | "layout_ru_en" | "to_cyrillic";
  standard: Standard;
  separator: string;
  max_len?: number;
}

const ABC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя";
function table(latin: string[]): Record<string, string> {
  return Object.fromEntries([...ABC].map((c, n) => [c, latin[n] as string]));
}

/** Lower-case tables in ABC order. */
const TABLES: Record<Standard, Record<string, string>> = {
  // ICAO Doc 9303, as in Russian passports since 2014.
  icao: table(["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "ie", "y", "", "e", "iu", "ia"]),
  // GOST 7.79-2000 system B (ц is "c" before i, e, y, j: handled below).
  gost_b: table(["a", "b", "v", "g", "d", "e", "yo", "zh", "z", "i", "j", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "x", "cz", "ch", "sh", "shh", "``", "y`", "`", "e`", "yu", "ya"]),
  // ISO 9:1995 (GOST 7.79-2000 system A): one Latin letter per Cyrillic letter.
  iso9: table(["a", "b", "v", "g", "d", "e", "ë", "ž", "z", "i", "j", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "h", "c", "č", "š", "ŝ", "ʺ", "y", "ʹ", "è", "û", "â"]),
  // BGN/PCGN 1947 (е and ё are ye/yë initially and after vowels, й, ъ and ь: handled below).
  bgn: table(["a", "b", "v", "g", "d", "e", "ë", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "”", "y", "’", "e", "yu", "ya"]),
};
/** Friendly URLs (ЧПУ): ICAO-like, but й → y, ю → yu, я → ya and no signs, as Russian CMSs write slugs. */
const SLUG: Record<string, string> = { ...TABLES.icao, й: "y", ю: "yu", я: "ya", ъ: "", ь: "", ё: "yo", х: "h" };

const VOWELS = new Set([..."аеёиоуыэюяйъь"]);

function withCase(src: string, out: string, nextUpper: boolean): string {
  if (src === src.toLowerCase()) return out;
  return nextUpper ? out.toUpperCase() : out.charAt(0).toUpperCase() + out.slice(1);
}

export function transliterate(text: string, std: Standard | "slug"): string {
  const map = std === "slug" ? SLUG : TABLES[std];
  const chars = [...text];
  let out = "";
  for (let n = 0; n < chars.length; n++) {
    const c = chars[n] as string;
    const lower = c.toLowerCase();
    let t = map[lower];
    if (t === undefined) {
      out += c;
      continue;
    }
    const prev = (chars[n - 1] ?? "").toLowerCase();
    const next = (chars[n + 1] ?? "").toLowerCase();
    if (std === "gost_b" && lower === "ц" && "иеыйiey".includes(next) && next !== "") t = "c";
    if (std === "bgn" && (lower === "е" || lower === "ё") && (prev === "" || !/\p{L}/u.test(prev) || VOWELS.has(prev))) t = lower === "е" ? "ye" : "yë";
    const nextIsUpper = chars[n + 1] !== undefined && /\p{Lu}/u.test(chars[n + 1] as string);
    const prevIsUpper = chars[n - 1] !== undefined && /\p{Lu}/u.test(chars[n - 1] as string);
    out += withCase(c, t, nextIsUpper || (prevIsUpper && !/\p{L}/u.test(chars[n + 1] ?? " ")));
  }
  return out;
}

// Keyboard layouts: the same keys on QWERTY and ЙЦУКЕН.
const EN_KEYS = "`qwertyuiop[]asdfghjkl;'zxcvbnm,./~QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>?@#$^&";
const RU_KEYS = "ёйцукенгшщзхъфывапролджэячсмитьбю.ЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ,\"№;:?";
function layout(text: string, from: string, to: string): string {
  const map = new Map([...from].map((c, n) => [c, [...to][n] as string]));
  return [...text].map((c) => map.get(c) ?? c).join("");
}

/** Latin transliteration back to Cyrillic (ICAO, GOST B and common informal spellings), longest match first. */
const BACK: [string, string][] = (
  [
    ["shch", "щ"], ["shh", "щ"], ["zh", "ж"], ["kh", "х"], ["ts", "ц"], ["cz", "ц"], ["ch", "ч"], ["sh", "ш"], ["yo", "ё"], ["yu", "ю"], ["ya", "я"], ["iu", "ю"], ["ia", "я"], ["ie", "ъе"],
    ["a", "а"], ["b", "б"], ["v", "в"], ["g", "г"], ["d", "д"], ["e", "е"], ["z", "з"], ["i", "и"], ["j", "й"], ["k", "к"], ["l", "л"], ["m", "м"], ["n", "н"], ["o", "о"], ["p", "п"], ["r", "р"],
    ["s", "с"], ["t", "т"], ["u", "у"], ["f", "ф"], ["x", "х"], ["h", "х"], ["c", "ц"], ["y", "ы"], ["w", "в"], ["q", "к"],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

function toCyrillic(text: string): string {
  let out = "";
  let n = 0;
  while (n < text.length) {
    const rest = text.slice(n);
    const hit = BACK.find(([lat]) => rest.toLowerCase().startsWith(lat));
    if (!hit) {
      out += text[n];
      n++;
      continue;
    }
    const src = rest.slice(0, hit[0].length);
    // "y" before a consonant or at a word's end after a vowel is й (Yandex → Яндекс would need a dictionary).
    let cyr = hit[1];
    if (hit[0] === "y" && /^[aeiou]$/i.test(text[n - 1] ?? "")) cyr = "й";
    out += src === src.toLowerCase() ? cyr : src === src.toUpperCase() && src.length > 1 ? cyr.toUpperCase() : cyr.charAt(0).toUpperCase() + cyr.slice(1);
    n += hit[0].length;
  }
  return out;
}

export function slugify(text: string, separator: string, maxLen?: number): string {
  const base = transliterate(text.toLowerCase(), "slug")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, separator)
    .split(separator)
    .filter(Boolean);
  let slug = base.join(separator);
  if (maxLen !== undefined && slug.length > maxLen) {
    // Cut at a word boundary when one is in reach.
    const cut = slug.slice(0, maxLen);
    const at = cut.lastIndexOf(separator);
    slug = at > maxLen / 2 ? cut.slice(0, at) : cut;
  }
  return slug;
}

export const transliterateUtility = defineUtility<Input>({
  id: "transliterate",
  group: "text",
  title: "Transliteration, slugs, layout fix",
  description:
    "Cyrillic ⇄ Latin by standard (ICAO Doc 9303 as in Russian passports, GOST 7.79-2000 B, ISO 9, BGN/PCGN). Slug mode makes friendly URLs (ЧПУ); layout mode fixes text typed in the wrong keyboard layout (ghbdtn → привет)",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text", required: true },
    { name: "mode", type: "sel", label: "Mode", options: ["translit", "slug", "layout_en_ru", "layout_ru_en", "to_cyrillic"], default: "translit" },
    { name: "standard", type: "sel", label: "Standard", options: ["icao", "gost_b", "iso9", "bgn"], default: "icao" },
    { name: "separator", type: "str", label: "Slug separator", default: "-", max: 3 },
    { name: "max_len", type: "int", label: "Slug length at most", min: 1, max: 2000 },
  ],
  example: { text: "Щербаков Юрий Александрович", mode: "translit", standard: "icao" },
  run(i) {
    const text =
      i.mode === "slug"
        ? slugify(i.text, i.separator, i.max_len)
        : i.mode === "layout_en_ru"
          ? layout(i.text, EN_KEYS, RU_KEYS)
          : i.mode === "layout_ru_en"
            ? layout(i.text, RU_KEYS, EN_KEYS)
            : i.mode === "to_cyrillic"
              ? toCyrillic(i.text)
              : transliterate(i.text, i.standard);
    return { result: { text }, blocks: { code: [{ lang: "text", text }] } };
  },
});
