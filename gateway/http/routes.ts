import type { TObject, TSchema } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Repositories } from "../../storage/index.ts";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { hostPolicyOf, normalizeHost, type HostPolicy } from "../pipeline/host.ts";
import { answerEncoding, compressWith } from "./compression.ts";
import { authenticate, countAddress, type AuthOutcome } from "../pipeline/auth.ts";
import { ifNoneMatchHits, weakEtag } from "../pipeline/etag.ts";
import { fingerprint, readIdempotencyKey } from "../pipeline/idempotency.ts";
import { setRateHeaders } from "../pipeline/rate-headers.ts";
import type { Operation } from "../registry/operation.ts";
import { operationScope } from "../registry/scope.ts";
import { EmptyQuery } from "../schemas.ts";

/** /sites/{host} → /sites/:host (Fastify's syntax). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1");
}

/** A regular expression matching concrete URLs of a path template. */
export function routePattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[A-Za-z_][A-Za-z0-9_]*\\?\}/g, "[^/]+");
  return new RegExp(`^${escaped}/?$`);
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const REPLAYED_HEADERS = ["content-type", "location"];

/** Adds one operation of the registry as a Fastify route carrying the whole contract pipeline. */
export function registerOperation(
  api: FastifyInstance,
  deps: GatewayDeps,
  op: Operation,
  observe?: (op: Operation, status: number, body: unknown) => void,
): void {
  const routePath = op.path;
  const mutating = MUTATING.has(op.method);
  const nowOf = (request: FastifyRequest) => Math.floor(request.svc.nowMs / 1000);
  const policy = hostPolicyOf(deps.config);
  const hostFields = [...hostFieldsOf(op.params, "params"), ...hostFieldsOf(op.query, "query"), ...hostFieldsOf(op.body, "body")];
  const scope = operationScope(deps, op.uses);

  const preValidation = async (request: FastifyRequest): Promise<void> => {
    const key = readIdempotencyKey(request);
    if (key === null) return;
    request.svc.idempotency = {
      key,
      fingerprint: await fingerprint(op.method, routePath, request.params, request.query, request.body),
      claimed: false,
      replay: false,
    };
  };

  const preHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    for (const { part, name } of hostFields) normalizeHostField(request[part], name, policy);
    const svc = request.svc;
    if (op.scopeFor && svc.auth) {
      const needed = op.scopeFor({ params: request.params, query: request.query, body: request.body });
      if (!svc.auth.scopes.includes(needed)) throw new ApiError("scope", `this request needs the ${needed} scope`, { details: { required: needed } });
    }
    const idem = svc.idempotency;
    if (!idem || !svc.auth) return;
    const outcome = await deps.store.idempotency.claim(
      svc.auth.accountId,
      idem.key,
      idem.fingerprint,
      nowOf(request),
      deps.config.idempotencyLockSeconds,
      deps.config.idempotencyTtlSeconds,
    );
    switch (outcome.kind) {
      case "claimed":
        idem.claimed = true;
        return;
      case "conflict":
        throw new ApiError("idem_conflict", "this Idempotency-Key was already used with a different request", { param: "Idempotency-Key" });
      case "busy":
        throw new ApiError("idem_busy", "a request with this Idempotency-Key is still running; retry in a second", { retryAfter: 1 });
      case "replay":
        idem.replay = true;
        reply.header("Idempotent-Replay", "true");
        // Operations whose data must not be kept execute again; the others answer from storage.
        if (op.idempotency === "fingerprint") return;
        for (const [name, value] of Object.entries(outcome.answer.headers)) reply.header(name, value);
        return reply.code(outcome.answer.status).send(outcome.answer.body);
    }
  };

  api.route({
    method: op.method,
    url: fastifyPath(op.path),
    bodyLimit: op.bodyLimitBytes,
    schema: {
      ...(op.params ? { params: op.params } : {}),
      querystring: op.query ?? EmptyQuery,
      ...(op.body ? { body: op.body } : {}),
    },

    // Who is calling, and may they: before the body is even parsed. Callback form: a known key
    // with units left in this process's hourly block is decided without a promise.
    onRequest: (request, reply, done) => {
      const svc = request.svc;
      svc.op = op;
      const now = nowOf(request);
      if (op.scope === "none") {
        countAddress(deps, svc.address, now).then(({ rate, over }) => {
          svc.rate = rate;
          setRateHeaders(reply, rate);
          done(over ? new ApiError("limit", "too many requests from this address", { retryAfter: rate.resetSeconds, details: { policy: "address" } }) : undefined);
        }, done);
        return;
      }
      if (deps.switches.maintenance) {
        done(new ApiError("maintenance", "the service is under maintenance; try again later", { retryAfter: 60 }));
        return;
      }
      const admitted = (outcome: AuthOutcome): void => {
        svc.rate = outcome.rate;
        setRateHeaders(reply, outcome.rate);
        if (outcome.error) {
          // The caller is known even when refused (scope, ip, limit): their usage counts it.
          if (outcome.auth && outcome.error.http !== 401) svc.auth = outcome.auth;
          done(outcome.error);
          return;
        }
        svc.auth = outcome.auth;
        done();
      };
      let outcome: AuthOutcome | Promise<AuthOutcome>;
      try {
        outcome = authenticate(deps, request, svc.address, op.scope, now);
      } catch (err) {
        done(err as Error);
        return;
      }
      if (outcome instanceof Promise) outcome.then(admitted, done);
      else admitted(outcome);
    },

    // The Idempotency-Key and the request's fingerprint, taken before validation fills defaults.
    // A hook costs every request of its route a turn of Fastify's hook runner: routes that have
    // nothing to do in one (a GET has no key, most have no host field) do not register it.
    ...(mutating ? { preValidation } : {}),
    ...(mutating || hostFields.length > 0 || op.scopeFor ? { preHandler } : {}),

    handler: async (request, reply) => {
      const result = await op.handler({
        params: request.params,
        query: request.query,
        body: request.body,
        deps: scope.deps,
        repos: scope.repos,
        tx: scope.tx,
        auth: request.svc.auth,
        now: nowOf(request),
        request,
      });
      for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
      reply.code(result.status ?? op.status);
      return result.body;
    },

    // Callback form: an answer with no Idempotency-Key to settle and nothing to compress (a small
    // one, or a client that accepts no encoding) leaves without a promise.
    onSend: (request, reply, payload, done) => {
      const svc = request.svc;
      const text = typeof payload === "string" ? payload : null;
      const idem = svc.idempotency;
      const settle = idem?.claimed && !idem.replay && svc.auth ? settleIdempotency(deps.store, op, svc.auth.accountId, idem.key, reply, text) : null;
      const finish = (): unknown => {
        if (text !== null && observe) observe(op, reply.statusCode, text === "" ? null : JSON.parse(text));
        const answer =
          (request.method === "GET" || request.method === "HEAD") && reply.statusCode === 200 && text !== null
            ? conditional(deps, request, reply, text, op.etagOf)
            : payload;
        const encoding = answerEncoding(request, reply, answer);
        return encoding === null ? answer : compressWith(reply, answer as string | Buffer, encoding);
      };
      const finished = (result: unknown) => {
        if (result instanceof Promise) result.then((value) => done(null, value), (err: unknown) => done(err as Error));
        else done(null, result);
      };
      const run = () => {
        let result: unknown;
        try {
          result = finish();
        } catch (err) {
          done(err as Error);
          return;
        }
        finished(result);
      };
      if (settle === null) run();
      else settle.then(run, (err: unknown) => done(err as Error));
    },
  });
}

/**
 * Stores the answer of a claimed Idempotency-Key. A 5xx or any retryable answer (429 limit, 503,
 * 409 not_ready) frees the key instead, so that the retry the answer invites executes rather than
 * replaying the refusal for a day without its Retry-After.
 */
async function settleIdempotency(repos: Pick<Repositories, "idempotency">, op: Operation, accountId: number, key: string, reply: FastifyReply, text: string | null): Promise<void> {
  if (reply.statusCode >= 500 || reply.getHeader("X-Should-Retry") === "true") {
    await repos.idempotency.release(accountId, key);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === "string") headers[name] = value;
  }
  let body = op.idempotency === "fingerprint" ? "" : (text ?? "");
  // Redaction rewrites a success (a created key is not kept); an error is stored as it was sent.
  const success = reply.statusCode >= 200 && reply.statusCode < 300;
  if (op.redactForReplay && success && body !== "") body = JSON.stringify(op.redactForReplay(JSON.parse(body)));
  await repos.idempotency.complete(accountId, key, { status: reply.statusCode, body, headers });
}

/** ETag on every successful GET; a matching If-None-Match answers 304 and gives back the hourly count. */
function conditional(deps: Pick<GatewayDeps, "quota">, request: FastifyRequest, reply: FastifyReply, text: string, etagOf?: (body: unknown) => unknown): string {
  const svc = request.svc;
  // Weak validators: an answer that differs only in fields that tell time is the same resource.
  const validated = etagOf ? JSON.stringify(etagOf(JSON.parse(text))) : text;
  const etag = weakEtag(svc.auth ? `account:${svc.auth.accountId}` : "public", validated);
  reply.header("ETag", etag);
  reply.header("Cache-Control", "private, no-cache");
  reply.header("Vary", "Authorization, X-Api-Key");
  const header = request.headers["if-none-match"];
  if (!ifNoneMatchHits(typeof header === "string" ? header : undefined, etag)) return text;
  const rate = svc.rate;
  if (rate?.counted) {
    rate.used = deps.quota.giveBack(rate.subject, rate.hour) ?? rate.used - 1;
    rate.counted = false;
    setRateHeaders(reply, rate);
  }
  reply.code(304);
  return "";
}

type InputPart = "params" | "query" | "body";

/** The host-format fields of an input's schema (normalised before the handler sees them). */
function hostFieldsOf(schema: TSchema | undefined, part: InputPart): { part: InputPart; name: string }[] {
  const props = (schema as TObject | undefined)?.properties ?? {};
  return Object.entries(props)
    .filter(([, prop]) => (prop as { format?: string }).format === "host")
    .map(([name]) => ({ part, name }));
}

/** Replaces a host-format field of an input with its normalised form. */
function normalizeHostField(value: unknown, name: string, policy: HostPolicy): void {
  if (value === null || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  if (typeof record[name] !== "string") return;
  const res = normalizeHost(record[name], policy);
  if (res.ok) record[name] = res.host;
}
