import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

// An OpenTelemetry collector as far as tests need one: a loopback HTTP server that takes OTLP/HTTP
// JSON posts at /v1/traces and keeps the spans, each with the service.name of its resource.

export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** What SVC_OTLP_ENDPOINT is set to: http://127.0.0.1:<port> */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Posts received, by path and content type (anything but JSON at /v1/traces is answered 415). */
  readonly posts: { path: string; type: string }[];
  close(): Promise<void>;
}

/** OTLP JSON ids are hex; a base64 id (protobuf's JSON mapping) is turned into hex. */
function hexId(id: unknown, bytes: number): string {
  if (typeof id !== "string" || id === "") return "";
  if (new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(id)) return id;
  return Buffer.from(id, "base64").toString("hex");
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

function valueOf(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  return v.doubleValue;
}

function attributesOf(list: { key: string; value?: AnyValue }[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value?: AnyValue }[] };
    scopeSpans?: { spans?: { traceId?: string; spanId?: string; parentSpanId?: string; name?: string; kind?: number; attributes?: { key: string; value?: AnyValue }[] }[] }[];
  }[];
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const posts: { path: string; type: string }[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const type = String(req.headers["content-type"] ?? "");
      posts.push({ path: req.url ?? "", type });
      const text = await bodyOf(req);
      if (req.method !== "POST" || req.url !== "/v1/traces") return res.writeHead(404).end();
      if (!type.startsWith("application/json")) return res.writeHead(415).end();
      const body = JSON.parse(text) as ExportRequest;
      for (const rs of body.resourceSpans ?? []) {
        const name = attributesOf(rs.resource?.attributes)["service.name"];
        const service = typeof name === "string" ? name : "";
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: hexId(s.traceId, 16),
              spanId: hexId(s.spanId, 8),
              parentSpanId: hexId(s.parentSpanId, 8),
              name: s.name ?? "",
              kind: s.kind ?? 0,
              attributes: attributesOf(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    })().catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
