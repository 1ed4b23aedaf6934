import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_FIELDS } from "../../runtime/index.ts";
import { CONFIG_ROLES, ROLES_OF, withRolesTable } from "../../runtime/config-roles.ts";

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
    expect(read(".ci/run")).toMatch(/^npm test( |$)/m);
  });

  it("docs/configuration.md says which process reads which variable, as runtime/config-roles.ts does (npm run docs:roles)", () => {
    expect(Object.keys(ROLES_OF).sort()).toEqual(CONFIG_FIELDS.map((f) => f.env).sort());
    for (const [env, roles] of Object.entries(ROLES_OF)) {
      expect(roles.length, env).toBeGreaterThan(0);
      expect(roles.filter((r) => !CONFIG_ROLES.includes(r)), env).toEqual([]);
    }
    const doc = read("docs/configuration.md");
    expect(withRolesTable(doc), "run npm run docs:roles").toBe(doc);
    expect(doc).toContain("| `SVC_GRPC_LISTEN` |  |  | ✓ |  |  |");
    expect(doc).toContain("| `SVC_KAFKA_BROKERS` |  |  | ✓ | ✓ |  |");
  });
});
