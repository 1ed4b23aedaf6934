import { writePgliteTemplate } from "./template.ts";

/** Gateway tier: the migrated PGlite template is built once for all files. */
export default async function setup(): Promise<void> {
  await writePgliteTemplate();
}
