import { describe, expect, it } from "vitest";
import { HttpResponse } from "../../../proto/index.ts";
import { crawlDelaySeconds, isAllowed, parseRobots, productToken, robotsFacts } from "../../../crawler/index.ts";

// RFC 9309 §5.1, verbatim.
const RFC_EXAMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF`;

describe("parseRobots", () => {
  it("parses the RFC 9309 example into groups", () => {
    const r = parseRobots(RFC_EXAMPLE.replace("\nEOF", ""));
    expect(r.groups).toEqual([
      { userAgents: ["*"], allow: ["/publications/"], disallow: ["*.gif$", "/example/"], crawlDelayS: 0 },
      { userAgents: ["foobot"], allow: ["/example/page.html", "/example/allowed.gif"], disallow: ["/"], crawlDelayS: 0 },
      { userAgents: ["barbot", "bazbot"], allow: [], disallow: ["/example/page.html"], crawlDelayS: 0 },
      { userAgents: ["quxbot"], allow: [], disallow: [], crawlDelayS: 0 },
    ]);
    expect(r.syntaxErrors).toEqual([]);
  });

  it("keeps Yandex Clean-param and Host, sitemaps and crawl-delay", () => {
    const r = parseRobots(
      [
        "User-agent: Yandex",
        "Disallow:",
        "Crawl-delay: 2.5",
        "Clean-param: ref /some_dir/get_book.pl",
        "Clean-param: sid&sort /forum/*.php # comment",
        "Host: https://www.example.com",
        "Sitemap: https://www.example.com/sitemap.xml",
        "Sitemap: https://www.example.com/sitemap.xml",
      ].join("\r\n"),
    );
    expect(r.groups).toEqual([{ userAgents: ["yandex"], allow: [], disallow: [], crawlDelayS: 2.5 }]);
    expect(r.cleanParams).toEqual(["ref /some_dir/get_book.pl", "sid&sort /forum/*.php"]);
    expect(r.hostDirective).toBe("https://www.example.com");
    expect(r.sitemaps).toEqual(["https://www.example.com/sitemap.xml"]);
    // The token is "yandexbot"; with no group of its own it obeys its family's, "Yandex" (as Yandex documents).
    expect(crawlDelaySeconds(r, "YandexBot/3.0")).toBe(2.5);
    expect(crawlDelaySeconds(r, "SvcBot/0.1")).toBe(0);
    expect(crawlDelaySeconds(r, "Yandex")).toBe(2.5);
    expect(r.syntaxErrors).toEqual([]);
  });

  it("lists syntax errors by line", () => {
    const r = parseRobots(
      [
        "Disallow: /early",
        "User-agent: *",
        "Disalow: /typo",
        "Disallow: relative",
        "Crawl-delay: soon",
        "just words",
        "Sitemap: /sitemap.xml",
        "Host: a.example",
        "Host: b.example",
      ].join("\n"),
    );
    expect(r.syntaxErrors).toEqual([
      "line 1: disallow before any user-agent",
      'line 3: unknown directive "Disalow"',
      "line 4: disallow pattern must start with '/' or '*': \"relative\"",
      'line 5: crawl-delay is not a number of seconds: "soon"',
      "line 6: no ':' in \"just words\"",
      'line 7: sitemap is not an absolute http(s) URL: "/sitemap.xml"',
      'line 9: repeated host directive "b.example" (the first one counts)',
    ]);
    expect(r.groups[0]?.disallow).toEqual(["relative"]);
  });

  it("reports files beyond 500 KiB and reads only their start", () => {
    const r = parseRobots(`User-agent: *\nDisallow: /a\n${"# filler\n".repeat(60_000)}Disallow: /late\n`);
    expect(r.sizeBytes).toBe(540_043);
    expect(r.syntaxErrors).toEqual(["line 1: file is 540043 bytes; only the first 512000 are read"]);
    expect(r.groups[0]?.disallow).toEqual(["/a"]);
  });
});

describe("isAllowed", () => {
  const r = parseRobots(RFC_EXAMPLE.replace("\nEOF", ""));

  it.each([
    // RFC 9309 §5.1 walk-through
    ["foobot", "/example/page.html", true],
    ["foobot", "/example/allowed.gif", true],
    ["foobot", "/example/other", false],
    ["foobot", "/", false],
    ["barbot", "/example/page.html", false],
    ["BazBot/1.2", "/example/page.html", false],
    ["barbot", "/example/other.gif", true], // its own group replaces the * group
    ["quxbot", "/example/page.html", true], // a group with no rules allows everything
    ["SvcBot/0.1 (+https://github.com/svc)", "/pic.gif", false],
    ["SvcBot/0.1 (+https://github.com/svc)", "/pic.gif?v=2", true], // $ anchors the end
    ["SvcBot/0.1 (+https://github.com/svc)", "/example/", false],
    ["SvcBot/0.1 (+https://github.com/svc)", "/publications/x", true],
    ["SvcBot/0.1 (+https://github.com/svc)", "/robots.txt", true],
  ])("%s %s → %s", (ua, path, allowed) => {
    expect(isAllowed(r, ua, path)).toBe(allowed);
  });

  it("picks the longest match, Allow on a tie (RFC 9309 §5.2)", () => {
    const rules = parseRobots("User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\nAllow: /same\nDisallow: /same");
    expect(isAllowed(rules, "foobot", "/example/page/")).toBe(true);
    expect(isAllowed(rules, "foobot", "/example/page/disallowed.gif")).toBe(false);
    expect(isAllowed(rules, "foobot", "/same")).toBe(true);
  });

  it("supports * anywhere and $ at the end", () => {
    const rules = parseRobots("User-agent: *\nDisallow: /\nAllow: /$\nAllow: /shop/*/item\nDisallow: /*.php$");
    expect(isAllowed(rules, "x", "/")).toBe(true);
    expect(isAllowed(rules, "x", "/about")).toBe(false);
    expect(isAllowed(rules, "x", "/shop/books/item/42")).toBe(true);
    expect(isAllowed(rules, "x", "/shop/item")).toBe(false);
  });

  it("merges groups naming the same agent (RFC 9309 §2.2.1)", () => {
    const rules = parseRobots("user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: examplebot\ndisallow: /baz\n\nuser-agent: *\ndisallow: /");
    for (const path of ["/foo", "/bar", "/baz"]) expect(isAllowed(rules, "ExampleBot/1.0", path)).toBe(false);
    expect(isAllowed(rules, "ExampleBot/1.0", "/other")).toBe(true);
    expect(isAllowed(rules, "OtherBot", "/other")).toBe(false);
  });

  it("compares percent-encoded and raw UTF-8 alike", () => {
    const rules = parseRobots("User-agent: *\nDisallow: /ä\nDisallow: /a%3cd");
    expect(isAllowed(rules, "x", "/%C3%A4rger")).toBe(false);
    expect(isAllowed(rules, "x", "/a%3Cd")).toBe(false);
  });

  it("allows everything when there is no robots.txt", () => {
    const facts = robotsFacts(HttpResponse.fromPartial({ status: 404 }), "User-agent: *\nDisallow: /");
    expect(facts).toMatchObject({ present: false, groups: [] });
    expect(isAllowed(facts, "x", "/any")).toBe(true);
  });
});

it("productToken takes the leading [A-Za-z_-] run, lower case", () => {
  expect(productToken("SvcBot/0.1 (+https://github.com/svc)")).toBe("svcbot");
  expect(productToken("Googlebot-Image/1.0")).toBe("googlebot-image");
});
