import { Type } from "@sinclair/typebox";
import { UtilityError, defineUtility, type Pair, type TlsProbe, type TlsProbeInit } from "../utility.ts";
import { header, netOf } from "../site/net-util.ts";

interface Input {
  host: string;
  port: number;
}

const VERSIONS: readonly { key: "v1_0" | "v1_1" | "v1_2" | "v1_3"; version: TlsProbeInit["version"]; label: string; secure: boolean }[] = [
  { key: "v1_0", version: "TLSv1", label: "TLS 1.0", secure: false },
  { key: "v1_1", version: "TLSv1.1", label: "TLS 1.1", secure: false },
  { key: "v1_2", version: "TLSv1.2", label: "TLS 1.2", secure: true },
  { key: "v1_3", version: "TLSv1.3", label: "TLS 1.3", secure: true },
];

const DAY_MS = 86_400_000;

export const tlsHttpVersions = defineUtility<Input>({
  id: "tls_http_versions",
  group: "net",
  title: "TLS & HTTP/2/3 support",
  description:
    "Protocol matrix for a host: which of TLS 1.0–1.3 it accepts, the negotiated cipher, ALPN (h2 or http/1.1), whether HTTP/3 is advertised in Alt-Svc (advertised only: no QUIC handshake is made, so h3 is never reported as verified), OCSP stapling, certificate days left. Unlike GET /ssl/{host}: protocol support, not certificate detail",
  net: true,
  file: false,
  fields: [
    { name: "host", type: "host", label: "Host", required: true },
    { name: "port", type: "int", label: "Port", default: 443, min: 1, max: 65_535 },
  ],
  example: { host: "example.com" },
  resultSchema: Type.Object({
    host: Type.String(),
    port: Type.Integer(),
    ip: Type.String({ description: "The address probed (the host's first)" }),
    tls: Type.Object({ v1_0: Type.Boolean(), v1_1: Type.Boolean(), v1_2: Type.Boolean(), v1_3: Type.Boolean() }, { description: "Whether a handshake offering only that version succeeded" }),
    protocol: Type.String({ description: "The best version accepted (TLSv1.3, …)" }),
    cipher: Type.Union([Type.String(), Type.Null()]),
    alpn: Type.Union([Type.String(), Type.Null()], { description: "The protocol the server chose from h2 and http/1.1" }),
    http: Type.Object({
      h1: Type.Boolean({ description: "Serves a client offering only http/1.1" }),
      h2: Type.Boolean({ description: "Chose h2 by ALPN (verified by the handshake)" }),
      h3: Type.Union([Type.Literal("advertised"), Type.Literal("not_advertised")], {
        description:
          "advertised: the Alt-Svc header of an HTTPS answer names h3 (or a draft h3-NN). Only advertised, never verified: HTTP/3 runs over QUIC (UDP), which Node 20 does not speak and the egress guard does not carry, so no h3 request is made. not_advertised: no Alt-Svc h3 (the HTTPS DNS record is not read)",
      }),
      h3_checked_by: Type.Literal("alt_svc", { description: "How h3 was judged: the Alt-Svc header only" }),
    }),
    alt_svc: Type.Union([Type.String(), Type.Null()], { description: "The Alt-Svc header as sent" }),
    http_status: Type.Union([Type.Integer(), Type.Null()], { description: "The status of the HEAD / that carried Alt-Svc; null when it failed" }),
    ocsp: Type.Boolean({ description: "An OCSP response was stapled" }),
    cert_authorized: Type.Boolean({ description: "The certificate verified against the node's CAs" }),
    cert_days_left: Type.Union([Type.Integer(), Type.Null()]),
  }),
  async run(input, ports) {
    const net = netOf(ports);
    const ip = (await net.addresses(input.host))[0] as string;
    // One handshake per version, each offering only that version (and h2, http/1.1).
    const probes: Record<string, TlsProbe> = {};
    for (const v of VERSIONS) probes[v.key] = await net.tls(ip, input.port, { servername: input.host, version: v.version });
    const accepted = VERSIONS.filter((v) => probes[v.key]?.ok);
    if (accepted.length === 0) {
      const why = probes.v1_2?.error ?? "no handshake";
      throw new UtilityError("tool_failed", `${input.host}:${input.port} completed no TLS handshake (${why})`);
    }
    const best = probes[(accepted.at(-1) as (typeof VERSIONS)[number]).key] as TlsProbe;
    // HTTP/1.1 alone: a server that chose h2 above may still refuse a client without it.
    const h1 = await net.tls(ip, input.port, { servername: input.host, version: best.protocol as TlsProbeInit["version"], alpn: ["http/1.1"] });
    const h2 = best.alpn === "h2";
    const http1 = h1.ok && (h1.alpn === "http/1.1" || h1.alpn === null);
    // HTTP/3 can only be seen as advertised in Alt-Svc: h3 needs QUIC over UDP, which Node 20 and
    // the egress guard do not speak, so the result says "advertised", never "verified".
    let altSvc: string | null = null;
    let httpStatus: number | null = null;
    try {
      const res = await net.fetch(`https://${input.host}${input.port === 443 ? "" : `:${input.port}`}/`, { method: "HEAD", maxBytes: 1 });
      altSvc = header(res, "alt-svc") ?? null;
      httpStatus = res.status;
    } catch (err) {
      if (!(err instanceof UtilityError)) throw err;
    }
    const h3: "advertised" | "not_advertised" = altSvc !== null && /(^|[\s,])h3(-\d+)?=/.test(altSvc) ? "advertised" : "not_advertised";
    const certDaysLeft = best.cert_valid_to ? Math.floor((Date.parse(best.cert_valid_to) - ports.nowMs) / DAY_MS) : null;
    const tls = Object.fromEntries(VERSIONS.map((v) => [v.key, probes[v.key]?.ok ?? false])) as Record<(typeof VERSIONS)[number]["key"], boolean>;
    const weak = VERSIONS.filter((v) => !v.secure && tls[v.key]).map((v) => v.label);
    const pairs: Pair[] = [
      ...VERSIONS.map((v): Pair => ({ label: v.label, value: tls[v.key] ? "accepted" : `refused${probes[v.key]?.error ? ` (${probes[v.key]?.error})` : ""}`, status: tls[v.key] ? (v.secure ? "good" : "bad") : v.secure && v.key === "v1_2" ? "warn" : "good" })),
      { label: "HTTP/2 (ALPN h2)", value: h2 ? "yes" : "no", status: h2 ? "good" : "warn" },
      { label: "HTTP/1.1", value: http1 ? "yes" : "no" },
      {
        label: "HTTP/3 (Alt-Svc only, not verified)",
        value: h3 === "advertised" ? `advertised: ${altSvc} (no QUIC request was made)` : "not advertised",
        status: h3 === "advertised" ? "good" : "info",
      },
      { label: "Cipher", value: best.cipher ?? "" },
      { label: "OCSP stapling", value: best.ocsp_stapled ? "yes" : "no", status: best.ocsp_stapled ? "good" : "info" },
      ...(certDaysLeft !== null ? [{ label: "Certificate days left", value: String(certDaysLeft), status: certDaysLeft < 0 ? ("bad" as const) : certDaysLeft < 14 ? ("warn" as const) : ("good" as const) }] : []),
    ];
    return {
      result: {
        host: input.host,
        port: input.port,
        ip,
        tls,
        protocol: best.protocol,
        cipher: best.cipher,
        alpn: best.alpn,
        http: { h1: http1, h2, h3, h3_checked_by: "alt_svc" },
        alt_svc: altSvc,
        http_status: httpStatus,
        ocsp: best.ocsp_stapled,
        cert_authorized: best.authorized,
        cert_days_left: certDaysLeft,
      },
      blocks: {
        pairs,
        tables: [{ title: "Handshakes", columns: ["Version", "Accepted", "Cipher", "ALPN", "Error"], rows: VERSIONS.map((v) => [v.label, tls[v.key], probes[v.key]?.cipher ?? null, probes[v.key]?.alpn ?? null, probes[v.key]?.error ?? null]) }],
      },
      warnings: weak.length > 0 ? [{ code: "weak_tls", text: `${weak.join(" and ")} are accepted: browsers dropped them in 2020` }] : [],
    };
  },
});
