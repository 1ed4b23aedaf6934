import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHECKS } from "../../analyzer/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// GET /explain and GET /explain/{code} (spec "Explain"; issue 4 §1, §3).

let gw: TestGateway;
beforeAll(async () => {
  // Every code is explained once below: more requests than a new key's default hourly limit (120).
  gw = await startTestGateway({ env: { SVC_RATE_PER_HOUR: "1000" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const HSTS_PLAIN_RU = {
  name: "Браузеру велено всегда использовать HTTPS",
  what: "Специальный заголовок просит браузер больше никогда не открывать сайт без шифрования.",
  why: "Без него первый заход по http:// можно перехватить в публичной сети Wi-Fi.",
  benefit: "Защита посетителей от подмены сайта в чужих сетях.",
  effort: "минут 10: одна строка заголовка в конфигурации сервера",
  who: "администратор веб-сервера, настраивающий заголовки",
};

// The guide is Russian whatever lang says; its address is the request's origin (no SVC_PUBLIC_BASE_URL here).
const HSTS_GUIDE = {
  id: "https-and-tls",
  title: "HTTPS и TLS: сертификат, протоколы, переадресация и HSTS",
  url: "http://svc.example.net/guides/https-and-tls#hsts",
};

describe("GET /explain", () => {
  it("lists every catalogued check in catalogue order, with a hint and a guide, paged", async () => {
    const first = await gw.call("GET", "/api/v1/explain");
    expect(first.statusCode).toBe(200);
    const body = first.json();
    // 119 checks: the default pages of 50 hold the first 50, the next 50 and the last 19.
    const all = CHECKS.map((c) => ({ code: c.code, has_hint: true, has_guide: true }));
    expect(all).toHaveLength(119);
    expect(body.page).toEqual({ limit: 50, offset: 0, total: 119, next_offset: 50 });
    expect(body.codes).toEqual(all.slice(0, 50));
    const second = (await gw.call("GET", "/api/v1/explain?offset=50")).json();
    expect(second.page).toEqual({ limit: 50, offset: 50, total: 119, next_offset: 100 });
    const rest = (await gw.call("GET", "/api/v1/explain?offset=100")).json();
    expect(rest.page).toEqual({ limit: 50, offset: 100, total: 119, next_offset: null });
    expect([...body.codes, ...second.codes, ...rest.codes]).toEqual(all);

    // The catalogue ends with the presentation group (mobile, international, structured data, social).
    const paged = (await gw.call("GET", "/api/v1/explain?limit=20&offset=100")).json();
    expect(paged.page).toEqual({ limit: 20, offset: 100, total: 119, next_offset: null });
    expect(paged.codes.map((c: { code: string }) => c.code)).toEqual([
      "viewport",
      "pwa_manifest",
      "pwa_icons",
      "html_lang",
      "hreflang_codes",
      "hreflang_return",
      "hreflang_self",
      "hreflang_x_default",
      "hreflang_lang_mismatch",
      "jsonld_syntax",
      "schema_required",
      "schema_core_types",
      "schema_breadcrumbs",
      "og_required",
      "og_image",
      "og_url_match",
      "og_description",
      "twitter_card",
      "social_profiles",
    ]);
    const head = (await gw.call("GET", "/api/v1/explain?limit=2")).json();
    expect(head).toEqual({
      codes: [
        { code: "robots_txt_fetch", has_hint: true, has_guide: true },
        { code: "robots_txt_syntax", has_hint: true, has_guide: true },
      ],
      page: { limit: 2, offset: 0, total: 119, next_offset: 2 },
    });

    const tooBig = await gw.call("GET", "/api/v1/explain?limit=201");
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toMatchObject({ code: "bad_param", param: "limit" });
  });
});

describe("GET /explain/{code}", () => {
  it("answers Russian texts by default, with the absolute address of the check's guide section", async () => {
    const res = await gw.call("GET", "/api/v1/explain/hsts", { headers: { host: "svc.example.net" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: "hsts",
      hint: {
        what: "Читает заголовок Strict-Transport-Security главной страницы, отданной по HTTPS.",
        good: "Заголовок есть и max-age не меньше 31 536 000 секунд (год); includeSubDomains и preload желательны, но не обязательны.",
        bad: "Заголовка нет — провал; max-age меньше года — половинный провал.",
        glossary: ["HSTS — указание браузеру открывать сайт только по HTTPS", "max-age — сколько секунд браузер помнит это указание"],
      },
      plain: HSTS_PLAIN_RU,
      guide: HSTS_GUIDE,
    });
    expect((await gw.call("GET", "/api/v1/explain/hsts?lang=ru", { headers: { host: "svc.example.net" } })).json()).toEqual(res.json());
  });

  it("answers the hint in English with lang=en; plain stays Russian where no English text exists", async () => {
    const res = await gw.call("GET", "/api/v1/explain/hsts?lang=en", { headers: { host: "svc.example.net" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: "hsts",
      hint: {
        what: "Reads the Strict-Transport-Security header of the home page served over HTTPS.",
        good: "The header is present with max-age of at least 31,536,000 seconds (a year); includeSubDomains and preload are advised but not required.",
        bad: "No header is a failure; max-age under a year is a half failure.",
        glossary: ["HSTS — tells the browser to open the site over HTTPS only", "max-age — how many seconds the browser remembers that instruction"],
      },
      plain: HSTS_PLAIN_RU,
      guide: HSTS_GUIDE,
    });
  });

  it("explains every code of the list", async () => {
    for (const c of CHECKS) {
      const res = await gw.call("GET", `/api/v1/explain/${c.code}?lang=en`);
      expect(res.statusCode, c.code).toBe(200);
      expect(res.json().code).toBe(c.code);
    }
  });

  it("answers not_found for an unknown code and bad_param for an unknown language", async () => {
    const unknown = await gw.call("GET", "/api/v1/explain/no_such_check");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "not_found" });
    const proto = await gw.call("GET", "/api/v1/explain/toString");
    expect(proto.statusCode).toBe(404);
    const de = await gw.call("GET", "/api/v1/explain/hsts?lang=de");
    expect(de.statusCode).toBe(400);
    expect(de.json()).toMatchObject({ code: "bad_param", param: "lang" });
  });
});
