import { describe, expect, it } from "vitest";
import { contentDisposition, fileLinks, safeFileName } from "../../server/services/file-links";

describe("download file names", () => {
  it("keeps letters, drops what a header or a file system would misread", () => {
    expect(safeFileName("My talk", "mp4")).toBe("My talk.mp4");
    expect(safeFileName('a/b\\c:"d"*?<>|;%', "mp4")).toBe("a_b_c__d________.mp4");
    expect(safeFileName("line\r\nbreak\u0000", "mp4")).toBe("linebreak.mp4");
    expect(safeFileName("  ..hidden.. ", "mp4")).toBe("hidden.mp4");
    expect(safeFileName("...", "mp4")).toBe("cutroom.mp4");
    expect(safeFileName("x".repeat(400), "mp4")).toBe(`${"x".repeat(150)}.mp4`);
    expect(safeFileName("Réunion 会議", "mp4")).toBe("Réunion 会議.mp4");
  });

  it("sends an ASCII filename and, for other letters, RFC 5987 filename*", () => {
    expect(contentDisposition("My talk.mp4")).toBe('attachment; filename="My talk.mp4"');
    expect(contentDisposition("Réunion 会議.mp4")).toBe(`attachment; filename="R_union __.mp4"; filename*=UTF-8''R%C3%A9union%20%E4%BC%9A%E8%AD%B0.mp4`);
    expect(contentDisposition("it's (1).mp4")).toBe(`attachment; filename="it's (1).mp4"`);
    expect(contentDisposition("é's (1).mp4")).toContain(`filename*=UTF-8''%C3%A9%27s%20%281%29.mp4`);
  });
});

describe("download links", () => {
  const links = fileLinks("secret");
  it("sign the file name with the key and expire after an hour", () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const { url, expires } = links.downloadUrl("projects/1/2/final.mp4", "Talk.mp4", now);
    expect(expires).toBe(now / 1000 + 3600);
    const signature = new URL(url, "http://x").searchParams.get("signature")!;
    expect(links.verifyDownload("projects/1/2/final.mp4", "Talk.mp4", expires, signature, now)).toBe(true);
    expect(links.verifyDownload("projects/1/2/final.mp4", "Other.mp4", expires, signature, now)).toBe(false);
    expect(links.verifyDownload("projects/1/2/other.mp4", "Talk.mp4", expires, signature, now)).toBe(false);
    expect(links.verifyDownload("projects/1/2/final.mp4", "Talk.mp4", expires, signature, now + 3600_000)).toBe(false);
    // Not a media link's signature either way.
    expect(links.verify("projects/1/2/final.mp4", expires, signature, now)).toBe(false);
  });
});
