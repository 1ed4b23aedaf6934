import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { unixSeconds } from "../../runtime/index.ts";
import type { Operation } from "../registry/operation.ts";
import { buildClientAddress } from "../pipeline/client-address.ts";
import { sendApiError, toApiError } from "../pipeline/error-reply.ts";
import { buildValidatorCompiler } from "../pipeline/validation.ts";
import { hostPolicyOf } from "../pipeline/host.ts";
import { parseJsonBody, parseJsonBodyWithBytes } from "../pipeline/json-body.ts";
import { countAddress } from "../pipeline/auth.ts";
import { setRateHeaders } from "../pipeline/rate-headers.ts";
import { registerOperation, routePattern } from "./routes.ts";
import { registerGuidePages } from "./guide-pages.ts";
import { registerMcp } from "../mcp/mcp-server.ts";
import { registerOAuth } from "../oauth/oauth-server.ts";
import { clientErrorHandler } from "./transport-errors.ts";
import { decodeRequestBody } from "./request-encoding.ts";
import { formToBody, multipartBoundary, parseMultipart } from "./multipart.ts";
import { createHttpMetrics } from "./http-metrics.ts";
import { API_VERSION } from "./openapi.ts";
import type { RequestState } from "./request-state.ts";
import { registerRequestTracing } from "./request-trace.ts";
import { lazyRequestLogger } from "./request-logger.ts";

export const API_BASE = "/api/v1";


// Query parameters that would carry a key in the URL, where logs and proxies keep it.
const KEY_IN_URL = new Set(["api_key", "apikey", "api-key", "key", "access_token", "x-api-key", "token"]);
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export interface BuildAppOptions {
  readonly deps: GatewayDeps;
  readonly operations: readonly Operation[];
  /** Observes every operation's answer (tests validate bodies against the registry's schemas). */
  readonly onOperationResponse?: (op: Operation, status: number, body: unknown) => void;
}

declare module "fastify" {
  interface FastifyRequest {
    svc: RequestState;
  }
}

/** The REST gateway: every API route comes from the operation registry; the guide pages sit beside it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { deps, operations } = options;
  const clientAddress = buildClientAddress(deps.config.trustedProxies);
  const app = Fastify({
    // pino's Logger and Fastify's base logger differ only in msgPrefix typing.
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: false,
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    // A request — headers and body — must arrive within this; a slow body is not held open forever.
    requestTimeout: deps.config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(10_000, deps.config.requestTimeoutMs),
      // Node looks for expired requests this often (30 s by default, longer than the timeout itself).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(deps.config.requestTimeoutMs / 4))),
    },
    clientErrorHandler,
    // Router refusals (a URL that does not decode, a path parameter over 300 characters) leave
    // through the same pipeline as every other error.
    frameworkErrors: (err, request, reply) => {
      initRequest(request, reply);
      const apiErr =
        err.code === "FST_ERR_MAX_PARAM_LENGTH"
          ? new ApiError("bad_request", "a path segment is longer than 300 characters", { details: { reason: "uri_too_long" } })
          : new ApiError("bad_request", "the URL is not valid (bad percent-encoding?)", { details: { reason: "bad_url" } });
      void ensureRateHeaders(request, reply).then(() => sendApiError(request, reply, apiErr));
    },
  });
  app.decorateRequest("svc", null as unknown as RequestState);
  registerRequestTracing(app, deps.logger);
  app.setValidatorCompiler(buildValidatorCompiler(hostPolicyOf(deps.config)));

  // JSON bodies are parsed here so that malformed JSON is bad_request and the raw text is kept for
  // the idempotency fingerprint.
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, raw, done) => {
    try {
      // An operation with a long base64 field (a utility's input.file, an import's file) has it
      // decoded from the bytes; an import's, over 8 MB, by a thread of the import parser.
      const bytesField = req.svc.op?.bytesField;
      const body = bytesField ? parseJsonBodyWithBytes(raw as Buffer, bytesField, (bytes, start, end) => deps.imports.decode(bytes, start, end)) : parseJsonBody((raw as Buffer).toString("utf8"));
      if (body instanceof Promise) body.then((value: unknown) => done(null, value), (err: unknown) => done(err as ApiError));
      else done(null, body);
    } catch (err) {
      done(err as ApiError);
    }
  });

  // Uploads may come as a form (the file in the part `file`): read whole, within the route's body
  // limit, and handed on as the JSON body the contract describes.
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (req, body, done) => {
    try {
      const op = req.svc.op;
      if (!op?.formUpload && !op?.form) throw new ApiError("bad_request", "send the body as JSON with Content-Type: application/json");
      const boundary = multipartBoundary(req.headers["content-type"]);
      if (boundary === null) throw new ApiError("bad_request", "multipart/form-data without a boundary", { details: { reason: "bad_multipart" } });
      const parts = parseMultipart(body as Buffer, boundary);
      // An operation with its own reading (POST /utilities/{id}: files as raw bytes) builds its body itself.
      done(null, op.form ? op.form.body(parts, req.params as Record<string, string>) : formToBody(parts));
    } catch (err) {
      done(err as ApiError);
    }
  });

  // The pipeline's own hooks take Fastify's callback form where they never wait: an async hook
  // costs each request a promise and a turn of the microtask queue, with async context tracking on.
  app.addHook("preParsing", (request, _reply, payload, done) => {
    let decoded;
    try {
      decoded = decodeRequestBody(request, payload);
    } catch (err) {
      done(err as Error);
      return;
    }
    done(null, decoded);
  });

  const metrics = createHttpMetrics(deps.metrics);

  // A keep-alive connection's peer does not change: its address is worked out once per socket
  // (X-Forwarded-For, when sent, is read on every request).
  const peerAddresses = new WeakMap<object, string>();
  function addressOf(request: FastifyRequest): string {
    const forwardedFor = request.headers["x-forwarded-for"];
    const socket = request.socket as object | undefined;
    if (forwardedFor !== undefined || socket === undefined) return clientAddress(request.socket?.remoteAddress, forwardedFor);
    let address = peerAddresses.get(socket);
    if (address === undefined) {
      address = clientAddress(request.socket.remoteAddress, undefined);
      peerAddresses.set(socket, address);
    }
    return address;
  }

  /** The request's state and the headers every answer carries. */
  function initRequest(request: FastifyRequest, reply: FastifyReply): void {
    request.svc = {
      op: null,
      page: null,
      address: addressOf(request),
      startedNs: process.hrtime.bigint(),
      nowMs: deps.clock.nowMs(),
      auth: null,
      rate: null,
      idempotency: null,
    };
    reply.header("X-Request-Id", request.id);
    reply.header("X-API-Version", API_VERSION);
    if (deps.switches.draining) reply.header("Connection", "close");
  }

  app.addHook("onRequest", (request, reply, done) => {
    initRequest(request, reply);
    // An unrouted request is answered before Fastify looks at its body (QUERY without a
    // Content-Type would otherwise be its 400, not our 405).
    if (request.is404) {
      done(unroutedError(request));
      return;
    }
    const query = request.query as Record<string, unknown> | undefined;
    for (const name of Object.keys(query ?? {})) {
      if (KEY_IN_URL.has(name.toLowerCase())) {
        done(new ApiError("bad_request", "API keys in the URL are refused: send X-Api-Key or Authorization: Bearer instead", { param: name }));
        return;
      }
    }
    done();
  });

  app.setErrorHandler(async (err, request, reply) => {
    const apiErr = toApiError(err);
    if (apiErr.code === "server") request.log.error({ err }, "request failed");
    await ensureRateHeaders(request, reply);
    return sendApiError(request, reply, apiErr);
  });

  const patterns = operations.map((op) => ({ op, re: routePattern(API_BASE + op.path) }));
  /** 405 with Allow when the path is an operation's under another method, else 404. */
  function unroutedError(request: FastifyRequest): ApiError {
    const path = request.url.split("?")[0] ?? "";
    const allowed = patterns.filter((p) => p.re.test(path)).map((p) => p.op.method);
    if (allowed.length > 0) {
      const allow = [...new Set([...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])])].join(", ");
      return new ApiError("method", `${request.method} is not supported here; use ${allow}`, { headers: { Allow: allow } });
    }
    return new ApiError("not_found", `no operation at ${request.method} ${path}`);
  }
  app.setNotFoundHandler(async (request, reply) => {
    await ensureRateHeaders(request, reply);
    return sendApiError(request, reply, unroutedError(request));
  });

  /** Requests rejected before their route's own checks still report a (per-address) limit. */
  async function ensureRateHeaders(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (reply.hasHeader("X-RateLimit-Limit")) return;
    const svc = request.svc;
    if (!svc) return;
    try {
      const { rate } = await countAddress(deps, svc.address, unixSeconds(deps.clock));
      svc.rate = rate;
      setRateHeaders(reply, rate);
    } catch {
      // storage down: the answer goes out without rate headers rather than not at all
    }
  }

  app.addHook("onResponse", (request, reply, done) => {
    const svc = request.svc;
    if (svc) {
      const route = svc.op ? API_BASE + svc.op.path : (svc.page ?? "unmatched");
      metrics.observe(request.method, route, reply.statusCode, Number(process.hrtime.bigint() - svc.startedNs) / 1e9);
      if (svc.auth) {
        const outcome = reply.statusCode === 429 ? "limited" : reply.statusCode >= 400 ? "error" : "ok";
        deps.usage.record(svc.auth.keyId, svc.nowMs, outcome);
      }
    }
    done();
  });

  await app.register(
    async (api) => {
      for (const op of operations) registerOperation(api, deps, op, options.onOperationResponse);
    },
    { prefix: API_BASE },
  );
  registerGuidePages(app);
  // The tool server and its authorization server: clients of the same operations.
  registerMcp(app, deps, operations);
  registerOAuth(app, deps, deps.store);
  return app;
}
