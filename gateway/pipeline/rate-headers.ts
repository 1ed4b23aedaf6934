import type { FastifyReply } from "fastify";

/** The state of one hourly window, as reported in the rate-limit headers. */
export interface RateState {
  /** The counter's subject: 'k:<key id>' or 'a:<address>'. */
  readonly subject: string;
  readonly hour: number;
  readonly limit: number;
  used: number;
  /** Whether this request was counted (a 304 gives it back). */
  counted: boolean;
  readonly resetSeconds: number;
}

export function hourOf(nowSeconds: number): { hour: number; resetSeconds: number } {
  const hour = Math.floor(nowSeconds / 3600);
  return { hour, resetSeconds: (hour + 1) * 3600 - nowSeconds };
}

/** X-RateLimit-* (contract, plus Reset in seconds) and the IETF draft's RateLimit fields. */
export function setRateHeaders(reply: FastifyReply, rate: RateState): void {
  const remaining = Math.max(0, rate.limit - rate.used);
  reply.header("X-RateLimit-Limit", String(rate.limit));
  reply.header("X-RateLimit-Remaining", String(remaining));
  reply.header("X-RateLimit-Reset", String(rate.resetSeconds));
  reply.header("RateLimit-Policy", `"hour";q=${rate.limit};w=3600`);
  reply.header("RateLimit", `"hour";r=${remaining};t=${rate.resetSeconds}`);
}
