import { describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/index.ts";
import { healthySite } from "./site-builder.ts";

describe("healthy fixture", () => {
  it("passes every check", () => {
    const a = analyzeSite(healthySite());
    const notPassing = a.items.filter((i) => i.status !== "pass").map((i) => `${i.code}: ${i.status} ${i.detail}`);
    expect(notPassing).toEqual([]);
    expect(a.rank).toBe(100);
  });
});
