import { describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "../../../bin/cli-args.ts";
import { importSearchData, runUtility as runUtilityContract } from "../../../gateway/contracts/index.ts";

// `svc util <id> <primary> [--field value]…` read from the catalogue (the contract's cliParse).
const parse = (args: string[]) => parseCommand(runUtilityContract, args, (path) => Buffer.from(`file:${path}`).toString("base64"));

describe("svc util's command line", () => {
  it("fills the primary field from the second value and the others from flags", () => {
    expect(parse(["hash", "hello", "--algorithms", "md5,crc32", "--json"])).toMatchObject({ json: true, fields: { id: "hash", input: { text: "hello", algorithms: "md5,crc32" } } });
    expect(parse(["text_stats", "Привет"]).fields).toEqual({ id: "text_stats", input: { text: "Привет" } });
    // A repeated flag of a list field adds items; a JSON field is parsed; a file field reads the path.
    expect(parse(["keyword_combiner", "купить", "--list2", "диван", "--list2", "кресло"]).fields).toEqual({ id: "keyword_combiner", input: { list1: "купить", list2: ["диван", "кресло"] } });
    expect(parse(["schema_generator", "Person", "--fields", '{"name":"A"}']).fields).toEqual({ id: "schema_generator", input: { type: "Person", fields: { name: "A" } } });
    expect(parse(["docx_to_text", "@report.docx"]).fields).toEqual({ id: "docx_to_text", input: { file: Buffer.from("file:report.docx").toString("base64") } });
  });

  it("refuses an unknown utility, an unknown field and extra values, naming them", () => {
    expect(() => parse(["nope"])).toThrow(new UsageError("no utility has the id nope; svc util list shows them"));
    expect(() => parse(["hash", "hello", "--colour", "red"])).toThrow(new UsageError("hash has no field colour (its fields: text, file, algorithms, hmac_key, encoding, bcrypt_cost, bcrypt_verify)"));
    expect(() => parse(["hash", "a", "b"])).toThrow(new UsageError("svc util hash takes one positional value (its text); give the others as --name value"));
    expect(() => parse([])).toThrow(UsageError);
  });
});

describe("a file field of any command takes a path", () => {
  const read = (path: string) => Buffer.from(`file:${path}`).toString("base64");
  it("svc imports add <host> <path>: the file read from the path, file_name from its name unless given", () => {
    expect(parseCommand(importSearchData, ["example.com", "exports/Queries.csv"], read).fields).toEqual({
      host: "example.com",
      file: Buffer.from("file:exports/Queries.csv").toString("base64"),
      file_name: "Queries.csv",
    });
    expect(parseCommand(importSearchData, ["example.com", "@Table.csv", "--file-name", "Not found (404)/Table.csv", "--provider", "gsc_indexing"], read).fields).toEqual({
      host: "example.com",
      file: Buffer.from("file:Table.csv").toString("base64"),
      file_name: "Not found (404)/Table.csv",
      provider: "gsc_indexing",
    });
  });
});
