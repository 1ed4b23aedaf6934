import { readFileSync } from "node:fs";

/** The package version (x-service-version), from package.json whether run from source or from dist/. */
export const PACKAGE_VERSION = ((): string => {
  for (const rel of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "svc" && pkg.version) return pkg.version;
    } catch {
      // not here
    }
  }
  return "0.0.0";
})();
