import { readFileSync } from "node:fs";
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

  it("json_format beautifies with sorted keys and pins a syntax error to its line and column", async () => {
    expect((await runExample("json_format")).result).toEqual({ valid: true, error: null, text: '{\n  "a": [\n    true,\n    null,\n    {\n      "c": "x"\n    }\n  ],\n  "b": 1\n}', bytes: 73, depth: 3 });
    expect((await run("json_format", { json: '{"a": 1,\n "b": }', mode: "validate" })).result).toMatchObject({ valid: false, error: { line: 2, col: 7, msg: "Unexpected token '}'" } });
    expect((await run("json_format", { json: "{a: 1, // note\n b: [2,],}", json5: true, mode: "minify" })).result.text).toBe('{"a":1,"b":[2]}');
    expect((await run("json_format", { json: 'say "hi"\n', mode: "escape" })).result.text).toBe('"say \\"hi\\"\\n"');
    expect(await refusal("json_format", { json: "{}", indent: "3" })).toMatchObject({ code: "bad_param", field: "input.indent" });
  });

  it("data_convert turns CSV into YAML and XML into JSON, saying what is lossy", async () => {
    const out = await runExample("data_convert");
    expect(out.result.text).toBe("- name: Диван\n  price: '25000'\n  tags: sale\n- name: Кресло\n  price: '9900'\n  tags: ''\n");
    expect(out.warnings).toEqual([{ code: "strings", text: "CSV values are all text: numbers stay strings" }]);
    const xml = await run("data_convert", { data: '<shop id="1"><item>a</item><item>b</item></shop>', from: "xml", to: "json" });
    expect(JSON.parse(xml.result.text as string)).toEqual({ shop: { item: ["a", "b"], "@_id": "1" } });
    const toml = await run("data_convert", { data: '{"title":"x","owner":{"name":null,"age":3}}', from: "json", to: "toml" });
    expect(toml.result.text).toBe('title = "x"\n\n[owner]\nage = 3\n');
    expect(toml.warnings).toEqual([{ code: "lossy", text: "TOML has no null: null values are left out" }]);
    expect((await run("data_convert", { data: "a=1&a=2&b=x%20y", from: "query", to: "json" })).result.text).toBe('{\n  "a": [\n    "1",\n    "2"\n  ],\n  "b": "x y"\n}');
    expect(await refusal("data_convert", { data: "{oops", from: "json", to: "yaml" })).toMatchObject({ code: "tool_failed" });
  });

  it("code_format minifies CSS and JS, beautifies SQL, and reports the savings", async () => {
    expect((await runExample("code_format")).result).toEqual({ text: ".menu a:hover{color:red;margin:0}", bytes_before: 77, bytes_after: 33, saved_pct: 57.1, gzip_before: 86, gzip_after: 53 });
    expect((await run("code_format", { code: "function add(first, second) { return first + second }\nconsole.log(add(1, 2))", language: "js", mode: "minify" })).result.text).toBe(
      "function add(d,n){return d+n}console.log(add(1,2));",
    );
    expect((await run("code_format", { code: "select a, b from t where x = 1", language: "sql", mode: "beautify" })).result.text).toBe("SELECT\n  a,\n  b\nFROM\n  t\nWHERE\n  x = 1");
    expect((await run("code_format", { code: "SELECT a ,  b\n FROM t -- note\n WHERE x = 'a  b'", language: "sql", mode: "minify" })).result.text).toBe("SELECT a,b FROM t WHERE x='a  b'");
    expect((await run("code_format", { code: "<ul>\n  <li> One </li>\n  <!-- c -->\n</ul>", language: "html", mode: "minify" })).result.text).toBe("<ul><li>One</li></ul>");
    expect(await refusal("code_format", { code: "function (", language: "js", mode: "minify" })).toMatchObject({ code: "tool_failed" });
  });

  it("url_codec parses an IDN URL with its decoded query and strips tracking parameters", async () => {
    const out = await runExample("url_codec");
    expect(out.result.parts).toEqual({
      scheme: "https",
      host: "xn--e1afmkfd.xn--p1ai",
      host_unicode: "пример.рф",
      port: 8443,
      path: "/%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3",
      path_decoded: "/каталог",
      query: "q=%D0%B4%D0%B8%D0%B2%D0%B0%D0%BD+%D1%83%D0%B3%D0%BB%D0%BE%D0%B2%D0%BE%D0%B9&utm_source=ya&page=2",
      fragment: "reviews",
      username: null,
    });
    expect(out.result.params).toEqual([{ name: "q", value: "диван угловой" }, { name: "utm_source", value: "ya" }, { name: "page", value: "2" }]);
    expect((await run("url_codec", { input: "https://a.ru/p?utm_source=x&id=5&yclid=9#top", mode: "clean" })).result).toEqual({ text: "https://a.ru/p?id=5#top", removed: ["utm_source", "yclid"] });
    expect((await run("url_codec", { input: "a b&c/д", mode: "encode_component" })).result.text).toBe("a%20b%26c%2F%D0%B4");
    expect(await refusal("url_codec", { input: "%E0%A4%A", mode: "decode" })).toMatchObject({ code: "tool_failed" });
  });

  it("html_entities escapes minimally, by name and by number, and reverses JS escapes", async () => {
    expect((await runExample("html_entities")).result.text).toBe("&lt;a title=&quot;Цена&quot;&gt;5 € &amp; «скидка»&lt;/a&gt;");
    expect((await run("html_entities", { text: "«5 €»", mode: "encode_named" })).result.text).toBe("&laquo;5 &euro;&raquo;");
    expect((await run("html_entities", { text: "«5 €»", mode: "encode_numeric" })).result.text).toBe("&#171;5 &#8364;&#187;");
    expect((await run("html_entities", { text: "&laquo;x&raquo; &#8364; &amp;", mode: "decode" })).result.text).toBe("«x» € &");
    expect((await run("html_entities", { text: "Да'\n", mode: "js_escape" })).result.text).toBe("\\u0414\\u0430\\'\\n");
    expect((await run("html_entities", { text: "\\u0414\\u{1F600}\\x41\\n", mode: "js_unescape" })).result.text).toBe("Д😀A\n");
    expect(await refusal("html_entities", { text: "x", mode: "encode" })).toMatchObject({ code: "bad_param", field: "input.mode" });
  });

  it("password_generator rates a password, generates from the chosen sets and writes htpasswd lines", async () => {
    const out = await runExample("password_generator");
    expect(out.result).toMatchObject({ score: 1, guesses: 15000, warning: "This is similar to a commonly used password.", crack_times: { offlineSlowHashingXPerSecond: "2 seconds" } });
    const gen = await run("password_generator", { length: 12, count: 3, sets: ["lower", "digits"], exclude_similar: true });
    const passwords = gen.result.passwords as { value: string; entropy_bits: number }[];
    expect(passwords).toHaveLength(3);
    for (const p of passwords) {
      expect(p.value).toMatch(/^[a-km-z2-9]{12}$/);
      expect(p.value).toMatch(/\d/);
      // 24 letters (no l, o) and 8 digits (no 0, 1): 12 × log2(32) = 60 bits.
      expect(p.entropy_bits).toBe(60);
    }
    const apr1 = await run("password_generator", { mode: "htpasswd", username: "admin", password: "secret", htpasswd_alg: "apr1" });
    expect(apr1.result.line).toMatch(/^admin:\$apr1\$[./A-Za-z0-9]{8}\$[./A-Za-z0-9]{22}$/);
    expect(await refusal("password_generator", { mode: "check" })).toMatchObject({ code: "bad_param", field: "input.password" });
  });

  it("id_generator makes the RFC's v5 UUID, time-ordered v7 UUIDs and ULIDs, and decodes them", async () => {
    expect((await runExample("id_generator")).result.ids).toEqual(["cfbff0d1-9375-5685-968c-48ce8b15ae17"]);
    const v7 = (await run("id_generator", { kind: "uuid_v7", count: 2 })).result.ids as string[];
    expect(v7.map((id) => id.slice(0, 15))).toEqual(["01a202b2-c500-7", "01a202b2-c501-7"]);
    const decoded = await run("id_generator", { kind: "uuid_v4", decode: v7[0] });
    expect(decoded.result.decoded).toEqual({ kind: "uuid", version: 7, variant: "rfc9562", time: "2026-11-22T10:00:00.000Z", unix_ms: 1795341600000 });
    const ulid = ((await run("id_generator", { kind: "ulid", count: 1 })).result.ids as string[])[0]!;
    expect(ulid.slice(0, 10)).toBe("01M81B5H80");
    expect((await run("id_generator", { kind: "ulid", decode: ulid })).result.decoded).toMatchObject({ kind: "ulid", time: "2026-11-22T10:00:00.000Z" });
    expect(((await run("id_generator", { kind: "nanoid", alphabet: "ab", size: 8, count: 1 })).result.ids as string[])[0]).toMatch(/^[ab]{8}$/);
    expect(await refusal("id_generator", { kind: "uuid_v5", name: "x", namespace: "moon" })).toMatchObject({ code: "bad_param", field: "input.namespace" });
  });

  it("timestamp_convert reads Unix seconds, shows zones, adds a duration and measures a difference", async () => {
    expect((await runExample("timestamp_convert")).result).toEqual({
      input_unit: "seconds",
      unix_s: 1717336800,
      unix_ms: 1717336800000,
      iso: "2024-06-02T14:00:00.000Z",
      http_date: "Sun, 02 Jun 2024 14:00:00 GMT",
      relative: "2 years ago",
      zones: [
        { tz: "UTC", local: "2024-06-02T14:00:00+00:00", offset: "+00:00" },
        { tz: "Europe/Moscow", local: "2024-06-02T17:00:00+03:00", offset: "+03:00" },
      ],
      iso_week: { week: 22, year: 2024 },
      day_of_year: 154,
      diff: { seconds: -136800, human: "-1d 14h" },
    });
    // A wall-clock time in a zone with summer time: 2024-07-01 12:00 in Berlin is 10:00 UTC.
    expect((await run("timestamp_convert", { value: "01.07.2024 12:00", tz: "Europe/Berlin" })).result).toMatchObject({ iso: "2024-07-01T10:00:00.000Z", input_unit: "date" });
    expect((await run("timestamp_convert", { value: "1717243200000000" })).result).toMatchObject({ input_unit: "microseconds", unix_s: 1717243200 });
    expect(await refusal("timestamp_convert", { value: "now", tz: "Mars/Olympus" })).toMatchObject({ code: "bad_param", field: "input.tz" });
  });

  it("jwt_decode verifies the jwt.io example and flags alg none", async () => {
    const out = await runExample("jwt_decode");
    expect(out.result).toEqual({
      header: { alg: "HS256", typ: "JWT" },
      payload: { sub: "1234567890", name: "John Doe", iat: 1516239022 },
      claims: { iat: { unix: 1516239022, iso: "2018-01-18T01:30:22.000Z" } },
      expired: null,
      not_yet_valid: null,
      signature_valid: true,
    });
    expect(out.warnings).toEqual([{ code: "weak_secret", text: "the secret is shorter than 32 bytes, the minimum RFC 7518 sets for HS256" }]);
    const token = (await import("../../../utilities/dev/jwt-decode.ts")).jwtDecode.example.token as string;
    expect((await run("jwt_decode", { token, secret: "wrong" })).result.signature_valid).toBe(false);
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"exp":1}').toString("base64url")}.`;
    const noneOut = await run("jwt_decode", { token: none });
    expect(noneOut.result).toMatchObject({ expired: true, signature_valid: false });
    expect(noneOut.warnings.map((w) => w.code)).toEqual(["alg_none"]);
    expect(await refusal("jwt_decode", { token: "abc" })).toMatchObject({ code: "tool_failed" });
  });

  it("user_agent_parse names browsers, devices and bots", async () => {
    const rows = (await runExample("user_agent_parse")).result.rows as Record<string, unknown>[];
    expect(rows.map((r) => [r.browser, r.os, r.device, r.vendor, r.bot, r.bot_name])).toEqual([
      ["Chrome 124.0.0.0", "Windows 10", "desktop", null, false, null],
      ["Mobile Safari 17.4", "iOS 17.4", "mobile", "Apple", false, null],
      [null, null, "bot", null, true, "YandexBot"],
    ]);
    expect(await refusal("user_agent_parse", { user_agents: [] })).toMatchObject({ code: "bad_param", field: "input.user_agents" });
  });

  it("cert_decode reads a certificate and a CSR and matches the private key", async () => {
    const out = await runExample("cert_decode");
    expect(out.result).toEqual({
      items: [
        {
          kind: "certificate",
          subject: "C=RU, O=Example LLC, CN=example.com",
          sans: ["example.com", "www.example.com"],
          issuer: "C=RU, O=Example LLC, CN=example.com",
          not_before: "2026-11-26T00:46:34.000Z",
          not_after: "2036-11-23T00:46:34.000Z",
          days_left: 3653,
          valid_now: false,
          key: "EC prime256v1",
          signature: "ecdsa-with-SHA256",
          serial: "57738BA84D1F23F835749BE4E1D272FC1BFBBD9C",
          ca: true,
          fingerprints: {
            sha256: "40:99:2D:81:30:42:81:06:C5:86:B9:62:91:FE:12:CA:23:D5:C6:F6:11:56:3F:D8:A3:EC:84:E9:9A:75:EE:24",
            sha1: "22:F8:A0:33:77:24:2D:F8:16:14:2C:C4:AA:8D:8E:7D:89:78:EE:FF",
          },
        },
      ],
      chain_ok: null,
      key_match: null,
    });
    const { EXAMPLE_CSR } = await import("../../../utilities/dev/cert-example.ts");
    const key = readFileSync(new URL("./fixtures/example-key.pem", import.meta.url), "utf8");
    const csr = await run("cert_decode", { pem: EXAMPLE_CSR, private_key: key });
    expect(csr.result.items).toMatchObject([{ kind: "csr", subject: "C=RU, O=Example LLC, CN=shop.example.com", sans: ["shop.example.com"], key: "EC prime256v1", signature: "ecdsa-with-SHA256" }]);
    expect(csr.result.key_match).toBe(true);
    expect(await refusal("cert_decode", { pem: "hello" })).toMatchObject({ code: "tool_failed" });
  });
});
