import { GROUPS, GROUP_TITLES, descriptionOf, entryOf, utilityById, type Utility } from "../../utilities/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { clientGone } from "../http/client-gone.ts";
import { implement, type HandlerDeps } from "../registry/operation.ts";
import { page } from "../schemas.ts";

function entry(deps: HandlerDeps, u: Utility) {
  return { ...entryOf(u), available: deps.utilities.available(u), enabled: deps.utilities.enabled(u) };
}

function matches(u: Utility, q: string): boolean {
  const hay = `${u.id} ${u.title} ${u.description}`.toLowerCase();
  return q.toLowerCase().split(/\s+/).filter(Boolean).every((word) => hay.includes(word));
}

export const listUtilities = implement(contracts.listUtilities, { repos: [] }, async ({ query, deps }) => {
  const filtered = deps.utilities
    .list()
    .filter((u) => (query.net === undefined || u.net === (query.net === 1)) && (query.q === undefined || matches(u, query.q)));
  const inGroup = filtered.filter((u) => query.group === undefined || u.group === query.group);
  const groups = GROUPS.map((g) => ({ id: g, title: GROUP_TITLES[g], count: filtered.filter((u) => u.group === g).length }));
  return {
    body: {
      utilities: inGroup.slice(query.offset, query.offset + query.limit).map((u) => entry(deps, u)),
      page: page(query.limit, query.offset, inGroup.length),
      groups,
    },
  };
});

export const getUtility = implement(contracts.getUtility, { repos: [] }, async ({ params, deps }) => {
  const u = utilityById(params.id);
  if (!u) throw new ApiError("not_found", `no utility has the id ${params.id}; GET /utilities lists them`);
  return { body: { ...entry(deps, u), ...descriptionOf(u) } };
});

export const runUtility = implement(contracts.runUtility, { repos: [] }, async ({ params, body, deps, auth, request }) => {
  const gone = clientGone(request);
  try {
    const output = await deps.utilities.run(params.id, body.input, auth?.keyId ?? null, auth?.accountId ?? 0, gone.signal);
    return { body: output };
  } finally {
    gone.done();
  }
});

export const utilitiesHandlers = [listUtilities, getUtility, runUtility];
