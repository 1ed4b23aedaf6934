import { createServer, type Server } from "node:http";

/** A small site on 127.0.0.1, whose pages the test can change between checks. */
export interface SmallSite {
  readonly host: string;
  readonly url: string;
  /** Page bodies by path; tests edit them. */
  readonly pages: Map<string, string>;
  /** The next request for this path is answered only after `ms` (the ones after it at once). */
  holdNext(path: string, ms: number): void;
  close(): Promise<void>;
}

export function page(opts: { title: string; description?: string; h1?: string; links?: string[]; words?: number }): string {
  const text = Array.from({ length: opts.words ?? 400 }, (_, i) => `word${i % 50}`).join(" ");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}</title>
${opts.description ? `<meta name="description" content="${opts.description}">` : ""}
<meta property="og:title" content="${opts.title}"><meta property="og:type" content="website"><meta property="og:image" content="/og.png"><meta property="og:url" content="/">
</head><body><h1>${opts.h1 ?? opts.title}</h1><p>${text}</p>
${(opts.links ?? []).map((l) => `<a href="${l}">Read about ${l.replace(/\W/g, " ")}</a>`).join("\n")}
</body></html>`;
}

/** Serves pages (HTML), robots.txt and sitemap.xml; everything else is 404. */
export async function startSmallSite(): Promise<SmallSite> {
  const pages = new Map<string, string>();
  const holds = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const hold = holds.get(path);
    if (hold !== undefined) {
      holds.delete(path);
      setTimeout(() => server.emit("request", req, res), hold);
      return;
    }
    const body = pages.get(path);
    if (body === undefined) {
      res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<!DOCTYPE html><title>Not found</title><h1>Not found</h1>");
      return;
    }
    const type = path.endsWith(".txt") ? "text/plain; charset=utf-8" : path.endsWith(".xml") ? "application/xml" : "text/html; charset=utf-8";
    res.writeHead(200, { "content-type": type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}`;
  pages.set("/robots.txt", `User-agent: *\nAllow: /\nSitemap: ${url}/sitemap.xml\n`);
  pages.set(
    "/sitemap.xml",
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${url}/</loc></url><url><loc>${url}/about</loc></url><url><loc>${url}/contact</loc></url></urlset>`,
  );
  pages.set("/", page({ title: "Small site home page for tests", description: "The home page of a small site served on loopback for Svc's tests.", links: ["/about", "/contact"] }));
  pages.set("/about", page({ title: "About the small test site", description: "Who runs the small site, and why it exists at all.", links: ["/"] }));
  pages.set("/contact", page({ title: "Contact the small test site", links: ["/"] }));
  return {
    host,
    url,
    pages,
    holdNext: (path, ms) => void holds.set(path, ms),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
