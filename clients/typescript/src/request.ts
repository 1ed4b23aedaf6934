// How an operation's fields, given side by side, become a REST request. Shared by this package, the
// `svc` command line and the MCP tool server (through gateway/client/), so the three place a field
// the same way.

/** What the client needs of an operation: where it lives and which fields go where. */
export interface OperationShape {
  /** The spec's tool name, e.g. list_sites. */
  readonly id: string;
  readonly method: string;
  /** Path relative to /api/v1, with {name} parameters. */
  readonly path: string;
  readonly params?: FieldNames | undefined;
  readonly query?: FieldNames | undefined;
  /** Present when the operation takes a JSON body. */
  readonly body?: FieldNames | undefined;
}

/** An object schema's field names (an operation contract's TypeBox schema is one). */
export interface FieldNames {
  readonly properties?: Readonly<Record<string, unknown>>;
  // Any other keyword of the schema (an OperationContract's TypeBox schemas pass as they are).
  readonly [keyword: string]: unknown;
}

/** An operation's REST request built from its fields given side by side (path, query and body). */
export interface RestRequest {
  readonly method: string;
  /** Path and query string, from /api/v1 on. */
  readonly url: string;
  /** The JSON body, for operations that take one. */
  readonly body?: Record<string, unknown>;
}

/** A path parameter that cannot be placed in the path: missing, or a dot segment. */
export class MissingPathParameter extends Error {
  constructor(
    readonly param: string,
    message = `${param} is required`,
  ) {
    super(message);
  }
}

const namesOf = (part: FieldNames | undefined): string[] => Object.keys(part?.properties ?? {});

/**
 * Places each field where its operation takes it: path parameters into the path, query fields
 * into the query string, body fields into the body. A field the operation does not know goes in
 * the body (or the query of an operation without a body) so that the API refuses it by name, as it
 * would over HTTP. Names in `skip` are left out (e.g. the MCP tools' idempotency_key).
 */
export function requestOf(op: OperationShape, fields: Readonly<Record<string, unknown>>, skip: readonly string[] = []): RestRequest {
  const pathNames = namesOf(op.params);
  const queryNames = namesOf(op.query);
  const bodyNames = namesOf(op.body);
  let path = `/api/v1${op.path}`;
  for (const name of pathNames) {
    const value = fields[name];
    if (value === undefined || value === null || value === "") throw new MissingPathParameter(name);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    // A URL resolves "." and ".." (escaped or not) as dot segments: the request would reach another route.
    if (text === "." || text === "..") throw new MissingPathParameter(name, `${name} may not be "${text}"`);
    path = path.replace(`{${name}}`, encodeURIComponent(text));
  }
  const hasBody = op.body !== undefined;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (pathNames.includes(name) || skip.includes(name) || value === undefined) continue;
    // defineProperty: a field named __proto__ is a field (refused by name), not the body's prototype.
    if (bodyNames.includes(name) || (!queryNames.includes(name) && hasBody)) Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
    else for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === "object" ? JSON.stringify(item) : String(item as string | number | boolean));
  }
  const qs = query.toString();
  return { method: op.method, url: qs === "" ? path : `${path}?${qs}`, ...(hasBody ? { body } : {}) };
}

/** An operation's shape from its field names (the generated operation table's rows). */
export function shape(id: string, method: string, path: string, params: readonly string[], query: readonly string[], body: readonly string[] | null): OperationShape {
  const part = (names: readonly string[]): FieldNames => ({ properties: Object.fromEntries(names.map((n) => [n, {}])) });
  return { id, method, path, ...(params.length > 0 ? { params: part(params) } : {}), ...(query.length > 0 ? { query: part(query) } : {}), ...(body ? { body: part(body) } : {}) };
}
