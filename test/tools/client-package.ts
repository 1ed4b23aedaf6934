// The typed client package (clients/typescript/):
//   npm run client:gen               rewrites its generated sources from the contracts
//   npm run client:pack [-- <dir>]   builds it (tsc to .js + .d.ts in clients/typescript/dist) and
//                                    packs it with npm pack into <dir> (.tmp/client-pack), printing the tarball's path
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles } from "./client-gen.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = join(root, "clients/typescript");

/** Writes the generated sources; answers the paths that changed. */
export function writeGenerated(): string[] {
  const changed: string[] = [];
  for (const [path, text] of Object.entries(generatedFiles())) {
    const file = join(root, path);
    let before = "";
    try {
      before = readFileSync(file, "utf8");
    } catch {
      // a first generation
    }
    if (before !== text) {
      writeFileSync(file, text);
      changed.push(path);
    }
  }
  return changed;
}

/** Builds clients/typescript/dist with the repository's TypeScript and packs it; answers the tarball's path. */
export function packClient(dest: string): string {
  rmSync(join(pkg, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(pkg, "tsconfig.json")], { stdio: "inherit" });
  // tsc rewrites ./x.ts to ./x.js in the JavaScript it emits, not in the declarations: a consumer
  // without allowImportingTsExtensions would refuse those imports.
  for (const name of readdirSync(join(pkg, "dist"))) {
    if (!name.endsWith(".d.ts")) continue;
    const file = join(pkg, "dist", name);
    writeFileSync(file, readFileSync(file, "utf8").replace(/(from "\.\/[^"]+)\.ts"/g, '$1.js"'));
  }
  mkdirSync(dest, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dest], { cwd: pkg, encoding: "utf8" });
  const [{ filename }] = JSON.parse(out) as [{ filename: string }];
  return join(dest, filename);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, dir] = process.argv.slice(2);
  if (command === "gen") {
    const changed = writeGenerated();
    process.stdout.write(changed.length === 0 ? "clients/typescript: generated sources up to date\n" : `rewrote ${changed.join(", ")}\n`);
  } else if (command === "pack") {
    process.stdout.write(`${packClient(resolve(dir ?? join(root, ".tmp/client-pack")))}\n`);
  } else {
    process.stderr.write("usage: client-package.ts gen | pack [<dir>]\n");
    process.exitCode = 1;
  }
}
