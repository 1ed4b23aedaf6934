import { describe, expect, it } from "vitest";
import { checkRowProblem, type CheckRow } from "../../../storage/index.ts";

const ROW: CheckRow = { runId: 1, jobId: 2, attempt: 1, host: "a.example", checkedAt: 1_700_000_000, code: "title", status: "pass", value: null, group: "content" };

describe("checkRowProblem: what every CheckSeries refuses alike", () => {
  it("accepts a plain row, hostile but well-formed strings and the bounds", () => {
    expect(checkRowProblem(ROW)).toBeNull();
    expect(checkRowProblem({ ...ROW, host: "x' OR 1=1 --\\", value: "\n\t\x01😀", code: "", group: "" })).toBeNull();
    expect(checkRowProblem({ ...ROW, attempt: 0, checkedAt: 0 })).toBeNull();
    expect(checkRowProblem({ ...ROW, attempt: 2 ** 32 - 1, checkedAt: 2 ** 32 - 1, runId: Number.MAX_SAFE_INTEGER })).toBeNull();
  });

  it("names the field of a bad number", () => {
    expect(checkRowProblem({ ...ROW, runId: 0 })).toMatch(/^runId /);
    expect(checkRowProblem({ ...ROW, runId: 1.5 })).toMatch(/^runId /);
    expect(checkRowProblem({ ...ROW, runId: 2 ** 53 })).toMatch(/^runId /);
    expect(checkRowProblem({ ...ROW, jobId: -1 })).toMatch(/^jobId /);
    expect(checkRowProblem({ ...ROW, attempt: -1 })).toMatch(/^attempt /);
    expect(checkRowProblem({ ...ROW, attempt: 2 ** 32 })).toMatch(/^attempt /);
    expect(checkRowProblem({ ...ROW, checkedAt: Number.NaN })).toMatch(/^checkedAt /);
    expect(checkRowProblem({ ...ROW, checkedAt: 1.5 })).toMatch(/^checkedAt /);
  });

  it("refuses NUL and lone surrogates in every text field, and non-strings", () => {
    expect(checkRowProblem({ ...ROW, host: "a\0b" })).toBe("host must not contain NUL");
    expect(checkRowProblem({ ...ROW, code: "\ud800" })).toBe("code must be well-formed Unicode (a lone surrogate)");
    expect(checkRowProblem({ ...ROW, status: "\0" })).toBe("status must not contain NUL");
    expect(checkRowProblem({ ...ROW, group: "\udc00" })).toBe("group must be well-formed Unicode (a lone surrogate)");
    expect(checkRowProblem({ ...ROW, value: "x\0" })).toBe("value must not contain NUL");
    expect(checkRowProblem({ ...ROW, value: 5 as unknown as string })).toBe("value must be a string");
  });
});
