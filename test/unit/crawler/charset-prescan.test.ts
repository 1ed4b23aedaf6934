import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgress, fetchUrl, prescanCharset } from "../../../crawler/index.ts";
import { startHttp, type TestServer } from "./servers.ts";

const bytes = (html: string) => Buffer.from(html, "latin1");

describe("the HTML standard's encoding prescan", () => {
  it.each([
    ["a plain <meta charset>", '<html><head><meta charset="windows-1251">', "windows-1251"],
    ["a label is mapped to its encoding", "<meta charset=latin1>", "windows-1252"],
    ["http-equiv with content, either order", '<meta content="text/html; charset=ISO-8859-2" http-equiv="Content-Type">', "iso-8859-2"],
    ["a quoted charset inside content", `<meta http-equiv="content-type" content='text/html; charset="koi8-r"'>`, "koi8-r"],
    ["utf-16 in a meta means utf-8 (the bytes were readable as ASCII)", '<meta charset="utf-16">', "utf-8"],
    ["x-user-defined means windows-1252", '<meta charset="x-user-defined">', "windows-1252"],
    ["a commented-out meta is skipped", '<!-- <meta charset="koi8-r"> --><meta charset="windows-1251">', "windows-1251"],
    ["content without http-equiv declares nothing", '<meta name="description" content="charset=koi8-r, the Russian one"><meta charset="utf-8">', "utf-8"],
    ["an attribute of another tag is not a meta", '<div title="<meta charset=koi8-r>"></div><meta charset="windows-1250">', "windows-1250"],
    ["an unknown label is passed over", '<meta charset="no-such-thing"><meta charset="iso-8859-5">', "iso-8859-5"],
    ["the first of two attributes with one name counts", '<meta charset="windows-1251" charset="koi8-r">', "windows-1251"],
    ["<!--> ends its comment at once", '<!--><meta charset="windows-1251">', "windows-1251"],
    ["nothing declared", "<html><head><title>x</title></head>", ""],
  ])("%s", (_name, html, encoding) => {
    expect(prescanCharset(bytes(html))).toBe(encoding);
  });

  it("looks at the first 1024 bytes only", () => {
    expect(prescanCharset(bytes(`${" ".repeat(1020)}<meta charset="koi8-r">`))).toBe("");
  });

  it("never reads past the end of a cut-off tag", () => {
    for (const cut of ["<meta", "<meta charset", '<meta charset="koi8', "<!-- <meta", "<div a='", "<meta content=\"charset="]) {
      expect(prescanCharset(bytes(cut))).toBe("");
    }
  });
});

describe("a page decoded by its prescanned encoding", () => {
  let server: TestServer;
  const pages: Record<string, Buffer> = {
    "/utf16-meta": Buffer.from('<html><head><meta charset="utf-16"><title>Привет</title></head></html>', "utf8"),
    "/commented": Buffer.concat([
      Buffer.from('<!-- <meta charset="utf-8"> --><meta charset="windows-1251"><title>', "latin1"),
      Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), // Привет in windows-1251
      Buffer.from("</title>", "latin1"),
    ]),
  };
  beforeAll(async () => {
    server = await startHttp((req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(pages[req.url ?? ""]);
    });
  });
  afterAll(() => server.close());

  it.each(Object.keys(pages))("%s reads Привет", async (path) => {
    const egress = createEgress({ allowPrivateTargets: true, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 });
    try {
      const r = await fetchUrl(`${server.origin}${path}`, { dispatcher: egress.dispatcher, timeoutMs: 2000 });
      expect(r.text).toContain("<title>Привет</title>");
    } finally {
      await egress.close();
    }
  });
});
