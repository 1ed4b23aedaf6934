// What one network-utility run may spend (utilities-catalogue.md §5, §6).

/** The catalogue's budgets of one run (§5). */
export const NET_BUDGET = {
  /** Wall time of the whole run. */
  runMs: 20_000,
  connectMs: 5_000,
  ttfbMs: 10_000,
  /** Outbound requests (HTTP, DNS, TCP, WHOIS) of one run. */
  requests: 120,
  /** Body bytes kept of one HTTP answer, after decoding. */
  bodyBytes: 5 * 1024 * 1024,
  /** A WHOIS reply. */
  whoisBytes: 256 * 1024,
} as const;

/** The ports a utility may connect to (catalogue §6: port_check and the TLS probes). */
export const DEFAULT_UTILITY_PORTS = [21, 22, 25, 53, 80, 110, 143, 443, 465, 587, 993, 995, 3306, 5432, 8080, 8443] as const;
