import { createServer, request, type Server } from "node:http";

// A loopback reverse proxy that adds headers to every request: for clients that cannot send a
// header themselves (the MCP conformance runner has no option for an API key).

export interface HeaderProxy {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startHeaderProxy(target: string, headers: Record<string, string>): Promise<HeaderProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host, ...headers } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
