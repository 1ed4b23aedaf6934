/** A rank band (seo-anchors §3.5): label shown with the rank, and its CSS colour. */
export interface Band {
  label: "bad" | "poor" | "fair" | "good" | "excellent";
  color: string;
  min: number;
  max: number;
}

export const BANDS: readonly Band[] = Object.freeze([
  { label: "bad", color: "#d32f2f", min: 1, max: 29 }, // red
  { label: "poor", color: "#f4511e", min: 30, max: 49 }, // orange-red
  { label: "fair", color: "#fb8c00", min: 50, max: 69 }, // orange
  { label: "good", color: "#7cb342", min: 70, max: 89 }, // light green
  { label: "excellent", color: "#2e7d32", min: 90, max: 100 }, // green
]);

/** The band of a rank 1–100 (values outside are clamped first). */
export function bandOf(rank: number): Band {
  const r = Math.min(100, Math.max(1, Math.round(rank)));
  return BANDS.find((b) => r >= b.min && r <= b.max) ?? (BANDS[0] as Band);
}
