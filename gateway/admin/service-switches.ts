import type { ServiceState, ServiceStateRepo } from "../../storage/index.ts";

/**
 * The maintenance and closed switches as a gateway sees them: re-read from storage every few
 * seconds (so `svc admin maintenance on` reaches every process), with SVC_MAINTENANCE forcing
 * maintenance on.
 */
export class ServiceSwitches {
  private state: ServiceState = { maintenance: false, closed: false };
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repo: ServiceStateRepo,
    private readonly forcedMaintenance: boolean,
  ) {}

  get maintenance(): boolean {
    return this.forcedMaintenance || this.state.maintenance;
  }

  get closed(): boolean {
    return this.state.closed;
  }

  /** True once the process is shutting down: answers then ask clients to close their connection. */
  draining = false;

  async refresh(): Promise<void> {
    this.state = await this.repo.read();
  }

  start(everyMs: number): void {
    this.timer ??= setInterval(() => void this.refresh().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
