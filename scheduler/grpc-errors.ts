import { Metadata, status, type ServiceError } from "@grpc/grpc-js";

/** A gRPC error carrying the catalogue code the gateway answers with (trailer svc-error-code). */
export function grpcError(code: status, catalogue: string, message: string, retryAfterS?: number): ServiceError {
  const metadata = new Metadata();
  // No catalogue code (""): a fault the caller may retry, not a decision it must accept.
  if (catalogue !== "") metadata.set("svc-error-code", catalogue);
  if (retryAfterS !== undefined) metadata.set("svc-retry-after", String(retryAfterS));
  const err: ServiceError = Object.assign(new Error(message), { code, details: message, metadata });
  return err;
}

export { status };
