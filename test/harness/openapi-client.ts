import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { REPO_ROOT } from "./svc-process.ts";

// Issue 15 §4: the served OpenAPI document as a client uses it. A client generated from it with
// openapi-typescript must let a program call the operations the way the README does (optional
// query parameters and body fields left out); Redocly's recommended lint judges the document.

// A minimal typed caller over the generated `paths`, shaped like openapi-fetch: the init object
// carries `params` (path, query) and `body`, each required exactly when the document says so.
export const CALLER = `
import type { paths } from "./svc-api.ts";
type Method = "get" | "post" | "put" | "patch" | "delete";
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type ParamsOf<O> = O extends { parameters: infer X } ? X : never;
type BodyOf<O> = O extends { requestBody: { content: { "application/json": infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { "application/json": infer B } } } ? { body?: B } : { body?: never };
type OkOf<O> = O extends { responses: { 200: { content: { "application/json": infer R } } } }
  ? R
  : O extends { responses: { 201: { content: { "application/json": infer R } } } }
    ? R
    : O extends { responses: { 202: { content: { "application/json": infer R } } } } ? R : never;
type Init<O> = ({} extends ParamsOf<O> ? { params?: ParamsOf<O> } : { params: ParamsOf<O> }) & BodyOf<O>;
type Args<O> = {} extends Init<O> ? [init?: Init<O>] : [init: Init<O>];
export async function call<P extends keyof paths, M extends Method & keyof paths[P]>(method: M, path: P, ...args: Args<Op<P, M>>): Promise<OkOf<Op<P, M>>> {
  const init = (args[0] ?? {}) as { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown };
  let url = String(path).replace(/\\{(\\w+)\\}/g, (_, name: string) => encodeURIComponent(String(init.params?.path?.[name])));
  const query = new URLSearchParams(Object.entries(init.params?.query ?? {}).map(([k, v]) => [k, String(v)]));
  if (query.toString() !== "") url += "?" + query.toString();
  const res = await fetch("http://127.0.0.1:8080/api/v1" + url, {
    method: method.toUpperCase(),
    headers: { "X-Api-Key": "svc_key", ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return (await res.json()) as OkOf<Op<P, M>>;
}
`;

// The README's calls (and a few more), with every optional parameter and field left out.
export const PROGRAM = `
import { call } from "./caller.ts";

export async function main(): Promise<string[]> {
  const me = await call("get", "/me");
  const sites = await call("get", "/sites");
  const added = await call("post", "/sites", { body: { host: "example.com", interval: 12 } });
  await call("post", "/sites", { body: { host: "example.org" } });
  const key = await call("post", "/keys", { body: { name: "dashboard", scopes: ["read"], expires_in: "90d", allowed_ips: ["203.0.113.0/24"] } });
  await call("post", "/keys", { body: { name: "ci", scopes: ["read", "run"] } });
  const keys = await call("get", "/keys");
  const usage = await call("get", "/usage");
  const overview = await call("get", "/overview");
  const jobs = await call("get", "/jobs");
  const started = await call("post", "/analyze", { body: { host: "example.com" } });
  const job = await call("get", "/jobs/{id}", { params: { path: { id: started.job.id } } });
  const analysis = await call("get", "/analyze", { params: { query: { d: "example.com" } } });
  const report = await call("get", "/report/{host}", { params: { path: { host: "example.com" } } });
  await call("patch", "/sites/{host}", { params: { path: { host: "example.com" } }, body: { interval: 6 } });
  const hook = await call("post", "/webhooks", { body: { url: "https://hooks.example.net/svc" } });
  const incidents = await call("get", "/incidents");
  const capabilities = await call("get", "/capabilities");
  const removed = await call("delete", "/sites/{host}", { params: { path: { host: "example.org" } } });

  // What the document still requires is required of the program too.
  // @ts-expect-error d is required (spec: d*)
  await call("get", "/analyze", { params: { query: {} } });
  // @ts-expect-error host is required (spec: host*)
  await call("post", "/sites", { body: { interval: 12 } });
  // @ts-expect-error the body of POST /sites is required
  await call("post", "/sites");

  return [
    String(me.user.id),
    sites.sites.map((s) => s.host).join(","),
    String(added.added),
    key.key ?? "",
    String(keys.page.total),
    String(usage.days),
    String(overview.page.total),
    String(jobs.page.total),
    job.job.state,
    String(analysis.rank),
    report.host,
    String(hook.id),
    String(incidents.page.total),
    capabilities.api.version,
    String(removed.removed),
  ];
}
`;

export interface GeneratedClientCheck {
  /** The generated TypeScript (paths, operations, components). */
  readonly generated: string;
  /** The type checker's complaints about the program, "file:line message". */
  readonly errors: string[];
  readonly generateMs: number;
  readonly typecheckMs: number;
}

/** Generates a client from doc with openapi-typescript and typechecks PROGRAM against it. */
export async function checkGeneratedClient(doc: object): Promise<GeneratedClientCheck> {
  const dir = mkdtempSync(join(tmpdir(), "svc-openapi-client-"));
  try {
    const started = Date.now();
    const generated = astToString(await openapiTS(doc as never));
    const generateMs = Date.now() - started;
    const errors = typecheck(dir, { "svc-api.ts": generated, "caller.ts": CALLER, "program.ts": PROGRAM });
    return { generated, errors, generateMs, typecheckMs: Date.now() - started - generateMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What Redocly CLI's lint (recommended rules) reports about doc, as "rule: message" per severity. */
export function redoclyLint(doc: object): { errors: string[]; warnings: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "svc-redocly-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const run = spawnSync(process.execPath, [join(REPO_ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js"), "lint", file, "--format=json"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    if (!run.stdout.startsWith("{")) throw new Error(`redocly lint printed no report (exit ${run.status}):\n${run.stderr}`);
    const report = JSON.parse(run.stdout) as { problems: { ruleId: string; severity: string; message: string }[] };
    const of = (severity: string) => report.problems.filter((p) => p.severity === severity).map((p) => `${p.ruleId}: ${p.message}`).sort();
    return { errors: of("error"), warnings: of("warn") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function typecheck(dir: string, files: Record<string, string>): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      exactOptionalPropertyTypes: false,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
    },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

