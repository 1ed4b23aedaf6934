import { isIP } from "node:net";
import type { CountryCode, findNumbers as FindNumbers } from "libphonenumber-js";
import { parse as parseDomain } from "tldts";
import { UtilityError, defineUtility } from "../utility.ts";

const KINDS = ["emails", "urls", "domains", "phones", "ips", "hashtags", "mentions", "numbers"] as const;
type Kind = (typeof KINDS)[number];

interface Input {
  text: string;
  kinds: Kind[];
  unique: boolean;
  region: string;
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"'()]+[^\s<>"'().,;:!?]/giu;
const DOMAIN = /(?<![@\p{L}\p{N}.-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,63}(?![\p{L}\p{N}-])/gu;
const IP = /(?<![\d.:A-Fa-f])(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Fa-f0-9]{0,4}(?::[A-Fa-f0-9]{0,4}){2,7})(?![\d.:A-Fa-f])/g;
const HASHTAG = /(?<![\p{L}\p{N}&])#[\p{L}\p{N}_]+/gu;
const MENTION = /(?<![\p{L}\p{N}.@])@[A-Za-z0-9_]{2,}/gu;
const NUMBER = /(?<![\p{L}\p{N}.,])[-+]?\d+(?:[.,]\d+)?(?![\p{L}\p{N}])/gu;

function all(text: string, re: RegExp): string[] {
  return text.match(re) ?? [];
}

/** Values of a kind found in the text, normalised so that duplicates compare equal. */
function extract(kind: Kind, text: string, region: CountryCode, findNumbers: typeof FindNumbers): string[] {
  switch (kind) {
    case "emails":
      return all(text, EMAIL).map((e) => e.toLowerCase());
    case "urls":
      return all(text, URL_RE).map((u) => (u.toLowerCase().startsWith("www.") ? `https://${u}` : u));
    case "domains":
      return all(text.replace(EMAIL, " "), DOMAIN)
        .map((d) => d.toLowerCase())
        .filter((d) => parseDomain(d).isIcann === true && !/^\d/.test(parseDomain(d).publicSuffix ?? "0"));
    case "phones":
      return findNumbers(text, { defaultCountry: region, v2: true }).map((n) => n.number.number);
    case "ips":
      return all(text, IP).filter((ip) => isIP(ip) !== 0);
    case "hashtags":
      return all(text, HASHTAG);
    case "mentions":
      return all(text, MENTION);
    case "numbers":
      return all(text.replace(EMAIL, " ").replace(URL_RE, " ").replace(IP, (ip) => (isIP(ip) === 0 ? ip : " ")), NUMBER).map((n) => n.replace(",", "."));
  }
}

export const extractData = defineUtility<Input>({
  id: "extract_data",
  group: "text",
  title: "E-mail / URL / phone extractor",
  description:
    "Pulls e-mails, URLs, domains, phone numbers (normalised to +E.164), IPs, hashtags, @mentions and numbers out of text or HTML, then removes duplicates, counts and sorts them",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text or HTML", required: true },
    { name: "kinds", type: "multi", label: "What to extract", options: KINDS, default: ["emails", "urls", "phones"] },
    { name: "unique", type: "bool", label: "Remove duplicates (with counts)", default: true },
    { name: "region", type: "str", label: "Country of phone numbers without a +code (ISO 3166-1)", default: "RU", max: 2 },
  ],
  example: {
    text: 'Пишите на Sales@Example.com или sales@example.com, звоните +7 (495) 123-45-67 или 8 800 555-35-35. Сайт: https://example.com/contacts и <a href="mailto:help@example.org">помощь</a>.',
    kinds: ["emails", "urls", "phones"],
  },
  async run(i) {
    const { findNumbers } = await import("libphonenumber-js");
    const region = i.region.toUpperCase();
    if (!/^[A-Z]{2}$/.test(region)) throw new UtilityError("bad_param", "input.region takes a two-letter country code such as RU", "input.region");
    const items: { kind: Kind; value: string; count: number }[] = [];
    for (const kind of i.kinds) {
      const found = extract(kind, i.text, region as CountryCode, findNumbers);
      if (!i.unique) {
        for (const value of found) items.push({ kind, value, count: 1 });
        continue;
      }
      const counts = new Map<string, number>();
      for (const v of found) counts.set(v, (counts.get(v) ?? 0) + 1);
      const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      for (const [value, count] of sorted) items.push({ kind, value, count });
    }
    const text = items.map((x) => x.value).join("\n");
    return {
      result: { items, counts: Object.fromEntries(i.kinds.map((k) => [k, items.filter((x) => x.kind === k).length])) },
      blocks: { tables: [{ title: "Found", columns: ["kind", "value", "count"], rows: items.map((x) => [x.kind, x.value, x.count]) }], code: [{ lang: "text", text }] },
    };
  },
});
