import { defineUtility } from "../utility.ts";
import { stemOf } from "../shared/lemmas.ts";
import { wordsOf } from "../shared/words.ts";
import { textWidthPx, truncateToPx } from "../shared/text-width.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  title: string;
  description?: string;
  url?: string;
  keyword?: string;
  device: "desktop" | "mobile";
}

/** Google's snippet: title 20 px Arial cut near 600 px (512 px is the report's title_length limit), description 14 px over two (desktop) or three (mobile) lines. */
const TITLE_PX = 20;
const TITLE_MAX_PX = 512;
const DESC_PX = 14;
const DESC_MAX_PX = { desktop: 920, mobile: 680 };

function containsKeyword(text: string, keyword: string): boolean {
  const want = wordsOf(keyword).map(stemOf);
  const have = new Set(wordsOf(text).map(stemOf));
  return want.length > 0 && want.every((s) => have.has(s));
}

function breadcrumb(url: string): string {
  const u = new URL(url);
  const parts = u.pathname.split("/").filter(Boolean).map((p) => decodeURIComponent(p));
  return [`${u.protocol}//${u.hostname}`, ...parts].join(" › ");
}

export const serpPreview = defineUtility<Input>({
  id: "serp_preview",
  group: "seo",
  title: "SERP snippet preview",
  description:
    "Preview of the Google/Yandex snippet. Measures the title and description in pixels with Arial metrics (title limit 512 px at 20 px, the report's title_length constant; description about 920 px on desktop, 680 px on mobile), shows the truncated text, the URL breadcrumb and whether the keyword appears",
  net: false,
  file: false,
  fields: [
    { name: "title", type: "str", label: "Title", required: true, max: 300 },
    { name: "description", type: "str", label: "Meta description", max: 1000 },
    { name: "url", type: "url", label: "URL" },
    { name: "keyword", type: "str", label: "Keyword", max: 200 },
    { name: "device", type: "sel", label: "Device", options: ["desktop", "mobile"], default: "desktop" },
  ],
  example: {
    title: "Купить угловой диван в Москве недорого — цены от 19 990 ₽ в интернет-магазине МебельПро",
    description: "Угловые диваны от фабрики с доставкой по Москве за 1 день. Более 500 моделей в наличии, рассрочка 0 %, гарантия 3 года. Закажите онлайн или по телефону.",
    url: "https://mebelpro.ru/divany/uglovye/",
    keyword: "угловой диван",
    device: "desktop",
  },
  run(i) {
    const titlePx = textWidthPx(i.title, TITLE_PX);
    const title = { px: round(titlePx, 1), max_px: TITLE_MAX_PX, ...truncateToPx(i.title, TITLE_MAX_PX, TITLE_PX) };
    const descMax = DESC_MAX_PX[i.device];
    const description = i.description === undefined ? null : { px: round(textWidthPx(i.description, DESC_PX), 1), max_px: descMax, ...truncateToPx(i.description, descMax, DESC_PX) };
    const crumbs = i.url === undefined ? null : breadcrumb(i.url);
    const keywordIn =
      i.keyword === undefined
        ? null
        : { title: containsKeyword(i.title, i.keyword), description: i.description === undefined ? false : containsKeyword(i.description, i.keyword), url: i.url === undefined ? false : i.url.toLowerCase().includes(i.keyword.toLowerCase().replace(/\s+/g, "-")) };
    return {
      result: { title, description, breadcrumb: crumbs, keyword_in: keywordIn },
      blocks: {
        comparison: [
          { before: i.title, after: title.shown, mode: "text" },
          ...(description && i.description ? [{ before: i.description, after: description.shown, mode: "text" as const }] : []),
        ],
        pairs: [
          { label: "Title width", value: `${title.px} px of ${TITLE_MAX_PX}`, status: title.truncated ? "warn" : "good" },
          ...(description ? [{ label: "Description width", value: `${description.px} px of ${descMax}`, status: description.truncated ? ("warn" as const) : ("good" as const) }] : []),
          ...(crumbs ? [{ label: "Shown URL", value: crumbs }] : []),
          ...(keywordIn ? [{ label: "Keyword in title", value: keywordIn.title ? "yes" : "no", status: keywordIn.title ? ("good" as const) : ("warn" as const) }] : []),
        ],
      },
    };
  },
});
