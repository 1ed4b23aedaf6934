import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_ENV, CONFIG_FIELDS, REMOVED_SETTINGS } from "../../runtime/index.ts";
import { engineEnv, ROLE_ENGINES } from "../../bin/role.ts";
import { withReadsTable, withSettings } from "../tools/config-docs.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const named = (text: string) => [...text.matchAll(/`(SVC_[A-Z0-9_]+)`/g)].map((m) => m[1] as string);

/** The heading of the section a setting's row is under. */
function sectionOf(doc: string, env: string): string {
  const at = doc.indexOf(`| \`${env}\` |`);
  expect(at, env).toBeGreaterThan(0);
  const before = doc.slice(0, at);
  return before.slice(before.lastIndexOf("\n### ") + 5, before.indexOf("\n", before.lastIndexOf("\n### ") + 1));
}

describe("the configuration documents agree with runtime/config-fields.ts (npm run docs:config)", () => {
  it("docs/configuration.md lists every setting once, with its default, under the roles that read it", () => {
    const doc = read("docs/configuration.md");
    expect(withSettings(doc), "run npm run docs:config").toBe(doc);
    for (const f of CONFIG_FIELDS) {
      expect(doc.split(`| \`${f.env}\` |`).length - 1, f.env).toBe(1);
      expect(doc, f.env).toContain(`| \`${f.env}\` | ${f.default === "" ? "(unset)" : `\`${f.default}\``} |`);
    }
    // G7: the crawler reads SVC_CONFIRM_DELAY_MS (crawler/node.ts), not the scheduler.
    expect(sectionOf(doc, "SVC_CONFIRM_DELAY_MS")).toBe("`svc serve` and `svc crawler`");
    expect(sectionOf(doc, "SVC_GRPC_LISTEN")).toBe("`svc scheduler`");
    expect(sectionOf(doc, "SVC_KAFKA_BROKERS")).toBe("`svc scheduler` and `svc crawler`");
    expect(sectionOf(doc, "SVC_PLAN_CRAWL_PAGES")).toBe("`svc serve`, `svc gateway` and `svc admin`");
    for (const r of REMOVED_SETTINGS) expect(sectionOf(doc, r.env)).toBe("Removed settings");
  });

  it("docs/operations.md's table says which role reads what, as the code does", () => {
    const doc = read("docs/operations.md");
    expect(withReadsTable(doc), "run npm run docs:config").toBe(doc);
    const row = (role: string) => doc.split("\n").find((l) => l.startsWith(`| \`svc ${role}\` | `) && /^\| `svc \w+` \| \d+ \|/.test(l)) ?? "";
    expect(named(row("crawler"))).toContain("SVC_CONFIRM_DELAY_MS");
    expect(named(row("scheduler"))).not.toContain("SVC_CONFIRM_DELAY_MS");
    expect(named(row("crawler"))).not.toContain("SVC_POSTGRES_URL");
  });

  it("docs/operations.md's roles table names the engines each role refuses to start without", () => {
    const doc = read("docs/operations.md");
    for (const [role, engines] of Object.entries(ROLE_ENGINES)) {
      const line = doc.split("\n").find((l) => l.startsWith(`| \`svc ${role}\` | \``) && l.includes("replicas") === false && !/^\| `svc \w+` \| \d+ \|/.test(l));
      expect(line, role).toBeDefined();
      const needs = (line as string).split("|")[2] ?? "";
      expect(named(needs).sort(), role).toEqual(engines.map(engineEnv).sort());
    }
  });

  it("the README shows only the handful a deployer sets, each one a real setting, and links the rest", () => {
    const readme = read("README.md");
    const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("## Documentation"));
    const shown = [...section.matchAll(/^\| `(SVC_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(shown).toEqual(["SVC_PORT", "SVC_DATA_DIR", "SVC_POSTGRES_URL", "SVC_CLICKHOUSE_URL", "SVC_KAFKA_BROKERS", "SVC_SCHEDULER_ADDRESS", "SVC_ALLOW_PRIVATE_TARGETS", "SVC_LOG_LEVEL"]);
    expect(section).toContain("docs/configuration.md");
    // No table of defaults outside docs/configuration.md.
    expect(readme).not.toMatch(/^\| `SVC_[A-Z0-9_]+` \| (`[^`]*`|\(unset\)) \|/m);
  });

  it("the documents name no setting that does not exist", () => {
    const known = new Set<string>([...CONFIG_FIELDS.map((f) => f.env), ...CLIENT_ENV, ...REMOVED_SETTINGS.map((r) => r.env)]);
    const docs = ["README.md", ...readdirSync(new URL("../../docs", import.meta.url)).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    for (const file of docs) {
      const unknown = named(read(file)).filter((n) => !known.has(n) && !n.endsWith("_"));
      expect(unknown, file).toEqual([]);
    }
  });
});
