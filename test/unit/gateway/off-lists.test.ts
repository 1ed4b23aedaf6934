import { describe, expect, it } from "vitest";
import { checkOffLists } from "../../../gateway/index.ts";
import { ConfigError, loadConfig } from "../../../runtime/index.ts";

describe("the administrator's off lists", () => {
  it("take ids that exist", () => {
    expect(() => checkOffLists(loadConfig({ SVC_SEARCH_SOURCES_OFF: "ahrefs,semrush", SVC_UTILITIES_OFF: "qr_code" }, "serve"))).not.toThrow();
    expect(() => checkOffLists(loadConfig({}, "serve"))).not.toThrow();
  });

  it("refuse a misspelt id at start, naming the variable and the id", () => {
    let caught: unknown;
    try {
      checkOffLists(loadConfig({ SVC_SEARCH_SOURCES_OFF: "ahref,gsc", SVC_UTILITIES_OFF: "qr_code,qr_codes" }, "serve"));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SVC_SEARCH_SOURCES_OFF: no such id ahref \(known: gsc, gsc_indexing, yandex_webmaster, topvisor, keysso, ahrefs, semrush\)$/);
    expect(problems[1]).toMatch(/^SVC_UTILITIES_OFF: no such id qr_codes \(known: .*\bqr_code\b.*\)$/);
  });
});
