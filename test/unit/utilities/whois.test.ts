import { describe, expect, it } from "vitest";
import { parseWhois } from "../../../utilities/net/whois.ts";
import { COM_RECORD, RU_RECORD } from "./whois-records.ts";

// The WHOIS dialects the whois utility reads: RIPN's (.ru, .su, .рф) and ICANN's gTLD format.

describe("parseWhois", () => {
  it("reads a RIPN record: registrar, dates, states and name servers without their glue", () => {
    expect(parseWhois(RU_RECORD)).toEqual({
      registered: true,
      registrar: "RU-CENTER-RU",
      created: "2004-05-07T20:00:00.000Z",
      updated: null,
      expires: "2027-05-07T21:00:00.000Z",
      status: ["REGISTERED", "DELEGATED", "VERIFIED"],
      ns: ["ns1.example.ru", "ns2.example.net"],
      registrar_whois: null,
    });
  });

  it("reads an ICANN record, statuses without their links, and names the registrar's server", () => {
    expect(parseWhois(COM_RECORD)).toEqual({
      registered: true,
      registrar: "Example Registrar, Inc.",
      created: "1995-08-14T04:00:00.000Z",
      updated: "2024-08-14T07:01:34.000Z",
      expires: "2025-08-13T04:00:00.000Z",
      status: ["clientDeleteProhibited", "clientTransferProhibited"],
      ns: ["a.iana-servers.net", "b.iana-servers.net"],
      registrar_whois: "whois.example-registrar.com",
    });
  });

  it("tells a free domain", () => {
    expect(parseWhois("No entries found for the selected source(s).\n")).toMatchObject({ registered: false, registrar: null, created: null });
    expect(parseWhois('No match for "FREE-NAME-123.COM".\n>>> Last update of whois database: 2026-11-25T10:00:00Z <<<\n')).toMatchObject({ registered: false });
  });
});
