// The browser's proxies on their thread (crawler/browser/thread-page-proxies.ts), as a crawler node
// runs them: the egress guard still refuses a private address there, and closing the browser pool
// ends the thread, so that the process exits by itself. Run in a process of its own
// (test/harness/browser-proxy-child.ts), in Debian's Chromium, against servers on 127.0.0.1 and 127.0.0.2.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../harness/chromium.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";

/** Beyond this the child is taken to hang (a thread left running) and is killed. */
const HANG_MS = 90_000;

describe("the browser's proxies on a thread", () => {
  it("refuses a private address under the egress guard, lets allowed ones through, and ends with the pool: the process exits by itself", async () => {
    chromiumPath();
    const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "test/harness/browser-proxy-child.ts")], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const hung = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (c, s) => resolve([c, s])));
    clearTimeout(hung);
    const reported = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Record<string, { error: string; siteHits: string[]; otherHits: string[]; blocked: number; painted: boolean }>;
    const origin = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(reported.refusing?.error ?? "")?.[1];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // Private targets refused: the proxy answers the document itself with 403, and the site never sees a request.
    const { error, siteHits, otherHits } = reported.refusing ?? {};
    expect({ error, siteHits, otherHits }).toEqual({ error: `page.goto: net::ERR_HTTP_RESPONSE_CODE_FAILURE at ${origin}/leak`, siteHits: [], otherHits: [] });
    // Private targets allowed and 127.0.0.2 on the allow list: the page and its third party load through the thread.
    expect(reported.allowing).toEqual({ error: "", blocked: 0, painted: true, siteHits: ["/leak"], otherHits: ["/beacon", "/pixel.png"] });
  }, HANG_MS + 10_000);
});
