// @vitest-environment node
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probe } from "../../server/media/probe";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-probe-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a browser's recording (issue 17)", () => {
  it("has no length in its WebM header, and the probe measures it from the packets", () => {
    // Written to a pipe as MediaRecorder writes it: the muxer cannot go back to fill in the length or the cues.
    const file = path.join(dir, "recording.webm");
    const webm = execFileSync("ffmpeg", [
      "-nostdin", "-loglevel", "error",
      "-f", "lavfi", "-i", "testsrc2=size=320x200:rate=15:duration=4",
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
      "-c:v", "libvpx", "-deadline", "realtime", "-b:v", "300k", "-c:a", "libopus", "-f", "webm", "pipe:1",
    ], { maxBuffer: 64 * 1024 * 1024 });
    fs.writeFileSync(file, webm);
    const header = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", file]).toString());
    expect(header.format.duration).toBeUndefined();
    return probe(file).then((info) => {
      expect(info.kind).toBe("video");
      expect(info.container).toBe("matroska");
      expect(info.durationSeconds).toBeGreaterThan(3.8);
      expect(info.durationSeconds).toBeLessThan(4.3);
    });
  }, 60_000);
});
