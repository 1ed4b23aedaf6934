import { UtilityError, defineUtility } from "../utility.ts";
import { parseRate, parseSize } from "../shared/units.ts";
import { round, show } from "../shared/numbers.ts";

interface Input {
  size: string;
  pageviews_month?: number;
  profiles: string[];
  convert?: string;
}

/** Downlink and round trip of common connections (WebPageTest's 2G/3G/4G/cable/FIOS profiles; 5G as a typical mid-band cell). */
const PROFILES: Record<string, { readonly mbps: number; readonly rttMs: number }> = {
  "2g": { mbps: 0.28, rttMs: 800 },
  "3g": { mbps: 1.6, rttMs: 300 },
  "4g": { mbps: 9, rttMs: 170 },
  "5g": { mbps: 100, rttMs: 30 },
  cable: { mbps: 5, rttMs: 28 },
  fibre: { mbps: 20, rttMs: 4 },
};
/** A fresh HTTPS connection costs about three round trips (TCP, TLS 1.3, the request) before the bytes flow. */
const SETUP_RTTS = 3;

export const downloadTime = defineUtility<Input>({
  id: "download_time",
  group: "calc",
  title: "Page weight & bandwidth calculator",
  description:
    "Download time of a given size over 2G, 3G, 4G, 5G, cable and fibre profiles (bandwidth plus three round trips of connection setup); monthly traffic for N pageviews; size and bit-rate conversion (KB/KiB/MB, Mbit/s ⇄ MB/s)",
  net: false,
  file: false,
  fields: [
    { name: "size", type: "str", label: 'Size ("2.4 MB", "512 KiB")', required: true, max: 50 },
    { name: "pageviews_month", type: "int", label: "Pageviews per month", min: 0 },
    { name: "profiles", type: "multi", label: "Connections", options: Object.keys(PROFILES), default: Object.keys(PROFILES) },
    { name: "convert", type: "str", label: 'A size or rate to convert ("10 Mbit/s", "3 GiB")', max: 50 },
  ],
  example: { size: "2.4 MB", pageviews_month: 100000, profiles: ["3g", "4g", "cable"], convert: "10 Mbit/s" },
  run(i) {
    const bytes = parseSize(i.size);
    if (bytes === null) throw new UtilityError("bad_param", `input.size "${i.size}" is not a size like 2.4 MB or 512 KiB`, "input.size");
    const profiles = i.profiles.map((name) => {
      const p = PROFILES[name] as { mbps: number; rttMs: number };
      const seconds = (SETUP_RTTS * p.rttMs) / 1000 + (bytes * 8) / (p.mbps * 1e6);
      return { name, mbps: p.mbps, rtt_ms: p.rttMs, seconds: round(seconds, 2) };
    });
    const monthlyGb = i.pageviews_month === undefined ? null : round((bytes * i.pageviews_month) / 1e9, 3);
    let conversions: Record<string, number> | null = null;
    if (i.convert !== undefined) {
      const rate = parseRate(i.convert);
      const size = rate === null ? parseSize(i.convert) : null;
      if (rate !== null) conversions = { "bit/s": round(rate, 3), "kbit/s": round(rate / 1e3, 3), "Mbit/s": round(rate / 1e6, 3), "Gbit/s": round(rate / 1e9, 6), "KB/s": round(rate / 8e3, 3), "MB/s": round(rate / 8e6, 3), "MiB/s": round(rate / 8 / 1024 ** 2, 3) };
      else if (size !== null) conversions = { B: round(size, 0), KB: round(size / 1e3, 3), KiB: round(size / 1024, 3), MB: round(size / 1e6, 3), MiB: round(size / 1024 ** 2, 3), GB: round(size / 1e9, 6), GiB: round(size / 1024 ** 3, 6) };
      else throw new UtilityError("bad_param", `input.convert "${i.convert}" is neither a size nor a rate`, "input.convert");
    }
    return {
      result: { bytes, profiles, monthly_gb: monthlyGb, conversions },
      blocks: {
        tables: [
          { title: `Downloading ${show(bytes / 1e6, 3)} MB`, columns: ["connection", "Mbit/s", "RTT ms", "seconds"], rows: profiles.map((p) => [p.name, p.mbps, p.rtt_ms, p.seconds]) },
          ...(conversions ? [{ title: `${i.convert} is`, columns: ["unit", "value"], rows: Object.entries(conversions).map(([k, v]) => [k, v]) }] : []),
        ],
        pairs: monthlyGb === null ? [] : [{ label: "Traffic per month", value: `${show(monthlyGb, 3)} GB` }],
      },
    };
  },
});
