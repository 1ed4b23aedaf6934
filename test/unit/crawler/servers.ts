// Real loopback servers and real certificates for the crawler tests.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo, Socket } from "node:net";
import type { ResolvedAddress } from "../../../crawler/index.ts";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  readonly port: number;
  /** `http(s)://127.0.0.1:port` */
  readonly origin: string;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Requests seen, as "METHOD /path". */
  readonly requests: string[];
  /** Headers of the last request. */
  lastHeaders(): IncomingMessage["headers"];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: string): Promise<TestServer> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let headers: IncomingMessage["headers"] = {};
  server.on("connection", (s: Socket) => {
    connections += 1;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("request", (req: IncomingMessage) => {
    requests.push(`${req.method} ${req.url}`);
    headers = req.headers;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `${scheme}://127.0.0.1:${port}`,
    connections: () => connections,
    requests,
    lastHeaders: () => headers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function startHttp(handler: Handler): Promise<TestServer> {
  return listen(createHttpServer(handler), "http");
}

export function startHttps(handler: Handler, tls: { key: string; cert: string }): Promise<TestServer> {
  return listen(createHttpsServer({ key: tls.key, cert: tls.cert }, handler), "https");
}

export interface KeyPair {
  readonly key: string;
  readonly cert: string;
}

export interface TestCerts {
  /** The test CA (pass as extraCa). */
  readonly ca: string;
  /** CN svc.test, SAN svc.test, www.svc.test, 127.0.0.1; valid 30 days. */
  readonly valid: KeyPair;
  /** Same names, but notAfter is in the past (openssl -days -1). */
  readonly expired: KeyPair;
  /** CN other.test, SAN other.test only. */
  readonly wrongName: KeyPair;
}

/** A CA and three leaf certificates made with openssl (EC P-256: fast). */
export function makeCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), "svc-certs-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  try {
    run("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/O=Svc Test/CN=Svc Test CA");
    const leaf = (name: string, cn: string, san: string, days: string): KeyPair => {
      writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san}\n`);
      run("req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`);
      run("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.pem`, "-days", days, "-extfile", `${name}.ext`);
      return { key: readFileSync(join(dir, `${name}.key`), "utf8"), cert: readFileSync(join(dir, `${name}.pem`), "utf8") };
    };
    return {
      ca: readFileSync(join(dir, "ca.pem"), "utf8"),
      valid: leaf("valid", "svc.test", "DNS:svc.test,DNS:www.svc.test,IP:127.0.0.1", "30"),
      expired: leaf("expired", "svc.test", "DNS:svc.test,DNS:www.svc.test,IP:127.0.0.1", "-1"),
      wrongName: leaf("wrong", "other.test", "DNS:other.test", "30"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A resolver port that maps names to fixed addresses and counts its calls. */
export function fixedResolver(map: Record<string, string[]>) {
  const calls: string[] = [];
  const resolver = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const addrs = map[host];
    if (!addrs) throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: "ENOTFOUND", syscall: "queryA", hostname: host });
    return addrs.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolver, calls };
}
