// The spec's utilities (DESIGN.md "Utilities and search data"): one file per utility, one table,
// pure functions over injected ports. docs/utilities.md describes the seams.
export {
  GROUPS,
  GROUP_TITLES,
  UnreachableError,
  UtilityError,
  defineUtility,
  type Blocks,
  type FieldSpec,
  type FieldType,
  type FileKind,
  type Utility,
  type UtilityGroup,
  type NetConnect,
  type NetFetchInit,
  type NetRecord,
  type NetResponse,
  type PageReading,
  type SmtpReply,
  type Technology,
  type TlsProbe,
  type TlsProbeInit,
  type UtilityNet,
  type UtilityOutput,
  type UtilityPorts,
} from "./utility.ts";
export { UTILITIES } from "./table.ts";
export { NET_UTILITY_IDS, descriptionOf, entryOf, normalizeOutput, runUtility, runValidated, utilityById, type CatalogueEntry } from "./catalogue.ts";
export { FILE_MAX_BYTES, TEXT_MAX_CHARS, validateInput } from "./validate.ts";
export { seededPorts } from "./ports.ts";
