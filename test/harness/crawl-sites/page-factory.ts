import { paragraphs, phrase, sentence, type Prng } from "./generated-text.ts";
import { SITE_NAME, type LinkSpec, type PageModel } from "./page-model.ts";

// Generated pages for the fixture sites: unique titles (so every duplicate title is one placed on
// purpose), unique paths, a one-sentence description and 5–7 paragraphs of about 50 words.

/** Builds pages with unique titles, descriptions and paths from one PRNG. */
export class PageFactory {
  private readonly titles = new Set<string>();
  private readonly paths = new Set<string>();

  constructor(readonly rng: Prng) {}

  uniquePhrase(): string {
    for (;;) {
      const p = phrase(this.rng, this.rng.between(3, 6));
      if (!this.titles.has(p)) {
        this.titles.add(p);
        return p;
      }
    }
  }

  uniquePath(prefix: string, name: string): string {
    const slug = name.toLowerCase().split(" ").slice(0, 4).join("-");
    let path = `${prefix}/${slug}`;
    for (let i = 2; this.paths.has(path); i++) path = `${prefix}/${slug}-${i}`;
    this.paths.add(path);
    return path;
  }

  /** A page at `path` (or a slug under `prefix`) with generated title, description and 5–7 paragraphs. */
  page(opts: { path?: string; prefix?: string; h1?: string; lang?: string; links?: LinkSpec[] }): PageModel {
    const h1 = opts.h1 ?? this.uniquePhrase();
    const path = opts.path ?? this.uniquePath(opts.prefix ?? "", h1);
    this.paths.add(path);
    return {
      path,
      aliases: [],
      lang: opts.lang ?? "en",
      title: `${h1} | ${SITE_NAME}`,
      description: sentence(this.rng),
      canonical: path,
      hreflang: [],
      h1,
      paragraphs: paragraphs(this.rng, this.rng.between(5, 7)),
      links: opts.links ?? [],
    };
  }
}

