import { createHash, createHmac } from "node:crypto";
import { crc32 } from "node:zlib";
import { UtilityError, defineUtility } from "../utility.ts";

const ALGORITHMS = ["md5", "sha1", "sha256", "sha384", "sha512", "sha3-256", "sha3-512", "crc32", "bcrypt"] as const;

interface Input {
  text?: string;
  file?: Uint8Array;
  algorithms: string[];
  hmac_key?: string;
  encoding: "hex" | "base64";
  bcrypt_cost: number;
  bcrypt_verify?: string;
}

export const hash = defineUtility<Input>({
  id: "hash",
  group: "dev",
  title: "Hash, HMAC, bcrypt, SRI",
  description:
    "Hashes and checksums of text or a file: MD5, SHA-1, SHA-256/384/512, SHA3-256/512, CRC32, HMAC with a key, bcrypt hash and verify, and the Subresource Integrity value for <script integrity>",
  net: false,
  file: true,
  fileKinds: ["any"],
  fields: [
    { name: "text", type: "text", label: "Text (UTF-8)" },
    { name: "file", type: "file", label: "File (base64)" },
    { name: "algorithms", type: "multi", label: "Algorithms", options: ALGORITHMS, default: ["md5", "sha256"] },
    { name: "hmac_key", type: "str", label: "HMAC key (HMAC instead of plain hashes)", max: 1000 },
    { name: "encoding", type: "sel", label: "Output encoding", options: ["hex", "base64"], default: "hex" },
    { name: "bcrypt_cost", type: "int", label: "bcrypt cost", default: 10, min: 4, max: 12 },
    { name: "bcrypt_verify", type: "str", label: "bcrypt hash to verify the text against", max: 100 },
  ],
  oneOf: [["text", "file"]],
  example: { text: "hello", algorithms: ["md5", "sha256", "crc32"] },
  async run(input, ports) {
    const bcrypt = (await import("bcryptjs")).default;
    const data = input.file ? Buffer.from(input.file) : Buffer.from(input.text ?? "", "utf8");
    const enc = input.encoding;
    const hashes: { alg: string; value: string }[] = [];
    for (const alg of input.algorithms) {
      if (alg === "crc32") {
        const v = crc32(data) >>> 0;
        hashes.push({ alg, value: enc === "hex" ? v.toString(16).padStart(8, "0") : Buffer.from(v.toString(16).padStart(8, "0"), "hex").toString("base64") });
      } else if (alg === "bcrypt") {
        if (data.length > 72) throw new UtilityError("tool_failed", "bcrypt uses only the first 72 bytes of its input; this input is longer");
        // The salt comes from the injected random source, so a test can fix the result.
        hashes.push({ alg, value: bcrypt.hashSync(data.toString("utf8"), saltFrom(ports.randomBytes(16), input.bcrypt_cost)) });
      } else if (input.hmac_key !== undefined) {
        hashes.push({ alg: `hmac-${alg}`, value: createHmac(alg, input.hmac_key).update(data).digest(enc) });
      } else {
        hashes.push({ alg, value: createHash(alg).update(data).digest(enc) });
      }
    }
    const sri = `sha384-${createHash("sha384").update(data).digest("base64")}`;
    const result: Record<string, unknown> = { bytes: data.length, hashes, sri };
    const pairs = [{ label: "Bytes", value: String(data.length) }];
    if (input.bcrypt_verify !== undefined) {
      let ok = false;
      try {
        ok = bcrypt.compareSync(data.toString("utf8"), input.bcrypt_verify);
      } catch {
        throw new UtilityError("bad_param", "input.bcrypt_verify is not a bcrypt hash", "input.bcrypt_verify");
      }
      result.bcrypt_match = ok;
      pairs.push({ label: "bcrypt verify", value: ok ? "matches" : "does not match" });
    }
    return {
      result,
      blocks: {
        pairs,
        tables: [{ title: "Hashes", columns: ["algorithm", "value"], rows: hashes.map((h) => [h.alg, h.value]) }],
        code: [{ lang: "html", text: `<script src="…" integrity="${sri}" crossorigin="anonymous"></script>` }],
      },
    };
  },
});

// bcrypt's own base64 alphabet, for a salt built from injected random bytes.
const BCRYPT_B64 = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
function saltFrom(bytes: Uint8Array, cost: number): string {
  let bits = 0;
  let acc = 0;
  let out = "";
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += BCRYPT_B64[(acc >> bits) & 63];
    }
  }
  if (bits > 0) out += BCRYPT_B64[(acc << (6 - bits)) & 63];
  return `$2b$${String(cost).padStart(2, "0")}$${out.slice(0, 22)}`;
}
