// Run as `node --import tsx loaded-modules.ts <module path>`: imports the module and prints, as
// JSON, every module URL resolved on the way (ES modules through a resolve hook, CommonJS ones
// from the require cache). Tests use it to prove what a module does not pull in.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire, register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// The hook runs on the loader thread; it appends synchronously, so every URL is in the file by
// the time the import below settles.
const HOOKS = `
import { appendFileSync } from "node:fs";
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(file, result.url + "\\n");
  return result;
}
`;

const target = process.argv[2];
if (!target) throw new Error("usage: loaded-modules.ts <module path>");
const dir = mkdtempSync(join(tmpdir(), "svc-loaded-"));
const file = join(dir, "resolved.txt");
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { file } });
await import(pathToFileURL(target).href);
const resolved = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
const required = Object.keys(createRequire(import.meta.url).cache).map((p) => pathToFileURL(p).href);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify([...new Set([...resolved, ...required])]));
