import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("the documentation stays true", () => {
  it("README gives the two commands, and CI runs the README's test command", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm test");
    expect(read(".ci/run")).toMatch(/^npm test( |$)/m);
  });
});
