import { UtilityError, type NetFetchInit, type NetResponse, type UtilityNet, type UtilityPorts } from "../utility.ts";

// Helpers of the network utilities (site and net groups).

/** The guarded network of a run; absent only outside a crawler node (runValidated refuses that first). */
export function netOf(ports: UtilityPorts): UtilityNet {
  if (!ports.net) throw new UtilityError("tool_failed", "network utilities run only on a crawler node");
  return ports.net;
}

/** The first value of a header (names lower-case), or undefined. */
export function header(res: Pick<NetResponse, "headers">, name: string): string | undefined {
  return res.headers.find(([n]) => n === name)?.[1];
}

/** Every value of a header. */
export function headerAll(res: Pick<NetResponse, "headers">, name: string): string[] {
  return res.headers.filter(([n]) => n === name).map(([, v]) => v);
}

/** The body as text (UTF-8, or the charset the Content-Type names when Node knows it). */
export function bodyText(res: Pick<NetResponse, "headers" | "body">): string {
  const charset = /charset=["']?([\w-]+)/i.exec(header(res, "content-type") ?? "")?.[1]?.toLowerCase();
  try {
    return new TextDecoder(charset ?? "utf-8").decode(res.body);
  } catch {
    return new TextDecoder("utf-8").decode(res.body);
  }
}

/** A redirect's target resolved against the URL that answered, or null when the answer is no redirect. */
export function redirectTarget(res: Pick<NetResponse, "status" | "headers" | "url">): string | null {
  if (res.status < 300 || res.status > 399) return null;
  const location = header(res, "location");
  if (!location) return null;
  try {
    return new URL(location, res.url).href;
  } catch {
    return null;
  }
}

/** One hop of a followed request. */
export interface Hop {
  readonly url: string;
  readonly status: number;
  readonly location: string | null;
}

/**
 * A GET that follows HTTP redirects hop by hop (each hop passes the egress check again), at most
 * maxHops; the last answer and the hops before it. A loop or too many hops ends at the last answer.
 */
export async function fetchFollowing(net: UtilityNet, url: string, init: NetFetchInit = {}, maxHops = 10): Promise<{ res: NetResponse; hops: Hop[] }> {
  const hops: Hop[] = [];
  let current = url;
  const seen = new Set<string>();
  for (;;) {
    const res = await net.fetch(current, init);
    const next = redirectTarget(res);
    if (next === null || hops.length >= maxHops || seen.has(next) || !/^https?:/.test(next)) return { res, hops };
    seen.add(current);
    hops.push({ url: current, status: res.status, location: next });
    current = next;
  }
}

/** Runs fn over items with at most `limit` at a time, results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A page the utility needs, or tool_failed saying why (no answer, an error status, not HTML). */
export function requireHtml(res: NetResponse, url: string): void {
  if (res.status < 200 || res.status > 299) throw new UtilityError("tool_failed", `${url} answered ${res.status}${res.status_text ? ` ${res.status_text}` : ""}, not a page`);
}
