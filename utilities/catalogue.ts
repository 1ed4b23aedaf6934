import { GROUP_TITLES, UtilityError, type FieldSpec, type Utility, type UtilityGroup, type UtilityOutput, type UtilityPorts } from "./utility.ts";
import { UTILITIES } from "./table.ts";
import { validateInput } from "./validate.ts";

// The catalogue as the API shows it, and the one way to run a utility in the calling thread (the
// gateway's pool threads and crawler nodes call runUtility; tests and benchmarks call it directly).

const BY_ID = new Map<string, Utility>(UTILITIES.map((u) => [u.id, u as Utility]));

export function utilityById(id: string): Utility | undefined {
  return BY_ID.get(id);
}

/** The utility ids that contact third parties (scope run). */
export const NET_UTILITY_IDS: ReadonlySet<string> = new Set(UTILITIES.filter((u) => u.net).map((u) => u.id));

/** The entry of a list (GET /utilities). */
export interface CatalogueEntry {
  readonly id: string;
  readonly group: UtilityGroup;
  readonly group_title: string;
  readonly title: string;
  readonly description: string;
  readonly net: boolean;
  readonly file: boolean;
}

export function entryOf(u: Utility): CatalogueEntry {
  return { id: u.id, group: u.group, group_title: GROUP_TITLES[u.group], title: u.title, description: u.description, net: u.net, file: u.file };
}

/** What GET /utilities/{id} adds: the fields, scope, primary field and example. */
export function descriptionOf(u: Utility): { fields: FieldSpec[]; scope: "read" | "run"; primary: string; input_example: Record<string, unknown> } {
  return {
    fields: u.fields.map(({ allowEmpty: _internal, ...f }) => ({ ...f, required: f.required ?? false })),
    scope: u.net ? "run" : "read",
    primary: (u.fields[0] as FieldSpec).name,
    input_example: { ...u.example },
  };
}

/** The output with every block kind present (empty when the utility has none of it). */
export function normalizeOutput(out: UtilityOutput): Required<UtilityOutput> & { blocks: Required<NonNullable<UtilityOutput["blocks"]>> } {
  const b = out.blocks ?? {};
  return {
    result: out.result,
    blocks: { pairs: b.pairs ?? [], tables: b.tables ?? [], code: b.code ?? [], comparison: b.comparison ?? [], images: b.images ?? [] },
    warnings: out.warnings ?? [],
  };
}

/** Validates the input and runs the utility here; UtilityError for a refused input or job. */
export async function runUtility(id: string, input: unknown, ports: UtilityPorts): Promise<ReturnType<typeof normalizeOutput>> {
  const u = BY_ID.get(id);
  if (!u) throw new UtilityError("bad_param", `no utility has the id ${id}`, "id");
  return runValidated(u, validateInput(u, input), ports);
}

/** Runs a utility on input validateInput already accepted (the pool validates before it queues). */
export async function runValidated(u: Utility, input: Record<string, unknown>, ports: UtilityPorts): Promise<ReturnType<typeof normalizeOutput>> {
  if (u.net && !ports.net) throw new UtilityError("tool_failed", `${u.id} contacts other sites and runs only on a crawler node`);
  return normalizeOutput(await u.run(input, ports));
}
