import { describe, expect, it } from "vitest";
import { PublicConfig } from "../../api/config";
import { loadConfig } from "../../server/config";

describe("PRICING_URL (issue 16): /pricing leaves the app only when an operator sets it", () => {
  it("has no default: the public config says null and /pricing shows the in-app pricing view", () => {
    const config = loadConfig({});
    expect(config.links.pricing).toBeNull();
    expect(PublicConfig.shape.links.shape.pricing.parse(null)).toBeNull();
  });

  it("passes an operator's pricing page through", () => {
    expect(loadConfig({ PRICING_URL: "https://example.com/pricing" }).links.pricing).toBe("https://example.com/pricing");
  });

  it("refuses a PRICING_URL that is not a URL", () => {
    expect(() => loadConfig({ PRICING_URL: "pricing" })).toThrow();
  });
});
