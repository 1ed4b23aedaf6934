import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { packClient } from "../tools/client-package.ts";

// The typed client as someone else's project gets it: clients/typescript packed with npm pack,
// installed from the tarball into a fresh directory outside the repository, typechecked there by
// tsc (strict, nodenext, no skipLibCheck) and run against a listening gateway.

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));

let gw: TestGateway;
let url: string;
let dir: string;
let tarball: string;
beforeAll(async () => {
  gw = await startTestGateway();
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`;
  dir = await mkdtemp(join(tmpdir(), "svc-consumer-"));
  // tsc over the package's sources, then npm pack: minutes on a loaded 2-core machine.
  tarball = packClient(join(dir, "pack"));
}, 420_000);
afterAll(async () => {
  await gw.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the typed client package in a project of its own", () => {
  it("installs from its tarball, typechecks under strict nodenext, and calls the API", async () => {
    const project = join(dir, "consumer");
    await mkdir(project);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
    // The package has no dependencies; the project's own are Node's types (and what they need).
    await mkdir(join(project, "node_modules/@types"), { recursive: true });
    await symlink(join(root, "node_modules/@types/node"), join(project, "node_modules/@types/node"));
    await symlink(join(root, "node_modules/undici-types"), join(project, "node_modules/undici-types"));
    for (const file of ["program.ts", "tsconfig.json"]) await copyFile(join(root, "test/consumer", file), join(project, file));

    const started = performance.now();
    const tsc = await run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", project, "--extendedDiagnostics"], { cwd: project }).catch((err: { stdout: string }) => err);
    const seconds = (performance.now() - started) / 1000;
    expect(tsc.stdout).not.toMatch(/error TS/);
    // A figure for the report (the consumer took 1 min 45 s on Svc's sources), never a gate.
    console.log(`consumer typecheck: ${seconds.toFixed(1)} s wall; ${/Files:\s+\d+/.exec(tsc.stdout)?.[0] ?? ""}; ${/Check time:\s+\S+/.exec(tsc.stdout)?.[0] ?? ""}`);

    const { stdout } = await run(process.execPath, ["--import", join(root, "node_modules/tsx/dist/loader.mjs"), "program.ts"], { cwd: project, env: { ...process.env, SVC_API_URL: url, SVC_API_KEY: gw.ownerKey } });
    expect(JSON.parse(stdout)).toEqual({ hosts: ["consumer.example.com"], interval: 12, again: 304, code: { code: "not_found", status: 404, retryable: false } });
  }, 420_000);

  it("loads nothing of Svc: the tarball holds only dist/ and package.json, and its JavaScript imports only itself", async () => {
    const { stdout } = await run("tar", ["tzf", tarball]);
    const files = stdout.trim().split("\n").sort();
    expect(files.filter((f) => !f.startsWith("package/dist/"))).toEqual(["package/package.json"]);
    const { stdout: imports } = await run("sh", ["-c", `tar xzf ${tarball} -O --wildcards 'package/dist/*' | grep -Eo 'from "[^"]+"' | sort -u`]);
    for (const line of imports.trim().split("\n")) expect(line).toMatch(/^from "\.\/[a-z.-]+\.js"$/);
  });
});
