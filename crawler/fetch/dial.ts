// The one dialler of a crawler node. Every socket Svc opens to a user-supplied address is made
// here: the name is resolved once and judged by the egress policy (egress.ts), and the socket goes
// to exactly the address that was judged (a second lookup is what DNS rebinding would answer). TLS
// runs over that socket with one of a few shared secure contexts, so the CA bundle is parsed once
// per process and kind of handshake, never per connection.
import { connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect, createSecureContext, rootCertificates, type ConnectionOptions, type SecureContext, type SecureVersion, type TLSSocket } from "node:tls";
import { performance } from "node:perf_hooks";

/** One address of a name, as the egress resolved and admitted it. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A TLS handshake over the dialled socket. */
export interface DialTls {
  /** SNI and the name the certificate is checked against; default: the dialled host when it is a name. */
  readonly servername?: string;
  readonly minVersion?: SecureVersion;
  readonly maxVersion?: SecureVersion;
  /** OpenSSL cipher list (`DEFAULT@SECLEVEL=0` lets TLS 1.0 and 1.1 be offered at all). */
  readonly ciphers?: string;
  readonly alpn?: readonly string[];
  /** Fail the handshake on a certificate the trust store refuses (default true); `authorized` tells either way. */
  readonly rejectUnauthorized?: boolean;
  /** Ask for a stapled OCSP response (`ocspStapled` in the result). */
  readonly requestOCSP?: boolean;
}

export interface DialOptions {
  readonly tls?: DialTls;
  /** Connect and handshake together; default the egress's connect timeout. */
  readonly timeoutMs?: number;
  /** Stops the dial (and destroys the socket) when aborted. */
  readonly signal?: AbortSignal;
}

/** A connected socket, the address it went to and how long each stage took (ms, one decimal). */
export interface Dialled<S extends Socket = Socket> {
  readonly socket: S;
  readonly address: ResolvedAddress;
  /** From dialling the address to the TCP connection. */
  readonly connectMs: number;
  /** From the TCP connection to the end of the handshake; 0 without TLS. */
  readonly tlsMs: number;
  /** Whether the server stapled an OCSP response (asked with `requestOCSP`). */
  readonly ocspStapled: boolean;
}

/** Dials host:port under the egress policy (see Egress.dial). */
export interface Dial {
  (host: string, port: number, options: DialOptions & { readonly tls: DialTls }): Promise<Dialled<TLSSocket>>;
  (host: string, port: number, options?: DialOptions): Promise<Dialled>;
}

/** The secure contexts of one egress: one per kind of handshake (versions, ciphers), made on first use. */
export interface SecureContexts {
  get(tls: Pick<DialTls, "minVersion" | "maxVersion" | "ciphers">): SecureContext;
}

/** Secure contexts trusting Node's CAs plus `extraCa` (PEM), each built once. */
export function secureContexts(extraCa: string | null): SecureContexts {
  const ca = extraCa ? [...rootCertificates, extraCa] : undefined;
  const made = new Map<string, SecureContext>();
  return {
    get({ minVersion, maxVersion, ciphers }) {
      const key = `${minVersion ?? ""}|${maxVersion ?? ""}|${ciphers ?? ""}`;
      let context = made.get(key);
      if (!context) {
        context = createSecureContext({ ...(ca ? { ca } : {}), ...(minVersion ? { minVersion } : {}), ...(maxVersion ? { maxVersion } : {}), ...(ciphers ? { ciphers } : {}) });
        made.set(key, context);
      }
      return context;
    },
  };
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function timeoutError(host: string, port: number, ms: number, stage: "connection" | "handshake"): Error {
  return Object.assign(new Error(`no ${stage} with ${host}:${port} within ${ms} ms`), { code: stage === "connection" ? "UND_ERR_CONNECT_TIMEOUT" : "ETIMEDOUT" });
}

/** The dialler over a resolver that already applies the policy (egress.ts builds it). */
export function createDial(resolve: (host: string) => Promise<ResolvedAddress>, contexts: SecureContexts, defaultTimeoutMs: number): Dial {
  return (async (host: string, port: number, options: DialOptions = {}): Promise<Dialled<Socket>> => {
    options.signal?.throwIfAborted();
    const bare = host.startsWith("[") ? host.slice(1, -1) : host;
    const address = await resolve(bare);
    options.signal?.throwIfAborted();
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    return new Promise<Dialled<Socket>>((done, fail) => {
      const t0 = performance.now();
      let tcpAt = t0;
      let ocspStapled = false;
      let settled = false;
      let current: Socket = netConnect({ host: address.address, port });
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", abort);
        if (err) {
          current.destroy();
          fail(err);
          return;
        }
        const tlsMs = options.tls ? round1(performance.now() - tcpAt) : 0;
        done({ socket: current, address, connectMs: round1(tcpAt - t0), tlsMs, ocspStapled });
      };
      const abort = () => finish(Object.assign(new Error("the dial was aborted"), { code: "ABORT_ERR", name: "AbortError" }));
      options.signal?.addEventListener("abort", abort, { once: true });
      let stage: "connection" | "handshake" = "connection";
      const timer = setTimeout(() => finish(timeoutError(bare, port, timeoutMs, stage)), timeoutMs);
      current.once("error", finish);
      current.once("connect", () => {
        tcpAt = performance.now();
        if (!options.tls) return finish(null);
        stage = "handshake";
        const tls = options.tls;
        const servername = tls.servername ?? (isIP(bare) === 0 ? bare : undefined);
        // requestOCSP is a documented option of tls.connect that @types/node leaves out.
        const secure = tlsConnect({
          socket: current,
          host: servername ?? bare,
          ...(servername ? { servername } : {}),
          secureContext: contexts.get(tls),
          rejectUnauthorized: tls.rejectUnauthorized ?? true,
          ALPNProtocols: [...(tls.alpn ?? ["http/1.1"])],
          ...(tls.requestOCSP ? { requestOCSP: true } : {}),
        } as ConnectionOptions);
        current = secure;
        secure.once("OCSPResponse", (response: Buffer | null) => {
          ocspStapled = response !== null && response.length > 0;
        });
        secure.once("error", finish);
        secure.once("secureConnect", () => finish(null));
      });
    });
  }) as Dial;
}
