import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../harness/free-port.ts";

// The site bench:crawl crawls: a real documentation tree from a Debian package, served by Debian's
// nginx in its own process with a private configuration (no system service), and the per-run
// access log the pages are counted from. It lives beside the peers because only bench:crawl uses it.

const NGINX = "/usr/sbin/nginx";
const TIME = "/usr/bin/time";
/** Debian 12's python3-doc; python3.11-doc holds the files. */
export const PYTHON_DOC_ROOT = "/usr/share/doc/python3.11/html";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Installs, with one apt-get run, whichever of nginx, python3-doc and GNU time is missing. */
export function ensureDebianPackages(log: (line: string) => void): void {
  const missing: string[] = [];
  if (!existsSync(NGINX)) missing.push("nginx-light");
  if (!existsSync(join(PYTHON_DOC_ROOT, "index.html"))) missing.push("python3-doc");
  if (!existsSync(TIME)) missing.push("time");
  if (missing.length === 0) return;
  if (!isRoot) throw new Error(`missing ${missing.join(", ")} and this user cannot install them: apt-get install ${missing.join(" ")}`);
  log(`installing Debian's ${missing.join(", ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  // policy-rc.d or the absence of an init system keeps the package's own nginx service from starting.
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: ["ignore", "ignore", "inherit"], env });
  if (!existsSync(join(PYTHON_DOC_ROOT, "index.html"))) {
    throw new Error(`python3-doc is installed but ${PYTHON_DOC_ROOT}/index.html is not there (a dpkg path-exclude for /usr/share/doc?)`);
  }
}

/** One line of the access log. */
export interface AccessEntry {
  /** nginx's connection serial number. */
  readonly connection: string;
  readonly method: string;
  readonly status: number;
  readonly bytes: number;
  readonly contentType: string;
  readonly uri: string;
}

/** What one tool run did to the server, from its slice of the access log. */
export interface ServedSummary {
  /** Distinct URIs answered 200 text/html to a GET: the pages found. */
  readonly pages: number;
  readonly requests: number;
  /** Distinct connections the requests came on. */
  readonly connections: number;
  readonly bytes: number;
  /** Requests per status, e.g. { "200": 1040, "404": 2 }. */
  readonly statuses: Record<string, number>;
  /** Distinct URIs answered 4xx/5xx (any method). */
  readonly brokenUris: readonly string[];
}

export interface NginxSite {
  readonly origin: string;
  readonly port: number;
  readonly root: string;
  readonly pid: number;
  readonly config: string;
  /** Where the next request's log line will start. */
  logOffset(): Promise<number>;
  /** The log lines written since offset. */
  entriesSince(offset: number): Promise<AccessEntry[]>;
  stop(): Promise<void>;
}

const LOG_FORMAT = "$connection\\t$request_method\\t$status\\t$body_bytes_sent\\t$sent_http_content_type\\t$request_uri";

/** The configuration the notes measured (30-100k requests/s here), plus a parseable access log. */
function nginxConfig(dir: string, root: string, port: number, defaultType: string): string {
  return `# bench:crawl's private nginx; written per run
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 40000;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 16384; }
http {
  include /etc/nginx/mime.types;
  default_type ${defaultType};
  sendfile on;
  keepalive_timeout 600s;
  send_timeout 3600s;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/client_body;
  log_format bench '${LOG_FORMAT}';
  access_log ${dir}/access.log bench;
  server {
    listen 127.0.0.1:${port};
    server_name _;
    root ${root};
    index index.html;
  }
}
`;
}

function parseLine(line: string): AccessEntry | null {
  const [connection, method, status, bytes, contentType, ...rest] = line.split("\t");
  if (connection === undefined || method === undefined || status === undefined || rest.length === 0) return null;
  return { connection, method, status: Number(status), bytes: Number(bytes) || 0, contentType: contentType === "-" ? "" : (contentType ?? ""), uri: rest.join("\t") };
}

/** Counts one tool run's requests. */
export function summarise(entries: readonly AccessEntry[]): ServedSummary {
  const pages = new Set<string>();
  const broken = new Set<string>();
  const statuses: Record<string, number> = {};
  const connections = new Set<string>();
  let bytes = 0;
  for (const e of entries) {
    connections.add(e.connection);
    statuses[e.status] = (statuses[e.status] ?? 0) + 1;
    bytes += e.bytes;
    if (e.method === "GET" && e.status === 200 && e.contentType.startsWith("text/html")) pages.add(e.uri);
    if (e.status >= 400) broken.add(e.uri);
  }
  return { pages: pages.size, requests: entries.length, connections: connections.size, bytes, statuses, brokenUris: [...broken].sort() };
}

/**
 * Starts nginx on a free loopback port serving root; resolves once it answers. Files without a
 * known extension are served as defaultType (the generated scale site's /p/{i} are HTML).
 */
export async function startNginx(root: string, defaultType = "application/octet-stream"): Promise<NginxSite> {
  const dir = await mkdtemp(join(tmpdir(), "bench-crawl-nginx-"));
  const port = await freePort();
  const config = nginxConfig(dir, root, port, defaultType);
  const confPath = join(dir, "nginx.conf");
  const logPath = join(dir, "access.log");
  await writeFile(confPath, config);
  execFileSync(NGINX, ["-t", "-q", "-p", dir, "-e", join(dir, "error.log"), "-c", confPath], { stdio: ["ignore", "ignore", "inherit"] });
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-e", join(dir, "error.log"), "-c", confPath], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let running = true;
  void exited.then(() => (running = false));
  const origin = `http://127.0.0.1:${port}`;

  const stop = async (): Promise<void> => {
    if (running) {
      child.kill("SIGTERM"); // nginx: fast shutdown
      await Promise.race([exited, sleep(5_000)]);
      if (running) child.kill("SIGKILL");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (!running) throw new Error(`nginx exited at start: ${stderr}${await readFile(join(dir, "error.log"), "utf8").catch(() => "")}`);
    const ok = await fetch(`${origin}/`, { signal: AbortSignal.timeout(1_000) }).then(
      async (r) => (await r.arrayBuffer(), r.status === 200),
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer on ${origin} within 10 s`);
    }
    await sleep(50);
  }

  return {
    origin,
    port,
    root,
    pid: child.pid ?? -1,
    config,
    logOffset: async () => (await stat(logPath)).size,
    async entriesSince(offset) {
      const fh = await open(logPath, "r");
      try {
        const { size } = await fh.stat();
        const buf = Buffer.alloc(Math.max(0, size - offset));
        await fh.read(buf, 0, buf.length, offset);
        return buf.toString("utf8").split("\n").map(parseLine).filter((e): e is AccessEntry => e !== null);
      } finally {
        await fh.close();
      }
    },
    stop,
  };
}
