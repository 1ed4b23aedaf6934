// Pages built to produce known browser metrics (a layout shift of a known size, a long task of a
// known length, a large image as the LCP element), for test/integration/browser-metrics.test.ts and
// bench:lighthouse-seo. Sizes are for Lighthouse's mobile screen, 412 × 823 CSS px.
import { crc32, deflateSync } from "node:zlib";

export const MOBILE_SCREEN = { width: 412, height: 823 } as const;
/** Height of the shifted box and of the spacer that pushes it down. */
export const SHIFT_PX = 206;
/**
 * A full-width box SHIFT_PX tall moving down by SHIFT_PX on the mobile screen: impact fraction
 * (2·SHIFT_PX / height: old and new place) × distance fraction (SHIFT_PX / height) ≈ 0.1253.
 */
export const BUILT_CLS = ((2 * SHIFT_PX) / MOBILE_SCREEN.height) * (SHIFT_PX / MOBILE_SCREEN.height);
export const LONG_TASK_MS = 300;
/** How long /click's click handler holds the main thread. */
export const CLICK_HANDLER_MS = 250;
/** The words /js-content's script adds (visible), and those it adds inside a closed <details>. */
export const JS_VISIBLE_WORDS = 40;
export const JS_HIDDEN_WORDS = 12;

/** A valid RGB PNG of one colour. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const row = Buffer.alloc(1 + width * 3, 0x80);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** The hero image of /hero and /lab (800 × 600). */
export const HERO_PNG = png(800, 600);

const head = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
  `<meta name="description" content="A page built to produce known browser metrics for Svc's tests and benchmarks."><style>body{margin:0;font:16px sans-serif}</style></head>`;

const shiftScript = (delayMs: number) =>
  `<script>addEventListener("load", () => setTimeout(() => { document.getElementById("spacer").style.height = "${SHIFT_PX}px"; }, ${delayMs}));</script>`;
const busyScript = (delayMs: number) =>
  `<script>addEventListener("load", () => setTimeout(() => { const end = performance.now() + ${LONG_TASK_MS}; while (performance.now() < end); }, ${delayMs}));</script>`;

/**
 * The pages by path. The shift comes 700 ms after load (past the first 500 ms, where mobile
 * emulation flags shifts as input) and the long task 200 ms after load (after first paint).
 * `otherOrigin` serves /pixel.png and /beacon for /leak.
 */
export function labPages(otherOrigin: string): Record<string, string> {
  return {
    "/shift": `${head("Shift")}<body><div id="spacer"></div><div style="height:${SHIFT_PX}px;background:#c00;color:#fff">box</div>${shiftScript(700)}</body></html>`,
    "/busy": `${head("Busy")}<body><h1>Busy</h1><p>Text first, then the main thread is held.</p>${busyScript(200)}</body></html>`,
    "/hero": `${head("Hero")}<body><img src="/hero.png" width="412" height="309" alt="A grey hero image"><p>Caption</p></body></html>`,
    "/leak": `${head("Leak")}<body><h1>Leak</h1><img src="${otherOrigin}/pixel.png" alt=""><script>fetch("${otherOrigin}/beacon").catch(() => {});</script></body></html>`,
    "/click": `${head("Click")}<body><h1>Click</h1><button id="menu" type="button">Menu</button><script>document.getElementById("menu").addEventListener("click", () => { const end = performance.now() + ${CLICK_HANDLER_MS}; while (performance.now() < end); });</script></body></html>`,
    "/js-content": `${head("Raw title").replace(/<meta name="description"[^>]*>/, "")}<body><div id="app"></div><script>${jsContentScript()}</script></body></html>`,
    "/dialogs": `${head("Dialogs")}<body><h1>Dialogs</h1><script>addEventListener("load", () => { for (let i = 0; i < 100; i++) alert("again " + i); });</script></body></html>`,
    "/popups": `${head("Popups")}<body><h1>Popups</h1><script>setInterval(() => window.open("/hero", "_blank"), 50);</script></body></html>`,
    "/loop": `${head("Loop")}<body><h1>Loop</h1><script>while (true) {}</script></body></html>`,
    "/reload": `${head("Reload")}<body><h1>Reload</h1><script>addEventListener("load", () => setTimeout(() => location.reload(), 20));</script></body></html>`,
    // All three at once, for the comparison with Lighthouse.
    "/lab": `${head("Lab")}<body><div id="spacer"></div><div style="height:${SHIFT_PX}px;background:#c00;color:#fff">box</div><img src="/hero.png" width="412" height="309" alt="A grey hero image">${shiftScript(700)}${busyScript(200)}</body></html>`,
  };
}

/** What /js-content's script builds: everything a search engine reads, only after JavaScript. */
function jsContentScript(): string {
  const visible = Array.from({ length: JS_VISIBLE_WORDS - 4 }, (_, i) => `word${i}`).join(" "); // + two words of the h1 and two of the links
  const hidden = Array.from({ length: JS_HIDDEN_WORDS }, (_, i) => `more${i}`).join(" ");
  return [
    `document.title = "Rendered title";`,
    `const m = document.createElement("meta"); m.name = "description"; m.content = "Rendered description"; document.head.append(m);`,
    `const c = document.createElement("link"); c.rel = "canonical"; c.href = "/js-content"; document.head.append(c);`,
    `const ld = document.createElement("script"); ld.type = "application/ld+json"; ld.textContent = JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "Thing" }); document.head.append(ld);`,
    `document.getElementById("app").innerHTML = '<h1>Rendered heading</h1><p>${visible}</p><a href="/hero">Hero</a> <a href="/shift">Shift</a><details><summary></summary><p>${hidden}</p></details>';`,
  ].join("\n");
}
