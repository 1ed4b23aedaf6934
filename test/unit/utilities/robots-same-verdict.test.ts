import { describe, expect, it } from "vitest";
import { blockedFor } from "../../../analyzer/checks/robots-rules.ts";
import { isAllowed, parseRobots } from "../../../crawler/index.ts";
import { runValidated, seededPorts, utilityById, validateInput, type Utility, type UtilityNet } from "../../../utilities/index.ts";
import { NOW_MS } from "./run.ts";

// robots_txt_check reads a robots.txt with the crawler's parser and matcher, so it cannot
// contradict what a crawl obeys or what a site's report says about the same file and URL.

// Each line is one the utility's former parser and matcher read differently from the crawler's.
const ROBOTS = [
  "User-agent: Googlebot/2.1", // a product token with a version: the crawler's group for Googlebot
  "Disallow: /café", // raw UTF-8 matches the percent-encoded path /caf%C3%A9
  "Disallow: /a%3cb", // escapes compare case-insensitively
  "Disallow: /robots", // never /robots.txt itself
  "",
  "User-agent: Yandex",
  "Disallow: /search",
  "",
  "User-agent: *",
  "Disallow: /private/",
].join("\n");

const URLS = ["/caf%C3%A9", "/a%3Cb", "/robots.txt", "/robots-old", "/search?q=1", "/private/x", "/"];

/** The pasted file needs no network; a run that tried one would fail. */
const NO_NET = new Proxy({}, { get: () => () => Promise.reject(new Error("no network in this test")) }) as UtilityNet;

async function utilityVerdicts(): Promise<{ url: string; bot: string; allowed: boolean; line: number | null }[]> {
  const u = utilityById("robots_txt_check") as Utility;
  const input = validateInput(u, { url: "https://shop.example/", robots_text: ROBOTS, test_urls: URLS, bots: ["Googlebot", "YandexBot"] });
  const out = (await runValidated(u, input, { ...seededPorts(NOW_MS, new Uint8Array([1])), net: NO_NET })) as unknown as { result: { verdicts: { url: string; bot: string; allowed: boolean; line: number | null }[] } };
  return out.result.verdicts.map(({ url, bot, allowed, line }) => ({ url, bot, allowed, line }));
}

describe("robots_txt_check and the crawler read a robots.txt alike", () => {
  it("gives each URL and bot the verdict the crawl obeys and the report's check states", async () => {
    const verdicts = await utilityVerdicts();
    expect(verdicts.map((v) => [v.url, v.bot, v.allowed, v.line])).toEqual([
      ["/caf%C3%A9", "Googlebot", false, 2],
      ["/caf%C3%A9", "YandexBot", true, null],
      ["/a%3Cb", "Googlebot", false, 3],
      ["/a%3Cb", "YandexBot", true, null],
      ["/robots.txt", "Googlebot", true, null],
      ["/robots.txt", "YandexBot", true, null],
      ["/robots-old", "Googlebot", false, 4],
      ["/robots-old", "YandexBot", true, null],
      ["/search?q=1", "Googlebot", true, null],
      ["/search?q=1", "YandexBot", false, 7], // YandexBot obeys the Yandex group
      ["/private/x", "Googlebot", true, null], // Googlebot has a group of its own: * does not apply
      ["/private/x", "YandexBot", true, null],
      ["/", "Googlebot", true, null],
      ["/", "YandexBot", true, null],
    ]);
    const facts = parseRobots(ROBOTS);
    for (const v of verdicts) {
      // What a crawl with that user agent obeys (crawl-frontier, collect-facts)…
      expect(isAllowed(facts, v.bot, v.url), `${v.bot} ${v.url}`).toBe(v.allowed);
      // …and what the report's robots check says of the search crawlers it judges by.
      const blocked = blockedFor(facts, new URL(v.url, "https://shop.example/"));
      expect(!blocked.includes(v.bot === "Googlebot" ? "googlebot" : "yandex"), `report ${v.bot} ${v.url}`).toBe(v.allowed);
    }
  });
});
