import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ipaddr from "ipaddr.js";

// Who holds an address: its AS number, the organisation behind the AS, the registration country
// and the announced range, from offline databases shipped as npm packages (no lookup leaves the
// machine, no licence key):
//
//   @ip-location-db/asn                    AS number and organisation per range, IPv4 and IPv6:
//                                          RouteViews (BGP), the five RIRs' statistics and DB-IP's
//                                          IP to ASN Lite, merged by ip-location-db; CC BY 4.0
//                                          (attribution: RouteViews, DB-IP.com, NRO)
//   @ip-location-db/geo-whois-asn-country  country per range from the RIRs' WHOIS and the ASN
//                                          data; CC0
//
// Each is read once, on first use, from its numeric CSV (start,end,… with addresses as decimal
// integers) into sorted typed arrays: IPv4 bounds as 32-bit integers, IPv6 bounds as two 64-bit
// halves; organisations and countries interned. A lookup is a binary search (≈20 steps). Loading
// costs ≈1–2 s of CPU and ≈20 MB (docs/utilities.md has the figures); the tables stay for the
// process (a crawler node, where ip_info runs).

export const IP_OWNER_ATTRIBUTION =
  "AS and organisation: RouteViews, the RIRs (NRO) and DB-IP.com (IP to ASN Lite), CC BY 4.0, via ip-location-db; country: ip-location-db geo-whois-asn-country, CC0";

export interface IpOwner {
  /** The AS announcing the range, e.g. 15169; null when no table has the address. */
  readonly asn: number | null;
  /** The AS's organisation, e.g. "Google LLC". */
  readonly org: string | null;
  /** The ISO 3166-1 alpha-2 code of the registration country, e.g. "US". */
  readonly country: string | null;
  /** The range the AS record covers: a CIDR when it is one, else "first-last". */
  readonly network: string | null;
}

export interface Table {
  /** Bounds of ranges that do not overlap, sorted: lo words of 32 bits for IPv4 (no hi), 64 bits and hi words for IPv6. */
  readonly startHi: BigUint64Array | null;
  readonly start: Uint32Array | BigUint64Array;
  readonly endHi: BigUint64Array | null;
  readonly end: Uint32Array | BigUint64Array;
  /** Per range: an index into values. */
  readonly value: Uint32Array;
  readonly values: readonly string[];
  /** Per range for the ASN table: the AS number. */
  readonly asn: Uint32Array | null;
}

const MASK64 = (1n << 64n) - 1n;

/** Splits one CSV line of at most `n` fields; a field may be quoted ("" inside is a quote). */
function fields(line: string, n: number): string[] {
  if (!line.includes('"')) return line.split(",", n);
  const out: string[] = [];
  let i = 0;
  while (i <= line.length && out.length < n) {
    if (line[i] === '"') {
      let v = "";
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) {
          v += line.slice(j);
          j = line.length;
          break;
        }
        v += line.slice(j, q);
        if (line[q + 1] === '"') {
          v += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      out.push(v);
      i = line.indexOf(",", j);
      if (i < 0) break;
      i++;
    } else {
      const c = line.indexOf(",", i);
      out.push(c < 0 ? line.slice(i) : line.slice(i, c));
      if (c < 0) break;
      i = c + 1;
    }
  }
  return out;
}

/**
 * Reads one numeric CSV (`start,end,<asn,>value` per line, sorted by start) into non-overlapping
 * ranges. The country tables nest ranges (a more specific block inside a larger one, 6,825 of
 * 334,373 IPv4 rows) and one AS row overlaps the next: where ranges overlap, the one that starts
 * later (the more specific) holds its part and the outer one keeps what is left on either side.
 */
export function readRangeTable(path: string, v6: boolean, withAsn: boolean): Table {
  const lines = readFileSync(path, "latin1").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const index = new Map<string, number>();
  const values: string[] = [];
  const asns: number[] = [];
  // Segments out: start, end, value index, AS number.
  const segS: bigint[] = [];
  const segE: bigint[] = [];
  const segV: number[] = [];
  const segA: number[] = [];
  const emit = (s: bigint, e: bigint, row: number) => {
    if (s > e) return;
    segS.push(s);
    segE.push(e);
    segV.push(value[row] as number);
    segA.push(asns[row] ?? 0);
  };
  const value: number[] = [];
  const stack: { end: bigint; row: number }[] = [];
  let cur = 0n;
  let prevStart = -1n;
  for (let i = 0; i < lines.length; i++) {
    const f = fields(lines[i] as string, withAsn ? 4 : 3);
    const s = BigInt(f[0] as string);
    const e = BigInt(f[1] as string);
    if (s < prevStart || e < s) throw new Error(`${path}: line ${i + 1} is out of order`);
    prevStart = s;
    // The files are UTF-8; read as latin1 (fast, byte for byte) and decoded once per distinct value.
    const raw = (withAsn ? f[3] : f[2]) ?? "";
    let k = index.get(raw);
    if (k === undefined) {
      k = values.length;
      index.set(raw, k);
      values.push(Buffer.from(raw, "latin1").toString("utf8"));
    }
    value.push(k);
    if (withAsn) asns.push(Number(f[2]));
    // Close the open ranges that end before this one starts, innermost first.
    while (stack.length > 0 && (stack.at(-1) as { end: bigint }).end < s) {
      const top = stack.pop() as { end: bigint; row: number };
      emit(cur, top.end, top.row);
      if (top.end + 1n > cur) cur = top.end + 1n;
    }
    // An enclosing range holds the part before this one.
    if (stack.length > 0) emit(cur, s - 1n, (stack.at(-1) as { row: number }).row);
    stack.push({ end: e, row: i });
    cur = s;
  }
  while (stack.length > 0) {
    const top = stack.pop() as { end: bigint; row: number };
    emit(cur, top.end, top.row);
    if (top.end + 1n > cur) cur = top.end + 1n;
  }
  const n = segS.length;
  const start = v6 ? new BigUint64Array(n) : new Uint32Array(n);
  const end = v6 ? new BigUint64Array(n) : new Uint32Array(n);
  const startHi = v6 ? new BigUint64Array(n) : null;
  const endHi = v6 ? new BigUint64Array(n) : null;
  for (let i = 0; i < n; i++) {
    const a = segS[i] as bigint;
    const b = segE[i] as bigint;
    if (v6) {
      (startHi as BigUint64Array)[i] = a >> 64n;
      (start as BigUint64Array)[i] = a & MASK64;
      (endHi as BigUint64Array)[i] = b >> 64n;
      (end as BigUint64Array)[i] = b & MASK64;
    } else {
      (start as Uint32Array)[i] = Number(a);
      (end as Uint32Array)[i] = Number(b);
    }
  }
  return { startHi, start, endHi, end, value: Uint32Array.from(segV), values, asn: withAsn ? Uint32Array.from(segA) : null };
}

/** The row whose range holds the address, or -1. `hi` is 0n for IPv4. */
function find(t: Table, hi: bigint, lo: bigint | number): number {
  const n = t.value.length;
  let a = 0;
  let b = n - 1;
  let found = -1;
  // The last range starting at or before the address.
  while (a <= b) {
    const m = (a + b) >>> 1;
    const sh = t.startHi ? (t.startHi[m] as bigint) : 0n;
    const sl = t.start[m] as bigint | number;
    if (sh < hi || (sh === hi && sl <= lo)) {
      found = m;
      a = m + 1;
    } else b = m - 1;
  }
  if (found < 0) return -1;
  const eh = t.endHi ? (t.endHi[found] as bigint) : 0n;
  const el = t.end[found] as bigint | number;
  return eh > hi || (eh === hi && el >= lo) ? found : -1;
}

interface Tables {
  readonly asn4: Table;
  readonly asn6: Table;
  readonly country4: Table;
  readonly country6: Table;
}

let tables: Tables | null = null;

function packageDir(name: string): string {
  return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}

/** Loads the four tables (once per process). */
export function loadIpOwnerTables(): Tables {
  if (tables) return tables;
  const asnDir = packageDir("@ip-location-db/asn");
  const geoDir = packageDir("@ip-location-db/geo-whois-asn-country");
  tables = {
    asn4: readRangeTable(join(asnDir, "asn-ipv4-num.csv"), false, true),
    asn6: readRangeTable(join(asnDir, "asn-ipv6-num.csv"), true, true),
    country4: readRangeTable(join(geoDir, "geo-whois-asn-country-ipv4-num.csv"), false, false),
    country6: readRangeTable(join(geoDir, "geo-whois-asn-country-ipv6-num.csv"), true, false),
  };
  return tables;
}

/** The address as (hi, lo) words and its version; IPv4-mapped IPv6 is looked up as IPv4. */
function key(ip: string): { v6: boolean; hi: bigint; lo: bigint | number } {
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const bytes = addr.toByteArray();
  if (addr.kind() === "ipv4") return { v6: false, hi: 0n, lo: (((bytes[0] as number) << 24) >>> 0) + ((bytes[1] as number) << 16) + ((bytes[2] as number) << 8) + (bytes[3] as number) };
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return { v6: true, hi: n >> 64n, lo: n & MASK64 };
}

function addressOf(v6: boolean, hi: bigint, lo: bigint | number): string {
  if (!v6) {
    const n = Number(lo);
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
  }
  const n = (hi << 64n) | BigInt(lo);
  const bytes: number[] = [];
  for (let i = 15; i >= 0; i--) bytes.push(Number((n >> BigInt(i * 8)) & 255n));
  return ipaddr.fromByteArray(bytes).toString();
}

/** "a/len" when first..last is exactly one CIDR block, else "first-last". */
function networkOf(t: Table, row: number, v6: boolean): string {
  const s = ((t.startHi ? (t.startHi[row] as bigint) : 0n) << 64n) | BigInt(t.start[row] as bigint | number);
  const e = ((t.endHi ? (t.endHi[row] as bigint) : 0n) << 64n) | BigInt(t.end[row] as bigint | number);
  const bits = v6 ? 128 : 32;
  const size = e - s + 1n;
  const first = addressOf(v6, s >> 64n, v6 ? s & MASK64 : Number(s));
  // A power of two, aligned on its size.
  if ((size & (size - 1n)) === 0n && s % size === 0n) return `${first}/${bits - (size.toString(2).length - 1)}`;
  return `${first}-${addressOf(v6, e >> 64n, v6 ? e & MASK64 : Number(e))}`;
}

/** What one table says of an address: its value, AS number (ASN tables) and range; null when no range holds it. */
export function rangeLookup(t: Table, ip: string): { value: string; asn: number | null; network: string } | null {
  const { v6, hi, lo } = key(ip);
  if (v6 !== (t.startHi !== null)) return null;
  const row = find(t, hi, lo);
  if (row < 0) return null;
  return { value: t.values[t.value[row] as number] as string, asn: t.asn ? (t.asn[row] as number) : null, network: networkOf(t, row, v6) };
}

/** Whether an address is IPv6 once an IPv4-mapped one is read as IPv4. */
function isV6(ip: string): boolean {
  return key(ip).v6;
}

/** The owner of an address from the shipped tables (all null where no table has it: private ranges, unannounced space). */
export function ipOwner(ip: string): IpOwner {
  const t = loadIpOwnerTables();
  const v6 = isV6(ip);
  const a = rangeLookup(v6 ? t.asn6 : t.asn4, ip);
  const c = rangeLookup(v6 ? t.country6 : t.country4, ip);
  return { asn: a?.asn ?? null, org: a?.value || null, country: c?.value || null, network: a?.network ?? null };
}
