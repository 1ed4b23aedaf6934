/** A bounded number of slots; takers beyond it wait in order. */
export class Slots {
  private active = 0;
  private readonly queue: { resolve: () => void; reject: (err: Error) => void; refusal: () => Error }[] = [];

  constructor(private readonly size: number) {}

  /** Resolves when a slot is free; rejects with refusal() should refuseWaiting() be called first. */
  take(refusal: () => Error): Promise<void> {
    if (this.active < this.size) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.queue.push({ resolve, reject, refusal }));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next.resolve();
    else this.active -= 1;
  }

  /** Refuses every taker still waiting. */
  refuseWaiting(): void {
    for (const waiting of this.queue.splice(0)) waiting.reject(waiting.refusal());
  }
}
