// bench:gateway's load client in a process of its own, so that the bench's process CPU is the
// servers' alone: autocannon with the options given as JSON in argv[2]; the result as JSON on stdout.
// A write cycle's setupRequest is given as a module path (required here when no worker threads run).
const autocannon = require("autocannon");

const opts = JSON.parse(process.argv[2]);
if (opts.requests && !(opts.workers > 0)) {
  opts.requests = opts.requests.map((r) => (typeof r.setupRequest === "string" ? { ...r, setupRequest: require(r.setupRequest) } : r));
}
autocannon(opts).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (err) => {
    process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
