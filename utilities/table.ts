import type { Utility } from "./utility.ts";
import { httpHeaders } from "./site/http-headers.ts";
import { redirectChain } from "./site/redirect-chain.ts";
import { robotsTxtCheck } from "./site/robots-txt-check.ts";
import { securityHeaders } from "./site/security-headers.ts";
import { botAccess } from "./site/bot-access.ts";
import { dnsLookup } from "./net/dns-lookup.ts";
import { portCheck } from "./net/port-check.ts";
import { whois } from "./net/whois.ts";
import { mailDnsCheck } from "./net/mail-dns-check.ts";
import { botVerify } from "./net/bot-verify.ts";
import { subnetCalc } from "./net/subnet-calc.ts";
import { idnConvert } from "./net/idn-convert.ts";
import { textStats } from "./text/text-stats.ts";
import { docxToText } from "./text/docx-to-text.ts";
import { hash } from "./dev/hash.ts";
import { base64 } from "./dev/base64.ts";
import { regexTest } from "./dev/regex-test.ts";

// The one table of utilities: a new utility is a file and a line here. Order is the catalogue's
// (utilities-catalogue.md §2), which is the order GET /utilities lists them in.
export const UTILITIES: readonly Utility<never>[] = [
  // site
  httpHeaders,
  redirectChain,
  robotsTxtCheck,
  botAccess,
  securityHeaders,
  // net
  dnsLookup,
  whois,
  portCheck,
  mailDnsCheck,
  botVerify,
  subnetCalc,
  idnConvert,
  // text
  textStats,
  docxToText,
  // dev
  base64,
  hash,
  regexTest,
];
