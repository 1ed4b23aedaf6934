// Placing an operation's fields into a REST request is the typed client package's
// (clients/typescript/src/request.ts): an operation contract is an OperationShape as it stands.
export { requestOf, MissingPathParameter, type RestRequest } from "../../clients/typescript/src/index.ts";
