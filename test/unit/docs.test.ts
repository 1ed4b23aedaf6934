import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_FIELDS } from "../../runtime/index.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("the documentation stays true", () => {
  it.each(["README.md", "docs/configuration.md"])("%s lists every SVC_* variable with its default", (file) => {
    const text = read(file);
    for (const f of CONFIG_FIELDS) {
      const shown = f.default === "" || f.default === null ? "(unset)" : `\`${f.default}\``;
      expect(text, f.env).toContain(`| \`${f.env}\` | ${shown} |`);
    }
  });

  it("README gives the two commands, and CI runs the README's test command", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm test");
    expect(read(".ci/run")).toMatch(/^npm test$/m);
  });
});
