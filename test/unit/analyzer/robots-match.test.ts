import { describe, expect, it } from "vitest";
import { patternMatches } from "../../../analyzer/index.ts";

/** The regular expression the matcher replaced: the reference for what matches, not for how fast. */
function reference(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`, "s").test(path);
}

describe("robots.txt pattern matching", () => {
  it.each([
    ["/", "/anything", true],
    ["/fish", "/fish.html", true],
    ["/fish", "/Fish", false],
    ["/fish$", "/fish", true],
    ["/fish$", "/fish/", false],
    ["/*.php", "/index.php?x=1", true],
    ["/*.php$", "/index.php?x=1", false],
    ["/*.php$", "/a/b.php", true],
    ["/fish*", "/fish", true],
    ["/*/b*/c$", "/a/bb/c", true],
    ["/a*b*c", "/axxbxxd", false],
    ["*", "/x", true],
    ["/$", "/", true],
    ["/$", "/a", false],
  ])("%s against %s: %s", (pattern, path, expected) => {
    expect(patternMatches(pattern, path)).toBe(expected);
    expect(reference(pattern, path)).toBe(expected);
  });

  it("agrees with the regular expression on 20,000 random patterns and paths", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (alphabet: string, max: number) => Array.from({ length: rand(max) }, () => alphabet[rand(alphabet.length)]).join("");
    for (let k = 0; k < 20_000; k++) {
      const pattern = `/${word("ab*", 8)}${rand(4) === 0 ? "$" : ""}`;
      const path = `/${word("ab", 10)}`;
      expect(patternMatches(pattern, path), `${pattern} ${path}`).toBe(reference(pattern, path));
    }
  });

  // The hostile rules. A backtracking matcher needs seconds to minutes per check here;
  // the test's own timeout (not a measured figure) is the bound.
  it("answers hostile wildcard rules over long paths", { timeout: 20_000 }, () => {
    const path = `/${"a".repeat(200)}`;
    for (let n = 0; n < 1000; n++) {
      expect(patternMatches("/*a*a*a*a*X", path)).toBe(false);
      expect(patternMatches(`/${"*a".repeat(50)}X$`, path)).toBe(false);
    }
    const faceted = `/catalog?${Array.from({ length: 30 }, (_, i) => `facet${i}=v${i}`).join("&")}`;
    expect(faceted.length).toBeGreaterThan(300);
    for (let n = 0; n < 1000; n++) expect(patternMatches("/*?*=*&*=*&*=*&*=*&*=*&*=*&zz=*", faceted)).toBe(false);
  });
});
