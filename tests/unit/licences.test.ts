/**
 * Issue 16, deals-marketplace licences: the pure rules — which lifetime plan a tier gives, how codes are
 * read from an operator's file, normalised, hashed and masked.
 */
import { describe, expect, it } from "vitest";
import { licenceCodeHash, licenceTier, normaliseLicenceCode, parseLicenceFile, upgradeLink } from "../../server/domain/licences";
import { lifetimePlanId, lifetimeTierNumber } from "../../server/domain/plans";

describe("lifetime tiers", () => {
  it("gives a partner licence {product}_tierN the lifetime plan ltd_tierN, like the provider's own tier", () => {
    expect(lifetimePlanId("ltd_tier2")).toBe("ltd_tier2");
    expect(lifetimePlanId("appsumo_tier3")).toBe("ltd_tier3");
    expect(lifetimePlanId(licenceTier("dealmirror", 1))).toBe("ltd_tier1");
    expect(lifetimePlanId(null)).toBeNull();
    expect(lifetimePlanId("premium")).toBeNull();
    expect(lifetimeTierNumber("appsumo_tier2")).toBe(2);
    expect(lifetimeTierNumber(null)).toBe(0);
  });
});

describe("licence codes", () => {
  it("match whatever the case and spaces, by a SHA-256 that is not the code", () => {
    expect(normaliseLicenceCode(" ab12-cd34 ")).toBe("AB12-CD34");
    expect(licenceCodeHash("ab12 - cd34")).toBe(licenceCodeHash("AB12-CD34"));
    expect(licenceCodeHash("AB12-CD34")).toMatch(/^[0-9a-f]{64}$/);
    expect(licenceCodeHash("AB12-CD34")).not.toContain("AB12");
  });

  it("are read from a text file, one a line, empty lines skipped", () => {
    expect(parseLicenceFile("aaa-111\r\n\r\nbbb-222\n")).toEqual({ codes: ["AAA-111", "BBB-222"], invalid: [] });
  });

  it("are read from a CSV's code column by its name, else its first column", () => {
    expect(parseLicenceFile('Batch,"License Key"\n7,"ccc-333"\n7,ddd-444\n').codes).toEqual(["CCC-333", "DDD-444"]);
    expect(parseLicenceFile("eee-555,tier1\nfff-666,tier1\n").codes).toEqual(["EEE-555", "FFF-666"]);
  });

  it("reports lines that are not a code", () => {
    expect(parseLicenceFile(`code\nok-1\n${"x".repeat(200)}\nbad\u00e9code\n`)).toEqual({ codes: ["OK-1"], invalid: [3, 4] });
  });

  it("name the licence in the marketplace's upgrade link", () => {
    expect(upgradeLink("https://deals.example/r/{uuid}#plan", "0b7e-1")).toBe("https://deals.example/r/0b7e-1#plan");
  });
});
