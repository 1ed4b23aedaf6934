// Which observations would cap the rank (seo-anchors §3.4), in one place for the crawler (whether to
// look a second time, and at what) and the analyzer (whether the second look confirmed the cap).
// A cap counts only when the failure is seen twice: in the collection and in SiteFacts.confirmation,
// a second look at the same inputs made a delay later in the same run. Pure.
import { PageFacts, SiteFacts } from "../proto/index.ts";
import type { CheckDef } from "./checks/check.ts";
import { dnsResolves } from "./checks/dns-resolves.ts";
import { homeStatus } from "./checks/home-status.ts";
import { httpsAvailable } from "./checks/https-available.ts";
import { httpsRedirect } from "./checks/https-redirect.ts";
import { noindex } from "./checks/noindex.ts";
import { robotsBlocksAll } from "./checks/robots-blocks-all.ts";
import { tlsCertValid } from "./checks/tls-cert-valid.ts";

/** An input of SiteFacts that a second look observes again. */
export type CapInput = "home" | "robots" | "tls" | "httpVariant" | "dns";

/** The checks that can cap the rank, and the inputs each one's cap depends on. */
export const CAP_CHECKS: readonly { readonly def: CheckDef; readonly inputs: readonly CapInput[] }[] = Object.freeze([
  { def: homeStatus, inputs: ["home"] },
  { def: noindex, inputs: ["home"] },
  { def: robotsBlocksAll, inputs: ["robots"] },
  { def: tlsCertValid, inputs: ["tls"] },
  { def: httpsAvailable, inputs: ["tls"] },
  // Its cap holds only while HTTPS works, which the TLS facts decide.
  { def: httpsRedirect, inputs: ["httpVariant", "tls"] },
  { def: dnsResolves, inputs: ["dns"] },
]);

export interface CapTrigger {
  readonly code: string;
  readonly cap: number;
}

/** The caps these facts would trigger, by check code (a failing capping check; a faulty check triggers nothing). */
export function capTriggers(facts: SiteFacts): CapTrigger[] {
  const out: CapTrigger[] = [];
  for (const { def } of CAP_CHECKS) {
    try {
      const outcome = def.run(facts);
      if ((outcome.status === "fail" || outcome.status === "warn") && outcome.cap !== undefined) out.push({ code: def.code, cap: outcome.cap });
    } catch {
      // The analyzer reports the fault as N/A: no cap.
    }
  }
  return out;
}

/** The inputs to observe again so that every given trigger can be confirmed or not. */
export function confirmationInputs(triggers: readonly CapTrigger[]): CapInput[] {
  const codes = new Set(triggers.map((t) => t.code));
  return [...new Set(CAP_CHECKS.filter((c) => codes.has(c.def.code)).flatMap((c) => c.inputs))];
}

/**
 * The facts as the second look saw them: the re-observed inputs in place of the first ones, the
 * rest unchanged. Undefined when the facts carry no finished second look.
 */
export function secondLook(facts: SiteFacts): SiteFacts | undefined {
  const c = facts.confirmation;
  if (!c?.done) return undefined;
  const home =
    c.home && facts.home
      ? PageFacts.fromPartial({ ...facts.home, response: c.home, metaRobots: c.homeMetaRobots, xRobotsTag: c.homeXRobotsTag })
      : c.home
        ? PageFacts.fromPartial({ response: c.home, metaRobots: c.homeMetaRobots, xRobotsTag: c.homeXRobotsTag })
        : facts.home;
  return SiteFacts.fromPartial({
    ...facts,
    home,
    robots: c.robots ?? facts.robots,
    tls: c.tls ?? facts.tls,
    dns: c.dns ?? facts.dns,
    httpVariant: c.httpVariant ?? facts.httpVariant,
    confirmation: undefined,
  });
}

export interface CapJudgement {
  /** The cap that counts, undefined when the failure was not confirmed. */
  readonly cap: number | undefined;
  /** Set when the cap does not count: why, for the report item's detail. */
  readonly unconfirmed?: string;
}

/**
 * Judges the caps of the first observation against the second look:
 * - no `confirmation` (facts of an older crawler, unit fixtures): every cap counts, as before;
 * - `confirmation.done` false (no second look was made): no cap counts;
 * - otherwise a cap counts when the second look triggers a cap of the same check too; the less
 *   severe of the two (the failure seen both times) applies.
 */
export function capJudge(facts: SiteFacts): (code: string, cap: number) => CapJudgement {
  const c = facts.confirmation;
  if (c === undefined) return (_code, cap) => ({ cap });
  if (!c.done) return () => ({ cap: undefined, unconfirmed: "not confirmed: no second look was made" });
  const view = secondLook(facts) as SiteFacts;
  const second = new Map(capTriggers(view).map((t) => [t.code, t.cap]));
  const after = `not confirmed on a second look after ${formatSeconds(c.delayMs)} s`;
  return (code, cap) => {
    const again = second.get(code);
    return again === undefined ? { cap: undefined, unconfirmed: after } : { cap: Math.max(cap, again) };
  };
}

function formatSeconds(ms: number): string {
  return Number((ms / 1000).toFixed(1)).toString();
}
