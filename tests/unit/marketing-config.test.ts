import { describe, expect, it } from "vitest";
import { PublicConfig } from "../../api/config";
import { loadConfig } from "../../server/config";

describe("marketing elements an operator can turn off (issue 18)", () => {
  it("shows the new-AI-version banner, the hosted product's links and the tips video by default", () => {
    const { links } = loadConfig({});
    expect(links.newAiApp).toBe("https://ai.cutroom.app/");
    expect(links.aiProduct).toBe("https://ai.cutroom.app/");
    expect(links.tipsVideo).toBe("https://cdn.cutroom.app/tips/quick-tips.mp4");
  });

  it("hides each one whose variable is set empty: the public config says null", () => {
    const { links } = loadConfig({ NEW_AI_URL: "", AI_PRODUCT_URL: "", TIPS_VIDEO_URL: "" });
    expect(links).toMatchObject({ newAiApp: null, aiProduct: null, tipsVideo: null });
    expect(PublicConfig.shape.links.parse(links)).toMatchObject({ newAiApp: null, aiProduct: null, tipsVideo: null });
  });

  it("keeps the promotion off unless configured", () => {
    expect(loadConfig({}).promotion).toBeNull();
  });

  it("still refuses a value that is neither empty nor a URL", () => {
    expect(() => loadConfig({ TIPS_VIDEO_URL: "tips.mp4" })).toThrow();
    expect(() => loadConfig({ NEW_AI_URL: "ai" })).toThrow();
  });
});
