/** A port a role needs and cannot have: the process exits at once, naming the port and its variable. */
export class ListenError extends Error {
  constructor(
    readonly address: string,
    readonly variable: string,
    reason: string,
  ) {
    super(`cannot listen on ${address} (${variable}): ${reason}; free the port or choose another with ${variable}`);
    this.name = "ListenError";
  }
}

const REASONS: Record<string, string> = {
  EADDRINUSE: "address already in use",
  EACCES: "permission denied",
  EADDRNOTAVAIL: "address not available on this machine",
};

/** Runs a listen (or bind) and turns a refused address into a ListenError naming the variable. */
export async function listenOrExplain<T>(address: string, variable: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const code = e.code && REASONS[e.code] ? e.code : Object.keys(REASONS).find((c) => String(e.message).includes(c));
    if (code) throw new ListenError(address, variable, REASONS[code] as string);
    if (/No address added/.test(String(e.message))) throw new ListenError(address, variable, e.message);
    throw err;
  }
}
