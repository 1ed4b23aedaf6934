import type { TSchema } from "@sinclair/typebox";
import type { PageFacts, SitemapFacts } from "../proto/index.ts";

// What a utility is: its catalogue entry (id, group, fields, net, file, example) and a run
// function over its validated input and injected ports. The gateway, the CLI, the MCP tool list and
// GET /utilities all read the same entries (one file per utility, listed in table.ts).

export type UtilityGroup = "site" | "text" | "dev" | "calc" | "net" | "seo" | "img";

export const GROUP_TITLES: Readonly<Record<UtilityGroup, string>> = {
  site: "Site checks",
  text: "Text",
  dev: "Developer tools",
  calc: "Calculators",
  net: "Network and IP",
  seo: "Hints and previews",
  img: "Images",
};

export const GROUPS = Object.keys(GROUP_TITLES) as UtilityGroup[];

/** The catalogue's field types (utilities-catalogue.md §3). */
export type FieldType = "url" | "host" | "str" | "text" | "int" | "num" | "bool" | "sel" | "multi" | "list" | "json" | "color" | "file";

/** One input field as GET /utilities/{id} describes it. */
export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly label: string;
  readonly required?: boolean;
  /** The values of a sel or multi field. */
  readonly options?: readonly string[];
  readonly default?: unknown;
  /** Characters for str/text, items for list/multi, the largest value for int/num, bytes for file. */
  readonly max?: number;
  /** The smallest value of an int/num field. */
  readonly min?: number;
  /** An empty string is a value here (regex flags), not a missing one. Not shown in the catalogue. */
  readonly allowEmpty?: boolean;
}

/** File types a file field accepts, sniffed from the bytes (file_name is only a hint). */
export type FileKind = "docx" | "zip" | "text" | "pem" | "der" | "png" | "jpeg" | "gif" | "webp" | "pdf" | "avif" | "heic" | "tiff" | "svg" | "any";

export interface Pair {
  readonly label: string;
  readonly value: string;
  readonly status?: "good" | "warn" | "bad" | "info";
}
export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | boolean | null)[])[];
}
export interface CodeBlock {
  readonly lang: string;
  readonly text: string;
  readonly filename?: string;
}
export interface Comparison {
  readonly before: string;
  readonly after: string;
  readonly mode: "text" | "diff";
}
export interface ImageBlock {
  readonly mime: string;
  readonly data_base64: string;
  readonly width: number;
  readonly height: number;
  readonly alt: string;
}
export interface Blocks {
  readonly pairs?: readonly Pair[];
  readonly tables?: readonly Table[];
  readonly code?: readonly CodeBlock[];
  readonly comparison?: readonly Comparison[];
  readonly images?: readonly ImageBlock[];
}
export interface Warning {
  readonly code: string;
  readonly text: string;
}

/** What a run answers: machine data, presentation blocks and non-fatal notes. */
export interface UtilityOutput {
  readonly result: Record<string, unknown>;
  readonly blocks?: Blocks;
  readonly warnings?: readonly Warning[];
}

/**
 * What a utility may use besides its input. Offline utilities get a clock and randomness (both
 * injected, so a test fixes ids, passwords and "now"). Network utilities also get `net`, supplied
 * only on a crawler node, where every connection passes the egress guard (docs/utilities.md).
 */
export interface UtilityPorts {
  /** Unix milliseconds of the request. */
  readonly nowMs: number;
  /** n random bytes. */
  randomBytes(n: number): Uint8Array;
  /** A uniform integer in [0, max). */
  randomInt(max: number): number;
  /** The guarded network of a crawler node; absent in the gateway's offline pool. */
  readonly net?: UtilityNet;
}

/** One HTTP request of a network utility (redirects are never followed: a utility takes them hop by hop). */
export interface NetFetchInit {
  readonly method?: "GET" | "HEAD";
  readonly headers?: Readonly<Record<string, string>>;
  /** Body bytes kept after decoding (the rest is dropped and `truncated` set); default 5 MB, never more. */
  readonly maxBytes?: number;
}

/** What one request met, as a person inspecting it would want to see it. */
export interface NetResponse {
  readonly url: string;
  readonly status: number;
  readonly status_text: string;
  /** "1.1" or "1.0": the protocol of the answer. */
  readonly http_version: string;
  /** The address connected to (after the egress check). */
  readonly ip: string;
  /** Every header in the order sent, names lower-cased, repeated ones kept apart. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body after Content-Encoding was undone (empty for HEAD). */
  readonly body: Uint8Array;
  /** Bytes on the wire (before decoding). */
  readonly encoded_bytes: number;
  readonly truncated: boolean;
  readonly timings_ms: { readonly dns: number; readonly connect: number; readonly tls: number; readonly ttfb: number; readonly total: number };
}

/** One DNS record as a resolver returned it. */
export interface NetRecord {
  readonly type: string;
  readonly value: string;
  readonly ttl: number | null;
}

/** The outcome of one TCP connect. */
export interface NetConnect {
  readonly state: "open" | "closed" | "filtered";
  readonly ms: number;
}

/**
 * The crawler's own reading of an HTML answer (crawler/page/extract.ts and tech-detect.ts): the
 * facts a crawl records, the visible text, and the technologies its detector names. Site utilities
 * use it rather than a second parser, so a utility and a report read a page alike.
 */
export interface PageReading {
  readonly facts: PageFacts;
  /** The visible text, whitespace collapsed. */
  readonly text: string;
  /** Absolute `<script src>` URLs. */
  readonly scriptSrcs: readonly string[];
  /** `<meta name="generator">`. */
  readonly generator: string;
  readonly technologies: readonly Technology[];
}

/** A technology the crawler's detector found, with the signal that named it. */
export interface Technology {
  readonly name: string;
  readonly version: string | null;
  readonly categories: readonly string[];
  /** header, generator, script, cookie or html. */
  readonly evidence: string;
}

/** One TLS handshake of a protocol probe. */
export interface TlsProbeInit {
  /** The name sent as SNI (and checked against the certificate). */
  readonly servername: string;
  readonly version: "TLSv1" | "TLSv1.1" | "TLSv1.2" | "TLSv1.3";
  /** ALPN protocols offered, in order (default h2, http/1.1). */
  readonly alpn?: readonly string[];
}

/** What one handshake met: refused (the server does not speak that version) or its parameters. */
export interface TlsProbe {
  readonly ok: boolean;
  /** The reason of a failed handshake (an OpenSSL code or "connection refused"). */
  readonly error: string | null;
  readonly protocol: string | null;
  readonly cipher: string | null;
  /** The ALPN protocol the server chose ("h2", "http/1.1"), or null when it chose none. */
  readonly alpn: string | null;
  /** Whether the server stapled an OCSP response. */
  readonly ocsp_stapled: boolean;
  /** The leaf certificate's validity end (ISO 8601), when one was sent. */
  readonly cert_valid_to: string | null;
  /** Whether the chain verified against the node's CA list for the servername. */
  readonly authorized: boolean;
}

/** An SMTP conversation's replies (mail is never sent: the probe quits after RCPT TO). */
export interface SmtpReply {
  readonly command: string;
  readonly code: number;
  readonly text: string;
}

/**
 * The network seam of `net: true` utilities, implemented on a crawler node (crawler/utility-net/)
 * over the node's egress guard: every address is checked as the fetcher checks it (public unicast
 * only, pinned at connect), and a run has budgets of time, requests and bytes
 * (utilities-catalogue.md §5, §6). A refused address rejects with a UtilityError (tool_failed).
 */
export interface UtilityNet {
  /** One HTTP(S) request; redirects are answered, not followed. */
  fetch(url: string, init?: NetFetchInit): Promise<NetResponse>;
  /** The addresses of a host the egress policy allows (an IP literal is checked as is). */
  addresses(host: string): Promise<string[]>;
  /**
   * DNS records of a name and type through a resolver: "system" (the node's configured servers) or
   * a named public one (google, cloudflare, quad9, yandex; their addresses are settings). Types:
   * A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV, PTR. NXDOMAIN and "no data" are an empty list.
   */
  resolve(name: string, type: string, resolver?: string): Promise<NetRecord[]>;
  /** A TCP connect to a checked address and an allow-listed port (no data sent). */
  connect(ip: string, port: number, timeoutMs: number): Promise<NetConnect>;
  /** A WHOIS query over port 43 to a server (a name or an address, checked like any target); the reply as text. */
  whois(server: string, query: string): Promise<string>;
  /** One TLS handshake with exactly one protocol version to an allow-listed port of a checked address. */
  tls(ip: string, port: number, init: TlsProbeInit): Promise<TlsProbe>;
  /**
   * An SMTP dialogue up to RCPT TO (greeting, EHLO, MAIL FROM:<>, RCPT TO, QUIT) with a checked
   * address on the SMTP port (25); no mail is ever sent.
   */
  smtp(ip: string, rcpt: string): Promise<SmtpReply[]>;
  /** The crawler's reading of an HTML answer (no network: a parse on this node). */
  page(res: NetResponse): PageReading;
  /** The crawler's sitemap parser (gzip recognised by its bytes); children: the sitemaps an index lists. */
  sitemap(url: string, body: Uint8Array, siteHost: string, sample: number): Promise<{ readonly facts: SitemapFacts; readonly children: readonly string[] }>;
  /** The node's own addresses, by interface (loopback left out): what its traffic leaves from. */
  interfaces(): readonly { readonly name: string; readonly address: string; readonly family: 4 | 6 }[];
  /** The operator's echo service (SVC_UTILITY_ECHO_URL): a URL that answers the caller's address, or null when none is configured. */
  readonly echoUrl: string | null;
  /** Where a TLD's WHOIS service is asked first (IANA by default; a setting in tests). */
  readonly whoisRoot: string;
  /**
   * A headless browser the node can start: its executable (SVC_BROWSER_PATH) and the node's guarded
   * egress proxy, through which every request of the browser goes, so it passes the same address
   * checks as fetch. Absent where the node has none; page_screenshot refuses to run without it.
   */
  readonly browser?: { readonly executablePath: string; readonly proxy: { readonly server: string; readonly username?: string; readonly password?: string } };
}

/** A refusal of the input (bad_param, naming the field) or of the job (tool_failed, saying why). */
export class UtilityError extends Error {
  constructor(
    readonly code: "bad_param" | "tool_failed",
    message: string,
    /** The input field at fault (bad_param). */
    readonly field?: string,
  ) {
    super(message);
    this.name = "UtilityError";
  }
}

/**
 * A target that could not be reached (no DNS answer, refused or timed-out connection, no reply):
 * tool_failed for most utilities, a result for those where reachability is the question
 * (http_headers, port_check, mirror_check). An address the egress policy refuses is a plain
 * UtilityError, never this.
 */
export class UnreachableError extends UtilityError {
  constructor(message: string) {
    super("tool_failed", message);
    this.name = "UnreachableError";
  }
}

/** A utility as its file declares it; I is its validated input. */
export interface Utility<I = Record<string, unknown>> {
  readonly id: string;
  readonly group: UtilityGroup;
  readonly title: string;
  readonly description: string;
  /** Contacts third parties (scope run, runs on a crawler node). */
  readonly net: boolean;
  /** Takes a file (input.file, base64). */
  readonly file: boolean;
  /** The first is the primary field (a CLI positional argument fills it). */
  readonly fields: readonly FieldSpec[];
  /** Pairs of fields of which at least one is required (text or file, url or html). */
  readonly oneOf?: readonly (readonly [string, string])[];
  /** File types input.file may hold. */
  readonly fileKinds?: readonly FileKind[];
  readonly example: Readonly<Record<string, unknown>>;
  /** The shape of `result`, where a utility documents it: published in the OpenAPI document as the extension x-results of run_utility. */
  readonly resultSchema?: TSchema;
  /** CPU time allowed in the pool, when it is not the configured default (regex_test: 1 s). */
  readonly cpuMs?: number;
  /**
   * Runs in a long-lived thread of its own rather than the shared pool: heavy state (spell_check's
   * dictionaries) is built once there by warmUp, outside the run time limit, and the utility
   * answers tool_off until it is (docs/utilities.md).
   */
  readonly ownThread?: boolean;
  /** Builds the heavy state of an ownThread utility. */
  warmUp?(): Promise<void>;
  /**
   * It allocates outside the V8 heap (libvips): the gateway runs it in a child process whose
   * resident memory is bounded and handed back after the run, not in a pool thread (docs/utilities.md).
   */
  readonly nativeMemory?: boolean;
  /** Heap (MB) its own thread needs when above the pool's. */
  readonly memoryMb?: number;
  /** Whether this machine can run it (page_screenshot needs Chromium); available when absent. */
  available?(): boolean;
  /** It drives a headless browser: the crawler node gives it its Chromium behind a guarded proxy (UtilityNet.browser). */
  readonly browser?: boolean;
  /** Method syntax on purpose: the table holds utilities of every input type. */
  run(input: I, ports: UtilityPorts): UtilityOutput | Promise<UtilityOutput>;
}

/** Declares a utility; I is the shape its fields validate to. */
export function defineUtility<I>(utility: Utility<I>): Utility<I> {
  return utility;
}
