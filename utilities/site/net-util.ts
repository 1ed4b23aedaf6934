import { UtilityError, type NetResponse, type UtilityNet, type UtilityPorts } from "../utility.ts";

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
