import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_FIELDS, configNotes, loadConfig, type ConfigRole } from "../../runtime/index.ts";
import { engineEnv, ROLE_ENGINES, type RoleName } from "../../bin/role.ts";
import { killAllSvc, REPO_ROOT, spawnSvc, svcAdmin, svcEnvFor, tempDataDir, waitReady } from "../harness/svc-process.ts";

// Every example command of docs/operations.md runs as written (G7). A `sh` block runs, command by
// command, in a shell whose SVC_DATA_DIR is a running `svc serve`'s; a `sh cluster` block needs
// servers this machine has not (PostgreSQL, Kafka, ClickHouse, a registry, Kubernetes), so each of
// its role commands is held to the role's configuration and the engines it needs instead.

interface Block {
  readonly info: string;
  readonly line: number;
  readonly commands: readonly string[];
}

function blocks(doc: string): Block[] {
  const out: Block[] = [];
  const lines = doc.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== "```") body.push(lines[i] as string);
    // One command a line; a trailing backslash continues it; comments and blank lines are not commands.
    const commands = body.join("\n").replace(/\\\n\s*/g, " ").split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
    out.push({ info: (open[1] as string).trim(), line: start + 1, commands });
  }
  return out;
}

/** `A=1 B=2 node bin/svc.js <role>` or `A=1 npm start`: the role and its environment; null for any other command. */
function roleCommand(command: string): { role: ConfigRole; env: Record<string, string> } | null {
  const m = /^((?:SVC_[A-Z0-9_]+=\S+\s+)*)(?:node bin\/svc\.js (gateway|scheduler|crawler|serve)|npm start)(?:\s|$)/.exec(command.replace(/\s+#.*$/, ""));
  if (!m) return null;
  const env = Object.fromEntries([...(m[1] ?? "").matchAll(/(SVC_[A-Z0-9_]+)=(\S+)/g)].map((a) => [a[1] as string, a[2] as string]));
  return { role: (m[2] ?? "serve") as ConfigRole, env };
}

const doc = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
const all = blocks(doc);

describe("docs/operations.md's example commands", () => {
  it("every fenced block says what it is: sh (runs here), sh cluster (needs servers) or text (output)", () => {
    expect(all.filter((b) => !["sh", "sh cluster", "text"].includes(b.info)).map((b) => `line ${b.line}: ${b.info || "(no info string)"}`)).toEqual([]);
    expect(all.filter((b) => b.info === "sh").length).toBeGreaterThan(0);
  });

  it("each role command of a cluster block passes the role's configuration, sets nothing the role does not read, and names every engine it needs", () => {
    const known = new Set(CONFIG_FIELDS.map((f) => f.env));
    let roleCommands = 0;
    for (const block of all.filter((b) => b.info === "sh cluster")) {
      // `npm ci && npm start`: each part of an && list is a command of its own.
      const roles = block.commands.flatMap((c) => c.split(" && ")).map(roleCommand);
      // Settings given through other tools (helm --set config.X, kubectl --from-literal=X) exist.
      for (const command of block.commands) {
        for (const m of command.matchAll(/(?:config\.|--from-literal=)(SVC_[A-Z0-9_]+)=/g)) expect(known.has(m[1] as string), `line ${block.line}: ${command}`).toBe(true);
      }
      for (const parsed of roles) {
        if (!parsed) continue;
        const where = `line ${block.line}: svc ${parsed.role} with ${Object.keys(parsed.env).join(" ")}`;
        roleCommands++;
        expect(() => loadConfig(parsed.env, parsed.role), where).not.toThrow();
        expect(configNotes(parsed.env, parsed.role), where).toEqual({ unknown: [], removed: [], ignored: [] });
        if (parsed.role === "serve") continue;
        for (const engine of ROLE_ENGINES[parsed.role as RoleName]) expect(Object.keys(parsed.env), where).toContain(engineEnv(engine));
      }
      // Every gateway and scheduler of one store must agree on where the time series live (G7).
      const stores = roles.filter((r) => r?.role === "gateway" || r?.role === "scheduler").map((r) => r?.env.SVC_CLICKHOUSE_URL ?? "");
      expect(new Set(stores).size, `line ${block.line}`).toBeLessThanOrEqual(1);
    }
    // The distributed mode's three roles and the two starts of `npm start`.
    expect(roleCommands).toBe(5);
  });

  describe("the sh blocks, run as written against a running svc serve", () => {
    let data: Awaited<ReturnType<typeof tempDataDir>>;
    let env: Record<string, string>;
    beforeAll(async () => {
      data = await tempDataDir();
      const started = await svcEnvFor(data.dir);
      env = started.env;
      await waitReady(spawnSvc(["serve"], env), started.adminPort, 90_000);
    }, 120_000);
    afterAll(async () => {
      await killAllSvc();
      await data?.remove();
    });

    it.each(all.filter((b) => b.info === "sh").map((b) => [b.line, b] as const))("the block at line %i", async (_line, block) => {
      for (const command of block.commands) {
        const run = await promisify(execFile)("bash", ["-c", command], {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env },
          timeout: 60_000,
        }).then(
          (r) => ({ code: 0, stderr: r.stderr }),
          (err: { code?: number; stderr?: string }) => ({ code: err.code ?? -1, stderr: err.stderr ?? "" }),
        );
        expect(run, command).toEqual({ code: 0, stderr: "" });
      }
      // What the examples did is what a user would see afterwards.
      if (block.commands.some((c) => c.includes("plan set default"))) {
        expect(await svcAdmin(["plan", "show", "default"], env)).toMatchObject({ plan: { crawl_pages: 5000, uptime_min: 1 } });
        expect(await svcAdmin(["status"], env)).toMatchObject({ maintenance: false, closed: false });
      }
    }, 600_000);
  });
});
