import type { CheckDef } from "./check.ts";
import { aggregatePages, sampledPages } from "./page-sample.ts";
import { isSuccess } from "./response.ts";

const MIN_BYTES = 1024;
// deflate is outside the catalogue's br|gzip|zstd, but it is real compression: failing it would mislead.
const ENCODINGS = new Set(["br", "gzip", "zstd", "deflate"]);
const TEXT_TYPE = /^(text\/|application\/(.*\+)?(json|xml|javascript)$|image\/svg\+xml$)/;

export const compression: CheckDef = {
  code: "compression",
  title: "Text responses are compressed",
  group: "technical",
  rankGroup: "technical",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Enable Brotli or gzip compression for HTML, CSS, JavaScript, JSON, SVG and XML in the web server or CDN.",
  run(facts) {
    return aggregatePages(
      sampledPages(facts),
      ({ page }) => {
        const r = page.response;
        if (!r || !isSuccess(r) || r.bodyBytes < MIN_BYTES || !TEXT_TYPE.test(r.contentType)) return "na";
        return ENCODINGS.has(r.contentEncoding.toLowerCase()) ? "pass" : "fail";
      },
      { problem: "served without compression", none: "no text response of 1 KB or more" },
    );
  },
};
