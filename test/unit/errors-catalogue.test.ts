import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, ERROR_CODES, exitCodeOf } from "../../gateway/index.ts";

const spec = JSON.parse(readFileSync(new URL("../../../shared/spec/errors.json", import.meta.url), "utf8")) as {
  code: string;
  http: number;
  retry: boolean;
}[];

describe("the error catalogue", () => {
  it("is exactly the spec's 24 codes with their HTTP status and retry rule, in order", () => {
    expect(ERROR_CODES).toHaveLength(24);
    expect(ERROR_CODES.map((code) => ({ code, http: ERROR_CATALOGUE[code].http, retry: ERROR_CATALOGUE[code].retry }))).toEqual(
      spec.map((e) => ({ code: e.code, http: e.http, retry: e.retry })),
    );
  });

  it("maps codes to the CLI's exit codes (2 key/scope, 3 limit/unavailable, 1 request)", () => {
    expect(exitCodeOf("missing")).toBe(2);
    expect(exitCodeOf("scope")).toBe(2);
    expect(exitCodeOf("limit")).toBe(3);
    expect(exitCodeOf("maintenance")).toBe(3);
    expect(exitCodeOf("bad_param")).toBe(1);
    expect(exitCodeOf("not_found")).toBe(1);
  });
});
