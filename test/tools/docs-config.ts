// `npm run docs:config`: rewrites the generated settings of docs/configuration.md and the table of
// which role reads what in docs/operations.md from runtime/config-fields.ts
// (test/unit/config-docs.test.ts fails while a file and the code disagree).
import { readFileSync, writeFileSync } from "node:fs";
import { withReadsTable, withSettings } from "./config-docs.ts";

for (const [file, rewrite] of [["docs/configuration.md", withSettings], ["docs/operations.md", withReadsTable]] as const) {
  const path = new URL(`../../${file}`, import.meta.url);
  const before = readFileSync(path, "utf8");
  const after = rewrite(before);
  if (after !== before) writeFileSync(path, after);
  process.stdout.write(`${file}: ${after === before ? "up to date" : "rewritten"}\n`);
}
