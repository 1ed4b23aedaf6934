import { describe, expect, it } from "vitest";
import {
  clickhouseIdent as ident,
  clickhouseInline as inline,
  clickhouseInList as inList,
  clickhouseSql as sql,
  parseServerVersion,
  renderLiterals,
  renderParams,
  serverFeatures,
} from "../../../storage/index.ts";

describe("sql`` rendered with literals (servers without query parameters)", () => {
  it("escapes every value and keeps the text", () => {
    const host = "x' OR 1=1 --";
    expect(renderLiterals(sql`SELECT * FROM t WHERE host = ${host} AND n > ${-3} AND ok = ${true} AND v IS ${null}`)).toBe(
      "SELECT * FROM t WHERE host = 'x\\' OR 1=1 --' AND n > (-3) AND ok = 1 AND v IS NULL",
    );
  });

  it("renders nested statements, identifiers, inline values and IN lists", () => {
    const cond = sql`code = ${"a\\b"}`;
    expect(renderLiterals(sql`SELECT 1 FROM ${ident("check_results")} WHERE ${cond} AND id IN ${inList([1, 2])} LIMIT ${inline(5)}`)).toBe(
      "SELECT 1 FROM `check_results` WHERE code = 'a\\\\b' AND id IN (1, 2) LIMIT 5",
    );
    expect(renderLiterals(sql`x IN ${inList(["a'"])}`)).toBe("x IN ('a\\'')");
  });

  it("refuses an empty IN list and values without a literal", () => {
    expect(() => inList([])).toThrow(RangeError);
    expect(() => renderLiterals(sql`SELECT ${Number.NaN}`)).toThrow(RangeError);
  });

  it("a statement without values is its text", () => {
    expect(renderLiterals(sql`SELECT 1`)).toBe("SELECT 1");
  });
});

describe("sql`` rendered with query parameters (19.15 and later)", () => {
  it("sends strings, numbers, bigints and Dates as typed parameters", () => {
    const q = sql`SELECT ${"a'b"}, ${5}, ${-1.5}, ${2n ** 63n}, ${-(2n ** 63n)}, ${new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678))}`;
    expect(renderParams(q)).toEqual({
      query: "SELECT {p0:String}, {p1:Int64}, {p2:Float64}, {p3:UInt64}, {p4:Int64}, {p5:DateTime('UTC')}",
      params: { p0: "a'b", p1: 5, p2: -1.5, p3: 2n ** 63n, p4: -(2n ** 63n), p5: "2024-01-02 03:04:05" },
    });
  });

  it("types arrays by their elements; the empty array, NULL and booleans stay literals", () => {
    expect(renderParams(sql`SELECT ${[1, 2]}, ${["a"]}, ${[]}, ${null}, ${false}, ${[[1], [2]]}`)).toEqual({
      query: "SELECT {p0:Array(Int64)}, {p1:Array(String)}, [], NULL, 0, {p2:Array(Array(Int64))}",
      params: { p0: [1, 2], p1: ["a"], p2: [[1], [2]] },
    });
    expect(() => renderParams(sql`SELECT ${[1, "a"]}`)).toThrow(TypeError);
    expect(() => renderParams(sql`SELECT ${["a", null]}`)).toThrow(TypeError);
  });

  it("keeps inline() values and identifiers literal, and makes each IN element a parameter", () => {
    expect(renderParams(sql`SELECT 1 FROM ${ident("t")} WHERE id IN ${inList([7, 8])} AND h = ${"x"} LIMIT ${inline(10)}`)).toEqual({
      query: "SELECT 1 FROM `t` WHERE id IN ({p0:Int64}, {p1:Int64}) AND h = {p2:String} LIMIT 10",
      params: { p0: 7, p1: 8, p2: "x" },
    });
  });

  it("refuses what the literal form refuses", () => {
    expect(() => renderParams(sql`SELECT ${Number.POSITIVE_INFINITY}`)).toThrow(RangeError);
    expect(() => renderParams(sql`SELECT ${"\ud800"}`)).toThrow(RangeError);
    expect(() => renderParams(sql`SELECT ${new Date(-1)}`)).toThrow(RangeError);
  });
});

describe("server version and features", () => {
  it("parses version() answers", () => {
    expect(parseServerVersion("18.16.1")).toEqual({ major: 18, minor: 16, patch: 1 });
    expect(parseServerVersion("23.8.2.7")).toEqual({ major: 23, minor: 8, patch: 2 });
    expect(parseServerVersion(" 19.6 ")).toEqual({ major: 19, minor: 6, patch: 0 });
    expect(() => parseServerVersion("")).toThrow();
    expect(() => parseServerVersion("v18")).toThrow();
  });

  it("turns everything off on 18.16 and on for current servers", () => {
    const off = { queryParams: false, ttl: false, insertDedupToken: false };
    expect(serverFeatures(parseServerVersion("18.16.1"))).toEqual(off);
    expect(serverFeatures(parseServerVersion("1.1.54394"))).toEqual(off);
    expect(serverFeatures(parseServerVersion("19.6.2.11"))).toEqual({ ...off, ttl: true });
    expect(serverFeatures(parseServerVersion("19.15.1.1"))).toEqual({ ...off, ttl: true, queryParams: true });
    expect(serverFeatures(parseServerVersion("22.1.3.7"))).toEqual({ queryParams: true, ttl: true, insertDedupToken: false });
    expect(serverFeatures(parseServerVersion("24.8.4.13"))).toEqual({ queryParams: true, ttl: true, insertDedupToken: true });
  });
});
