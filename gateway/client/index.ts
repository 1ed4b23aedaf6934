// The typed client of the REST API, for programs and for the `svc` CLI. It loads without the
// server: only the operation contracts and the error catalogue (lint and
// test/unit/contracts-isolation.test.ts hold that).
export { createClient, methodName, RestClient, SvcApiError, SvcNetworkError, type Answer, type CallOptions, type ClientOptions, type OperationName, type SvcClient } from "./svc-client.ts";
export { requestOf, MissingPathParameter, type RestRequest } from "./request-of.ts";
