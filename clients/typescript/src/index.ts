// Svc's typed client: a package of its own (clients/typescript), generated from the operation
// contracts and the error catalogue, that imports nothing but itself.
export { createClient, methodName, type SvcClient } from "./create-client.ts";
export { RestClient, type Answer, type CallOptions, type ClientOptions } from "./rest-client.ts";
export { SvcApiError, SvcNetworkError, isCatalogued, type ApiErrorCode } from "./errors.ts";
export { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.gen.ts";
export { requestOf, shape, MissingPathParameter, type OperationShape, type FieldNames, type RestRequest } from "./request.ts";
export { OPERATIONS, type SvcOperations } from "./operations.gen.ts";
export type * from "./operations.gen.ts";
