/** Jobs finished in this process, for synchronous waiters (others are seen by polling Postgres). */
export class Waiters {
  private readonly waiting = new Map<number, (() => void)[]>();

  /** Resolves true once the job is done (told here, or seen by poll), false after ms. */
  wait(jobId: number, ms: number, poll: () => Promise<boolean>): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (done: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(ticker);
        resolve(done);
      };
      const list = this.waiting.get(jobId) ?? [];
      list.push(() => finish(true));
      this.waiting.set(jobId, list);
      const timer = setTimeout(() => finish(false), ms);
      const ticker = setInterval(() => void poll().then((d) => d && finish(true)).catch(() => undefined), 500);
    });
  }

  done(jobId: number): void {
    for (const f of this.waiting.get(jobId) ?? []) f();
    this.waiting.delete(jobId);
  }
}
