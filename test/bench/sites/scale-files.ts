/**
 * The generated scale site (scale-site.ts) written out as static files, so that bench:crawl's nginx
 * serves it like python3-doc: `/index.html`, `/p/{i}` (served as text/html by the site's
 * default type), `/robots.txt`; `/missing/{i}` is absent and answers 404.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { manifest, pageHtml } from "./scale-site.ts";

/** Writes the site of `pages` pages under dir; returns what it plants (pages answering 200, broken link targets). */
export async function writeScaleSite(dir: string, pages: number): Promise<{ pages: number; broken: number }> {
  await mkdir(join(dir, "p"), { recursive: true });
  // nginx's worker runs as another user: a mkdtemp directory (0700) would answer it 403.
  await chmod(dir, 0o755);
  await chmod(join(dir, "p"), 0o755);
  await writeFile(join(dir, "robots.txt"), "User-agent: *\nAllow: /\n");
  for (let i = 0; i < pages; i++) {
    const html = pageHtml(pages, i === 0 ? "/" : `/p/${i}`);
    if (html !== null) await writeFile(i === 0 ? join(dir, "index.html") : join(dir, "p", String(i)), html);
  }
  const planted = manifest(pages);
  return { pages: planted.pages, broken: planted.broken };
}
