import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { http, spawnSvc, waitReady, type Answer, type Exit, type SvcLauncher, type SvcProcess } from "./svc-process.ts";

// The distributed mode as deployed: `svc gateway`, `svc scheduler` and `svc crawler` as separate
// OS processes (node bin/svc.js <role>) on a Postgres server and a Kafka broker the caller
// provides, each on free loopback ports, each waited for until its /readyz answers 200. Every
// process's output is kept (also of processes already gone) for logs() when a test fails.

export type Role = "gateway" | "scheduler" | "crawler";

export interface RoleProcess {
  readonly role: Role;
  /** "gateway", "scheduler-1", "crawler-2", …; a restarted process keeps its label. */
  readonly label: string;
  readonly proc: SvcProcess;
  readonly adminPort: number;
  /** The environment it was started with (ports included). */
  readonly env: Record<string, string>;
}

export interface ClusterOptions {
  /** A database of its own on the Postgres server. */
  readonly postgresUrl: string;
  readonly brokers: readonly string[];
  /** The owner's key (SVC_BOOTSTRAP_KEY): what api() sends. */
  readonly key: string;
  /** SVC_* variables of every process (the harness sets the engines and ports). */
  readonly env?: Record<string, string>;
  readonly schedulers?: number;
  readonly crawlers?: number;
  readonly readyTimeoutMs?: number;
  /** How each role's process starts (default: node bin/svc.js of the checkout; the image smoke runs containers). */
  readonly launcher?: SvcLauncher;
}

export interface Cluster {
  readonly gateway: RoleProcess;
  /** Processes running now, oldest first. */
  readonly schedulers: RoleProcess[];
  readonly crawlers: RoleProcess[];
  /** The REST API of the gateway, with the owner's key. */
  readonly api: (path: string, init?: { method?: string; body?: unknown; timeoutMs?: number }) => Promise<Answer>;
  /** host:port of the first scheduler's gRPC server (what the gateway and crawlers were given). */
  readonly schedulerAddress: string;
  startScheduler(extra?: Record<string, string>): Promise<RoleProcess>;
  startCrawler(extra?: Record<string, string>): Promise<RoleProcess>;
  /** SIGTERM, then the exit (bounded); the process leaves its list. */
  stop(p: RoleProcess, timeoutMs?: number): Promise<Exit>;
  /** SIGKILL, then the exit; the process leaves its list. */
  kill(p: RoleProcess): Promise<Exit>;
  /** Starts a stopped process again with the same environment and ports (plus extra), and waits until it is ready. */
  restart(p: RoleProcess, extra?: Record<string, string>): Promise<RoleProcess>;
  /** Every process's output so far (the last maxLines lines of each), labelled. */
  logs(maxLines?: number): string;
  /** SIGTERM to everything still running, SIGKILL after a while; removes the data directory. */
  close(): Promise<void>;
}

const READY_MS = 60_000;

/** Starts a scheduler, then the gateway and the crawlers (in parallel), and waits for all of them. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const dataDir = await mkdtemp(join(tmpdir(), "svc-cluster-"));
  const readyMs = options.readyTimeoutMs ?? READY_MS;
  const all: RoleProcess[] = [];
  const schedulers: RoleProcess[] = [];
  const crawlers: RoleProcess[] = [];
  const counters: Record<Role, number> = { gateway: 0, scheduler: 0, crawler: 0 };
  const base: Record<string, string> = {
    SVC_DATA_DIR: dataDir,
    SVC_POSTGRES_URL: options.postgresUrl,
    SVC_KAFKA_BROKERS: options.brokers.join(","),
    SVC_BOOTSTRAP_KEY: options.key,
    SVC_LOG_LEVEL: "info",
    // The browser runs by default where Chromium is installed (as here); tests turn it on where they measure.
    SVC_BROWSER: "off",
    ...options.env,
  };

  const launch = async (role: Role, label: string, env: Record<string, string>): Promise<RoleProcess> => {
    const p: RoleProcess = { role, label, proc: spawnSvc([role], env, options.launcher), adminPort: Number(env.SVC_ADMIN_PORT), env };
    all.push(p);
    await waitReady(p.proc, p.adminPort, readyMs).catch((err: Error) => {
      // Its log says why (an engine it waits for, a topic missing…).
      throw new Error(`${label}: ${err.message}\n--- ${label}'s output (tail)\n${`${p.proc.stdout()}${p.proc.stderr()}`.split("\n").slice(-40).join("\n")}`);
    });
    return p;
  };
  const envFor = async (extra: Record<string, string>): Promise<Record<string, string>> => ({ ...base, SVC_ADMIN_PORT: String(await freePort()), ...extra });

  const startScheduler = async (extra: Record<string, string> = {}): Promise<RoleProcess> => {
    const env = await envFor({ SVC_GRPC_LISTEN: `127.0.0.1:${await freePort()}`, ...extra });
    const p = await launch("scheduler", `scheduler-${++counters.scheduler}`, env);
    schedulers.push(p);
    return p;
  };
  const first = await startScheduler();
  const schedulerAddress = first.env.SVC_GRPC_LISTEN as string;
  base.SVC_SCHEDULER_ADDRESS = schedulerAddress;

  const startCrawler = async (extra: Record<string, string> = {}): Promise<RoleProcess> => {
    // Crawler nodes hold no database credentials.
    const { SVC_POSTGRES_URL: _none, ...env } = await envFor(extra);
    const p = await launch("crawler", `crawler-${++counters.crawler}`, env);
    crawlers.push(p);
    return p;
  };
  const gatewayPort = await freePort();
  const [gateway] = await Promise.all([
    launch("gateway", "gateway", await envFor({ SVC_PORT: String(gatewayPort) })),
    ...Array.from({ length: options.crawlers ?? 2 }, () => startCrawler()),
    ...Array.from({ length: (options.schedulers ?? 1) - 1 }, () => startScheduler()),
  ]);
  const api = (path: string, init: { method?: string; body?: unknown; timeoutMs?: number } = {}) =>
    http(`http://127.0.0.1:${gatewayPort}/api/v1${path}`, { ...init, key: options.key, timeoutMs: init.timeoutMs ?? 10_000 });

  const forget = (p: RoleProcess) => {
    for (const list of [schedulers, crawlers]) {
      const i = list.indexOf(p);
      if (i >= 0) list.splice(i, 1);
    }
  };

  return {
    gateway,
    schedulers,
    crawlers,
    api,
    schedulerAddress,
    startScheduler,
    startCrawler,
    async stop(p, timeoutMs = 30_000) {
      forget(p);
      p.proc.child.kill("SIGTERM");
      return p.proc.waitExit(timeoutMs);
    },
    async kill(p) {
      forget(p);
      p.proc.child.kill("SIGKILL");
      return p.proc.waitExit(10_000);
    },
    async restart(p, extra = {}) {
      if (p.proc.exit() === null) throw new Error(`${p.label} still runs: stop it first`);
      const again = await launch(p.role, p.label, { ...p.env, ...extra });
      if (p.role === "scheduler") schedulers.push(again);
      if (p.role === "crawler") crawlers.push(again);
      return again;
    },
    logs(maxLines = 80) {
      return all
        .map((p) => {
          const exit = p.proc.exit();
          const state = exit ? `exited ${exit.code ?? exit.signal}` : "running";
          const tail = (s: string) => s.trimEnd().split("\n").slice(-maxLines).join("\n");
          return `----- ${p.label} (pid ${p.proc.pid}, ${state}) stdout -----\n${tail(p.proc.stdout())}\n----- ${p.label} stderr -----\n${tail(p.proc.stderr())}`;
        })
        .join("\n");
    },
    async close() {
      const running = all.filter((p) => p.proc.exit() === null);
      for (const p of running) p.proc.child.kill("SIGTERM");
      await Promise.all(
        running.map((p) =>
          p.proc.waitExit(15_000).catch(() => {
            p.proc.child.kill("SIGKILL");
            return p.proc.waitExit(10_000).catch(() => undefined);
          }),
        ),
      );
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The pid in a crawler's worker name (crawler-<host>-<pid>-<hex>), as the jobs table records it. */
export function pidOfWorker(worker: string): number | null {
  const m = /-(\d+)-[0-9a-f]{4}$/.exec(worker);
  return m ? Number(m[1]) : null;
}

// ---------------------------------------------------------------------------------------------
// A plain fixture site for crawls across faults and for the cluster benchmark

export interface FanSiteOptions {
  /** Pages linked from the home page. Default 10. */
  readonly sections?: number;
  /** Pages under each section. Default 11 (1 + 10 + 110 = 121 pages). */
  readonly leaves?: number;
  /** Words of text per page. Default 300. */
  readonly words?: number;
}

export interface FanSite {
  /** Every page's path, sorted: what a complete crawl stores. */
  readonly paths: readonly string[];
  /** The answer to a path (and robots.txt, sitemap.xml), or undefined for 404. */
  answer(path: string, origin: string): { type: string; body: string } | undefined;
}

/**
 * A chain-and-fan site: / links to /s0…, each section to its leaves /s<i>/p<j>, each leaf home, to its
 * section and to the next leaf. Plain links only — no redirects, canonicals or errors — so that the
 * set of pages a complete crawl stores is exactly `paths`, however the crawl was interrupted. No path
 * segment is a bare number, so the crawler's trap detection (numbered path families) leaves it alone.
 */
export function fanSite(options: FanSiteOptions = {}): FanSite {
  const sections = options.sections ?? 10;
  const leaves = options.leaves ?? 11;
  const words = options.words ?? 300;
  const text = (seed: number) => Array.from({ length: words }, (_, i) => `word${(i * 7 + seed) % 97}`).join(" ");
  const html = (title: string, seed: number, links: string[]) =>
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title} | Fan site</title>` +
    `<meta name="description" content="${title}: one of the pages of the fan fixture site, for crawls across faults.">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
    `<body><h1>${title}</h1><p>${text(seed)}</p><ul>${links.map((l) => `<li><a href="${l}">Go to ${l}</a></li>`).join("")}</ul></body></html>\n`;
  const pages = new Map<string, string>();
  pages.set("/", html("Home", 0, Array.from({ length: sections }, (_, i) => `/s${i}`)));
  for (let i = 0; i < sections; i++) {
    pages.set(`/s${i}`, html(`Section ${i}`, i + 1, Array.from({ length: leaves }, (_, j) => `/s${i}/p${j}`)));
    for (let j = 0; j < leaves; j++) {
      const next = `/s${i}/p${(j + 1) % leaves}`;
      pages.set(`/s${i}/p${j}`, html(`Leaf ${i}.${j}`, 100 + i * leaves + j, ["/", `/s${i}`, next]));
    }
  }
  const paths = [...pages.keys()].sort();
  return {
    paths,
    answer(path, origin) {
      if (path === "/robots.txt") return { type: "text/plain; charset=utf-8", body: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n` };
      if (path === "/sitemap.xml") {
        const locs = paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join("");
        return { type: "application/xml", body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>` };
      }
      const body = pages.get(path);
      return body === undefined ? undefined : { type: "text/html; charset=utf-8", body };
    },
  };
}

export interface ServedSite {
  /** http://<address>:<port> */
  readonly origin: string;
  /** <address>:<port> */
  readonly host: string;
  /** Answers by status class so far ("2xx", "4xx", …), and HTML pages answered 200. */
  readonly served: { pages: number; byStatus: Record<string, number> };
  close(): Promise<void>;
}

/**
 * Serves a fan site on a loopback address of choice (any of 127.0.0.0/8 on Linux: 127.0.0.11,
 * 127.0.0.12, … are distinct hosts, hence distinct registrable "domains" for the bus's keys), every
 * answer after delayMs.
 */
export async function serveFanSite(site: FanSite, address = "127.0.0.1", delayMs = 0): Promise<ServedSite> {
  const served = { pages: 0, byStatus: {} as Record<string, number> };
  let origin = "";
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const answer = () => {
      const a = site.answer(path, origin);
      const status = a ? 200 : 404;
      served.byStatus[`${Math.floor(status / 100)}xx`] = (served.byStatus[`${Math.floor(status / 100)}xx`] ?? 0) + 1;
      if (a?.type.startsWith("text/html") && req.method === "GET") served.pages += 1;
      res.writeHead(status, { "content-type": a?.type ?? "text/html; charset=utf-8" }).end(a?.body ?? "<!DOCTYPE html><title>Not found</title><h1>Not found</h1>");
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, address, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = `${address}:${port}`;
  origin = `http://${host}`;
  return {
    origin,
    host,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
