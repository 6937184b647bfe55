import { describe, expect, it } from "vitest";
import { fileTypeOf, levelOf, pickRecordingType, problemOf } from "../../src/features/upload/recorder/capture";

describe("the recorder's choices (issue 17)", () => {
  it("prefers MP4 with H.264 and AAC where MediaRecorder has it, WebM otherwise", () => {
    expect(pickRecordingType(() => true)).toBe("video/mp4;codecs=avc1.42E01F,mp4a.40.2");
    expect(pickRecordingType((type) => type === "video/mp4;codecs=avc1,mp4a.40.2" || type.startsWith("video/webm"))).toBe("video/mp4;codecs=avc1,mp4a.40.2");
    // An MP4 of other codecs is not taken for one of H.264/AAC.
    expect(pickRecordingType((type) => type === "video/mp4" || type === "video/webm;codecs=vp8,opus")).toBe("video/webm;codecs=vp8,opus");
    expect(pickRecordingType((type) => type === "video/webm")).toBe("video/webm");
    expect(pickRecordingType(() => false)).toBeNull();
    expect(fileTypeOf("video/mp4;codecs=avc1,mp4a.40.2")).toEqual({ mime: "video/mp4", extension: "mp4" });
    expect(fileTypeOf("video/webm;codecs=vp9,opus")).toEqual({ mime: "video/webm", extension: "webm" });
  });

  it("words a refusal, a missing device and a busy one apart", () => {
    expect(problemOf(new DOMException("", "NotAllowedError"))).toBe("denied");
    expect(problemOf(new DOMException("", "SecurityError"))).toBe("denied");
    expect(problemOf(new DOMException("", "NotFoundError"))).toBe("noDevice");
    expect(problemOf({ name: "OverconstrainedError" })).toBe("noDevice");
    expect(problemOf(new DOMException("", "NotReadableError"))).toBe("inUse");
    expect(problemOf(new TypeError("no getDisplayMedia"))).toBe("unsupported");
    expect(problemOf(new Error("?"))).toBe("failed");
  });

  it("reads the microphone level from −60 to 0 dBFS as 0 to 100", () => {
    expect(levelOf(new Float32Array(512))).toBe(0);
    expect(levelOf(new Float32Array(512).fill(1))).toBe(100);
    // A sine at full scale has an RMS of −3 dBFS; a hundredth of it −43 dBFS.
    const sine = (amplitude: number) => Float32Array.from({ length: 1024 }, (_, i) => amplitude * Math.sin((2 * Math.PI * i) / 64));
    expect(levelOf(sine(1))).toBeCloseTo(95, 0);
    expect(levelOf(sine(0.01))).toBeCloseTo(28.3, 0);
    expect(levelOf(sine(0.0001))).toBe(0);
  });
});
