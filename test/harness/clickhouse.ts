import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "./free-port.ts";

export interface ClickHouseServer {
  /** http://127.0.0.1:<http port> (the default database). */
  readonly url: string;
  readonly httpPort: number;
  readonly tcpPort: number;
  /** The server's own version string, e.g. "18.16.1". */
  readonly version: string;
  /** Creates an empty database and returns its URL (http://127.0.0.1:<port>/<name>). */
  createDatabase(name: string): Promise<string>;
  /** A real outage: SIGTERM to the server (SIGKILL if it lingers), keeping its data and ports for restart(). */
  stopTemporarily(): Promise<void>;
  /** Starts the stopped server again on the same ports and data; resolves once it answers /ping. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const CANDIDATES = ["/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server", "/usr/bin/clickhouse"];
const START_TIMEOUT_MS = 60_000;

/** The server binary, installing Debian's clickhouse-server package when none is there. */
export function clickhouseBinary(): string {
  const found = findBinary();
  if (found) return found;
  if (!isRoot) throw new Error("ClickHouse is not installed and this user cannot install it: apt-get install clickhouse-server");
  const started = Date.now();
  process.stderr.write("[harness] installing Debian's clickhouse-server package\n");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", "--no-install-recommends", "clickhouse-server", "clickhouse-client"]]) {
    const res = spawnSync("apt-get", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (res.status !== 0) {
      const output = `${res.stdout ?? ""}${res.stderr ?? ""}`.split("\n").slice(-40).join("\n");
      throw new Error(`apt-get ${args.join(" ")} failed (${res.status ?? res.error?.message}):\n${output}`);
    }
  }
  process.stderr.write(`[harness] clickhouse-server installed in ${Date.now() - started} ms\n`);
  const after = findBinary();
  if (!after) throw new Error(`clickhouse-server was installed but none of ${CANDIDATES.join(", ")} exists`);
  return after;
}

function findBinary(): string | null {
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/**
 * Starts a private ClickHouse server (not the system service) on free loopback ports, with its
 * data, logs and configuration in a new temporary directory. Stop it with stop().
 */
export async function startClickHouse(): Promise<ClickHouseServer> {
  const bin = clickhouseBinary();
  // A free port can be taken between the probe and the server's bind: then again, on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(bin);
    } catch (err) {
      if (attempt >= 3 || !/already in use/i.test((err as Error).message)) throw err;
    }
  }
}

async function startOnce(bin: string): Promise<ClickHouseServer> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "svc-ch-"));
  for (const sub of ["data", "tmp", "user_files", "format_schemas", "log"]) mkdirSync(join(dir, sub));
  const [httpPort, tcpPort, interserverPort] = (await distinctPorts(3)) as [number, number, number];
  writeFileSync(join(dir, "config.xml"), serverConfig(dir, httpPort, tcpPort, interserverPort));
  writeFileSync(join(dir, "users.xml"), USERS_XML);
  const runAs = isRoot ? clickhouseUser() : null;
  if (runAs) chownTree(dir, runAs);

  const logFile = join(dir, "log", "server.log");
  const errFile = join(dir, "log", "server.err.log");
  const args = ["--config-file", join(dir, "config.xml")];
  // The multi-call binary needs the "server" verb; clickhouse-server is the same binary by name.
  if (bin.endsWith("/clickhouse")) args.unshift("server");
  const out: string[] = [];
  let child!: ChildProcess;
  let exited: string | null = null;
  const launch = () => {
    exited = null;
    // uid/gid rather than runuser: a signal then reaches the server itself, not a wrapper.
    const c = spawn(bin, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) });
    c.stdout?.on("data", (b: Buffer) => keepTail(out, b));
    c.stderr?.on("data", (b: Buffer) => keepTail(out, b));
    c.once("exit", (code, signal) => (exited = `exited with ${code ?? signal}`));
    c.once("error", (err) => (exited = `failed to start: ${err.message}`));
    child = c;
  };
  launch();
  // A test process that dies must not leave the server behind.
  const onExit = () => child.kill("SIGKILL");
  process.once("exit", onExit);

  const url = `http://127.0.0.1:${httpPort}`;
  const failure = (why: string) =>
    new Error(`ClickHouse did not start (${why}); ${bin} ${args.join(" ")}\n--- ${errFile} (tail)\n${tail(errFile)}\n--- ${logFile} (tail)\n${tail(logFile)}\n--- output\n${out.join("").slice(-4_000)}`);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      process.off("exit", onExit);
      const err = failure(exited); // before the logs go with the directory
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      throw err;
    }
    if (await ping(url)) break;
    if (Date.now() > deadline) {
      await terminate(child, () => exited !== null);
      process.off("exit", onExit);
      const err = failure(`no answer to /ping within ${START_TIMEOUT_MS} ms`);
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      throw err;
    }
    await sleep(100);
  }
  const version = (await post(url, "SELECT version()")).trim();
  process.stderr.write(`[harness] ClickHouse ${version} on 127.0.0.1:${httpPort} in ${Date.now() - started} ms\n`);

  let stopped = false;
  return {
    url,
    httpPort,
    tcpPort,
    version,
    async createDatabase(name: string) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${JSON.stringify(name)}`);
      await post(url, `CREATE DATABASE IF NOT EXISTS ${name}`);
      return `${url}/${name}`;
    },
    async stopTemporarily() {
      await terminate(child, () => exited !== null);
    },
    async restart() {
      if (exited === null) throw new Error("ClickHouse is running: stopTemporarily() first");
      const t = Date.now();
      launch();
      const until = Date.now() + START_TIMEOUT_MS;
      while (!(await ping(url))) {
        if (exited !== null || Date.now() > until) throw failure(exited ?? "no answer to /ping after a restart");
        await sleep(100);
      }
      process.stderr.write(`[harness] ClickHouse restarted on 127.0.0.1:${httpPort} in ${Date.now() - t} ms\n`);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await terminate(child, () => exited !== null);
      } finally {
        process.off("exit", onExit);
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}

/** SIGTERM, then SIGKILL after a grace period: test data need no orderly shutdown. */
async function terminate(child: ChildProcess, hasExited: () => boolean): Promise<void> {
  if (hasExited()) return;
  child.kill("SIGTERM");
  for (let i = 0; i < 100 && !hasExited(); i++) await sleep(50);
  if (!hasExited()) {
    child.kill("SIGKILL");
    for (let i = 0; i < 100 && !hasExited(); i++) await sleep(50);
  }
}

async function ping(url: string): Promise<boolean> {
  try {
    const res = await request(`${url}/ping`, "GET", "", 1_000);
    return res.status === 200 && res.body.startsWith("Ok");
  } catch {
    return false;
  }
}

async function post(url: string, sql: string): Promise<string> {
  const res = await request(url, "POST", sql, 10_000);
  if (res.status !== 200) throw new Error(`ClickHouse answered ${res.status} to ${sql}: ${res.body}`);
  return res.body;
}

/**
 * One request on a connection of its own (no keep-alive): the server waits for open connections
 * when it shuts down, and the harness must not hold one.
 */
function request(url: string, method: "GET" | "POST", body: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

async function distinctPorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

function keepTail(buf: string[], chunk: Buffer): void {
  buf.push(chunk.toString("utf8"));
  if (buf.length > 200) buf.splice(0, buf.length - 200);
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no file)";
  }
}

interface RunAs {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/**
 * As root the server runs as the package's clickhouse user: the server may refuse root or write
 * files the package's own service could not read back.
 */
function clickhouseUser(): RunAs | null {
  try {
    const uid = Number(execFileSync("id", ["-u", "clickhouse"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "clickhouse"], { encoding: "utf8" }).trim());
    return { name: "clickhouse", uid, gid };
  } catch {
    return null; // no such user: run as ourselves
  }
}

function chownTree(dir: string, who: RunAs): void {
  execFileSync("chown", ["-R", `${who.uid}:${who.gid}`, dir]);
}

// Small caches and pools: the tests share two cores with everything else. The element names are
// those of 18.16; a newer server ignores the unknown ones and accepts these.
function serverConfig(dir: string, httpPort: number, tcpPort: number, interserverPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>information</level>
    <log>${dir}/log/server.log</log>
    <errorlog>${dir}/log/server.err.log</errorlog>
    <size>50M</size>
    <count>1</count>
    <console>0</console>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <interserver_http_port>${interserverPort}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <max_connections>256</max_connections>
  <keep_alive_timeout>10</keep_alive_timeout>
  <max_concurrent_queries>64</max_concurrent_queries>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <mark_cache_size>67108864</mark_cache_size>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
  <max_session_timeout>3600</max_session_timeout>
  <default_session_timeout>60</default_session_timeout>
  <max_table_size_to_drop>0</max_table_size_to_drop>
  <max_partition_size_to_drop>0</max_partition_size_to_drop>
  <!-- Seconds a shutdown waits for running queries (default 5): test data need no orderly end. -->
  <shutdown_wait_unfinished>1</shutdown_wait_unfinished>
</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>1000000000</max_memory_usage>
      <max_threads>2</max_threads>
      <background_pool_size>2</background_pool_size>
      <use_uncompressed_cache>0</use_uncompressed_cache>
      <load_balancing>random</load_balancing>
    </default>
  </profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas>
    <default>
      <interval>
        <duration>3600</duration>
        <queries>0</queries>
        <errors>0</errors>
        <result_rows>0</result_rows>
        <read_rows>0</read_rows>
        <execution_time>0</execution_time>
      </interval>
    </default>
  </quotas>
</yandex>
`;
