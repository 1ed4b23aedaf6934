import { OPERATIONS, type SvcOperations } from "./operations.gen.ts";
import { RestClient, type CallOptions, type ClientOptions } from "./rest-client.ts";

/** The typed client: one method per operation, and the RestClient beneath it (waitForJob, get). */
export type SvcClient = SvcOperations & { readonly rest: RestClient };

/** listSites for list_sites: the client's method names. */
export function methodName(operationId: string): string {
  return operationId.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * A typed client of every operation. GETs remember their last ETag (etagCacheSize, 100 unless
 * set): asking again for an unchanged answer costs a 304 that the hourly limit does not count.
 */
export function createClient(options: ClientOptions): SvcClient {
  const rest = new RestClient({ etagCacheSize: 100, ...options });
  const client: Record<string, unknown> = { rest };
  for (const op of OPERATIONS) {
    client[methodName(op.id)] = async (fields: Record<string, unknown> = {}, callOptions?: CallOptions) => (await rest.call(op, fields, callOptions)).body;
  }
  return client as unknown as SvcClient;
}
