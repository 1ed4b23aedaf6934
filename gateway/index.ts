// The gateway's one public entry. Its rooms: contracts/ (what each operation promises; loads
// alone), operations/ (the handlers), registry/ (joins the two), http/ (the Fastify app, routes,
// OpenAPI, guide pages), pipeline/ (what every request passes: auth, limits, idempotency, ETags,
// validation, errors), keys/ (API keys, their cache and usage), admin/ (the operator's service,
// commands, socket and switches).
export { buildApp, API_BASE, type BuildAppOptions } from "./http/app.ts";
export { buildOpenApi, API_VERSION } from "./http/openapi.ts";
export { CONTRACTS, defineContract, type Contract, type OperationContract, type Scope } from "./contracts/index.ts";
export { buildOperations } from "./registry/index.ts";
export { joinOperations, RegistryMismatchError } from "./registry/join.ts";
export { defineOperation, implement, type Implementation, type Operation } from "./registry/operation.ts";
export { ERROR_CATALOGUE, ERROR_CODES, ApiError, exitCodeOf, type ErrorCode } from "./errors.ts";
export { normalizeHost } from "./pipeline/host.ts";
export { Quota, maxBlock } from "./pipeline/quota.ts";
export { generateKey, hashKey, keyPrefix } from "./keys/api-key.ts";
export { KeyCache } from "./keys/key-cache.ts";
export { UsageMeter } from "./keys/usage-meter.ts";
export { bootstrapOwner, AdminService } from "./admin/admin-service.ts";
export { planSeedDrift } from "./admin/plan-seeds.ts";
export { parseAdminArgs, executeAdmin, AdminUsageError, AdminCommandError, ADMIN_USAGE, type AdminCommand } from "./admin/admin-commands.ts";
export { startAdminChannel, sendAdminCommand } from "./admin/admin-channel.ts";
export { ServiceSwitches } from "./admin/service-switches.ts";
export type { GatewayDeps } from "./deps.ts";
export { checkOffLists, createGatewayParts, type GatewayParts } from "./gateway-parts.ts";
export { grpcSchedulerPort, type SchedulerPort } from "./scheduler-port.ts";
