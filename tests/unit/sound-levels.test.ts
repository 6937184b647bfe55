import { describe, expect, it } from "vitest";
import { levellingGain, MAX_LOUDNESS_GAIN_DB, parseLoudnorm } from "../../server/media/sound";

describe("loudness levelling", () => {
  it("brings the measured loudness to the target", () => {
    expect(levellingGain(-24, -14)).toBe(10);
    expect(levellingGain(-9.5, -14)).toBe(-4.5);
  });
  it("raises a near-silent edit by at most the cap, and silence not at all", () => {
    expect(levellingGain(-60, -14)).toBe(MAX_LOUDNESS_GAIN_DB);
    expect(levellingGain(-Infinity, -14)).toBe(0);
    expect(levellingGain(-70, -14)).toBe(0);
  });
  it("reads loudnorm's JSON from its log lines, -inf included", () => {
    const lines = [
      "[Parsed_loudnorm_1 @ 0x55d0] ",
      "{",
      '\t"input_i" : "-27.61",',
      '\t"input_tp" : "-4.47",',
      '\t"input_lra" : "18.06",',
      '\t"input_thresh" : "-39.20",',
      '\t"output_i" : "-16.58",',
      '\t"target_offset" : "0.58"',
      "}",
    ];
    expect(parseLoudnorm(lines)).toEqual({ i: -27.61, tp: -4.47, lra: 18.06, thresh: -39.2 });
    const silent = lines.map((l) => l.replace('"-27.61"', '"-inf"').replace('"-4.47"', '"-inf"'));
    expect(parseLoudnorm(silent).i).toBe(-Infinity);
    expect(() => parseLoudnorm(["no json here"])).toThrow();
  });
});
