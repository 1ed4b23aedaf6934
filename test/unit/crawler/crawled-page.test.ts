import { describe, expect, it } from "vitest";
import { crawledPage } from "../../../crawler/page/crawled-page.ts";
import { HttpResponse } from "../../../proto/index.ts";

const URL_ = "http://site.test/a";

function page(html: string) {
  const response = HttpResponse.fromPartial({ requestedUrl: URL_, finalUrl: URL_, status: 200, contentType: "text/html", bodyBytes: html.length });
  return crawledPage({ url: URL_, depth: 1, response, html, originHost: "site.test", origin: "http://site.test", site: "site.test", checkedAt: 1 });
}

describe("crawledPage", () => {
  it("keeps a page's links as strict keys, internal and external apart", () => {
    const p = page(`<title>T</title><a href="/b#x">b</a><a href="/c" rel="nofollow">c</a><a href="https://other.test/">o</a>`);
    expect(p.internalLinks).toEqual(["http://site.test/b", "http://site.test/c"]);
    expect(p.nofollowInternal).toEqual(["http://site.test/c"]);
    expect(p.externalLinks.map((l) => l.href)).toEqual(["https://other.test/"]);
  });

  it("stores text without NUL or lone surrogates (Postgres text cannot hold them), pairs intact", () => {
    const p = page(`<title>a\u0000b \ud800c 😀</title><meta name="description" content="d\udc00"><a href="https://other.test/">x\u0000</a>`);
    expect(p.title).toBe("a\uFFFDb \uFFFDc 😀");
    expect(p.description).toBe("d\uFFFD");
    expect(p.externalLinks[0]?.text).toBe("x\uFFFD");
  });
});
