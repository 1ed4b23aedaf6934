import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** A loopback site of the truth tier whose pages, redirects and health the scenario sets. */
export interface ScenarioSite {
  readonly host: string;
  readonly url: string;
  /** Page bodies by path (HTML unless the path ends in .txt or .xml). */
  readonly pages: Map<string, string>;
  /** Path → where it answers 301 to. */
  readonly redirects: Map<string, string>;
  /** Every request answers this status with an error page while set (e.g. 503: the site is down). */
  down: number | null;
  /** Every answer waits this long (ms) while set: a slow site, to keep a check under way. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startScenarioSite(): Promise<ScenarioSite> {
  const pages = new Map<string, string>();
  const redirects = new Map<string, string>();
  const state: { down: number | null; delayMs: number } = { down: null, delayMs: 0 };
  const server: Server = createServer((req, res) => {
    if (state.delayMs > 0) return void setTimeout(() => answer(req, res), state.delayMs);
    answer(req, res);
  });
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (state.down !== null) return void res.writeHead(state.down, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Unavailable</title>");
    const to = redirects.get(path);
    if (to) return void res.writeHead(301, { location: to }).end();
    const body = pages.get(path);
    if (body === undefined) return void res.writeHead(404, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Not found</title>");
    const type = path.endsWith(".txt") ? "text/plain" : path.endsWith(".xml") ? "application/xml" : "text/html; charset=utf-8";
    res.writeHead(200, { "content-type": type }).end(body);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  pages.set("/robots.txt", "User-agent: *\nAllow: /\n");
  return {
    host,
    url: `http://${host}`,
    pages,
    redirects,
    get down() {
      return state.down;
    },
    set down(status: number | null) {
      state.down = status;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
