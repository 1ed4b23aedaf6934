import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { migrate, openPglite } from "../../storage/index.ts";

export const TEMPLATE_PATH = new URL("../../.tmp/pglite-template.tar.gz", import.meta.url).pathname;

/** Creates the migrated PGlite data directory once; each gateway test file starts from a copy. */
export async function writePgliteTemplate(path = TEMPLATE_PATH): Promise<void> {
  const db = await openPglite(null);
  await migrate(db, 0);
  const blob = await db.dump();
  await db.close();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.from(await blob.arrayBuffer()));
}

export function readPgliteTemplate(path = TEMPLATE_PATH): Blob {
  return new Blob([readFileSync(path)]);
}
