import { createClient, SvcApiError, type ListSitesAnswer } from "svc-client";

const svc = createClient({ baseUrl: process.env.SVC_API_URL ?? "http://127.0.0.1:8080", apiKey: process.env.SVC_API_KEY });
await svc.addSite({ host: "consumer.example.com", interval: 12 }, { idempotencyKey: "consumer-add" });
const list: ListSitesAnswer = await svc.listSites({ limit: 10 });
const again = await svc.rest.get("/api/v1/sites?limit=10"); // remembered ETag: 304, not charged
const missing = await svc.getJob({ id: 999999 }).catch((err: unknown) => err);
const code = missing instanceof SvcApiError ? { code: missing.code, status: missing.status, retryable: missing.retryable } : null;
console.log(JSON.stringify({ hosts: list.sites.map((s) => s.host), interval: list.sites[0]?.interval_h, again: again.status, code }));
// @ts-expect-error host is required: the type checker refuses what the API would
export const refused = () => svc.addSite({ interval: 12 });
