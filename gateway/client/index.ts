// The typed client of the REST API, for the `svc` CLI and Svc's tests. It loads without the
// server: the client package's runtime (clients/typescript/), the operation contracts and the error
// catalogue (lint and test/unit/contracts-isolation.test.ts hold that).
export { createClient, methodName, type OperationName, type SvcClient } from "./svc-client.ts";
export { RestClient, SvcApiError, SvcNetworkError, type Answer, type CallOptions, type ClientOptions } from "../../clients/typescript/src/index.ts";
export { requestOf, MissingPathParameter, type RestRequest } from "./request-of.ts";
