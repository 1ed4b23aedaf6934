import { Type } from "@sinclair/typebox";
import { PageEnvelope, StringEnum, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

const Text = Type.String({ minLength: 1 });

export const listExplanations = defineContract({
  id: "list_explanations",
  method: "GET",
  path: "/explain",
  scope: "read",
  cli: "explain list",
  summary: "The checks that have explanations, in catalogue order, with whether each has a hint and a guide",
  description:
    "Every catalogued check has a hint (Russian and English) and a section in one of the guide pages Svc serves at /guides " +
    "(outside /api/v1), so has_hint and has_guide are true for every check. GET /explain/{code} gives the guide's address.",
  tags: ["Reference"],
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object(
    {
      codes: Type.Array(Type.Object({ code: Type.String(), has_hint: Type.Boolean(), has_guide: Type.Boolean() }, { additionalProperties: false })),
      page: PageEnvelope,
    },
    { additionalProperties: false },
  ),
});

const Hint = Type.Object({ what: Text, good: Text, bad: Text, glossary: Type.Array(Text, { description: '"term — meaning"' }) }, { additionalProperties: false });
const Plain = Type.Object({ name: Text, what: Text, why: Text, benefit: Text, effort: Text, who: Text }, { additionalProperties: false });
const Guide = Type.Object(
  {
    id: Type.String({ description: "The guide's slug" }),
    title: Type.String({ description: "The guide's title, in Russian" }),
    url: Type.String({ description: "The check's section of the guide page: <origin>/guides/{id}#{code}" }),
  },
  { additionalProperties: false },
);

export const explainCheck = defineContract({
  id: "explain_check",
  method: "GET",
  path: "/explain/{code}",
  scope: "read",
  cli: "explain",
  summary: "What a check measures, what passes and fails, a plain-language explanation for the site owner, and its guide page",
  description:
    "hint follows lang (ru or en, default ru). plain is in Russian; with lang=en it is in English where an English text exists. " +
    "guide names the topical guide page (in Russian, whatever lang) that explains the check in full: the problem, Svc's rule, " +
    "how to fix it with examples and how to verify the fix. guide.url is absolute: SVC_PUBLIC_BASE_URL when set, else the " +
    "scheme and Host of this request, then /guides/{id}#{code} (the page is public HTML, no key needed).",
  tags: ["Reference"],
  errors: ["not_found"],
  params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 100, description: "A check code (GET /explain lists them)" }) }, { additionalProperties: false }),
  query: Type.Object({ lang: Type.Optional(StringEnum(["ru", "en"], { default: "ru", description: "Language of hint (and of plain where written)" })) }, { additionalProperties: false }),
  response: Type.Object({ code: Type.String(), hint: Hint, plain: Plain, guide: Guide }, { additionalProperties: false }),
});
