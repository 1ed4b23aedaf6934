import type { AuthContext } from "../pipeline/auth.ts";
import type { RateState } from "../pipeline/rate-headers.ts";
import type { Operation } from "../registry/operation.ts";

/** What the pipeline learns about one request as it passes the hooks. */
export interface RequestState {
  op: Operation | null;
  /** The route template of a page outside the API (the guides), for metrics; null otherwise. */
  page: string | null;
  readonly address: string;
  readonly startedNs: bigint;
  /** The clock's reading when the request arrived: one "now" for the whole request. */
  readonly nowMs: number;
  auth: AuthContext | null;
  rate: RateState | null;
  /** Set when this request holds an Idempotency-Key claim that its answer must settle. */
  idempotency: { readonly key: string; readonly fingerprint: string; claimed: boolean; replay: boolean } | null;
}
