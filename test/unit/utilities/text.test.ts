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
});
