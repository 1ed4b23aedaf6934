import { describe, expect, it } from "vitest";
import { ifNoneMatchHits, weakEtag } from "../../../gateway/pipeline/etag.ts";

describe("weakEtag", () => {
  // Values computed with the validator's first form (createHash, three updates): a client's cached
  // ETag must still match after an upgrade.
  it("keeps the values clients have cached", () => {
    expect(weakEtag("account:7", '{"items":[],"total":0}')).toBe('W/"ga3SlQRaY0Emk0q0tE1EVRze90q"');
    expect(weakEtag("public", '{"name":"Svc"}')).toBe('W/"RPjkGjE2g-rTu1LsWHoFKYVM0k4"');
  });

  it("differs between accounts for the same representation", () => {
    expect(weakEtag("account:1", "{}")).not.toBe(weakEtag("account:2", "{}"));
  });

  it("hashes text as UTF-8", () => {
    expect(weakEtag("account:7", "é")).not.toBe(weakEtag("account:7", "e"));
    expect(ifNoneMatchHits(`"x", ${weakEtag("account:7", "é")}`, weakEtag("account:7", "é"))).toBe(true);
  });
});
