#!/usr/bin/env node
// The `svc` executable: loads the TypeScript sources through tsx, then runs the command.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv.slice(2), process.env);
