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
  tls_protocols: {
    passValue: "TLSv1.3",
    // Svc offers TLS 1.2 and 1.3: a server speaking only older versions refuses the handshake.
    fail: (f) => Object.assign(f.tls!, { handshakeOk: false, authorized: false, protocol: "", error: "ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION" }),
    failStatus: "fail",
    failValue: "ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION",
    failScore: 0,
  },
  http_internal_links: {
    // An http:// page linking http:// is not judged (https_available and https_redirect are).
    pass: (f) => {
      f.pages[0]!.response!.finalUrl = "http://example.com/about/";
      f.pages[0]!.links[0]!.href = "http://example.com/";
    },
    passValue: 0,
    fail: (f) => void (f.home!.links[1]!.href = "http://example.com/about/"),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  csp: {
    // A policy in a <meta http-equiv> counts.
    pass: (f) => {
      setHeader(f.pages[0]!.response, "content-security-policy", null);
      f.pages[0]!.metaCsp = "default-src 'self'";
    },
    passValue: 0,
    fail: (f) => setHeader(f.home!.response, "content-security-policy", null),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  x_content_type_options: {
    pass: (f) => setHeader(f.home!.response, "x-content-type-options", "NoSniff"),
    passValue: 0,
    fail: (f) => setHeader(f.pages[1]!.response, "x-content-type-options", null),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  frame_ancestors: {
    // X-Frame-Options does the same job when the policy has no frame-ancestors.
    pass: (f) => {
      setHeader(f.home!.response, "content-security-policy", "default-src 'self'");
      setHeader(f.home!.response, "x-frame-options", "SAMEORIGIN");
    },
    passValue: 0,
    // frame-ancestors * lets every site frame the page.
    fail: (f) => setHeader(f.home!.response, "content-security-policy", "default-src 'self'; frame-ancestors *"),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  referrer_policy: {
    // The last known token of a fallback list wins; a <meta name=referrer> counts too.
    pass: (f) => {
      setHeader(f.home!.response, "referrer-policy", "no-referrer, strict-origin-when-cross-origin");
      setHeader(f.pages[0]!.response, "referrer-policy", null);
      f.pages[0]!.metaReferrer = "same-origin";
    },
    passValue: 0,
    fail: (f) => setHeader(f.home!.response, "referrer-policy", "unsafe-url"),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  permissions_policy: {
    // The header's former name, Feature-Policy, still counts.
    pass: (f) => {
      setHeader(f.pages[0]!.response, "permissions-policy", null);
      setHeader(f.pages[0]!.response, "feature-policy", "camera 'none'");
    },
    passValue: 0,
    fail: (f) => f.pages.forEach((p) => setHeader(p.response, "permissions-policy", null)),
    failStatus: "fail",
    failValue: 2,
    failScore: 0.9 * (1 - 2 / 5),
  },
  cookie_flags: {
    // A preference cookie needs no HttpOnly; an http:// page is not judged.
    pass: (f) => {
      setHeader(f.pages[0]!.response, "set-cookie", "theme=dark; Path=/; Secure; SameSite=Lax");
      f.pages[1]!.response!.finalUrl = "http://example.com/blog/first-post/";
      setHeader(f.pages[1]!.response, "set-cookie", "sessionid=1");
    },
    passValue: 0,
    fail: (f) => setHeader(f.home!.response, "set-cookie", "sessionid=3f9a; Path=/; Secure; SameSite=Lax"),
    failStatus: "fail",
    failValue: 1,
    // Only the home page sets a cookie: f = 1.
    failScore: 0,
  },
  sri_external_scripts: {
    // The site's own subdomains are not another site.
    pass: (f) => void (f.home!.scriptsWithoutIntegrity = ["https://static.example.com/app.js"]),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.scriptsWithoutIntegrity = ["https://cdn.jsdelivr.net/npm/lib@1/lib.min.js"]),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  security_txt_fields: {
    // Expires 180 days after the run.
    passValue: 180,
    fail: (f) => void (f.securityTxtFields!.expires = new Date((NOW - DAY) * 1000).toISOString()),
    failStatus: "fail",
    failValue: -1,
    failScore: 0,
  },
  version_disclosure: {
    // A product name without a version tells little.
    pass: (f) => setHeader(f.home!.response, "server", "nginx"),
    passValue: null,
    fail: (f) => setHeader(f.home!.response, "x-powered-by", "PHP/8.2.1"),
    failStatus: "fail",
    failValue: "x-powered-by: PHP/8.2.1",
    failScore: 0,
  },
  ipv6: {
    passValue: 1,
    fail: (f) => void (f.dns!.aaaa = []),
    failStatus: "fail",
    failValue: 0,
    failScore: 0,
  },
  bimi: {
    // The optional a= mark certificate is not required.
    pass: (f) => void (f.dns!.bimi = "v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem"),
    passValue: "https://example.com/bimi/logo.svg",
    // An empty l= declines BIMI.
    fail: (f) => void (f.dns!.bimi = "v=BIMI1; l=; a=;"),
    failStatus: "fail",
    failValue: "v=BIMI1; l=; a=;",
    failScore: 0,
  },
};
