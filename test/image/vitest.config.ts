import { defineConfig } from "vitest/config";

// The container image smoke (.ci/image-smoke.sh builds the image first): not part of `npm test`.
export default defineConfig({
  test: {
    name: "image",
    include: ["test/image/**/*.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: "forks",
    poolOptions: { forks: { singleFork: true } },
  },
});
