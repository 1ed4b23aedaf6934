import { createTestCa, type CertificateVariant, type TestCa } from "./ca.ts";
import { startDnsServer, type DnsListenOptions, type FixtureDnsServer, type Zone } from "./dns-server.ts";
import { PUBLIC_LOOKING, publicLookingZones, siteCatalogue } from "./site-catalogue.ts";
import type { SiteDefinition, SiteExpectations, SiteKey } from "./site-definition.ts";
import { startSiteServers, type PortMode, type RequestLogEntry, type RunningSite } from "./site-server.ts";

// Fixture sites that look like the real web: several registrable domains under .test, each on its
// own loopback address with http on :80 and https on :443, an authoritative DNS server for their
// zones, and a private CA. Svc reaches them only through its operator settings:
// SVC_DNS_SERVERS=<dnsAddress>, SVC_EXTRA_CA_FILE=<caFile>, SVC_ALLOW_PRIVATE_TARGETS=1.

export type { CheckExpectation, SiteExpectations, SiteKey } from "./site-definition.ts";
export type { RequestLogEntry } from "./site-server.ts";

export interface FixtureSite {
  readonly key: SiteKey;
  /** The site as a user adds it: "shop-a.test" (in high-port mode "shop-a.test:<port>"). */
  readonly name: string;
  /** The registrable domain (the DNS zone). */
  readonly domain: string;
  /** The loopback address its servers listen on (and its A record). */
  readonly address: string;
  /** Where the home page is served from, e.g. "https://shop-a.test". */
  readonly origin: string;
  readonly certificate: CertificateVariant;
  readonly expectations: SiteExpectations;
  /** Every request its servers answered, in order. */
  readonly requests: readonly RequestLogEntry[];
}

export interface FixtureWeb {
  /** SVC_DNS_SERVERS: "127.0.0.153" (port 53), or "[::1]:<port>" when port 53 cannot be bound. */
  readonly dnsAddress: string;
  /** The CA's PEM file: SVC_EXTRA_CA_FILE. */
  readonly caFile: string;
  /** The CA as a certificate's issuer reads. */
  readonly issuer: string;
  /** true: ports 80/443 and bare names; false: ports 80/443 could not be bound, sites are host:port. */
  readonly standardPorts: boolean;
  readonly sites: Readonly<Record<SiteKey, FixtureSite>>;
  /** Public-looking names (.com) whose A records are loopback or private addresses. */
  readonly publicLooking: typeof PUBLIC_LOOKING;
  readonly dns: FixtureDnsServer;
  /** Stops every server and removes the CA file. */
  close(): Promise<void>;
}

export interface FixtureWebOptions {
  /** "auto" (default): ports 80/443, or high ports when those cannot be bound (not root, or taken). */
  readonly ports?: "auto" | PortMode;
  /** Where the DNS server listens; default: see startFixtureDns. */
  readonly dns?: DnsListenOptions;
}

/** Starts the DNS server, the CA and every site. */
export async function startFixtureWeb(opts: FixtureWebOptions = {}): Promise<FixtureWeb> {
  const catalogue = siteCatalogue();
  const ca = await createTestCa();
  const dns = await startFixtureDns([...catalogue.map((s) => s.zone), ...publicLookingZones()], opts.dns).catch(async (err: unknown) => {
    await ca.close();
    throw err;
  });
  const cleanup = async () => {
    await dns.close();
    await ca.close();
  };
  try {
    const mode = opts.ports ?? "auto";
    const running =
      mode === "high"
        ? await startAll(catalogue, ca, "high")
        : await startAll(catalogue, ca, "standard").catch((err: NodeJS.ErrnoException) => {
            if (mode === "auto" && (err.code === "EADDRINUSE" || err.code === "EACCES")) return startAll(catalogue, ca, "high");
            throw err;
          });
    const standardPorts = (running.get("shop")?.portSuffix ?? "") === "";
    const sites = Object.fromEntries(
      catalogue.map((def) => {
        const server = running.get(def.key) as RunningSite;
        const site: FixtureSite = {
          key: def.key,
          name: `${def.domain}${server.portSuffix}`,
          domain: def.domain,
          address: def.address,
          origin: `${def.servedOver}://${def.domain}${server.portSuffix}`,
          certificate: def.certificate,
          expectations: def.expectations({ standardPorts, issuer: ca.issuer }),
          requests: server.log,
        };
        return [def.key, site];
      }),
    ) as Record<SiteKey, FixtureSite>;
    const servers = [...running.values()];
    return {
      dnsAddress: dns.address,
      caFile: ca.caFile,
      issuer: ca.issuer,
      standardPorts,
      sites,
      publicLooking: PUBLIC_LOOKING,
      dns,
      close: async () => {
        await Promise.all(servers.map((s) => s.close()));
        await cleanup();
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** Starts every site in one port mode; on a failure (e.g. a port that cannot be bound) stops what was started and rejects. */
async function startAll(catalogue: readonly SiteDefinition[], ca: TestCa, mode: PortMode): Promise<Map<SiteKey, RunningSite>> {
  const running = new Map<SiteKey, RunningSite>();
  try {
    for (const def of catalogue) {
      const certificate = ca.issue(def.certificate, [def.domain, `www.${def.domain}`]);
      const server = await startSiteServers(
        {
          domain: def.domain,
          address: def.address,
          certificate,
          httpToHttps: def.httpToHttps,
          www: def.www,
          hsts: def.hsts,
          gzip: def.gzip,
          delayMs: def.delayMs,
          content: (portSuffix) => def.content(`${def.servedOver}://${def.domain}${portSuffix}`),
        },
        mode,
      );
      running.set(def.key, server);
    }
    return running;
  } catch (err) {
    await Promise.all([...running.values()].map((s) => s.close()));
    throw err;
  }
}

/**
 * The DNS server on port 53 of a loopback address of its own (127.0.0.153), else on [::1] with a
 * free port. Not on 127.0.0.1:<free port>: SVC_DNS_SERVERS refuses an IPv4 address with a port
 * (runtime/config-parse.ts serverList takes "127.0.0.1:5353" whole for the address); with that fixed,
 * `{ host: "127.0.0.1" }` is the simplest choice.
 */
async function startFixtureDns(zones: readonly Zone[], opts: DnsListenOptions | undefined): Promise<FixtureDnsServer> {
  if (opts) return startDnsServer(zones, opts);
  try {
    return await startDnsServer(zones, { host: "127.0.0.153", port: 53 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw err;
    return startDnsServer(zones, { host: "::1" });
  }
}
