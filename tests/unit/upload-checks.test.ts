import { describe, expect, it } from "vitest";
import { checkNewFiles, mediaKindOf } from "../../src/features/upload/checks";

const GB = 1024 ** 3;
const quotas = { uploadMaxSizeBytes: 1 * GB, uploadMaxLengthMinutes: 10, processingMinutes: 30, storageBytes: 5 * GB };
const file = (name: string, size = 1000, durationSeconds = 60) => ({ name, size, durationSeconds });
const context = { takenNames: [] as string[], listedSeconds: 0, listedBytes: 0, quotas };

describe("the kind of a file (SPEC §5)", () => {
  it("comes from the MIME prefix", () => {
    expect(mediaKindOf("video/mp4")).toBe("video");
    expect(mediaKindOf("audio/x-m4a")).toBe("audio");
    expect(mediaKindOf("image/png")).toBe("image");
  });
  it("is unknown for anything else", () => {
    expect(mediaKindOf("application/pdf")).toBeNull();
    expect(mediaKindOf("")).toBeNull();
    expect(mediaKindOf("videos/mp4")).toBeNull();
  });
});

describe("files joining the upload list (SPEC §5)", () => {
  it("takes files within every limit", () => {
    const { accepted, refused } = checkNewFiles([file("a.mp4"), file("b.mp4")], context);
    expect(accepted.map((f) => f.name)).toEqual(["a.mp4", "b.mp4"]);
    expect(refused).toEqual([]);
  });
  it("refuses a name already in the list or the library as a double file", () => {
    const { refused } = checkNewFiles([file("talk.mp4")], { ...context, takenNames: ["talk.mp4"] });
    expect(refused.map((r) => r.reason)).toEqual(["double_file"]);
  });
  it("refuses the second of two files with the same name chosen together", () => {
    const { accepted, refused } = checkNewFiles([file("talk.mp4"), file("talk.mp4")], context);
    expect(accepted).toHaveLength(1);
    expect(refused.map((r) => r.reason)).toEqual(["double_file"]);
  });
  it("refuses a file above the single-file size or length", () => {
    expect(checkNewFiles([file("big.mp4", 1 * GB + 1)], context).refused[0]?.reason).toBe("limit_single_file");
    expect(checkNewFiles([file("long.mp4", 1000, 10 * 60 + 1)], context).refused[0]?.reason).toBe("limit_single_file");
  });
  it("refuses files that take the total length past the processing minutes", () => {
    const { accepted, refused } = checkNewFiles([file("a.mp4", 1000, 9 * 60), file("b.mp4", 1000, 9 * 60)], { ...context, listedSeconds: 20 * 60 });
    expect(accepted.map((f) => f.name)).toEqual(["a.mp4"]);
    expect(refused).toEqual([{ file: expect.objectContaining({ name: "b.mp4" }), reason: "limits_minutes" }]);
  });
  it("refuses files that take the total size past the storage left", () => {
    const { refused } = checkNewFiles([file("a.mp4", 0.5 * GB)], { ...context, listedBytes: 4.6 * GB });
    expect(refused[0]?.reason).toBe("limits_storage");
  });
  it("checks only names when the quotas are not known (offline)", () => {
    const { accepted, refused } = checkNewFiles([file("huge.mp4", 100 * GB, 10_000), file("x.png")], { ...context, quotas: null, takenNames: ["x.png"] });
    expect(accepted.map((f) => f.name)).toEqual(["huge.mp4"]);
    expect(refused.map((r) => r.reason)).toEqual(["double_file"]);
  });
});
