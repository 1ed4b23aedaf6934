import { describe, expect, it } from "vitest";
import { sqlIdentifier, sqlLiteral, type SqlValue } from "../../../storage/index.ts";

// The escaping every ClickHouse statement relies on where the server has no query parameters
// (18.16). The integration tier sends the same hostile strings through a real server
// (test/integration/series-contract.test.ts).

/** Reads a single-quoted ClickHouse string literal the way the server's lexer does. */
function decode(literal: string): string {
  expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
  const body = literal.slice(1, -1);
  const named: Record<string, string> = { "0": "\0", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    // An unescaped quote inside the literal would end it early: the value would leak into SQL.
    expect(c, `raw quote at ${i} in ${literal}`).not.toBe("'");
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[++i];
    expect(e, `dangling backslash in ${literal}`).toBeDefined();
    if (e === "x") {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else out += named[e as string] ?? e;
  }
  return out;
}

const HOSTILE: readonly string[] = [
  "",
  "plain.example",
  "it's",
  "''",
  "\\",
  "a\\",
  "\\'",
  "\\\\'",
  "' OR 1=1 --",
  "\\' OR 1=1 --",
  "'; DROP TABLE check_results; --",
  "x') UNION ALL SELECT version() --",
  "/* comment */ -- line",
  "{p0:String}",
  "`backtick` \"double\"",
  "line1\nline2\r\n\ttabbed",
  "\0nul\0",
  "\x01\x02\x1b[31m\x7f",
  "\\x41 is not A",
  "\\0 is not NUL",
  "\\u00e9 stays six characters",
  "Ärzte Süd ñ 中文 العربية",
  "emoji 😀👩‍👩‍👧",
  "\u2028\u2029\u00a0\ufeff",
  "%_ like wildcards",
  "a".repeat(10_000) + "'",
];

describe("sqlLiteral: strings", () => {
  it("quotes and escapes backslash and quote", () => {
    expect(sqlLiteral("")).toBe("''");
    expect(sqlLiteral("abc")).toBe("'abc'");
    expect(sqlLiteral("it's")).toBe("'it\\'s'");
    expect(sqlLiteral("a\\b")).toBe("'a\\\\b'");
    expect(sqlLiteral("a\\")).toBe("'a\\\\'");
    expect(sqlLiteral("\\'")).toBe("'\\\\\\''");
    expect(sqlLiteral("' OR 1=1 --")).toBe("'\\' OR 1=1 --'");
  });

  it("uses the named escapes for NUL, backspace, form feed, newline, carriage return and tab", () => {
    expect(sqlLiteral("\0\b\f\n\r\t")).toBe("'\\0\\b\\f\\n\\r\\t'");
  });

  it("writes every other control character and DEL as \\xHH", () => {
    expect(sqlLiteral("\x01")).toBe("'\\x01'");
    expect(sqlLiteral("\x0b")).toBe("'\\x0B'");
    expect(sqlLiteral("\x1b")).toBe("'\\x1B'");
    expect(sqlLiteral("\x1f")).toBe("'\\x1F'");
    expect(sqlLiteral("\x7f")).toBe("'\\x7F'");
  });

  it("leaves every printable ASCII character but quote and backslash as it is", () => {
    for (let c = 0x20; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      if (ch === "'" || ch === "\\") continue;
      expect(sqlLiteral(ch)).toBe(`'${ch}'`);
    }
  });

  it("round-trips every ASCII character and the hostile corpus, with no raw control character in the SQL", () => {
    const all = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
    for (const s of [...all, all.join(""), ...HOSTILE]) {
      const lit = sqlLiteral(s);
      expect(decode(lit)).toBe(s);
      expect(/[\x00-\x1f\x7f]/.test(lit), JSON.stringify(lit)).toBe(false);
    }
  });

  it("keeps non-ASCII text verbatim (UTF-8 on the wire), surrogate pairs included", () => {
    expect(sqlLiteral("Ärzte Süd")).toBe("'Ärzte Süd'");
    expect(sqlLiteral("😀")).toBe("'😀'");
    expect(sqlLiteral("\u2028\u00a0\ufeff")).toBe("'\u2028\u00a0\ufeff'");
  });

  it("refuses lone surrogates, which could not come back unchanged", () => {
    expect(() => sqlLiteral("\ud800")).toThrow(RangeError);
    expect(() => sqlLiteral("a\udfffb")).toThrow(RangeError);
    expect(() => sqlLiteral("\ude00\ud83d")).toThrow(RangeError); // a pair in the wrong order
    expect(() => sqlLiteral(["ok", "\ud83d"])).toThrow(RangeError);
  });
});

describe("sqlLiteral: numbers", () => {
  it("writes integers and decimals as the shortest exact text", () => {
    expect(sqlLiteral(0)).toBe("0");
    expect(sqlLiteral(1)).toBe("1");
    expect(sqlLiteral(1.5)).toBe("1.5");
    expect(sqlLiteral(0.1)).toBe("0.1");
    expect(sqlLiteral(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991");
    expect(sqlLiteral(1e21)).toBe("1e+21");
    expect(sqlLiteral(1.5e-7)).toBe("1.5e-7");
    expect(sqlLiteral(Number.MIN_VALUE)).toBe("5e-324");
    expect(sqlLiteral(Number.MAX_VALUE)).toBe("1.7976931348623157e+308");
  });

  it("puts negative numbers in parentheses, so that no -- comment can form", () => {
    expect(sqlLiteral(-1)).toBe("(-1)");
    expect(sqlLiteral(-1.5)).toBe("(-1.5)");
    expect(sqlLiteral(-1e-7)).toBe("(-1e-7)");
    expect(`1 -${sqlLiteral(-5)}`).toBe("1 -(-5)");
  });

  it("writes -0 as 0", () => {
    expect(sqlLiteral(-0)).toBe("0");
  });

  it("refuses NaN and the infinities", () => {
    expect(() => sqlLiteral(Number.NaN)).toThrow(RangeError);
    expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => sqlLiteral(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
    expect(() => sqlLiteral([1, Number.NaN])).toThrow(RangeError);
  });

  it("writes bigints within Int64..UInt64 and refuses the rest", () => {
    expect(sqlLiteral(0n)).toBe("0");
    expect(sqlLiteral(18446744073709551615n)).toBe("18446744073709551615");
    expect(sqlLiteral(-9223372036854775808n)).toBe("(-9223372036854775808)");
    expect(() => sqlLiteral(18446744073709551616n)).toThrow(RangeError);
    expect(() => sqlLiteral(-9223372036854775809n)).toThrow(RangeError);
  });
});

describe("sqlLiteral: other values", () => {
  it("writes booleans as 1 and 0 and null as NULL", () => {
    expect(sqlLiteral(true)).toBe("1");
    expect(sqlLiteral(false)).toBe("0");
    expect(sqlLiteral(null)).toBe("NULL");
  });

  it("writes a Date as 'YYYY-MM-DD hh:mm:ss' in UTC, milliseconds dropped", () => {
    expect(sqlLiteral(new Date(0))).toBe("'1970-01-01 00:00:00'");
    expect(sqlLiteral(new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)))).toBe("'2024-02-29 23:59:59'");
    expect(sqlLiteral(new Date("2024-06-01T02:30:00+02:00"))).toBe("'2024-06-01 00:30:00'");
    expect(sqlLiteral(new Date((2 ** 32 - 1) * 1000))).toBe("'2106-02-07 06:28:15'");
  });

  it("refuses invalid Dates and Dates outside DateTime", () => {
    expect(() => sqlLiteral(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => sqlLiteral(new Date(-1000))).toThrow(RangeError);
    expect(() => sqlLiteral(new Date(2 ** 32 * 1000))).toThrow(RangeError);
  });

  it("writes arrays, nested ones too, element by element", () => {
    expect(sqlLiteral([])).toBe("[]");
    expect(sqlLiteral([1, "a'b", null, -2])).toBe("[1, 'a\\'b', NULL, (-2)]");
    expect(sqlLiteral([[1], [2, 3], []])).toBe("[[1], [2, 3], []]");
    expect(sqlLiteral([new Date(0)])).toBe("['1970-01-01 00:00:00']");
  });

  it("refuses undefined, objects, functions and symbols", () => {
    for (const bad of [undefined, {}, { toString: () => "1" }, () => 1, Symbol("x"), new Map(), /re/]) {
      expect(() => sqlLiteral(bad as unknown as SqlValue)).toThrow(TypeError);
    }
    expect(() => sqlLiteral([1, undefined] as unknown as SqlValue)).toThrow(TypeError);
  });
});

describe("sqlIdentifier", () => {
  it("backquotes names and escapes backquote and backslash", () => {
    expect(sqlIdentifier("usage_daily")).toBe("`usage_daily`");
    expect(sqlIdentifier("group")).toBe("`group`");
    expect(sqlIdentifier("a`b")).toBe("`a\\`b`");
    expect(sqlIdentifier("a\\b")).toBe("`a\\\\b`");
    expect(sqlIdentifier("it's")).toBe("`it\\'s`");
    expect(sqlIdentifier("new\nline")).toBe("`new\\nline`");
  });

  it("refuses the empty name and NUL", () => {
    expect(() => sqlIdentifier("")).toThrow(TypeError);
    expect(() => sqlIdentifier("a\0b")).toThrow(RangeError);
  });
});
