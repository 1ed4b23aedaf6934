import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { UtilityError, defineUtility, type UtilityNet, type Warning } from "../utility.ts";
import { checkOutputSize, encode, loadSharp, MAX_OUTPUT_SIDE, reason } from "./image-input.ts";

// A page in headless Chromium (playwright-core driving the node's own browser, never a download).
// Every request of the browser goes through the node's guarded egress proxy (catalogue §6: the
// browser's own DNS would bypass the address pinning), schemes other than http(s) are aborted,
// service workers are blocked (their fetches would bypass routing), and each run gets a fresh
// context (no cookies or storage kept).

interface Input {
  url: string;
  device: "desktop" | "tablet" | "mobile";
  full_page: boolean;
  format: "png" | "jpeg";
  delay_ms: number;
}

const DEVICES = {
  desktop: { viewport: { width: 1366, height: 768 }, deviceScaleFactor: 1, isMobile: false },
  tablet: { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true },
  mobile: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true },
} as const;

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"];
const NAV_TIMEOUT_MS = 15_000;
/** Where a browser is looked for when the server says whether screenshots are available. */
export const BROWSER_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export const pageScreenshot = defineUtility<Input>({
  id: "page_screenshot",
  group: "img",
  title: "Website screenshot / mobile view",
  description:
    "Takes a viewport or full-page screenshot in headless Chromium with desktop, tablet and mobile presets. Every browser request passes the SSRF guard. `available` only where a browser is installed",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "Page URL", required: true },
    { name: "device", type: "sel", label: "Device", options: ["desktop", "tablet", "mobile"], default: "desktop" },
    { name: "full_page", type: "bool", label: "Whole page (up to 8000 px)", default: false },
    { name: "format", type: "sel", label: "Format", options: ["png", "jpeg"], default: "jpeg" },
    { name: "delay_ms", type: "int", label: "Wait after load (ms)", default: 0, min: 0, max: 5000 },
  ],
  example: { url: "https://example.com/", device: "mobile" },
  available: () => BROWSER_PATHS.some((p) => existsSync(p)),
  browser: true,
  async run(input, ports) {
    const browserPort = (ports.net as UtilityNet).browser;
    if (!browserPort) throw new UtilityError("tool_failed", "this node has no browser with a guarded proxy: screenshots are not available here");
    const device = DEVICES[input.device];
    const warnings: Warning[] = [];
    let browser: Browser | null = null;
    try {
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({ executablePath: browserPort.executablePath, headless: true, args: ARGS, timeout: NAV_TIMEOUT_MS });
      const context = await browser.newContext({
        ...device,
        hasTouch: device.isMobile,
        serviceWorkers: "block",
        acceptDownloads: false,
        ignoreHTTPSErrors: false,
        proxy: { server: browserPort.proxy.server, ...(browserPort.proxy.username ? { username: browserPort.proxy.username, password: browserPort.proxy.password ?? "" } : {}), bypass: "" },
      });
      let blocked = 0;
      await context.route("**/*", (route) => {
        const scheme = new URL(route.request().url()).protocol;
        if (scheme === "http:" || scheme === "https:" || scheme === "data:" || scheme === "blob:") return route.continue();
        blocked++;
        return route.abort("blockedbyclient");
      });
      const page = await context.newPage();
      const started = performance.now();
      let status: number | null = null;
      try {
        const res = await page.goto(input.url, { waitUntil: "load", timeout: NAV_TIMEOUT_MS });
        status = res?.status() ?? null;
      } catch (err) {
        throw new UtilityError("tool_failed", `the page did not load (${reason(err).replace(/\n.*/s, "")})`);
      }
      const loadMs = Math.round(performance.now() - started);
      if (input.delay_ms > 0) await page.waitForTimeout(input.delay_ms);
      const fullHeight = input.full_page ? await page.evaluate<number>("Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)") : device.viewport.height;
      const maxCss = Math.floor(MAX_OUTPUT_SIDE / device.deviceScaleFactor);
      const cssHeight = Math.min(fullHeight, maxCss);
      if (fullHeight > maxCss) warnings.push({ code: "cut", text: `the page is ${fullHeight} px tall; the screenshot stops at ${maxCss} px (${MAX_OUTPUT_SIDE} px at ${device.deviceScaleFactor}x)` });
      if (blocked) warnings.push({ code: "blocked", text: `${blocked} requests with other schemes were blocked` });
      const shot = await page.screenshot({
        type: "png",
        ...(input.full_page ? { clip: { x: 0, y: 0, width: device.viewport.width, height: cssHeight }, fullPage: true } : {}),
      });
      const sharp = await loadSharp();
      const p = sharp(shot, { limitInputPixels: false });
      const { data, info } = await encode(input.format === "png" ? p.png({ compressionLevel: 9 }) : p.jpeg({ quality: 80, mozjpeg: true }));
      checkOutputSize(data, "choose JPEG or leave full_page off");
      const mime = input.format === "png" ? "image/png" : "image/jpeg";
      const finalUrl = page.url();
      await context.close();
      return {
        result: { data_base64: data.toString("base64"), mime, file_name: `screenshot-${input.device}.${input.format === "png" ? "png" : "jpg"}`, width: info.width, height: info.height, bytes: data.length, final_url: finalUrl, status, load_ms: loadMs },
        blocks: {
          images: [{ mime, data_base64: data.toString("base64"), width: info.width, height: info.height, alt: `screenshot of ${finalUrl}` }],
          pairs: [
            { label: "Final URL", value: finalUrl },
            { label: "Status", value: String(status ?? "?"), status: status !== null && status < 400 ? "good" : "bad" },
            { label: "Load", value: `${loadMs} ms` },
            { label: "Device", value: `${input.device} ${device.viewport.width}×${device.viewport.height} @${device.deviceScaleFactor}x` },
          ],
        },
        warnings,
      };
    } catch (err) {
      if (err instanceof UtilityError) throw err;
      throw new UtilityError("tool_failed", `the browser failed (${reason(err).replace(/\n.*/s, "")})`);
    } finally {
      await browser?.close().catch(() => undefined);
    }
  },
});
