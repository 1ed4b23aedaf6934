import { describe, expect, it } from "vitest";
import { refusal, run, runExample } from "./run.ts";

describe("dev utilities", () => {
  it("hash gives the known digests of its example and an SRI value", async () => {
    const out = await runExample("hash");
    expect(out.result).toEqual({
      bytes: 5,
      hashes: [
        { alg: "md5", value: "5d41402abc4b2a76b9719d911017c592" },
        { alg: "sha256", value: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" },
        { alg: "crc32", value: "3610a686" },
      ],
      sri: "sha384-WeF0h3dEjGnea4ANejO7+5/xtGPkQ1TDVTvNucZm+pASWjx5+QOXvfX2oT3oKGhP",
    });
    expect(await refusal("hash", { text: "x", algorithms: ["md7"] })).toMatchObject({ code: "bad_param", field: "input.algorithms" });
  });

  it("hash makes HMACs, SHA-3, and a bcrypt hash that verifies", async () => {
    const hmac = await run("hash", { text: "The quick brown fox jumps over the lazy dog", hmac_key: "key", algorithms: ["sha256", "md5"] });
    expect(hmac.result.hashes).toEqual([
      { alg: "hmac-sha256", value: "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8" },
      { alg: "hmac-md5", value: "80070713463e7749b90c2dc24911e275" },
    ]);
    const sha3 = await run("hash", { text: "abc", algorithms: ["sha3-256"] });
    expect(sha3.result.hashes).toEqual([{ alg: "sha3-256", value: "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" }]);
    const made = await run("hash", { text: "s3cret", algorithms: ["bcrypt"], bcrypt_cost: 4 });
    const value = (made.result.hashes as { value: string }[])[0]!.value;
    expect(value).toMatch(/^\$2b\$04\$[./A-Za-z0-9]{53}$/);
    // The same seed gives the same salt: the randomness is injected.
    expect((await run("hash", { text: "s3cret", algorithms: ["bcrypt"], bcrypt_cost: 4 })).result.hashes).toEqual(made.result.hashes);
    const verify = await run("hash", { text: "s3cret", algorithms: ["md5"], bcrypt_verify: value });
    expect(verify.result.bcrypt_match).toBe(true);
    expect((await run("hash", { text: "other", algorithms: ["md5"], bcrypt_verify: value })).result.bcrypt_match).toBe(false);
  });

  it("base64 encodes its example and decodes it back, windows-1251 too", async () => {
    expect((await runExample("base64")).result).toEqual({ text: "0J/RgNC40LLQtdGCLCB3b3JsZA==", mime: "text/plain;charset=utf-8", bytes: 19 });
    expect((await run("base64", { text: "0J/RgNC40LLQtdGCLCB3b3JsZA==", mode: "decode" })).result).toEqual({ text: "Привет, world", mime: "text/plain", bytes: 19 });
    expect((await run("base64", { text: "Привет", charset: "windows-1251" })).result.text).toBe("z/Do4uXy");
    expect((await run("base64", { text: "z/Do4uXy", mode: "decode", charset: "windows-1251" })).result.text).toBe("Привет");
    expect((await run("base64", { text: "??>", variant: "url_safe" })).result.text).toBe("Pz8-");
    expect(await refusal("base64", { text: "@@@", mode: "decode" })).toMatchObject({ code: "tool_failed" });
    expect(await refusal("base64", { mode: "decode" })).toMatchObject({ code: "bad_param", field: "input.text" });
  });

  it("regex_test lists matches with groups, previews a replacement and flags nested quantifiers", async () => {
    const out = await runExample("regex_test");
    expect(out.result).toEqual({
      count: 2,
      matches: [
        { match: "2024-05", index: 0, groups: ["2024", "05"], named: {} },
        { match: "2025-11", index: 12, groups: ["2025", "11"], named: {} },
      ],
      replaced: "05/2024 and 11/2025",
      redos_risk: false,
    });
    expect((await run("regex_test", { pattern: "(a+)+$", text: "aaa" })).result.redos_risk).toBe(true);
    expect((await run("regex_test", { pattern: "(?<y>\\d+)", flags: "", text: "x 12 34" })).result.matches).toEqual([{ match: "12", index: 2, groups: ["12"], named: { y: "12" } }]);
    expect(await refusal("regex_test", { pattern: "(", text: "x" })).toMatchObject({ code: "tool_failed", message: expect.stringMatching(/^the pattern does not compile: /) as unknown });
    expect(await refusal("regex_test", { pattern: "a", flags: "gg", text: "x" })).toMatchObject({ code: "bad_param", field: "input.flags" });
  });
});
