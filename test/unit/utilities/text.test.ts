import { describe, expect, it } from "vitest";
import { bombDocx } from "./docx.ts";
import { refusal, run, runExample } from "./run.ts";

describe("text utilities", () => {
  it("text_stats counts its example exactly", async () => {
    const out = await runExample("text_stats");
    expect(out.result).toEqual({
      chars: 46,
      chars_no_spaces: 39,
      words: 7,
      unique_words: 7,
      sentences: 3,
      paragraphs: 2,
      lines: 3,
      read_s: 2,
      speak_s: 3,
      author_sheets: 0.001,
      limits: [
        { name: "title", max: 60, fits: true },
        { name: "description", max: 160, fits: true },
        { name: "sms_cyrillic", max: 70, fits: true },
        { name: "sms_latin", max: 160, fits: true },
        { name: "post", max: 280, fits: true },
      ],
    });
    expect(await refusal("text_stats", { text: 42 })).toMatchObject({ code: "bad_param", field: "input.text" });
  });

  it("docx_to_text keeps the example's heading, link, list and table", async () => {
    const out = await runExample("docx_to_text");
    expect(out.result.text).toBe("# Отчёт\n\nСмотрите [сайт](https://example.com/?a=1&b=2).\n\n- Первый пункт\n- Второй пункт\n\n| Код | Цена |\n| --- | --- |\n| A1 | 100 |");
    expect(out.result).toMatchObject({ words: 11, images: 0 });
    const html = await run("docx_to_text", { file: (await import("../../../utilities/text/docx-example.ts")).exampleDocx().toString("base64"), to: "html" });
    expect(html.result.text).toBe(
      '<h1>Отчёт</h1>\n<p>Смотрите <a href="https://example.com/?a=1&amp;b=2">сайт</a>.</p>\n<ul>\n<li>Первый пункт</li>\n<li>Второй пункт</li>\n</ul>\n<table><tr><td>Код</td><td>Цена</td></tr><tr><td>A1</td><td>100</td></tr></table>',
    );
  });

  it("docx_to_text refuses a PNG as bad_param and decompression bombs as tool_failed", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    expect(await refusal("docx_to_text", { file: png })).toMatchObject({ code: "bad_param", field: "input.file" });
    // Honest about its 60 MB: refused before anything is inflated.
    expect((await refusal("docx_to_text", { file: bombDocx(60 * 1024 * 1024).toString("base64") })).message).toBe(
      "the archive unpacks to 62914568 bytes; at most 52428800 (a decompression bomb?)",
    );
    // Declaring 1,000 bytes while holding 20 MB: inflating stops at the declared size.
    expect(await refusal("docx_to_text", { file: bombDocx(20 * 1024 * 1024, 1000).toString("base64") })).toEqual({
      code: "tool_failed",
      message: "the archive entry word/document.xml unpacks to more than the 1000 bytes it declares (a decompression bomb?)",
    });
  });

  it("text_analysis measures water, nausea and phrase density by stem", async () => {
    const out = await runExample("text_analysis");
    expect(out.result).toMatchObject({ language: "ru", words: 20, water_pct: 35, nausea: { classic: 2, academic: 20 } });
    expect((out.result.top as unknown[]).slice(0, 3)).toEqual([
      { phrase: "двери", n: 1, count: 4, density_pct: 20 },
      { phrase: "межкомнатные", n: 1, count: 3, density_pct: 15 },
      { phrase: "установка", n: 1, count: 2, density_pct: 10 },
    ]);
    expect((out.result.top as { n: number }[]).filter((t) => t.n === 2)).toEqual([{ phrase: "межкомнатные двери", n: 2, count: 3, density_pct: 30 }]);
    // "межкомнатная дверь" matches every form of the pair by stem.
    expect(out.result.keywords).toEqual([
      { keyword: "межкомнатная дверь", count: 3, density_pct: 30 },
      { keyword: "установка дверей", count: 0, density_pct: 0 },
    ]);
    expect(out.warnings).toEqual([
      { code: "stuffing", text: '"двери" makes 20 % of the words (over 3 %)' },
      { code: "stuffing", text: '"межкомнатные" makes 15 % of the words (over 3 %)' },
    ]);
    expect(await refusal("text_analysis", { text: "x", ngrams: ["4"] })).toMatchObject({ code: "bad_param", field: "input.ngrams" });
  });

  it("readability gives the Flesch family for English and Oborneva's for Russian", async () => {
    const out = await runExample("readability");
    expect(out.result).toMatchObject({
      language: "en",
      sentences: 3,
      words: 26,
      syllables: 41,
      indices: { flesch_reading_ease: 64.6, flesch_kincaid_grade: 6.4, gunning_fog: 11.2, smog: 10.5, coleman_liau: 5.4, ari: 2.6 },
      band: "plain",
    });
    // 206.835 − 1.3 × 4 words per sentence − 60.1 × 8/4 syllables per word; 0.5 × 4 + 8.4 × 2 − 15.59.
    const ru = await run("readability", { text: "Мама мыла раму долго." });
    expect(ru.result).toMatchObject({ language: "ru", syllables: 8, indices: { flesch_reading_ease: 81.4, flesch_kincaid_grade: 3.2 } });
    expect(await refusal("readability", { text: "x", language: "de" })).toMatchObject({ code: "bad_param", field: "input.language" });
  });

  it("text_compare diffs by words and scores shingle similarity", async () => {
    expect((await runExample("text_compare")).result).toEqual({
      similarity_pct: 45.5,
      shingles_a: 8,
      shingles_b: 8,
      shared: 5,
      added: 1,
      removed: 1,
      diff: [
        { op: "=", text: "The quick brown fox " },
        { op: "-", text: "jumps" },
        { op: "+", text: "leaps" },
        { op: "=", text: " over the lazy dog today" },
      ],
    });
    expect(await refusal("text_compare", { text_a: "a", text_b: "b", shingle: 2 })).toMatchObject({ code: "bad_param", field: "input.shingle" });
  });

  it("case_convert: title case by English rules and identifier cases", async () => {
    expect((await runExample("case_convert")).result.text).toBe("The Lord of the Rings: The Return of the King");
    const conv = async (mode: string, text = "XMLHttpRequest getUserID v2 ready") => (await run("case_convert", { text, mode })).result.text;
    expect(await conv("camel")).toBe("xmlHttpRequestGetUserIdV2Ready");
    expect(await conv("snake")).toBe("xml_http_request_get_user_id_v2_ready");
    expect(await conv("constant", "мой ключ api")).toBe("МОЙ_КЛЮЧ_API");
    expect(await conv("sentence", "ПЕРВОЕ. второе! третье")).toBe("Первое. Второе! Третье");
    expect(await conv("fix_caps", "пРИВЕТ, мИР и hELLO")).toBe("Привет, Мир и Hello");
    expect(await refusal("case_convert", { text: "x", mode: "shout" })).toMatchObject({ code: "bad_param", field: "input.mode" });
  });

  it("lines_tool runs its operations in order", async () => {
    expect((await runExample("lines_tool")).result).toEqual({ text: "1. Apple\n2. banana\n3. cherry 9\n4. cherry 10", lines_before: 7, lines_after: 4, removed: 3 });
    const filtered = await run("lines_tool", { text: "a1\nb2\na3", ops: ["filter_exclude", "join"], filter: "^a\\d$", filter_regex: true, delimiter: ";" });
    expect(filtered.result.text).toBe("b2");
    expect(await refusal("lines_tool", { text: "a", ops: ["filter_include"] })).toMatchObject({ code: "bad_param", field: "input.filter" });
  });

  it("text_cleaner strips HTML, invisible characters and fixes Latin letters in Cyrillic words", async () => {
    const out = await runExample("text_cleaner");
    expect(out.result.text).toBe("Привет, мир!\n\nЭто текст с латинской «е».");
    expect(out.result.found).toEqual([
      { kind: "nbsp", count: 1, examples: ["\u00a0"] },
      { kind: "zero_width", count: 1, examples: ["\u200b"] },
      { kind: "html_tags", count: 4, examples: ["<p>", "</p>"] },
      { kind: "mixed_script", count: 1, examples: ["тeкст"] },
    ]);
    expect((await run("text_cleaner", { text: "Сall «me» — now… 😀", ops: ["quotes", "dashes", "ellipsis", "emoji", "mixed_script"] })).result.text).toBe('Call "me" - now...');
    expect(await refusal("text_cleaner", { text: "x", ops: ["polish"] })).toMatchObject({ code: "bad_param", field: "input.ops" });
  });

  it("typograf sets Russian quotes, dashes, ellipsis and the copyright sign", async () => {
    expect((await runExample("typograf")).result).toEqual({ text: "«Привет»\u00a0— сказал\u00a0он… В\u00a01990–2000\u00a0гг. © ООО\u00a0«Ромашка»", changes: 10 });
    expect((await run("typograf", { text: "(c) 2024", entities: "named" })).result.text).toBe("&copy; 2024");
    expect(await refusal("typograf", { text: "x", locale: "fr" })).toMatchObject({ code: "bad_param", field: "input.locale" });
  });

  it("transliterate follows each standard, makes slugs and fixes the keyboard layout", async () => {
    expect((await runExample("transliterate")).result.text).toBe("Shcherbakov Iurii Aleksandrovich");
    const t = async (input: Record<string, unknown>) => (await run("transliterate", input)).result.text;
    expect(await t({ text: "Щука и цирк, ёж", standard: "gost_b" })).toBe("Shhuka i cirk, yozh");
    expect(await t({ text: "Щука и цирк, ёж", standard: "iso9" })).toBe("Ŝuka i cirk, ëž");
    expect(await t({ text: "Елена Соловьёва", standard: "bgn" })).toBe("Yelena Solov’yëva");
    expect(await t({ text: "Купить диван: цены 2024!", mode: "slug" })).toBe("kupit-divan-tseny-2024");
    expect(await t({ text: "Купить угловой диван недорого", mode: "slug", max_len: 20, separator: "_" })).toBe("kupit_uglovoy_divan");
    expect(await t({ text: "ghbdtn? vbh!", mode: "layout_en_ru" })).toBe("привет, мир!");
    expect(await t({ text: "руддщ", mode: "layout_ru_en" })).toBe("hello");
    expect(await t({ text: "Shchuka i zhuk", mode: "to_cyrillic" })).toBe("Щука и жук");
    expect(await refusal("transliterate", { text: "x", standard: "klingon" })).toMatchObject({ code: "bad_param", field: "input.standard" });
  });

  it("lorem_ipsum opens with the classic sentence and counts what was asked", async () => {
    const out = await runExample("lorem_ipsum");
    const text = out.result.text as string;
    expect(text.startsWith("Далеко-далеко за словесными горами в стране гласных и согласных живут рыбные тексты. ")).toBe(true);
    expect(text.match(/[.!?](\s|$)/g)).toHaveLength(2);
    // The same seed, the same text: randomness is injected.
    expect((await runExample("lorem_ipsum")).result.text).toBe(text);
    const words = await run("lorem_ipsum", { unit: "words", count: 7 });
    expect(words.result.text).toBe("Lorem ipsum dolor sit amet, consectetur adipiscing.");
    expect(((await run("lorem_ipsum", { unit: "chars", count: 40 })).result.text as string).length).toBe(40);
    expect((await run("lorem_ipsum", { unit: "paragraphs", count: 2, html: true })).result.text).toMatch(/^<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit\. .*<\/p>\n<p>.*<\/p>$/);
    expect(await refusal("lorem_ipsum", { count: 101 })).toMatchObject({ code: "bad_param", field: "input.count" });
  });

  it("extract_data finds e-mails, URLs and phones, normalised and counted", async () => {
    expect((await runExample("extract_data")).result).toEqual({
      items: [
        { kind: "emails", value: "sales@example.com", count: 2 },
        { kind: "emails", value: "help@example.org", count: 1 },
        { kind: "urls", value: "https://example.com/contacts", count: 1 },
        { kind: "phones", value: "+74951234567", count: 1 },
        { kind: "phones", value: "+78005553535", count: 1 },
      ],
      counts: { emails: 2, urls: 1, phones: 2 },
    });
    const more = await run("extract_data", { text: "#seo и @svc_bot: 10.0.0.1, 2001:db8::1, сайт пример.рф и example.co.uk, цена 1,5", kinds: ["hashtags", "mentions", "ips", "domains", "numbers"] });
    expect((more.result.items as { kind: string; value: string }[]).map((x) => `${x.kind}:${x.value}`)).toEqual([
      "hashtags:#seo",
      "mentions:@svc_bot",
      "ips:10.0.0.1",
      "ips:2001:db8::1",
      "domains:example.co.uk",
      "domains:пример.рф",
      "numbers:1.5",
    ]);
    expect(await refusal("extract_data", { text: "x", region: "Russia" })).toMatchObject({ code: "bad_param", field: "input.region" });
  });
});
