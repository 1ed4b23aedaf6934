/**
 * npm run docs:events: prints the event feed's table of docs/monitoring.md from the event
 * catalogue (analyzer/events/catalogue.ts), between its markers. test/unit/analyzer/event-catalogue.test.ts
 * fails while the file differs from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { eventCatalogueTable } from "../../analyzer/index.ts";

const START = "<!-- event-catalogue: printed from analyzer/events/catalogue.ts by `npm run docs:events`; a test compares -->";
const END = "<!-- /event-catalogue -->";

/** `doc` with the table between its markers printed afresh. */
export function withEventTable(doc: string): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error("docs/monitoring.md has lost the event-catalogue markers");
  return `${doc.slice(0, a + START.length)}\n${eventCatalogueTable()}\n${doc.slice(b)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = new URL("../../docs/monitoring.md", import.meta.url);
  writeFileSync(path, withEventTable(readFileSync(path, "utf8")));
}
