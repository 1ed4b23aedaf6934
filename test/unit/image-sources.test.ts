import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// What the build compiles (tsconfig.build.json's include) is what the Dockerfile copies into its
// build stage and what `npm start` watches for a stale dist/ (bin/build.js): a source folder added
// to one and not the others broke the image (utilities/ was missing) and left dist/ stale.

const include = (JSON.parse(readFileSync("tsconfig.build.json", "utf8")) as { include: string[] }).include;

describe("the build's source folders", () => {
  it("are all copied by the Dockerfile's build stage", () => {
    const copied = [...readFileSync("Dockerfile", "utf8").matchAll(/^COPY (\S+) \.\/\1$/gm)].map((m) => m[1]);
    expect([...copied].sort()).toEqual([...include].sort());
  });

  it("are all watched by bin/build.js for a stale dist/", () => {
    const line = /const SOURCE_DIRS = (\[[^\]]*\]);/.exec(readFileSync("bin/build.js", "utf8"))?.[1] ?? "[]";
    expect((JSON.parse(line) as string[]).sort()).toEqual([...include].sort());
  });
});
