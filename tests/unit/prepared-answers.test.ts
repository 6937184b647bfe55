import { describe, expect, it } from "vitest";
import { z } from "zod";
import { negotiateEncoding, PreparedAnswers, PreparedJson } from "../../server/http/prepared-answers";

const Answer = z.object({ name: z.string() });
const request = { method: "POST", url: "/x", routeOptions: { url: "/x" } } as never;
const prepared = (name: string) => PreparedJson.of(Answer, { name }, request);

describe("negotiateEncoding", () => {
  it("picks brotli, then gzip, by the client's q-values", () => {
    expect(negotiateEncoding("gzip, deflate, br")).toBe("br");
    expect(negotiateEncoding("gzip, deflate")).toBe("gzip");
    expect(negotiateEncoding("x-gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0.2, gzip;q=0.8")).toBe("gzip");
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("*, br;q=0")).toBe("gzip");
  });

  it("answers none for identity, refusals and no header", () => {
    expect(negotiateEncoding(undefined)).toBeUndefined();
    expect(negotiateEncoding("identity")).toBeUndefined();
    expect(negotiateEncoding("br;q=0, gzip;q=0.0")).toBeUndefined();
    expect(negotiateEncoding("deflate")).toBeUndefined();
  });
});

describe("PreparedJson", () => {
  it("serializes what the schema lets through, as the zod serializer does", () => {
    expect(PreparedJson.of(Answer, { name: "a", extra: 1 } as never, request).json).toBe('{"name":"a"}');
  });

  it("refuses an answer that breaks its schema", () => {
    expect(() => PreparedJson.of(Answer, { name: 1 } as never, request)).toThrow(/Response doesn't match the schema/);
  });
});

describe("PreparedAnswers", () => {
  it("makes an answer again only when its stamp moves, and one making serves the requests that missed together", async () => {
    const answers = new PreparedAnswers<{ name: string }>(1024);
    let made = 0;
    const make = (name: string) => async () => (made++, prepared(name));
    const [a, b] = await Promise.all([answers.get("p1", "v1", make("one")), answers.get("p1", "v1", make("two"))]);
    expect(a).toBe(b);
    expect(made).toBe(1);
    expect((await answers.get("p1", "v1", make("three"))).json).toBe('{"name":"one"}');
    expect((await answers.get("p1", "v2", make("four"))).json).toBe('{"name":"four"}');
    expect(made).toBe(2);
  });

  it("forgets a failed making, so the next request tries again", async () => {
    const answers = new PreparedAnswers<{ name: string }>(1024);
    await expect(answers.get("p1", "v1", async () => Promise.reject(new Error("database gone")))).rejects.toThrow("database gone");
    expect((await answers.get("p1", "v1", async () => prepared("back"))).json).toBe('{"name":"back"}');
  });

  it("keeps to its bytes, the least recently used going first", async () => {
    const one = prepared("x".repeat(40)).bytes;
    const answers = new PreparedAnswers<{ name: string }>(one * 2);
    let made = 0;
    const make = (name: string) => async () => (made++, prepared(name.repeat(40)));
    await answers.get("a", "v", make("a"));
    await answers.get("b", "v", make("b"));
    await answers.get("a", "v", make("a")); // a is now the most recently used
    await answers.get("c", "v", make("c")); // b goes
    expect(made).toBe(3);
    await answers.get("a", "v", make("a"));
    await answers.get("c", "v", make("c"));
    expect(made).toBe(3);
    await answers.get("b", "v", make("b"));
    expect(made).toBe(4);
  });
});
