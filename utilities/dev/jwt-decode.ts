import { createHmac, createPublicKey, timingSafeEqual, verify as verifySignature, type KeyObject } from "node:crypto";
import { UtilityError, defineUtility, type Warning } from "../utility.ts";

interface Input {
  token: string;
  secret?: string;
  key?: string;
}

const HASH: Record<string, string> = { "256": "sha256", "384": "sha384", "512": "sha512" };

function part(segment: string, what: string): Record<string, unknown> {
  try {
    const v = JSON.parse(Buffer.from(segment, "base64url").toString("utf8")) as unknown;
    if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
    return v as Record<string, unknown>;
  } catch (err) {
    throw new UtilityError("tool_failed", `the token's ${what} is not base64url JSON: ${(err as Error).message}`);
  }
}

function publicKeyOf(text: string): KeyObject {
  const t = text.trim();
  try {
    if (t.startsWith("{")) return createPublicKey({ key: JSON.parse(t) as import("node:crypto").JsonWebKey, format: "jwk" });
    return createPublicKey(t);
  } catch (err) {
    throw new UtilityError("bad_param", `input.key is not a PEM public key, certificate or JWK: ${(err as Error).message}`, "input.key");
  }
}

function check(alg: string, signingInput: string, signature: Buffer, i: Input): boolean | null {
  const bits = alg.slice(2);
  if (alg.startsWith("HS")) {
    if (i.secret === undefined) return null;
    const mac = createHmac(HASH[bits] ?? "sha256", i.secret).update(signingInput).digest();
    return mac.length === signature.length && timingSafeEqual(mac, signature);
  }
  if (i.key === undefined) return null;
  const key = publicKeyOf(i.key);
  const data = Buffer.from(signingInput);
  if (alg === "EdDSA") return verifySignature(null, data, key, signature);
  const hash = HASH[bits];
  if (!hash) throw new UtilityError("tool_failed", `the algorithm ${alg} is not one this tool verifies`);
  if (alg.startsWith("RS")) return verifySignature(hash, data, key, signature);
  if (alg.startsWith("PS")) return verifySignature(hash, data, { key, padding: 6, saltLength: Number(bits) / 8 }, signature);
  if (alg.startsWith("ES")) return verifySignature(hash, data, { key, dsaEncoding: "ieee-p1363" }, signature);
  throw new UtilityError("tool_failed", `the algorithm ${alg} is not one this tool verifies`);
}

export const jwtDecode = defineUtility<Input>({
  id: "jwt_decode",
  group: "dev",
  title: "JWT decoder & verifier",
  description:
    "Decodes a JWT/JWS: header, payload, registered claims as dates (exp/iat/nbf, expired or not) and algorithm warnings (none, a weak HMAC secret). Verifies the signature with a secret, a PEM key or a JWK",
  net: false,
  file: false,
  fields: [
    { name: "token", type: "text", label: "Token", required: true, max: 20_000 },
    { name: "secret", type: "str", label: "HMAC secret (HS256/384/512)", max: 1000 },
    { name: "key", type: "text", label: "Public key: PEM, certificate or JWK (RS, PS, ES, EdDSA)", max: 20_000 },
  ],
  example: {
    token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    secret: "your-256-bit-secret",
  },
  run(i, ports) {
    const segments = i.token.trim().replace(/^Bearer\s+/i, "").split(".");
    if (segments.length !== 3) throw new UtilityError("tool_failed", `a JWS has three dot-separated parts; this token has ${segments.length}`);
    const [h, p, s] = segments as [string, string, string];
    const header = part(h, "header");
    const payload = part(p, "payload");
    const alg = typeof header.alg === "string" ? header.alg : "";
    const warnings: Warning[] = [];
    if (alg.toLowerCase() === "none") warnings.push({ code: "alg_none", text: 'alg "none": the token is not signed and must never be accepted' });
    if (alg.startsWith("HS") && i.secret !== undefined && Buffer.byteLength(i.secret) < Number(alg.slice(2)) / 8) {
      warnings.push({ code: "weak_secret", text: `the secret is shorter than ${Number(alg.slice(2)) / 8} bytes, the minimum RFC 7518 sets for ${alg}` });
    }
    const now = Math.floor(ports.nowMs / 1000);
    const claims: Record<string, { unix: number; iso: string }> = {};
    for (const c of ["exp", "nbf", "iat"]) {
      const v = payload[c];
      if (typeof v === "number") claims[c] = { unix: v, iso: new Date(v * 1000).toISOString() };
    }
    const expired = typeof payload.exp === "number" ? payload.exp <= now : null;
    const notYet = typeof payload.nbf === "number" ? payload.nbf > now : null;
    const signatureValid = alg.toLowerCase() === "none" ? false : check(alg, `${h}.${p}`, Buffer.from(s, "base64url"), i);
    return {
      result: { header, payload, claims, expired, not_yet_valid: notYet, signature_valid: signatureValid },
      blocks: {
        code: [
          { lang: "json", text: JSON.stringify(header, null, 2), filename: "header.json" },
          { lang: "json", text: JSON.stringify(payload, null, 2), filename: "payload.json" },
        ],
        pairs: [
          { label: "Algorithm", value: alg || "—" },
          ...Object.entries(claims).map(([k, v]) => ({ label: k, value: v.iso })),
          ...(expired === null ? [] : [{ label: "Expired", value: expired ? "yes" : "no", status: expired ? ("bad" as const) : ("good" as const) }]),
          { label: "Signature", value: signatureValid === null ? "not checked (give a secret or key)" : signatureValid ? "valid" : "invalid", status: signatureValid === null ? "info" : signatureValid ? "good" : "bad" },
        ],
      },
      warnings,
    };
  },
});
