// The operator's endpoints are shared by every role and live in runtime/; the gateway's index
// keeps exporting them for its callers.
export { buildOpsServer, type OpsServerOptions } from "../runtime/index.ts";
