#!/usr/bin/env node
// The `svc` executable: the compiled build (dist/) when it is up to date with the sources; the
// TypeScript sources through tsx otherwise (development: tsx is a development dependency). After
// `npm ci --omit=dev` only dist/ can run. `npm start` builds dist/ first when it is missing or stale.
import { distState } from "./build.js";

const state = distState();
if (state === "fresh") {
  await import("../dist/bin/entry.js");
} else {
  const tsx = await import("tsx/esm/api").catch(() => null);
  if (tsx) {
    tsx.register();
    await import("./entry.ts");
  } else if (state === "stale") {
    process.stderr.write("svc: dist/ is older than the sources and tsx is not installed: running dist/ as it is\n");
    await import("../dist/bin/entry.js");
  } else {
    process.stderr.write("svc: dist/ is missing and tsx is not installed (npm ci --omit=dev): build it where the development dependencies are (npm run build)\n");
    process.exitCode = 1;
  }
}
