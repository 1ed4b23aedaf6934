import { createHash, randomBytes } from "node:crypto";

// An OAuth 2.1 client as an MCP client runs it against a listening gateway: registration, the
// consent form, the token endpoint with PKCE, refresh.

export const OAUTH_REDIRECT = "http://127.0.0.1:7777/callback";

export interface TokenAnswer {
  readonly status: number;
  readonly body: { access_token: string; refresh_token: string; expires_in: number; scope: string; error?: string; error_description?: string };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function oauthClient(base: string) {
  const form = (path: string, fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) body.append(k, item);
    return fetch(base + path, { method: "POST", body, redirect: "manual" });
  };
  const token = async (fields: Record<string, string>): Promise<TokenAnswer> => {
    const res = await form("/api/v1/oauth/token", fields);
    return { status: res.status, body: (await res.json()) as TokenAnswer["body"] };
  };
  return {
    form,
    token,
    async register(): Promise<string> {
      const res = await fetch(`${base}/api/v1/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Hostile Agent", redirect_uris: [OAUTH_REDIRECT] }) });
      return ((await res.json()) as { client_id: string }).client_id;
    },
    /** Posts the consent form signed in with apiKey: the code, or the page's status and text. */
    async consent(clientId: string, apiKey: string, scopes: string[] = ["read", "write"]): Promise<{ code: string | null; verifier: string; status: number; page: string }> {
      const p = pkce();
      const res = await form("/api/v1/oauth/authorize", {
        response_type: "code",
        client_id: clientId,
        redirect_uri: OAUTH_REDIRECT,
        code_challenge: p.challenge,
        code_challenge_method: "S256",
        resource: `${base}/api/v1/mcp`,
        scope: scopes,
        api_key: apiKey,
        decision: "allow",
      });
      const location = res.headers.get("location");
      return { code: location ? new URL(location).searchParams.get("code") : null, verifier: p.verifier, status: res.status, page: location ? "" : await res.text() };
    },
    exchange: (clientId: string, code: string, verifier: string) => token({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: OAUTH_REDIRECT }),
    refresh: (clientId: string, refreshToken: string) => token({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId }),
  };
}
