#!/usr/bin/env node
// The `svc` executable: loads the TypeScript sources through tsx, then runs the command.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
const code = await main(process.argv.slice(2), process.env);
process.exitCode = code;
// Everything a command opened is closed by now and the process ends when the event loop is empty.
// A client library that leaves a handle behind (kafkajs after its broker went away and came back
// keeps a reconnect timer) must not keep a stopped role alive: exit anyway a moment later.
setTimeout(() => process.exit(code), 2000).unref();
