import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  url?: string;
  urls?: string[];
  mode: "build" | "parse";
  preset: Preset;
  source?: string;
  medium?: string;
  campaign?: string;
  content?: string;
  term?: string;
}

type Preset = "none" | "yandex_direct" | "google_ads" | "vk_ads" | "telegram_ads" | "email";

/** Each ad system's dynamic parameters, substituted by the system at click time. */
const PRESETS: Record<Exclude<Preset, "none">, Record<string, string>> = {
  yandex_direct: { utm_source: "yandex", utm_medium: "cpc", utm_campaign: "{campaign_id}", utm_content: "{ad_id}", utm_term: "{keyword}" },
  google_ads: { utm_source: "google", utm_medium: "cpc", utm_campaign: "{campaignid}", utm_content: "{creative}", utm_term: "{keyword}" },
  vk_ads: { utm_source: "vk", utm_medium: "cpc", utm_campaign: "{{campaign_id}}", utm_content: "{{banner_id}}" },
  telegram_ads: { utm_source: "telegram", utm_medium: "cpc" },
  email: { utm_source: "newsletter", utm_medium: "email" },
};
const UTM = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"];
const MEANING: Record<string, string> = {
  utm_source: "where the visitor came from",
  utm_medium: "channel type",
  utm_campaign: "campaign",
  utm_content: "ad or link variant",
  utm_term: "keyword",
  gclid: "Google Ads click id",
  yclid: "Yandex Direct click id",
  fbclid: "Facebook click id",
};

function tag(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  // Ad systems substitute {macros} literally: keep the braces unescaped.
  return u.href.replace(/%7B/gi, "{").replace(/%7D/gi, "}");
}

export const utmBuilder = defineUtility<Input>({
  id: "utm_builder",
  group: "seo",
  title: "UTM link builder & parser",
  description:
    "Builds campaign URLs with presets for Yandex Direct, Google Ads, VK Ads, Telegram Ads and e-mail, including their dynamic parameters ({keyword}, {campaign_id}, {ad_id}…), in bulk over URL lists. Parse mode explains an already tagged URL",
  net: false,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL" },
    { name: "urls", type: "list", label: "URLs (bulk)", max: 1000 },
    { name: "mode", type: "sel", label: "Mode", options: ["build", "parse"], default: "build" },
    { name: "preset", type: "sel", label: "Preset", options: ["none", ...Object.keys(PRESETS)], default: "none" },
    { name: "source", type: "str", label: "utm_source", max: 200 },
    { name: "medium", type: "str", label: "utm_medium", max: 200 },
    { name: "campaign", type: "str", label: "utm_campaign", max: 200 },
    { name: "content", type: "str", label: "utm_content", max: 200 },
    { name: "term", type: "str", label: "utm_term", max: 200 },
  ],
  oneOf: [["url", "urls"]],
  example: { url: "https://example.com/sale/", preset: "yandex_direct", campaign: "spring_sale" },
  run(i) {
    const urls = i.urls ?? [i.url as string];
    if (i.mode === "parse") {
      const u = new URL(urls[0] as string);
      const params = [...u.searchParams].map(([name, value]) => ({ name, value, meaning: MEANING[name] ?? (name.startsWith("utm_") ? "custom UTM tag" : "page parameter") }));
      return { result: { params }, blocks: { tables: [{ title: "Parameters", columns: ["name", "value", "meaning"], rows: params.map((p) => [p.name, p.value, p.meaning]) }] } };
    }
    const params: Record<string, string> = i.preset === "none" ? {} : { ...PRESETS[i.preset] };
    const own: Record<string, string | undefined> = { utm_source: i.source, utm_medium: i.medium, utm_campaign: i.campaign, utm_content: i.content, utm_term: i.term };
    for (const [k, v] of Object.entries(own)) if (v !== undefined) params[k] = v;
    for (const k of ["utm_source", "utm_medium", "utm_campaign"]) {
      if (!params[k]) throw new UtilityError("bad_param", `input.${k.slice(4)} is required (or a preset that sets ${k})`, `input.${k.slice(4)}`);
    }
    const ordered = Object.fromEntries(UTM.filter((k) => params[k] !== undefined).map((k) => [k, params[k] as string]));
    const rows = urls.map((url) => {
      try {
        return { url, tagged: tag(url, ordered) };
      } catch {
        throw new UtilityError("bad_param", `input.urls has "${url}", not an absolute URL`, "input.urls");
      }
    });
    return { result: { rows }, blocks: { tables: [{ title: "Tagged links", columns: ["url", "tagged"], rows: rows.map((r) => [r.url, r.tagged]) }], code: [{ lang: "text", text: rows.map((r) => r.tagged).join("\n") }] } };
  },
});
