/**
 * The processes Svc runs: `svc serve` (everything in one), the three roles of the distributed
 * mode, and `svc admin`. Each setting of config-fields.ts names the ones that read it.
 */
export const CONFIG_ROLES = ["serve", "gateway", "scheduler", "crawler", "admin"] as const;
export type ConfigRole = (typeof CONFIG_ROLES)[number];
