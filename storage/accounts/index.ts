// Accounts, keys and their limits, OAuth grants, idempotency, usage, the service switches.
export { AccountsRepo, PLAN_NUMBERS, type AccountRow, type KeyRow, type ListedKey, type PlanRow, type PlanNumbers, type NewKey, type Scope } from "./accounts-repo.ts";
export { AuthRepo, KEY_CHANGES_CHANNEL, type KeyRecord, type Reservation } from "./auth-repo.ts";
export { IdempotencyRepo, type ClaimOutcome, type StoredAnswer } from "./idempotency-repo.ts";
export { ServiceStateRepo, type ServiceState, type Switch } from "./service-state-repo.ts";
export { PostgresUsageSeries, type UsageSeries, type UsageDelta, type UsageDay } from "./usage-series.ts";
export { OAuthRepo, type OAuthClientRow, type CodeRow, type IssuedTokens, type TokenIssue, type TokenRefusal, type Refused } from "./oauth-repo.ts";
