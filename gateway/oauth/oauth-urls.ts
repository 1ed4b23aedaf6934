import { API_BASE_PATH, MCP_PATH } from "../mcp/mcp-paths.ts";

/**
 * The identifiers and addresses of the tool server and its authorization server, from the public
 * origin. The issuer is the API base (origin + /api/v1), whose OAuth endpoints sit under it; the
 * protected resource is the tool server's URL, exactly, without a trailing slash. The metadata
 * documents sit at the origin's /.well-known/ with the identifier's path appended (RFC 8414 §3.1,
 * RFC 9728 §3.1).
 */
export interface OAuthUrls {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadata: string;
  readonly authServerMetadata: string;
  readonly authorize: string;
  readonly token: string;
  readonly register: string;
  readonly revoke: string;
}

export const PROTECTED_RESOURCE_WELL_KNOWN = "/.well-known/oauth-protected-resource";
export const AUTH_SERVER_WELL_KNOWN = "/.well-known/oauth-authorization-server";

export function oauthUrls(origin: string): OAuthUrls {
  const issuer = origin + API_BASE_PATH;
  return {
    issuer,
    resource: origin + MCP_PATH,
    resourceMetadata: origin + PROTECTED_RESOURCE_WELL_KNOWN + MCP_PATH,
    authServerMetadata: origin + AUTH_SERVER_WELL_KNOWN + API_BASE_PATH,
    authorize: `${issuer}/oauth/authorize`,
    token: `${issuer}/oauth/token`,
    register: `${issuer}/oauth/register`,
    revoke: `${issuer}/oauth/revoke`,
  };
}
