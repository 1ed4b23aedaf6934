// How the process's worker threads start: each entry module is a sibling of the module that starts
// it, as TypeScript under tsx (the sources) or as JavaScript (a built dist/).

/** The entry module `name` (without extension) beside `from` (the caller's import.meta.url), in the caller's own form. */
export function threadEntry(name: string, from: string): URL {
  return new URL(`./${name}${from.endsWith(".ts") ? ".ts" : ".js"}`, from);
}

/** The `eval` source that starts a thread on `entry`: under tsx it registers the loader first. */
export function threadBoot(entry: URL): string {
  return entry.pathname.endsWith(".ts")
    ? `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`
    : `import(${JSON.stringify(entry.href)});`;
}
