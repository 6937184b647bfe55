import { describe, expect, it } from "vitest";
import { PAGE_CONFIG_ID, pageConfigScript } from "../../api/page-config";

describe("the set-up written into the app shell", () => {
  it("is a JSON block no value can close or break out of, and reads back the same", () => {
    const setUp = { links: { help: "https://example.com/</script><script>alert(1)</script>" }, note: "line\u2028separator" };
    const block = pageConfigScript(setUp);
    expect(block.startsWith(`<script id="${PAGE_CONFIG_ID}" type="application/json">`)).toBe(true);
    const inner = block.slice(block.indexOf(">") + 1, block.lastIndexOf("</script>"));
    expect(inner).not.toContain("<");
    expect(inner).not.toContain("\u2028");
    expect(JSON.parse(inner)).toEqual(setUp);
  });
});
