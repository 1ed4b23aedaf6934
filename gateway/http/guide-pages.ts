import type { FastifyInstance } from "fastify";
import { GUIDES, GUIDES_PATH, renderGuideIndex, renderGuidePage } from "../../analyzer/index.ts";
import { ApiError } from "../errors.ts";

// The pages load nothing but their inline style sheet; they are documentation, cacheable for an hour
// (they change only with a release).
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cache-Control": "public, max-age=3600",
};

/**
 * GET /guides and GET /guides/{id}: the guide pages in Russian, at the service's origin outside
 * /api/v1 (pages for people, not API operations: no key, no OpenAPI entry). Rendered once here;
 * serving a page costs less than counting it against the caller's address, so it is not counted.
 * An unknown id is the API's 404 not_found.
 */
export function registerGuidePages(app: FastifyInstance): void {
  const index = renderGuideIndex(GUIDES);
  const pages = new Map(GUIDES.map((g) => [g.id, renderGuidePage(g)]));

  app.get(GUIDES_PATH, async (request, reply) => {
    request.svc.page = GUIDES_PATH;
    return reply.headers(PAGE_HEADERS).send(index);
  });

  app.get<{ Params: { id: string } }>(`${GUIDES_PATH}/:id`, async (request, reply) => {
    request.svc.page = `${GUIDES_PATH}/{id}`;
    const page = pages.get(request.params.id);
    if (page === undefined) throw new ApiError("not_found", `no guide has the id ${request.params.id}; GET ${GUIDES_PATH} lists them`);
    return reply.headers(PAGE_HEADERS).send(page);
  });
}
