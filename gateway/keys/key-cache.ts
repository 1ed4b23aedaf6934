import type { Clock } from "../../runtime/index.ts";
import type { AuthRepo, KeyRecord } from "../../storage/index.ts";

/**
 * Keys the gateway has looked up, by hash. Revocations and account changes are announced on a
 * Postgres channel, so every process drops a changed key within milliseconds; the process that
 * makes a change also drops it synchronously. While the subscription is down nothing is cached:
 * every request reads the database. Unknown keys are never cached (a key created elsewhere works
 * at once). ttlMs bounds staleness should a notification ever be missed.
 */
export class KeyCache {
  private readonly entries = new Map<string, { record: KeyRecord; at: number }>();
  private subscription: { close(): Promise<void> } | null = null;
  private live = false;

  constructor(
    private readonly repo: AuthRepo,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** Subscribes to change notifications; until then (or if it fails) lookups bypass the cache. */
  async start(): Promise<void> {
    this.subscription = await this.repo.onKeyChanges(
      (payload) => this.onChange(payload),
      () => {
        this.live = false;
        this.entries.clear();
      },
    );
    this.live = true;
  }

  /**
   * The cached record of a key, or undefined when only the database can tell (not cached, stale, or
   * the subscription down): the keyed request's path without a promise when the key is known.
   */
  peek(hash: string): KeyRecord | undefined {
    const hit = this.entries.get(hash);
    return hit && this.live && this.clock.nowMs() - hit.at < this.ttlMs ? hit.record : undefined;
  }

  async get(hash: string): Promise<KeyRecord | null> {
    const cached = this.peek(hash);
    if (cached !== undefined) return cached;
    const now = this.clock.nowMs();
    const record = await this.repo.findKey(hash);
    if (record && this.live && this.ttlMs > 0) {
      if (this.entries.size >= 50_000) this.entries.clear();
      this.entries.set(hash, { record, at: now });
    } else this.entries.delete(hash);
    return record;
  }

  /** Drops a key (key:<id>), an account's keys (account:<id>) or everything. */
  onChange(payload: string): void {
    const [kind, id] = payload.split(":");
    for (const [hash, { record }] of this.entries) {
      if ((kind === "key" && String(record.key_id) === id) || (kind === "account" && String(record.account_id) === id) || (kind !== "key" && kind !== "account")) {
        this.entries.delete(hash);
      }
    }
  }

  async close(): Promise<void> {
    this.live = false;
    this.entries.clear();
    await this.subscription?.close();
    this.subscription = null;
  }
}
