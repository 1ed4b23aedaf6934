import type { Queryable } from "../engine/db.ts";
import { KEY_CHANGES_CHANNEL } from "./auth-repo.ts";

/**
 * Ends OAuth grants and every access key issued under them, announcing each key to the caches.
 * `which` picks the grants: by id, or every grant a consenting API key signed. Returns the access
 * keys revoked. The one place that ends grants, for the OAuth endpoints and for key revocation.
 */
export async function revokeGrants(q: Queryable, which: { readonly grantId: number } | { readonly keyId: number }, now: number): Promise<number[]> {
  const [column, id] = "grantId" in which ? ["id", which.grantId] : ["key_id", which.keyId];
  const grants = await q.query<{ id: number }>(`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $2) WHERE ${column} = $1 RETURNING id`, [id, now]);
  if (grants.length === 0) return [];
  return revokeAccessKeys(q, grants.map((g) => g.id), now);
}

/** Revokes the live access keys of the given grants (a refresh ends the token it replaces). */
export async function revokeAccessKeys(q: Queryable, grantIds: readonly number[], now: number): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    `WITH u AS (UPDATE api_keys SET revoked_at = $2 WHERE oauth_grant_id = ANY($1::bigint[]) AND revoked_at IS NULL RETURNING id)
     SELECT u.id FROM u CROSS JOIN LATERAL (SELECT pg_notify('${KEY_CHANGES_CHANNEL}', 'key:' || u.id)) n`,
    [grantIds, now],
  );
  return rows.map((r) => r.id);
}
