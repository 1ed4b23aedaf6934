import { DAY, NOW, ORIGIN, response, setHeader } from "../site-builder.ts";
import { HOME_FAILS, ONE_PAGE_FAILS, type CheckCase } from "./check-case.ts";

export const SECURITY_CASES: Record<string, CheckCase> = {
  https_available: {
    // A bad certificate is still HTTPS: tls_cert_valid judges it.
    pass: (f) => Object.assign(f.tls!, { handshakeOk: false, authorized: false, error: "CERT_HAS_EXPIRED" }),
    passValue: "TLSv1.3",
    fail: (f) => Object.assign(f.tls!, { handshakeOk: false, authorized: false, protocol: "", error: "refused" }),
    failStatus: "fail",
    failValue: "refused",
    failScore: 0,
    cap: 49,
  },
  https_redirect: {
    // http://example.com → https://www.example.com when the site lives on www is one clean hop.
    pass: (f) => {
      f.origin = "https://www.example.com";
      f.httpVariant = response("http://example.com/", {
        finalUrl: "https://www.example.com/",
        redirects: [{ url: "http://example.com/", status: 308, location: "https://www.example.com/" }],
      });
    },
    passValue: 308,
    fail: (f) => void (f.httpVariant = response("http://example.com/")),
    failStatus: "fail",
    failValue: 200,
    failScore: 0,
    cap: 79,
  },
  tls_cert_valid: {
    passValue: "R11",
    fail: (f) => Object.assign(f.tls!, { validTo: NOW - DAY, authorized: false, authorizationError: "CERT_HAS_EXPIRED" }),
    failStatus: "fail",
    failValue: "CERT_HAS_EXPIRED",
    failScore: 0,
    cap: 39,
  },
  tls_cert_expiry: {
    pass: (f) => void (f.tls!.validTo = NOW + 22 * DAY),
    passValue: 22,
    fail: (f) => void (f.tls!.validTo = NOW + 5 * DAY),
    failStatus: "fail",
    failValue: 5,
    failScore: 0,
  },
  hsts: {
    passValue: 63_072_000,
    fail: (f) => setHeader(f.home!.response, "strict-transport-security", null),
    failStatus: "fail",
    failValue: null,
    failScore: 0,
  },
  mixed_content: {
    // http:// resources of an http:// page are not "mixed".
    pass: (f) => {
      f.pages[0]!.response!.finalUrl = "http://example.com/about/";
      f.pages[0]!.mixedContent = ["http://cdn.example.net/app.js"];
    },
    passValue: 0,
    fail: (f) => void (f.home!.mixedContent = ["http://cdn.example.net/app.js"]),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  security_txt: {
    passValue: 200,
    fail: (f) => void (f.securityTxt = response(`${ORIGIN}/.well-known/security.txt`, { status: 404 })),
    failStatus: "fail",
    failValue: 404,
    failScore: 0,
  },
  dns_resolves: {
    passValue: 2,
    fail: (f) => Object.assign(f.dns!, { resolved: false, a: [], aaaa: [], error: "NXDOMAIN" }),
    failStatus: "fail",
    failValue: "NXDOMAIN",
    failScore: 0,
    cap: 10,
  },
  spf: {
    pass: (f) => void (f.dns!.spf = "v=spf1 mx ~all"),
    passValue: "v=spf1 mx ~all",
    fail: (f) => void (f.dns!.spf = "v=spf1 include:_spf.example.net"),
    failStatus: "fail",
    failValue: "v=spf1 include:_spf.example.net",
    failScore: 0,
  },
  dmarc: {
    pass: (f) => void (f.dns!.dmarc = "v=DMARC1; p=quarantine"),
    passValue: "quarantine",
    fail: (f) => void (f.dns!.dmarc = ""),
    failStatus: "fail",
    failValue: null,
    failScore: 0,
  },
  insecure_form: {
    // Forms on an https page posting to https are fine.
    pass: (f) => void (f.home!.forms = 2),
    passValue: 0,
    fail: (f) => Object.assign(f.pages[0]!, { forms: 1, formsInsecureAction: 1 }),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  ns_redundancy: {
    passValue: 2,
    // The same server spelled twice is one server.
    fail: (f) => void (f.dns!.ns = ["a.iana-servers.net", "A.iana-servers.net."]),
    failStatus: "fail",
    failValue: 1,
    failScore: 0,
  },
  caa: {
    pass: (f) => void f.dns!.caa.push('0 iodef "mailto:security@example.com"'),
    passValue: 2,
    fail: (f) => void (f.dns!.caa = []),
    failStatus: "fail",
    failValue: 0,
    failScore: 0,
  },
  mx: {
    // A null MX declares that the domain takes no mail.
    pass: (f) => void (f.dns!.mx = ["0 ."]),
    passValue: 1,
    fail: (f) => void (f.dns!.mx = []),
    failStatus: "fail",
    failValue: 0,
    failScore: 0,
  },
};
