import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.ts";

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** A URL of the same server, another database. */
  urlFor(database: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** A real restart: pg_ctl stop -m fast (connections terminated), downMs without a server, pg_ctl start; resolves once it accepts connections. */
  restart(downMs: number): Promise<void>;
  stop(): void;
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** The directory of Debian's PostgreSQL binaries, installing the package when none is there. */
export function postgresBinDir(): string {
  const found = findBinDir();
  if (found) return found;
  if (!isRoot) throw new Error("PostgreSQL is not installed and this user cannot install it: apt-get install postgresql");
  process.stderr.write("[harness] installing Debian's postgresql package\n");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "postgresql"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  const after = findBinDir();
  if (!after) throw new Error("postgresql was installed but no initdb was found under /usr/lib/postgresql");
  return after;
}

function findBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

/** Runs a PostgreSQL binary; as root it runs as the postgres user, which initdb requires. */
function runPg(bin: string, args: string[]): void {
  const res = isRoot ? spawnSync("runuser", ["-u", "postgres", "--", bin, ...args], { encoding: "utf8" }) : spawnSync(bin, args, { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
}

/**
 * Starts a private PostgreSQL cluster on a free loopback port (fsync off: test data need not
 * survive a power cut). Stop it with stop().
 */
export async function startPostgres(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), "svc-pg-"));
  if (isRoot) chownSync(dir, uidOf("postgres"), gidOf("postgres"));
  const data = join(dir, "data");
  runPg(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    `-c max_connections=${options.maxConnections ?? 200}`,
  ].join(" ");
  runPg(join(bin, "pg_ctl"), ["-D", data, "-o", opts, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
  const urlFor = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      runPg(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    url: urlFor("postgres"),
    port,
    urlFor,
    async createDatabase(name: string) {
      const client = new pg.Client({ connectionString: urlFor("postgres") });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    async restart(downMs: number) {
      runPg(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
      await new Promise((r) => setTimeout(r, downMs));
      runPg(join(bin, "pg_ctl"), ["-D", data, "-o", opts, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
    },
    stop,
  };
}

function uidOf(user: string): number {
  return Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
}

function gidOf(user: string): number {
  return Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());
}
