import { createHash } from "node:crypto";
import { UtilityError, defineUtility, type UtilityPorts } from "../utility.ts";

type Kind = "uuid_v4" | "uuid_v7" | "uuid_v5" | "ulid" | "nanoid" | "hex";

interface Input {
  kind: Kind;
  count: number;
  namespace?: string;
  name?: string;
  alphabet: string;
  size?: number;
  decode?: string;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const NANOID = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict";
/** RFC 9562's well-known namespaces. */
const NAMESPACES: Record<string, string> = {
  dns: "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
  url: "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
  oid: "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
  x500: "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
function uuidOf(b: Uint8Array): string {
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
function stamp(b: Uint8Array, version: number): Uint8Array {
  b[6] = ((b[6] as number) & 0x0f) | (version << 4);
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  return b;
}

function v7(ports: UtilityPorts, ms: number): string {
  const b = ports.randomBytes(16);
  for (let k = 0; k < 6; k++) b[k] = Math.floor(ms / 2 ** (8 * (5 - k))) & 0xff;
  return uuidOf(stamp(b, 7));
}

function v5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const digest = createHash("sha1").update(ns).update(name, "utf8").digest();
  return uuidOf(stamp(new Uint8Array(digest.subarray(0, 16)), 5));
}

function ulid(ports: UtilityPorts, ms: number): string {
  let time = "";
  let t = ms;
  for (let k = 0; k < 10; k++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + Array.from({ length: 16 }, () => CROCKFORD[ports.randomInt(32)]).join("");
}

function decode(value: string): Record<string, string | number | null> {
  const v = value.trim();
  if (UUID.test(v)) {
    const h = v.replace(/-/g, "").toLowerCase();
    const version = parseInt(h[12] as string, 16);
    const variantBits = parseInt(h[16] as string, 16);
    const variant = variantBits >= 0xe ? "future" : variantBits >= 0xc ? "microsoft" : variantBits >= 0x8 ? "rfc9562" : "ncs";
    let ms: number | null = null;
    if (version === 7) ms = parseInt(h.slice(0, 12), 16);
    if (version === 1 || version === 6) {
      const ticks = version === 1 ? BigInt(`0x${h.slice(13, 16)}${h.slice(8, 12)}${h.slice(0, 8)}`) : BigInt(`0x${h.slice(0, 12)}${h.slice(13, 16)}`);
      // 100-ns ticks since 1582-10-15.
      ms = Number(ticks / 10_000n) - 12_219_292_800_000;
    }
    return { kind: "uuid", version, variant, time: ms === null ? null : new Date(ms).toISOString(), unix_ms: ms };
  }
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(v)) {
    let ms = 0;
    for (const c of v.slice(0, 10).toUpperCase()) ms = ms * 32 + CROCKFORD.indexOf(c);
    return { kind: "ulid", version: null, variant: null, time: new Date(ms).toISOString(), unix_ms: ms };
  }
  throw new UtilityError("tool_failed", "input.decode is neither a UUID nor a ULID");
}

export const idGenerator = defineUtility<Input>({
  id: "id_generator",
  group: "dev",
  title: "UUID / ULID / NanoID generator",
  description: "Generates UUID v4/v7/v5, ULID, NanoID (custom alphabet and size) and random hex tokens. Decodes a UUID or ULID (version, embedded time)",
  net: false,
  file: false,
  fields: [
    { name: "kind", type: "sel", label: "Kind", required: true, options: ["uuid_v4", "uuid_v7", "uuid_v5", "ulid", "nanoid", "hex"], default: "uuid_v4" },
    { name: "count", type: "int", label: "How many", default: 5, min: 1, max: 1000 },
    { name: "namespace", type: "str", label: "v5 namespace: dns, url, oid, x500 or a UUID", max: 36 },
    { name: "name", type: "str", label: "v5 name", max: 2000 },
    { name: "alphabet", type: "str", label: "NanoID alphabet", default: NANOID, max: 256 },
    { name: "size", type: "int", label: "NanoID length or hex bytes", min: 2, max: 256 },
    { name: "decode", type: "str", label: "A UUID or ULID to decode instead", max: 40 },
  ],
  example: { kind: "uuid_v5", namespace: "dns", name: "example.com", count: 1 },
  run(i, ports) {
    if (i.decode !== undefined) {
      const decoded = decode(i.decode);
      return { result: { decoded }, blocks: { pairs: Object.entries(decoded).map(([label, value]) => ({ label, value: String(value ?? "—") })) } };
    }
    let make: () => string;
    switch (i.kind) {
      case "uuid_v4":
        make = () => uuidOf(stamp(ports.randomBytes(16), 4));
        break;
      case "uuid_v7":
        // Ids made in one run share the millisecond; a counter keeps them ordered.
        make = (() => {
          let n = 0;
          return () => v7(ports, ports.nowMs + n++);
        })();
        break;
      case "uuid_v5": {
        if (i.name === undefined) throw new UtilityError("bad_param", "input.name is required for uuid_v5", "input.name");
        const ns = NAMESPACES[(i.namespace ?? "url").toLowerCase()] ?? i.namespace ?? "";
        if (!UUID.test(ns)) throw new UtilityError("bad_param", "input.namespace must be dns, url, oid, x500 or a UUID", "input.namespace");
        const name = i.name;
        make = () => v5(ns, name);
        break;
      }
      case "ulid":
        make = (() => {
          let n = 0;
          return () => ulid(ports, ports.nowMs + n++);
        })();
        break;
      case "nanoid": {
        const alphabet = [...new Set(i.alphabet)].join("");
        if (alphabet.length < 2) throw new UtilityError("bad_param", "input.alphabet needs at least 2 different characters", "input.alphabet");
        const size = i.size ?? 21;
        make = () => Array.from({ length: size }, () => alphabet[ports.randomInt(alphabet.length)]).join("");
        break;
      }
      case "hex": {
        const size = i.size ?? 32;
        make = () => hex(ports.randomBytes(size));
        break;
      }
    }
    const ids = Array.from({ length: i.kind === "uuid_v5" ? 1 : i.count }, make);
    return { result: { ids }, blocks: { code: [{ lang: "text", text: ids.join("\n") }] } };
  },
});
