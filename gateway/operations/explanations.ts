import { CHECKS, EXPLANATIONS, GUIDE_OF } from "../../analyzer/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";

export const listExplanations = implement(contracts.listExplanations, { repos: [] }, async ({ query }) => {
  const all = CHECKS.map((c) => ({ code: c.code, has_hint: EXPLANATIONS[c.code] !== undefined, has_guide: GUIDE_OF.has(c.code) }));
  return { body: { codes: all.slice(query.offset, query.offset + query.limit), page: page(query.limit, query.offset, all.length) } };
});

export const explainCheck = implement(contracts.explainCheck, { repos: [] }, async ({ params, query, deps, request }) => {
  const e = Object.hasOwn(EXPLANATIONS, params.code) ? EXPLANATIONS[params.code] : undefined;
  if (!e) throw new ApiError("not_found", `no check has the code ${params.code}`);
  const lang = query.lang ?? "ru";
  const hint = e.hint[lang];
  const plain = lang === "en" && e.plain.en ? e.plain.en : e.plain.ru;
  return {
    body: {
      code: params.code,
      hint: { what: hint.what, good: hint.good, bad: hint.bad, glossary: [...hint.glossary] },
      plain: { ...plain },
      guide: { ...e.guide, url: publicOrigin(deps, request) + e.guide.url },
    },
  };
});

export const explanationsHandlers = [listExplanations, explainCheck];
