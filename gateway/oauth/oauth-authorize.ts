import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Scope } from "../contracts/index.ts";
import type { Repositories } from "../../storage/index.ts";
import type { GatewayDeps } from "../deps.ts";
import { hashKey } from "../keys/api-key.ts";
import { addressAllowed, countAddress } from "../pipeline/auth.ts";
import { hourOf } from "../pipeline/rate-headers.ts";
import { trustedOrigin } from "../http/public-origin.ts";
import { renderConsentPage, renderErrorPage } from "./consent-page.ts";
import { oauthUrls, type OAuthUrls } from "./oauth-urls.ts";
import { CODE_TTL_S, parseScopes, randomToken, redirectMatches, resourceOf, sha256Hex, validChallenge, withParams } from "./oauth-rules.ts";

// GET /oauth/authorize shows the consent page; POST /oauth/authorize is its form. The owner signs
// in with one of their API keys (Svc has no passwords: a key is how an account proves itself) and
// picks the scopes; the client gets a code bound to its PKCE challenge, redirect URI, resource and
// those scopes. Until the redirect URI is known to be the client's, errors are shown as a page and
// never sent to it (RFC 6749 §4.1.2.1).

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  // No form-action: after the form, the answer redirects to the client, which form-action would block.
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

type Fields = Record<string, string | string[] | undefined>;

/** A validated authorization request. */
export interface AuthorizationRequest {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly state: string | undefined;
  readonly resource: string;
  readonly scopes: Scope[];
}

function one(fields: Fields, name: string): string | undefined {
  const v = fields[name];
  return Array.isArray(v) ? v[0] : v;
}

type Checked = { readonly ok: AuthorizationRequest } | { readonly page: string } | { readonly redirect: string };

/** Checks the parameters of an authorization request, in the order RFC 6749 §4.1.2.1 requires. */
async function checkRequest(repos: Pick<Repositories, "oauth">, urls: OAuthUrls, fields: Fields): Promise<Checked> {
  const clientId = one(fields, "client_id");
  const client = clientId ? await repos.oauth.client(clientId) : null;
  if (!client) return { page: "This application is not registered with Svc (unknown client_id)." };
  const redirectUri = one(fields, "redirect_uri");
  if (!redirectUri || !redirectMatches(redirectUri, client.redirect_uris)) {
    return { page: "The redirect_uri is not one this application registered; nothing was sent to it." };
  }
  const state = one(fields, "state");
  const fail = (error: string, description: string): Checked => ({ redirect: withParams(redirectUri, { error, error_description: description, state, iss: urls.issuer }) });
  if (one(fields, "response_type") !== "code") return fail("unsupported_response_type", "response_type must be code");
  const challenge = one(fields, "code_challenge");
  if (!challenge || !validChallenge(challenge)) return fail("invalid_request", "PKCE is required: send code_challenge (43-128 characters)");
  if (one(fields, "code_challenge_method") !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  const resource = resourceOf(one(fields, "resource"), urls);
  if (resource === null) return fail("invalid_target", `this server issues tokens for ${urls.resource} only`);
  const rawScope = fields.scope;
  const scopes = parseScopes(Array.isArray(rawScope) ? rawScope.join(" ") : rawScope, ["read"]);
  if (scopes === null) return fail("invalid_scope", "scopes are read, run and write");
  return { ok: { clientId: client.id, clientName: client.name, redirectUri, codeChallenge: challenge, state, resource, scopes } };
}

function answer(reply: FastifyReply, checked: Exclude<Checked, { ok: AuthorizationRequest }>): FastifyReply {
  if ("page" in checked) return reply.code(400).headers(PAGE_HEADERS).send(renderErrorPage(checked.page));
  return reply.redirect(checked.redirect, 302);
}

export function registerAuthorize(api: FastifyInstance, deps: Omit<GatewayDeps, "store">, repos: Pick<Repositories, "oauth">): void {
  const urlsOf = (request: FastifyRequest) => oauthUrls(trustedOrigin(deps, request));

  api.get("/oauth/authorize", async (request, reply) => {
    request.svc.page = "/api/v1/oauth/authorize";
    const checked = await checkRequest(repos, urlsOf(request), request.query as Fields);
    if (!("ok" in checked)) return answer(reply, checked);
    return reply.headers(PAGE_HEADERS).send(renderConsentPage(checked.ok, null));
  });

  api.post("/oauth/authorize", async (request, reply) => {
    request.svc.page = "/api/v1/oauth/authorize";
    const urls = urlsOf(request);
    const form = (request.body ?? {}) as Fields;
    const checked = await checkRequest(repos, urls, form);
    if (!("ok" in checked)) return answer(reply, checked);
    const req = checked.ok;
    if (one(form, "decision") !== "allow") {
      return reply.redirect(withParams(req.redirectUri, { error: "access_denied", error_description: "the owner declined", state: req.state, iss: urls.issuer }), 302);
    }
    const now = Math.floor(request.svc.nowMs / 1000);
    const signIn = async (message: string) => {
      // A failed sign-in counts against the address, as a failed API call does: keys are not guessed.
      await countAddress(deps, request.svc.address, now);
      return reply.code(400).headers(PAGE_HEADERS).send(renderConsentPage(req, message));
    };
    const key = (one(form, "api_key") ?? "").trim();
    const row = key === "" ? null : await deps.keys.get(hashKey(key));
    if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now) || row.blocked) return signIn("That key is not a usable Svc API key.");
    if (row.kind !== "api") return signIn("Sign in with an API key, not with a token another application holds.");
    // The grant is never stronger than the key (oauth-repo.ts narrows its tokens): a key that may
    // not be used from here may not sign in from here, and a key past its hour signs in nothing.
    if (!addressAllowed(request.svc.address, row.allowed_ips)) return signIn(`That key may not be used from your address (${request.svc.address}).`);
    const { hour } = hourOf(now);
    if (!(await deps.quota.take(`k:${row.key_id}`, hour, row.rate_limit_per_hour)).admitted) return signIn("That key's hourly limit is reached; try again next hour.");
    // The client asked for req.scopes; the owner may narrow them, and never grant what the key lacks.
    const picked = parseScopes([form.scope ?? []].flat().join(" "), []) ?? [];
    const scopes = picked.filter((s) => req.scopes.includes(s) && row.scopes.includes(s));
    if (scopes.length === 0) return signIn("Pick at least one scope that your key holds.");
    const code = randomToken();
    await repos.oauth.insertCode(
      { hash: sha256Hex(code), clientId: req.clientId, accountId: row.account_id, keyId: row.key_id, redirectUri: req.redirectUri, codeChallenge: req.codeChallenge, resource: req.resource, scopes, expiresAt: now + CODE_TTL_S },
      now,
    );
    return reply.redirect(withParams(req.redirectUri, { code, state: req.state, iss: urls.issuer }), 302);
  });
}
