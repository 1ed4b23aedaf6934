import type { AuthorizationRequest } from "./oauth-authorize.ts";
import { SCOPE_NAMES } from "./oauth-rules.ts";

// The consent page: who asks (the client's self-declared name and, which cannot be faked, the host
// the answer goes to), for which scopes, and a sign-in with one of the owner's API keys.

const SCOPE_TEXT: Record<string, string> = {
  read: "read your sites, reports, tasks and jobs",
  run: "start checks, analyses and crawls (counted against your plan)",
  write: "change your sites, tasks and profiles",
};

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}" +
  "fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0}label{display:block;margin:.3rem 0}" +
  "input[type=password]{width:100%;padding:.4rem;font:inherit}.err{color:#a40000}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function hidden(name: string, value: string | undefined): string {
  return value === undefined ? "" : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function renderConsentPage(req: AuthorizationRequest, error: string | null): string {
  const target = new URL(req.redirectUri);
  const where = target.protocol === "https:" || target.protocol === "http:" ? target.host : target.protocol.slice(0, -1);
  const scopes = SCOPE_NAMES.filter((s) => req.scopes.includes(s))
    .map((s) => `<label><input type="checkbox" name="scope" value="${s}" checked> <b>${s}</b>: ${SCOPE_TEXT[s]}</label>`)
    .join("");
  return page(
    "Allow access to Svc",
    `<h1>Allow access to Svc?</h1>
<p><b>${escapeHtml(req.clientName)}</b> (answers go to <b>${escapeHtml(where)}</b>) asks to act for you through Svc's tool server. Only allow applications you trust: the name above is chosen by the application itself.</p>
${error ? `<p class="err">${escapeHtml(error)}</p>` : ""}
<form method="post" action="">
${hidden("client_id", req.clientId)}${hidden("redirect_uri", req.redirectUri)}${hidden("response_type", "code")}${hidden("code_challenge", req.codeChallenge)}${hidden("code_challenge_method", "S256")}${hidden("state", req.state)}${hidden("resource", req.resource)}
<fieldset><legend>What it may do (uncheck to narrow)</legend>${scopes}</fieldset>
<label>Sign in with one of your API keys (it never reaches the application; the application gets a short-lived key of its own)
<input type="password" name="api_key" autocomplete="off" required></label>
<p><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`,
  );
}

export function renderErrorPage(message: string): string {
  return page("Authorization refused", `<h1>Authorization refused</h1><p>${escapeHtml(message)}</p>`);
}
