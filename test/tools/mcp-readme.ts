// `npm run mcp:readme`: the README's "MCP clients" section run as a user would, against a scratch
// `svc serve` (its own process, a fresh data directory, the owner key it prints once):
//   - the JSON entry for desktop clients: its url and headers (the README's origin and key replaced
//     by the scratch server's) given to the official SDK's Streamable HTTP client, which lists the
//     tools and calls one;
//   - the ```sh block as written, in bash with a scratch HOME (so `~` is a temporary directory),
//     SVC_API_URL and SVC_API_KEY set: it installs the MCP Inspector CLI 1.0.3 from the npm registry
//     (its packument is not in a fresh npm cache, so this needs the registry), lists and calls;
//   - the MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) with every
//     server scenario, through a loopback proxy that adds the key (the runner sends none): the count
//     passing is printed; the scenarios Svc passes today must keep passing.
// Exits non-zero when anything the README promises fails.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startHeaderProxy } from "../harness/header-proxy.ts";
import { REPO_ROOT, spawnSvc, svcEnvFor, tempDataDir } from "../harness/svc-process.ts";

/** The scenarios Svc passes (the others need the suite's fixture tools, resources, prompts, logging or completion). */
export const PASSING_SCENARIOS = ["server-initialize", "ping", "tools-list", "server-sse-polling", "server-sse-multiple-streams"];

/**
 * The environment a user's own shell would give the README's sh block: theirs, with what `npm run`
 * adds for a script taken out (the lifecycle, the package's fields, this repository as npm's local
 * prefix). Their CA bundle, proxy and npm settings stay: a scratch HOME hides ~/.npmrc, and a machine
 * whose registry is reached through its own CA (NODE_EXTRA_CA_CERTS, npm_config_cafile) failed the
 * install with SELF_SIGNED_CERT_IN_CHAIN when the block ran with PATH alone.
 */
export function userShellEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^npm_(lifecycle_|package_)|^npm_(command|execpath|node_execpath)$|^npm_config_local_prefix$|^INIT_CWD$/i.test(name)) continue;
    kept[name] = value;
  }
  kept.PATH = (env.PATH ?? "/usr/bin:/bin").split(":").filter((dir) => !dir.includes("node_modules")).join(":");
  return kept;
}

/** The fenced blocks of one README section, by language. */
export function readmeBlocks(readme: string, heading: string): { lang: string; text: string }[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const rest = readme.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}

function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? REPO_ROOT, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

async function main(): Promise<number> {
  const blocks = readmeBlocks(readFileSync(join(REPO_ROOT, "README.md"), "utf8"), "MCP clients");
  const json = blocks.filter((b) => b.lang === "json");
  const sh = blocks.filter((b) => b.lang === "sh");
  if (json.length !== 1 || sh.length !== 1) throw new Error(`README "MCP clients": expected one json and one sh block, found ${json.length} and ${sh.length}`);

  const data = await tempDataDir();
  const { env, port, adminPort } = await svcEnvFor(data.dir);
  const serve = spawnSvc(["serve"], env);
  const failures: string[] = [];
  try {
    for (let i = 0; ; i++) {
      const ready = await fetch(`http://127.0.0.1:${adminPort}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (serve.exit() !== null || i > 1500) throw new Error(`svc serve did not become ready:\n${serve.stderr()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const key = /svc_[0-9A-Za-z]{40}/.exec(serve.stdout())?.[0];
    if (!key) throw new Error(`svc serve printed no owner key:\n${serve.stdout()}`);
    const origin = `http://127.0.0.1:${port}`;
    process.stdout.write(`svc serve ready at ${origin}\n`);

    // The JSON entry, as a client that reads it connects.
    const config = JSON.parse(json[0]!.text.replaceAll("http://127.0.0.1:8080", origin).replaceAll("svc_…", key)) as { mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }> };
    for (const [name, server] of Object.entries(config.mcpServers)) {
      if (server.type !== "http") failures.push(`config ${name}: type ${server.type}, not http`);
      const client = new Client({ name: "svc-readme", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
      const { tools } = await client.listTools();
      const called = await client.callTool({ name: "list_sites", arguments: {} });
      await client.close();
      process.stdout.write(`config block "${name}": ${tools.length} tools listed, list_sites isError=${String(called.isError)}\n`);
      if (tools.length === 0 || called.isError) failures.push(`config ${name}: ${tools.length} tools, list_sites isError ${String(called.isError)}`);
    }

    // The sh block as written, with a scratch HOME; npm keeps the user's cache.
    const home = mkdtempSync(join(tmpdir(), "svc-readme-home-"));
    try {
      const cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
      const started = Date.now();
      const r = await run("bash", ["-euo", "pipefail", "-c", sh[0]!.text], {
        cwd: home,
        env: { ...userShellEnv(process.env), HOME: home, SVC_API_URL: origin, SVC_API_KEY: key, npm_config_cache: cache, npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" },
        timeoutMs: 600_000,
      });
      const listed = /"name": "list_sites"/.test(r.stdout);
      const calledOk = /"isError": false/.test(r.stdout) && /"sites": \[/.test(r.stdout);
      process.stdout.write(`sh block: exit ${r.code} in ${((Date.now() - started) / 1000).toFixed(1)} s; tools/list ${listed ? "lists list_sites" : "FAILED"}; tools/call list_sites ${calledOk ? "answered" : "FAILED"}\n`);
      if (r.code !== 0 || !listed || !calledOk) failures.push(`sh block: exit ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }

    // The conformance suite's server scenarios.
    const proxy = await startHeaderProxy(origin, { authorization: `Bearer ${key}` });
    const out = mkdtempSync(join(tmpdir(), "svc-conformance-"));
    try {
      const cli = join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
      const listing = await run(process.execPath, [cli, "list"], { timeoutMs: 60_000 });
      const serverPart = listing.stdout.split(/Client scenarios/)[0] ?? "";
      const scenarios = [...serverPart.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]!);
      const passed: string[] = [];
      for (const scenario of scenarios) {
        const r = await run(process.execPath, [cli, "server", "--url", `${proxy.origin}/api/v1/mcp`, "--scenario", scenario, "-o", out], { env: { ...process.env, NO_COLOR: "1" }, timeoutMs: 120_000 });
        const ok = r.code === 0 && /Passed: (\d+)\/\1, 0 failed/.test(r.stdout);
        if (ok) passed.push(scenario);
        process.stdout.write(`conformance ${scenario}: ${ok ? "pass" : `fail (${(/Passed: [^\n]*/.exec(r.stdout)?.[0] ?? `exit ${r.code}`).trim()})`}\n`);
      }
      process.stdout.write(`conformance server scenarios: ${passed.length} of ${scenarios.length} pass (${passed.join(", ")})\n`);
      for (const s of PASSING_SCENARIOS) if (!passed.includes(s)) failures.push(`conformance scenario ${s} no longer passes`);
    } finally {
      await proxy.close();
      rmSync(out, { recursive: true, force: true });
    }
  } finally {
    serve.child.kill("SIGTERM");
    await serve.waitExit(30_000).catch(() => serve.child.kill("SIGKILL"));
    await data.remove();
  }
  for (const f of failures) process.stderr.write(`mcp:readme: ${f}\n`);
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
