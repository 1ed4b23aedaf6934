import { main } from "./main.ts";

// The process entry of the compiled build (dist/bin/entry.js: what `npm start`, the container
// image and every role of the Helm chart run) and of the sources (bin/svc.js loads it through tsx).
const code = await main(process.argv.slice(2), process.env);
process.exitCode = code;
// Everything a command opened is closed by now and the process ends when the event loop is empty.
// A client library that leaves a handle behind (kafkajs after its broker went away and came back
// keeps a reconnect timer) must not keep a stopped role alive: exit anyway a moment later.
setTimeout(() => process.exit(code), 2000).unref();
