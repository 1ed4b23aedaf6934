import { describe, expect, it } from "vitest";
import { producedFile, renderAnswer } from "../../bin/cli-output.ts";
import { CONTRACTS } from "../../gateway/contracts/index.ts";

// What `svc` prints by default: the answer as a person reads it (--json prints it raw).

describe("the CLI's text answers", () => {
  it("shows a utility's blocks whole: a hash is never cut", () => {
    const sha256 = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";
    const text = renderAnswer({
      result: { hashes: [{ alg: "sha256", value: sha256 }], bytes: 11 },
      blocks: { pairs: [{ label: "Bytes", value: "11" }], tables: [{ title: "Hashes", columns: ["algorithm", "value"], rows: [["md5", "5eb63bbbe01eeed093cb22bb8f5acdc3"], ["sha256", sha256]] }], code: [], comparison: [], images: [] },
      warnings: [],
    });
    expect(text).toBe(
      [
        "blocks:",
        "  Bytes  11",
        "",
        "  Hashes:",
        "    ALGORITHM  VALUE",
        "    md5        5eb63bbbe01eeed093cb22bb8f5acdc3",
        `    sha256     ${sha256}`,
        "warnings: (none)",
      ].join("\n"),
    );
  });

  it("shows the morning view's actions (its first list) as the table at the end, its other lists as titled tables, times as UTC dates", () => {
    const text = renderAnswer({
      kpi: { sites: 2, down: 0 },
      generated_at: 1796538409,
      actions: [{ order: 1, host: "a.example", title: "Fix the broken links", gain: 4 }],
      sites: [
        { host: "a.example", rank: 71, last_run: 1796538000 },
        { host: "b.example", rank: null, last_run: null },
      ],
    });
    expect(text).toBe(
      [
        "kpi: sites=2 down=0",
        "generated_at: 2026-12-06 06:26:49Z",
        "sites:",
        "  HOST       RANK  LAST_RUN",
        "  a.example  71    2026-12-06 06:20:00Z",
        "  b.example  -     -",
        "",
        "ORDER  HOST       TITLE                 GAIN",
        "1      a.example  Fix the broken links  4",
      ].join("\n"),
    );
  });

  it("keeps a short flat object on one line and indents a longer one", () => {
    expect(renderAnswer({ page: { limit: 50, offset: 0, total: 2, next_offset: null } })).toBe("page: limit=50 offset=0 total=2 next_offset=-");
    const long = { a: "x".repeat(60), b: "y".repeat(60) };
    expect(renderAnswer({ site: long })).toBe(`site:\n  a: ${long.a}\n  b: ${long.b}`);
  });

  it("shows a produced file as its size, and --out takes it from the result, an image block or a code block", () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]);
    const answer = { result: { data_base64: png.toString("base64"), mime: "image/png", bytes: 9 }, blocks: { pairs: [], tables: [], code: [], comparison: [], images: [] }, warnings: [] };
    expect(renderAnswer(answer)).toContain("result: data_base64=(9 bytes; --out FILE saves it) mime=image/png bytes=9");
    expect(producedFile(answer)).toEqual(png);
    expect(producedFile({ result: {}, blocks: { images: [], code: [{ lang: "xml", text: "<urlset/>" }] } })?.toString()).toBe("<urlset/>");
    expect(producedFile({ sites: [] })).toBeNull();
  });

  it("shows every field the contracts type as Unix seconds as a UTC date", () => {
    // The schemas' UnixSeconds fields (description "Unix seconds"), wherever they sit in an answer.
    const names = new Set<string>();
    const walk = (schema: unknown, name: string | null): void => {
      if (schema === null || typeof schema !== "object") return;
      if (Array.isArray(schema)) return schema.forEach((s) => walk(s, name));
      const s = schema as Record<string, unknown>;
      if (s.description === "Unix seconds" && name !== null) names.add(name);
      for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) walk(value, key);
      for (const key of ["items", "anyOf", "additionalProperties"]) walk(s[key], name);
    };
    for (const op of CONTRACTS) walk(op.response, null);
    expect(names.size).toBeGreaterThan(30);
    for (const name of names) expect(renderAnswer({ [name]: 1795341600 }), name).toBe(`${name}: 2026-11-22 10:00:00Z`);
  });
});
