import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { generateKey, hashKey, keyPrefix } from "../keys/api-key.ts";
import { countAddress } from "../pipeline/auth.ts";
import { setRateHeaders } from "../pipeline/rate-headers.ts";
import { nulField } from "../pipeline/validation.ts";
import { trustedOrigin } from "../http/public-origin.ts";
import { API_BASE_PATH } from "../mcp/mcp-paths.ts";
import type { IssuedTokens, Refused, Repositories, TokenIssue, TokenRefusal } from "../../storage/index.ts";
import { registerAuthorize } from "./oauth-authorize.ts";
import { AUTH_SERVER_WELL_KNOWN, PROTECTED_RESOURCE_WELL_KNOWN, oauthUrls, type OAuthUrls } from "./oauth-urls.ts";
import { OAuthError, REFRESH_TTL_S, SCOPE_NAMES, randomToken, registrableRedirect, resourceOf, sha256Hex, verifierMatches } from "./oauth-rules.ts";

// OAuth 2.1 for the tool server (spec: Authentication 7): discovery (RFC 9728, RFC 8414), dynamic
// registration of public clients (RFC 7591), authorization with PKCE S256 (oauth-authorize.ts),
// the token endpoint (code and refresh token, rotated on every use) and revocation (RFC 7009).
// The access token is an ordinary API key of kind oauth: short-lived, the chosen scopes, valid in
// the REST API as on the tool server. Answers use OAuth's error shape ({error, error_description}).

type Fields = Record<string, string | string[] | undefined>;

const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version", "Access-Control-Allow-Methods": "GET, POST, OPTIONS" };
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

function one(fields: Fields, name: string): string | undefined {
  const v = fields[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseForm(text: string): Fields {
  const out: Fields = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [prev, v].flat();
  }
  return out;
}

export function protectedResourceMetadata(urls: OAuthUrls) {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: SCOPE_NAMES,
    bearer_methods_supported: ["header"],
    resource_name: "Svc tool server",
    resource_documentation: `${new URL(urls.issuer).origin}${API_BASE_PATH}/openapi.json`,
  };
}

export function authorizationServerMetadata(urls: OAuthUrls) {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: SCOPE_NAMES,
    authorization_response_iss_parameter_supported: true,
  };
}

/** Registers the discovery documents (at the origin) and the OAuth endpoints (under /api/v1). */
export function registerOAuth(app: FastifyInstance, deps: Omit<GatewayDeps, "store">, repos: Pick<Repositories, "oauth">): void {
  const urlsOf = (request: FastifyRequest) => oauthUrls(trustedOrigin(deps, request));
  const discovery = (path: string, document: (urls: OAuthUrls) => unknown) => {
    app.get(path, async (request, reply) => {
      request.svc.page = path;
      return reply.headers({ ...CORS, "Cache-Control": "public, max-age=3600", Vary: "Host" }).send(document(urlsOf(request)));
    });
    app.options(path, async (_request, reply) => reply.code(204).headers(CORS).send());
  };
  // RFC 9728 §3.1 (the resource's path appended), the origin's plain one that MCP clients try
  // next, and the spec's own wording (relative to /api/v1).
  for (const path of [PROTECTED_RESOURCE_WELL_KNOWN + API_BASE_PATH + "/mcp", PROTECTED_RESOURCE_WELL_KNOWN, API_BASE_PATH + PROTECTED_RESOURCE_WELL_KNOWN]) {
    discovery(path, protectedResourceMetadata);
  }
  // RFC 8414 §3.1 for the issuer https://host/api/v1, and the spec's wording.
  for (const path of [AUTH_SERVER_WELL_KNOWN + API_BASE_PATH, API_BASE_PATH + AUTH_SERVER_WELL_KNOWN]) {
    discovery(path, authorizationServerMetadata);
  }

  void app.register(
    async (api) => {
      api.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, text, done) => done(null, parseForm(text as string)));
      // Every OAuth endpoint counts against the caller's address, like keyless API routes.
      api.addHook("onRequest", async (request, reply) => {
        if (request.method === "OPTIONS") return;
        const { rate, over } = await countAddress(deps, request.svc.address, Math.floor(request.svc.nowMs / 1000));
        setRateHeaders(reply, rate);
        if (over) throw new ApiError("limit", "too many requests from this address", { retryAfter: rate.resetSeconds, details: { policy: "address" } });
      });
      // No value of these forms may hold U+0000 (the store refuses it in text): refused before any lookup.
      api.addHook("preHandler", async (request) => {
        const field = nulField(request.body) ?? nulField(request.query);
        if (field === null) return;
        const code = request.url.startsWith(`${API_BASE_PATH}/oauth/register`) ? "invalid_client_metadata" : "invalid_request";
        throw new OAuthError(code, `${field === "" ? "the request" : field} contains U+0000 (NUL), which no value may hold`);
      });
      api.setErrorHandler(async (err, request, reply) => {
        if (err instanceof ApiError) throw err;
        if (err instanceof OAuthError) return sendOAuthError(reply, err);
        const status = (err as { statusCode?: number }).statusCode ?? 500;
        if (status >= 500) throw err;
        return sendOAuthError(reply, new OAuthError("invalid_request", "the request could not be read"));
      });
      for (const path of ["/oauth/register", "/oauth/token", "/oauth/revoke"]) api.options(path, async (_r, reply) => reply.code(204).headers(CORS).send());

      registerAuthorize(api, deps, repos);

      api.post("/oauth/register", { bodyLimit: 64 * 1024 }, async (request, reply) => {
        request.svc.page = "/api/v1/oauth/register";
        const body = (request.body ?? {}) as Record<string, unknown>;
        const uris = body.redirect_uris;
        if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every((u) => typeof u === "string" && registrableRedirect(u))) {
          throw new OAuthError("invalid_redirect_uri", "redirect_uris: 1-10 URIs, each https, http on a loopback host, or a private-use scheme; no fragment");
        }
        const method = body.token_endpoint_auth_method ?? "none";
        if (method !== "none") throw new OAuthError("invalid_client_metadata", "only public clients are registered: token_endpoint_auth_method must be none");
        const grants = body.grant_types ?? ["authorization_code", "refresh_token"];
        if (!Array.isArray(grants) || !grants.every((g) => g === "authorization_code" || g === "refresh_token")) {
          throw new OAuthError("invalid_client_metadata", "grant_types: authorization_code and refresh_token");
        }
        const name = typeof body.client_name === "string" && body.client_name.trim() !== "" ? body.client_name.trim().slice(0, 100) : "An MCP client";
        const now = Math.floor(request.svc.nowMs / 1000);
        const client = await repos.oauth.registerClient({ id: `svc_client_${randomToken(18)}`, name, redirectUris: uris as string[] }, now);
        return reply
          .code(201)
          .headers({ ...CORS, ...NO_STORE })
          .send({
            client_id: client.id,
            client_id_issued_at: client.created,
            client_name: client.name,
            redirect_uris: client.redirect_uris,
            grant_types: grants,
            response_types: ["code"],
            token_endpoint_auth_method: "none",
            application_type: body.application_type === "native" ? "native" : "web",
          });
      });

      api.post("/oauth/token", { bodyLimit: 16 * 1024 }, async (request, reply) => {
        request.svc.page = "/api/v1/oauth/token";
        const form = (request.body ?? {}) as Fields;
        const urls = urlsOf(request);
        const now = Math.floor(request.svc.nowMs / 1000);
        const clientId = one(form, "client_id");
        if (!clientId) throw new OAuthError("invalid_request", "client_id is required");
        if (!(await repos.oauth.client(clientId))) throw new OAuthError("invalid_client", "unknown client_id", 401);
        const fresh = freshTokens(deps, now);
        let issued: IssuedTokens | Refused;
        switch (one(form, "grant_type")) {
          case "authorization_code": {
            const code = one(form, "code");
            const verifier = one(form, "code_verifier");
            const redirectUri = one(form, "redirect_uri");
            if (!code || !verifier) throw new OAuthError("invalid_request", "code and code_verifier are required (PKCE)");
            const resource = resourceOf(one(form, "resource"), urls);
            issued = await repos.oauth.exchangeCode(sha256Hex(code), clientId, now, (row) => {
              if (redirectUri !== undefined && redirectUri !== row.redirect_uri) return "redirect_uri differs from the authorization request's";
              if (!verifierMatches(verifier, row.code_challenge)) return "code_verifier does not match the code_challenge";
              if (resource !== row.resource) return "resource differs from the authorization request's";
              return null;
            }, fresh.issue);
            break;
          }
          case "refresh_token": {
            const token = one(form, "refresh_token");
            if (!token) throw new OAuthError("invalid_request", "refresh_token is required");
            issued = await repos.oauth.rotateRefresh(sha256Hex(token), clientId, now, fresh.issue);
            break;
          }
          default:
            throw new OAuthError("unsupported_grant_type", "grant_type is authorization_code or refresh_token");
        }
        for (const id of issued.revokedKeys) deps.keys.onChange(`key:${id}`);
        if ("refusal" in issued) throw new OAuthError("invalid_grant", issued.reason ?? REFUSALS[issued.refusal]);
        return reply.headers({ ...CORS, ...NO_STORE }).send({
          access_token: fresh.accessToken,
          token_type: "Bearer",
          expires_in: issued.accessExpiresAt - now,
          refresh_token: fresh.refreshToken,
          scope: issued.scopes.join(" "),
        });
      });

      api.post("/oauth/revoke", { bodyLimit: 16 * 1024 }, async (request, reply) => {
        request.svc.page = "/api/v1/oauth/revoke";
        const token = one((request.body ?? {}) as Fields, "token");
        if (!token) throw new OAuthError("invalid_request", "token is required");
        // Refresh tokens are stored as hex SHA-256 of the token, access keys likewise (hashKey).
        const revoked = await repos.oauth.revokeToken(token.startsWith("svc_") ? hashKey(token) : sha256Hex(token), Math.floor(request.svc.nowMs / 1000));
        for (const id of revoked) deps.keys.onChange(`key:${id}`);
        // RFC 7009 §2.2: 200 whether or not the token was known.
        return reply.headers({ ...CORS, ...NO_STORE }).send({});
      });
    },
    { prefix: API_BASE_PATH },
  );
}

const REFUSALS: Record<TokenRefusal, string> = {
  unknown: "unknown code or token",
  expired: "the code or token has expired",
  reused: "the code or token was already used; everything issued from it is revoked",
  revoked: "the grant was revoked",
  client: "the code or token was issued to another client",
  plan: "the account's plan has no room for another key",
};

/**
 * A new access key and refresh token, to be stored under a grant by the repository, which narrows
 * them to the consenting key's bounds (addresses, hourly limit, expiry).
 */
function freshTokens(deps: Pick<GatewayDeps, "config" | "random">, now: number): { accessToken: string; refreshToken: string; issue: TokenIssue } {
  const accessToken = generateKey(deps.random);
  const refreshToken = `svcr_${randomToken()}`;
  return {
    accessToken,
    refreshToken,
    issue: {
      accessKey: {
        name: "oauth access token",
        prefix: keyPrefix(accessToken),
        hash: hashKey(accessToken),
        ratePerHour: deps.config.ratePerHourDefault,
        expiresAt: now + deps.config.oauthAccessTtlSeconds,
      },
      refreshHash: sha256Hex(refreshToken),
      refreshExpiresAt: now + REFRESH_TTL_S,
    },
  };
}

function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  const headers: Record<string, string> = { ...CORS, ...NO_STORE };
  if (err.status === 401) headers["WWW-Authenticate"] = 'Basic realm="svc"';
  return reply.code(err.status).headers(headers).type("application/json").send({ error: err.error, error_description: err.message });
}
