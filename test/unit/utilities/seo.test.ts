import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readZipEntry, zipEntries } from "../../../utilities/shared/zip.ts";
import { refusal, run, runExample } from "./run.ts";

describe("seo utilities (offline)", () => {
  it("serp_preview measures in Arial pixels and cuts the title at 512 px", async () => {
    const out = await runExample("serp_preview");
    expect(out.result).toEqual({
      title: { px: 886.3, max_px: 512, shown: "Купить угловой диван в Москве недорого — цены ...", truncated: true },
      description: {
        px: 1061.6,
        max_px: 920,
        shown: "Угловые диваны от фабрики с доставкой по Москве за 1 день. Более 500 моделей в наличии, рассрочка 0 %, гарантия 3 года. Закажите ...",
        truncated: true,
      },
      breadcrumb: "https://mebelpro.ru › divany › uglovye",
      keyword_in: { title: true, description: true, url: false },
    });
    // Arial's widths: «ж» 66.9 and «ш» 80.2 per 100 px of font size.
    expect((await run("serp_preview", { title: "жш" })).result.title).toEqual({ px: 29.4, max_px: 512, shown: "жш", truncated: false });
    expect(await refusal("serp_preview", { title: "x".repeat(301) })).toMatchObject({ code: "bad_param", field: "input.title" });
  });

  it("meta_tags_generator escapes values and warns about what is missing", async () => {
    const out = await runExample("meta_tags_generator");
    expect(out.result.html).toBe(
      [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>Угловые диваны — МебельПро</title>",
        '<meta name="description" content="Угловые диваны от фабрики с доставкой за 1 день.">',
        '<link rel="canonical" href="https://mebelpro.ru/divany/uglovye/">',
        '<meta name="robots" content="max-image-preview:large">',
        '<meta property="og:type" content="website">',
        '<meta property="og:title" content="Угловые диваны — МебельПро">',
        '<meta property="og:description" content="Угловые диваны от фабрики с доставкой за 1 день.">',
        '<meta property="og:url" content="https://mebelpro.ru/divany/uglovye/">',
        '<meta property="og:image" content="https://mebelpro.ru/og/uglovye.jpg">',
        '<meta property="og:site_name" content="МебельПро">',
        '<meta property="og:locale" content="ru_RU">',
        '<meta name="twitter:card" content="summary_large_image">',
      ].join("\n"),
    );
    expect(out.warnings).toEqual([{ code: "description_length", text: "the description has 48 characters; 70-160 is the usual range" }]);
    expect(((await run("meta_tags_generator", { title: "A & B <x>" })).result.html as string).split("\n")[2]).toBe("<title>A &amp; B &lt;x&gt;</title>");
    expect(await refusal("meta_tags_generator", { title: "x", type: "blog" })).toMatchObject({ code: "bad_param", field: "input.type" });
  });

  it("robots_txt_generator combines a preset, an AI policy, Clean-param and sitemaps", async () => {
    const out = await runExample("robots_txt_generator");
    expect(out.result.text).toBe(
      "User-agent: *\nDisallow: /wp-admin/\nDisallow: /wp-login.php\nDisallow: /?s=\nDisallow: /search/\nDisallow: /*?replytocom=\nDisallow: /cart/\n" +
        "Allow: /wp-admin/admin-ajax.php\nAllow: /wp-content/uploads/\nClean-param: utm_source&utm_medium&utm_campaign\n\n" +
        "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: Google-Extended\nUser-agent: CCBot\nUser-agent: Applebot-Extended\nUser-agent: Bytespider\nUser-agent: meta-externalagent\nDisallow: /\n\n" +
        "Sitemap: https://example.com/sitemap.xml\n",
    );
    expect(out.warnings).toEqual([]);
    const lint = await run("robots_txt_generator", { disallow: ["admin", "/"] });
    expect(lint.warnings.map((w) => w.code)).toEqual(["path", "blocks_all", "sitemap_missing"]);
    expect(await refusal("robots_txt_generator", { preset: "tilda" })).toMatchObject({ code: "bad_param", field: "input.preset" });
  });

  it("sitemap_generator resolves relative rows, escapes URLs and packs the files", async () => {
    const out = await runExample("sitemap_generator");
    expect(out.result).toMatchObject({ files: [{ name: "sitemap.xml", urls: 3, bytes: 510 }], urls: 3, mime: "application/zip", file_name: "sitemap.zip" });
    const zip = Buffer.from(out.result.data_base64 as string, "base64");
    const [entry] = zipEntries(zip);
    const xml = readZipEntry(zip, entry!).toString("utf8");
    expect(xml).toContain("<loc>https://example.com/catalog/divany?sort=price&amp;page=2</loc>");
    expect(xml).toContain("<url>\n    <loc>https://example.com/catalog/</loc>\n    <lastmod>2024-04-20</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>0.8</priority>\n  </url>");
    // 50,001 URLs: two files and an index, gzipped.
    const many = await run("sitemap_generator", { urls: Array.from({ length: 50_001 }, (_, n) => `/p/${n}`), base: "https://big.example/" });
    expect(many.result.files).toEqual([
      { name: "sitemap.xml", urls: 0, bytes: 276 },
      { name: "sitemap-1.xml", urls: 50000, bytes: 2_989_000 },
      { name: "sitemap-2.xml", urls: 1, bytes: 170 },
    ]);
    const bigZip = Buffer.from(many.result.data_base64 as string, "base64");
    const names = zipEntries(bigZip).map((e) => e.name);
    expect(names).toEqual(["sitemap.xml", "sitemap-1.xml.gz", "sitemap-2.xml.gz"]);
    expect(gunzipSync(readZipEntry(bigZip, zipEntries(bigZip)[2]!)).toString()).toContain("<loc>https://big.example/p/50000</loc>");
    expect(await refusal("sitemap_generator", { urls: ["not a url"] })).toMatchObject({ code: "tool_failed" });
  });

  it("schema_generator expands FAQ shorthands and lists missing properties", async () => {
    const out = await runExample("schema_generator");
    expect(out.result).toEqual({
      jsonld: {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: [
          { "@type": "Question", name: "Сколько стоит доставка?", acceptedAnswer: { "@type": "Answer", text: "Доставка по Москве бесплатная." } },
          { "@type": "Question", name: "Есть ли рассрочка?", acceptedAnswer: { "@type": "Answer", text: "Да, на 12 месяцев без переплаты." } },
        ],
      },
      missing_required: [],
      missing_recommended: [],
    });
    const product = await run("schema_generator", { type: "Product", fields: { name: "Диван", price: 19990, brand: "МебельПро" } });
    expect(product.result.jsonld).toMatchObject({ offers: { "@type": "Offer", price: 19990, priceCurrency: "RUB", availability: "https://schema.org/InStock" }, brand: { "@type": "Brand", name: "МебельПро" } });
    expect(product.result.missing_recommended).toEqual(["image", "description", "sku", "aggregateRating", "review"]);
    expect((await run("schema_generator", { type: "Event", fields: { name: "X" } })).result.missing_required).toEqual(["startDate", "location"]);
    expect(await refusal("schema_generator", { type: "Recipe", fields: {} })).toMatchObject({ code: "bad_param", field: "input.type" });
  });

  it("hreflang_generator writes link tags and sitemap entries and refuses en-UK", async () => {
    const out = await runExample("hreflang_generator");
    expect((out.result.per_format as Record<string, string>).html).toBe(
      '<link rel="alternate" hreflang="ru" href="https://example.com/ru/">\n<link rel="alternate" hreflang="en-GB" href="https://example.com/uk/">\n' +
        '<link rel="alternate" hreflang="en-US" href="https://example.com/us/">\n<link rel="alternate" hreflang="x-default" href="https://example.com/">',
    );
    expect(((out.result.per_format as Record<string, string>).sitemap!.match(/<url>/g) ?? []).length).toBe(3);
    expect(await refusal("hreflang_generator", { pages: ["en-UK https://a.com/"] })).toEqual({ code: "bad_param", field: "input.pages", message: 'input.pages: "en-UK": the United Kingdom is GB, write en-GB' });
    expect((await refusal("hreflang_generator", { pages: ["jp https://a.com/"] })).message).toBe('input.pages: "jp" is not a language code; did you mean ja (Japanese)?');
  });

  it("utm_builder tags with Yandex Direct macros and explains a tagged URL", async () => {
    expect((await runExample("utm_builder")).result.rows).toEqual([
      { url: "https://example.com/sale/", tagged: "https://example.com/sale/?utm_source=yandex&utm_medium=cpc&utm_campaign=spring_sale&utm_content={ad_id}&utm_term={keyword}" },
    ]);
    expect((await run("utm_builder", { url: "https://ex.com/?utm_source=ya&yclid=5&id=1", mode: "parse" })).result.params).toEqual([
      { name: "utm_source", value: "ya", meaning: "where the visitor came from" },
      { name: "yclid", value: "5", meaning: "Yandex Direct click id" },
      { name: "id", value: "1", meaning: "page parameter" },
    ]);
    expect(await refusal("utm_builder", { url: "https://ex.com/", source: "x" })).toMatchObject({ code: "bad_param", field: "input.medium" });
  });

  it("redirect_rules writes .htaccess rules and finds chains and loops", async () => {
    const out = await runExample("redirect_rules");
    expect(out.result.config).toBe(
      "RewriteEngine On\n\nRewriteCond %{HTTPS} off\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]\n\nRewriteRule ^old-page\\.html$ /new-page/ [R=301,L]\n\n" +
        "RewriteCond %{QUERY_STRING} ^id=5$\nRewriteRule ^catalog\\.php$ /catalog/divany/? [R=301,L]\n\nRewriteRule ^a$ /b [R=301,L]\n\nRewriteRule ^b$ /c [R=301,L]\n",
    );
    expect(out.result.issues).toEqual([{ code: "chain", text: "/a takes 2 hops; point it straight at /c" }]);
    const loop = await run("redirect_rules", { pairs: ["/a /b", "/b /a"], server: "nginx" });
    expect(loop.result.config).toBe("# inside the server { } block\nlocation = /a { return 301 /b; }\nlocation = /b { return 301 /a; }\n");
    expect((loop.result.issues as { code: string }[]).map((x) => x.code)).toEqual(["loop", "loop"]);
    expect(await refusal("redirect_rules", { server: "apache", presets: ["www"] })).toMatchObject({ code: "bad_param", field: "input.host" });
  });

  it("keyword_combiner multiplies lists with Google match types", async () => {
    expect((await runExample("keyword_combiner")).result).toEqual({
      phrases: [
        '"купить диван в москве"',
        '"купить угловой диван в москве"',
        '"заказать диван в москве"',
        '"заказать угловой диван в москве"',
        "[купить диван в москве]",
        "[купить угловой диван в москве]",
        "[заказать диван в москве]",
        "[заказать угловой диван в москве]",
      ],
      count: 8,
    });
    expect((await run("keyword_combiner", { list1: ["купить"], list2: ["диван"], operators: "yandex", match_types: ["fixed_forms"] })).result.phrases).toEqual(["!купить !диван"]);
    expect(await refusal("keyword_combiner", { list1: ["a"] })).toMatchObject({ code: "bad_param", field: "input.list2" });
  });

  it("keyword_grouping groups by subject stem, finds word-order duplicates and cross-negatives", async () => {
    expect((await runExample("keyword_grouping")).result).toEqual({
      groups: [
        { name: "диван", keywords: ["купить диван", "угловой диван", "купить угловой диван"] },
        { name: "кресло", keywords: ["кресло мешок", "купить кресло мешок"] },
      ],
      ungrouped: ["ремонт холодильника"],
      duplicates: [{ keyword: "диван купить", same_as: "купить диван" }],
      negatives: [
        { keyword: "купить диван", negatives: ["-угловой"] },
        { keyword: "угловой диван", negatives: ["-купить"] },
        { keyword: "кресло мешок", negatives: ["-купить"] },
      ],
    });
    expect(await refusal("keyword_grouping", { keywords: ["a"], min_group: 0 })).toMatchObject({ code: "bad_param", field: "input.min_group" });
  });

  it("llms_txt_generator builds sections of links and lints a file", async () => {
    const out = await runExample("llms_txt_generator");
    expect(out.result).toEqual({
      text:
        "# МебельПро\n\n> Интернет-магазин мебели: диваны, кресла и шкафы с доставкой по Москве.\n\n## Каталог\n\n- [Диваны](https://mebelpro.ru/divany/): все модели с ценами\n" +
        "- [Кресла](https://mebelpro.ru/kresla/)\n\n## Покупателям\n\n- [Доставка](https://mebelpro.ru/dostavka/): сроки и стоимость\n",
      problems: [],
      sections: 2,
      links: 3,
    });
    const lint = await run("llms_txt_generator", { mode: "validate", text: "Intro\n# Site\n- [a](/x)\n### Deep" });
    expect(lint.result.problems).toEqual([
      { line: 1, problem: "the file must start with an H1: # Name" },
      { line: 2, problem: "only one H1 is allowed" },
      { line: 3, problem: "the link /x is not an absolute URL" },
      { line: 3, problem: "links belong under a ## section" },
      { line: 4, problem: "sections are H2 (##); deeper headings are not part of the format" },
    ]);
    expect(await refusal("llms_txt_generator", { mode: "validate" })).toMatchObject({ code: "bad_param", field: "input.text" });
  });

  it("security_txt_generator writes RFC 9116 fields with Expires from the injected clock, and validates", async () => {
    const out = await runExample("security_txt_generator");
    expect(out.result.text).toBe(
      "Contact: mailto:security@example.com\nContact: https://example.com/security\nExpires: 2027-05-21T10:00:00Z\nPreferred-Languages: ru, en\nCanonical: https://example.com/.well-known/security.txt\n",
    );
    expect(out.result.valid).toBe(true);
    const bad = await run("security_txt_generator", { mode: "validate", text: "Contact: security@example.com\nExpires: 2020-01-01T00:00:00Z\n" });
    expect(bad.result).toMatchObject({ valid: false });
    expect((bad.result.fields as { note: string }[]).map((f) => f.note)).toEqual(["a Contact is a mailto:, https:// or tel: URI", "expired: the file must not be trusted"]);
    expect(await refusal("security_txt_generator", { contacts: ["ftp://x"] })).toMatchObject({ code: "bad_param", field: "input.contacts" });
  });
});
