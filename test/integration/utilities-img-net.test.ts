// The img group's network utilities on loopback: page_images_audit reads a page and its images
// from a local site through a UtilityNet (the seam the crawler node's guarded fetch fills), and
// page_screenshot drives Debian's Chromium through a local forward proxy standing in for the
// node's egress guard: the page's host (screenshot.test) resolves nowhere, so the screenshot can
// only exist if every request went through the proxy.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runUtility, seededPorts, type UtilityNet, type UtilityPorts } from "../../utilities/index.ts";
import { chromiumPath } from "../harness/chromium.ts";
import { photo } from "../unit/utilities/img-fixtures.ts";

const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0);

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}

/** A UtilityNet over loopback: the test's stand-in for the crawler node's guarded fetch. */
function loopbackNet(extra: Partial<UtilityNet> = {}): UtilityNet {
  return {
    async fetch(url, init) {
      const res = await fetch(url, { method: init?.method ?? "GET", redirect: "follow" });
      const body = new Uint8Array(await res.arrayBuffer());
      if (init?.maxBytes !== undefined && body.length > init.maxBytes) throw new Error(`body over ${init.maxBytes} bytes`);
      return {
        status: res.status,
        status_text: res.statusText,
        http_version: "1.1",
        ip: "127.0.0.1",
        url: res.url,
        headers: [...res.headers].map(([k, v]) => [k, v] as const),
        body,
        encoded_bytes: body.length,
        truncated: false,
        timings_ms: { dns: 0, connect: 0, tls: 0, ttfb: 0, total: 0 },
      };
    },
    resolve: () => Promise.resolve([]),
    addresses: () => Promise.resolve(["127.0.0.1"]),
    connect: () => Promise.reject(new Error("not used by the img utilities")),
    whois: () => Promise.reject(new Error("not used by the img utilities")),
    tls: () => Promise.reject(new Error("not used by the img utilities")),
    smtp: () => Promise.reject(new Error("not used by the img utilities")),
    page: () => {
      throw new Error("not used by the img utilities");
    },
    sitemap: () => Promise.reject(new Error("not used by the img utilities")),
    interfaces: () => [],
    echoUrl: null,
    whoisRoot: "whois.iana.org",
    ...extra,
  };
}

const portsWith = (net?: UtilityNet): UtilityPorts => ({ ...seededPorts(NOW_MS, new Uint8Array([1])), ...(net ? { net } : {}) });

describe("page_images_audit", () => {
  let site: Server;
  let origin = "";
  let big: Buffer;
  let icon: Buffer;
  beforeAll(async () => {
    big = await photo(800, 600, 92);
    icon = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff8800" } }).png().toBuffer();
    const pages: Record<string, [string, string | Buffer]> = {
      "/": [
        "text/html; charset=utf-8",
        `<!doctype html><html><body><img src="/photo.jpg" width="200" height="150"><img src="icon.png" alt="Logo" width="64" height="64"><img src="/gone.png" alt="">` +
          `<img src="/photo.jpg"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="dot"></body></html>`,
      ],
      "/photo.jpg": ["image/jpeg", big],
      "/icon.png": ["image/png", icon],
      "/broken": ["text/plain", "not html"],
    };
    site = createServer((req: IncomingMessage, res: ServerResponse) => {
      const hit = pages[req.url ?? ""];
      if (!hit) return void res.writeHead(404).end("nope");
      res.writeHead(200, { "content-type": hit[0] }).end(hit[1]);
    });
    origin = `http://127.0.0.1:${await listen(site)}`;
  });
  afterAll(() => new Promise<void>((r) => site.close(() => r())));

  it("measures each image, its WebP saving, and flags oversize, missing alt and failed downloads", async () => {
    const out = await runUtility("page_images_audit", { url: `${origin}/`, formats: ["webp", "avif"] }, portsWith(loopbackNet()));
    const images = out.result.images as { src: string; format: string | null; bytes: number | null; w: number | null; h: number | null; webp_bytes: number | null; avif_bytes: number | null; saving_bytes: number; issues: string[]; error?: string }[];
    // Three distinct http images (the repeated one and the data: URI are left out).
    expect(images.map((i) => i.src)).toEqual([`${origin}/photo.jpg`, `${origin}/icon.png`, `${origin}/gone.png`]);
    const [photoRow, iconRow, gone] = images;
    expect(photoRow).toMatchObject({ format: "jpeg", bytes: big.length, w: 800, h: 600, issues: ["alt_missing", "oversized", "legacy_format"] });
    const webp = await sharp(big).webp({ quality: 75, effort: 4 }).toBuffer();
    expect(photoRow?.webp_bytes).toBe(webp.length);
    expect(photoRow?.saving_bytes).toBe(big.length - Math.min(webp.length, photoRow?.avif_bytes ?? Infinity));
    expect(iconRow).toMatchObject({ format: "png", bytes: icon.length, w: 64, h: 64 });
    expect(gone).toMatchObject({ bytes: null, error: "HTTP 404", issues: ["no_dimensions", "unreadable"] });
    expect(out.result.total_bytes).toBe(big.length + icon.length);
    expect(out.result.total_saving).toBe(images.reduce((s, i) => s + i.saving_bytes, 0));
  }, 30_000);

  it("refuses a page that is not HTML, a failed page, and a run without the node's network", async () => {
    await expect(runUtility("page_images_audit", { url: `${origin}/broken` }, portsWith(loopbackNet()))).rejects.toMatchObject({ code: "tool_failed", message: "the page is text/plain, not HTML" });
    await expect(runUtility("page_images_audit", { url: `${origin}/missing` }, portsWith(loopbackNet()))).rejects.toMatchObject({ code: "tool_failed", message: "the page answered HTTP 404" });
    await expect(runUtility("page_images_audit", { url: `${origin}/` }, portsWith())).rejects.toMatchObject({ code: "tool_failed", message: "page_images_audit contacts other sites and runs only on a crawler node" });
    await expect(runUtility("page_images_audit", { url: "ftp://example.com/" }, portsWith(loopbackNet()))).rejects.toMatchObject({ code: "bad_param", field: "input.url" });
  });
});

describe("page_screenshot", () => {
  let proxy: Server;
  let proxyUrl = "";
  const seen: string[] = [];
  beforeAll(async () => {
    // A forward proxy that serves screenshot.test itself and refuses everything else.
    proxy = createServer((req, res) => {
      seen.push(req.url ?? "");
      if (req.url === "http://screenshot.test/") {
        res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body style="margin:0;background:#00ff00"><div style="height:3000px"></div></body></html>`);
      } else res.writeHead(403).end("blocked by the test proxy");
    });
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
  });
  afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

  it("takes a mobile screenshot through the proxy at the device's pixel size", async () => {
    const executablePath = chromiumPath();
    const net = loopbackNet({ browser: { executablePath, proxy: { server: proxyUrl } } });
    const out = await runUtility("page_screenshot", { url: "http://screenshot.test/", device: "mobile", format: "png" }, portsWith(net));
    expect(out.result).toMatchObject({ mime: "image/png", width: 1170, height: 2532, status: 200, final_url: "http://screenshot.test/" });
    expect(seen).toContain("http://screenshot.test/");
    const { data } = await sharp(Buffer.from(out.result.data_base64 as string, "base64")).extract({ left: 500, top: 1000, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0, 255, 0]);
    const full = await runUtility("page_screenshot", { url: "http://screenshot.test/", device: "desktop", full_page: true }, portsWith(net));
    expect(full.result).toMatchObject({ mime: "image/jpeg", width: 1366, height: 3000 });
  }, 60_000);

  it("fails with the reason when the page cannot load, and refuses a node without a browser", async () => {
    const net = loopbackNet({ browser: { executablePath: chromiumPath(), proxy: { server: proxyUrl } } });
    const blocked = await runUtility("page_screenshot", { url: "http://other.test/" }, portsWith(net));
    expect(blocked.result).toMatchObject({ status: 403 });
    await expect(runUtility("page_screenshot", { url: "http://screenshot.test/" }, portsWith(loopbackNet()))).rejects.toMatchObject({
      code: "tool_failed",
      message: "this node has no browser with a guarded proxy: screenshots are not available here",
    });
    await expect(runUtility("page_screenshot", { url: "http://screenshot.test/", delay_ms: 9000 }, portsWith(net))).rejects.toMatchObject({ code: "bad_param", field: "input.delay_ms" });
  }, 60_000);
});
