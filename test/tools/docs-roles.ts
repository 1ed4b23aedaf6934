// `npm run docs:roles`: rewrites the roles table of docs/configuration.md from runtime/config-roles.ts
// (test/unit/docs.test.ts fails while the file and the code disagree).
import { readFileSync, writeFileSync } from "node:fs";
import { withRolesTable } from "../../runtime/config-roles.ts";

const path = new URL("../../docs/configuration.md", import.meta.url);
const before = readFileSync(path, "utf8");
const after = withRolesTable(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? "docs/configuration.md: the roles table is up to date\n" : "docs/configuration.md: roles table rewritten\n");
