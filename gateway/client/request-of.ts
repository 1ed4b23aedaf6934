import type { OperationContract } from "../contracts/index.ts";

/** An operation's REST request built from its fields given side by side (path, query and body). */
export interface RestRequest {
  readonly method: string;
  /** Path and query string, from /api/v1 on. */
  readonly url: string;
  /** The JSON body, for operations that take one. */
  readonly body?: Record<string, unknown>;
}

export class MissingPathParameter extends Error {
  constructor(readonly param: string) {
    super(`${param} is required`);
  }
}

function namesOf(schema: unknown): string[] {
  return Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
}

/**
 * Places each field where its operation takes it: path parameters into the path, query fields
 * into the query string, body fields into the body. A field the operation does not know goes in
 * the body (or the query of an operation without a body) so that the API refuses it by name, as it
 * would over HTTP. Names in `skip` are left out (e.g. the MCP tools' idempotency_key).
 */
export function requestOf(op: OperationContract, fields: Readonly<Record<string, unknown>>, skip: readonly string[] = []): RestRequest {
  const pathNames = namesOf(op.params);
  const queryNames = namesOf(op.query);
  const bodyNames = namesOf(op.body);
  let path = `/api/v1${op.path}`;
  for (const name of pathNames) {
    const value = fields[name];
    if (value === undefined || value === null || value === "") throw new MissingPathParameter(name);
    path = path.replace(`{${name}}`, encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value)));
  }
  const hasBody = op.body !== undefined;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (pathNames.includes(name) || skip.includes(name) || value === undefined) continue;
    if (bodyNames.includes(name) || (!queryNames.includes(name) && hasBody)) body[name] = value;
    else for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === "object" ? JSON.stringify(item) : String(item as string | number | boolean));
  }
  const qs = query.toString();
  return { method: op.method, url: qs === "" ? path : `${path}?${qs}`, ...(hasBody ? { body } : {}) };
}
