import { describe, expect, it } from "vitest";
import { defineUtility, validateInput } from "../../../utilities/index.ts";

// The catalogue's input conventions, applied to a utility that declares one field of each type.
const probe = defineUtility<Record<string, unknown>>({
  id: "probe",
  group: "dev",
  title: "probe",
  description: "every field type",
  net: false,
  file: true,
  fileKinds: ["png"],
  fields: [
    { name: "text", type: "text", label: "t", max: 10 },
    { name: "n", type: "num", label: "n", min: 0, max: 1_000_000 },
    { name: "i", type: "int", label: "i", default: 3, min: 1, max: 5 },
    { name: "b", type: "bool", label: "b", default: false },
    { name: "s", type: "sel", label: "s", options: ["a", "b"], default: "a" },
    { name: "m", type: "multi", label: "m", options: ["x", "y", "z"] },
    { name: "l", type: "list", label: "l", max: 3 },
    { name: "j", type: "json", label: "j" },
    { name: "c", type: "color", label: "c" },
    { name: "u", type: "url", label: "u" },
    { name: "h", type: "host", label: "h" },
    { name: "file", type: "file", label: "f", max: 100 },
  ],
  oneOf: [["text", "file"]],
  example: { text: "x" },
  run: () => ({ result: {} }),
});

const ok = (input: Record<string, unknown>) => validateInput(probe, input);
function refused(input: unknown): { code: string; field?: string; message: string } {
  try {
    validateInput(probe, input);
  } catch (err) {
    return err as { code: string; field?: string; message: string };
  }
  throw new Error("accepted");
}

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("utility input validation from the catalogue", () => {
  it("fills defaults and converts each type as the conventions say", () => {
    const v = ok({ text: "hi", n: "1 234,5", m: "y, x,y", l: "  one \n\n two\n", j: { a: 1 }, c: "rebeccapurple", u: "пример.рф/путь?q=1", h: "Пример.РФ" });
    expect(v).toEqual({
      text: "hi",
      n: 1234.5,
      i: 3,
      b: false,
      s: "a",
      m: ["y", "x"],
      l: ["one", "two"],
      j: { a: 1 },
      c: "rebeccapurple",
      u: "https://xn--e1afmkfd.xn--p1ai/%D0%BF%D1%83%D1%82%D1%8C?q=1",
      h: "xn--e1afmkfd.xn--p1ai",
    });
  });

  it("decodes a base64 file (a data: prefix tolerated) and checks its type by its bytes", () => {
    const v = ok({ file: `data:image/png;base64,${PNG_1PX}`, file_name: "a.png" });
    expect(v.file).toBeInstanceOf(Uint8Array);
    expect((v.file as Uint8Array).length).toBe(70);
    expect(v.file_name).toBe("a.png");
    expect(refused({ file: Buffer.from("GIF89a......").toString("base64") })).toMatchObject({ code: "bad_param", field: "input.file" });
    expect(refused({ file: Buffer.alloc(101, 1).toString("base64") }).message).toBe("input.file is larger than 100 bytes");
    expect(refused({ file: "not base64!" }).message).toBe("input.file is not valid base64");
    // Line-wrapped and URL-safe base64 decode to the same bytes; a character outside the alphabet, a
    // pad in the middle or a dangling sextet is refused, however the length falls.
    const png = Buffer.from(PNG_1PX, "base64");
    expect(Buffer.from(ok({ file: PNG_1PX.replace(/(.{16})/g, "$1\n") }).file as Uint8Array)).toEqual(png);
    expect(Buffer.from(ok({ file: PNG_1PX.replace(/\+/g, "-").replace(/\//g, "_") }).file as Uint8Array)).toEqual(png);
    for (const bad of [`${PNG_1PX.slice(0, 8)}!${PNG_1PX.slice(9)}`, `${PNG_1PX.slice(0, 6)}==${PNG_1PX.slice(8)}`, `${PNG_1PX.replace(/=+$/, "")}AAA`]) {
      expect(refused({ file: bad })).toMatchObject({ code: "bad_param", field: "input.file", message: "input.file is not valid base64" });
    }
  });

  it("answers bad_param naming the field for unknown, empty, missing and out-of-range values", () => {
    expect(refused({ text: "x", colour: "red" })).toMatchObject({ code: "bad_param", field: "input.colour" });
    expect(refused({ text: "" })).toMatchObject({ field: "input.text", message: "input.text is empty" });
    expect(refused({})).toMatchObject({ field: "input.text", message: "input.text or input.file is required" });
    expect(refused({ text: "x".repeat(11) }).message).toBe("input.text is longer than 10 characters (11)");
    expect(refused({ text: "x", i: 6 }).message).toBe("input.i must be at most 5");
    expect(refused({ text: "x", i: 2.5 }).message).toBe("input.i must be an integer");
    expect(refused({ text: "x", s: "c" }).message).toBe("input.s must be one of a, b");
    expect(refused({ text: "x", m: ["x", "w"] }).message).toBe("input.m items must be among x, y, z");
    expect(refused({ text: "x", l: ["1", "2", "3", "4"] }).message).toBe("input.l has 4 items; at most 3");
    expect(refused({ text: "x", j: "{}" }).message).toBe("input.j must be a JSON object");
    expect(refused({ text: "x", c: "#12345" }).field).toBe("input.c");
    expect(refused({ text: "x", u: "ftp://example.com/" }).message).toBe("input.u must be an http or https URL");
    expect(refused({ text: "x", u: "https://user:pw@example.com/" }).message).toBe("input.u must not carry credentials");
    expect(refused({ text: "x", h: "example.com/path" }).message).toBe("input.h must be a domain name, not a URL");
    expect(refused({ text: "x", b: "yes" }).message).toBe("input.b must be true or false");
    expect(refused("text").field).toBe("input");
  });
});
