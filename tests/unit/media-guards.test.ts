import { describe, expect, it } from "vitest";
import { ALLOWED_CONTAINERS, buildArgs, MAX_DECODED_PIXELS, PROTOCOL_WHITELIST } from "../../server/media/ffmpeg";
import { lengthCap, mediaInfoFromProbe, mediaInput, MAX_STREAMS, MAX_VIDEO_PIXELS, UnreadableMediaError, UnsupportedMediaError, type ProbeOutput } from "../../server/media/probe";

/** The options placed before the n-th `-i`. */
function inputOptions(args: string[], n: number): string[] {
  const starts = args.flatMap((a, i) => (a === "-i" ? [i] : []));
  const end = starts[n]!;
  const begin = n === 0 ? args.indexOf("-threads") : starts[n - 1]! + 2;
  return args.slice(begin, end);
}

const value = (options: string[], name: string) => options[options.indexOf(name) + 1];

describe("every ffmpeg input (issue 12 items 1 and 16)", () => {
  it("reads a user's file only as a local file, with an allowed demuxer and a pixel cap", () => {
    const args = buildArgs({ inputs: [{ file: "/s/a.mp4", format: "mov" }, { file: "/s/b.bin" }], outputOptions: [], output: null });
    for (const n of [0, 1]) {
      const options = inputOptions(args, n);
      expect(value(options, "-protocol_whitelist")).toBe("file");
      expect(value(options, "-format_whitelist")?.split(",")).toEqual([...ALLOWED_CONTAINERS]);
      expect(value(options, "-max_pixels")).toBe(String(MAX_DECODED_PIXELS));
    }
    expect(value(inputOptions(args, 0), "-f")).toBe("mov");
    expect(inputOptions(args, 1)).not.toContain("-f");
    expect(PROTOCOL_WHITELIST).toBe("file");
  });

  it("refuses to read with a demuxer that can name other files", () => {
    for (const format of ["hls", "concat", "dash", "image2", "sdp", "lavfi", "tee", "data"]) {
      expect(ALLOWED_CONTAINERS).not.toContain(format);
      expect(() => buildArgs({ inputs: [{ file: "/s/a.mp4", format }], outputOptions: [], output: null })).toThrow(/not allowed/);
    }
  });

  it("reads our own intermediate files with their stated demuxer only", () => {
    const args = buildArgs({ inputs: [{ file: "/tmp/list.txt", format: "concat", internal: true }], outputOptions: [], output: null });
    expect(value(inputOptions(args, 0), "-f")).toBe("concat");
    expect(inputOptions(args, 0)).not.toContain("-format_whitelist");
    expect(() => buildArgs({ inputs: [{ file: "/tmp/x", internal: true }], outputOptions: [], output: null })).toThrow();
  });

  it("caps every read of a user's file at its measured length", () => {
    const input = mediaInput("/s/a.mp3", { kind: "audio", container: "mp3", durationSeconds: 453 }, ["-ss", "2"]);
    expect(input).toEqual({ file: "/s/a.mp3", format: "mp3", options: ["-t", lengthCap(453).toFixed(3), "-ss", "2"] });
    expect(lengthCap(453)).toBeLessThan(453 * 1.06);
    expect(mediaInput("/s/a.png", { kind: "image", container: "png_pipe", durationSeconds: 0 }).options).toEqual([]);
  });
});

describe("what a probe accepts", () => {
  const video = (width: number, height: number, format = "mov,mp4,m4a,3gp,3g2,mj2"): ProbeOutput => ({
    streams: [{ codec_type: "video", codec_name: "h264", width, height, avg_frame_rate: "30/1" }],
    format: { format_name: format, duration: "10.0" },
  });

  it("takes the first name of the container as the demuxer later runs use", () => {
    expect(mediaInfoFromProbe("a", video(1920, 1080), 1).container).toBe("mov");
    expect(mediaInfoFromProbe("a", video(1920, 1080, "matroska,webm"), 1).container).toBe("matroska");
  });

  it("refuses a container off the allow-list whatever it holds", () => {
    expect(() => mediaInfoFromProbe("a", video(1920, 1080, "hls"), 1)).toThrow(UnsupportedMediaError);
    expect(() => mediaInfoFromProbe("a", video(1920, 1080, "concat"), 1)).toThrow(UnsupportedMediaError);
  });

  it("refuses video above 8K and takes 8K", () => {
    expect(mediaInfoFromProbe("a", video(8192, 4320), 1).kind).toBe("video");
    expect(8192 * 4320).toBe(MAX_VIDEO_PIXELS);
    expect(() => mediaInfoFromProbe("a", video(8704, 4608), 1)).toThrow(UnreadableMediaError);
  });

  it("charges a length measured from the packets when the header disagrees, the header's when they agree", () => {
    const mp3: ProbeOutput = { streams: [{ codec_type: "audio", codec_name: "mp3", sample_rate: "44100" }], format: { format_name: "mp3", duration: "453.03" } };
    expect(mediaInfoFromProbe("a", mp3, 1, 18_003).durationSeconds).toBe(18_003);
    expect(mediaInfoFromProbe("a", mp3, 1, 453.5).durationSeconds).toBe(453.03);
    expect(mediaInfoFromProbe("a", mp3, 1, 12).durationSeconds).toBe(12);
    const noHeader: ProbeOutput = { ...mp3, format: { format_name: "mp3" } };
    expect(() => mediaInfoFromProbe("a", noHeader, 1)).toThrow(UnreadableMediaError);
    expect(mediaInfoFromProbe("a", noHeader, 1, 7).durationSeconds).toBe(7);
  });

  it("refuses a file of more streams than any camera or editor writes", () => {
    const many = (n: number): ProbeOutput => ({ ...video(320, 240), streams: [...video(320, 240).streams!, ...Array.from({ length: n - 1 }, () => ({ codec_type: "audio", codec_name: "aac", sample_rate: "48000" }))] });
    expect(mediaInfoFromProbe("a", many(65), 1).hasAudio).toBe(true);
    expect(() => mediaInfoFromProbe("a", many(MAX_STREAMS + 1), 1)).toThrow(UnreadableMediaError);
  });

  it("takes an APNG as an image", () => {
    const apng: ProbeOutput = { streams: [{ codec_type: "video", codec_name: "apng", width: 64, height: 48, avg_frame_rate: "5/1" }], format: { format_name: "apng" } };
    expect(mediaInfoFromProbe("a", apng, 1)).toMatchObject({ kind: "image", container: "apng", durationSeconds: 0 });
  });
});
