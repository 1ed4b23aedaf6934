// autocannon's setupRequest for bench:gateway's write targets, loaded by path in autocannon's worker
// thread: each connection's cycle adds a new site (its own Idempotency-Key on svc) and deletes it.
const { threadId } = require("node:worker_threads");

let n = 0;

module.exports = function setupRequest(req, context) {
  if (req.method === "POST") {
    context.host = `w${process.pid}-${threadId}-${n++}.example.com`;
    return {
      ...req,
      body: JSON.stringify({ host: context.host }),
      headers: { ...req.headers, "content-type": "application/json", "idempotency-key": `bench-${context.host}` },
    };
  }
  return { ...req, path: `${req.path}/${context.host}` };
};
