import { describe, expect, it } from "vitest";
import {
  BED,
  DUCK,
  duckGain,
  duckWeights,
  levelTrack,
  loopPoints,
  MUSIC_LEVEL_DB,
  MUSIC_STYLE_DUCK,
  pickSong,
  sceneLevels,
  sceneSpans,
  sourceAt,
  type BedSettings,
} from "../../server/domain/music";

const SR = 48_000;
const settings = (over: Partial<BedSettings> = {}): BedSettings => ({ musicType: "bgmstandard", style: "video", autoduck: true, intro_mode: "", outro_mode: "", ...over });
const scene = (musicType: string, type = "default", seconds = 2) => ({ type, musicType, seconds });
const db = (gain: number) => 20 * Math.log10(gain);

describe("scene music levels", () => {
  it("plays each scene's own level, the project's for scenes at the default, and none for mute", () => {
    const levels = sceneLevels([scene("bgmlow"), scene("bgmstandard"), scene("bgmloud"), scene("bgmmute"), scene("mainmusic")], settings({ musicType: "bgmloud" }));
    expect(levels).toEqual([
      { levelDb: MUSIC_LEVEL_DB.bgmlow, duck: true },
      { levelDb: MUSIC_LEVEL_DB.bgmloud, duck: true },
      { levelDb: MUSIC_LEVEL_DB.bgmloud, duck: true },
      { levelDb: null, duck: false },
      { levelDb: 0, duck: false },
    ]);
    expect([MUSIC_LEVEL_DB.bgmlow, MUSIC_LEVEL_DB.bgmstandard, MUSIC_LEVEL_DB.bgmloud]).toEqual([-18, -12, -6]);
  });

  it("intro and outro modes: music is the main sound, silent is none, empty follows the scene", () => {
    const scenes = [scene("bgmstandard", "intro"), scene("bgmstandard"), scene("bgmlow", "outro")];
    expect(sceneLevels(scenes, settings({ intro_mode: "music", outro_mode: "silent" }))).toEqual([
      { levelDb: 0, duck: false },
      { levelDb: -12, duck: true },
      { levelDb: null, duck: false },
    ]);
    expect(sceneLevels(scenes, settings()).map((l) => l.levelDb)).toEqual([-12, -12, -18]);
  });

  it("style music plays louder and ducks gentler; without auto-duck nothing ducks", () => {
    expect(sceneLevels([scene("bgmstandard")], settings({ style: "music" }))[0]).toEqual({ levelDb: -6, duck: true });
    expect(MUSIC_STYLE_DUCK.depthDb).toBeLessThan(DUCK.depthDb);
    expect(sceneLevels([scene("bgmloud")], settings({ autoduck: false }))[0]).toEqual({ levelDb: -6, duck: false });
  });
});

describe("scene spans", () => {
  it("follows the render plan's rounding: frames from cumulative seconds, samples from frame edges", () => {
    const spans = sceneSpans([1.01, 0.005, 2.5], 30, SR);
    expect(spans[0]).toEqual({ from: 0, to: Math.round((30 * SR) / 30) });
    expect(spans[1]!.to - spans[1]!.from).toBe(0);
    expect(spans[2]!.to).toBe(Math.round((Math.round(3.515 * 30) * SR) / 30));
  });
});

describe("the level track", () => {
  const voiceDb = -20;
  const songDb = -20;
  it("sets each scene's gain against the voice and song levels, with a ramp at the cut and fades at the ends", () => {
    const spans = sceneSpans([10, 10], 30, SR);
    const { gain, frameSamples } = levelTrack(spans, [{ levelDb: -12, duck: true }, { levelDb: null, duck: false }], { totalSamples: 20 * SR, sampleRate: SR, voiceDb, songDb });
    const at = (s: number) => gain[Math.round((s * SR) / frameSamples)]!;
    expect(db(at(5))).toBeCloseTo(-12, 3);
    expect(at(15)).toBe(0);
    expect(at(0)).toBe(0);
    // Half a fade in: sin²(π/4) = 0.5.
    expect(at(BED.fadeInSeconds / 2) / at(5)).toBeCloseTo(0.5, 2);
    // The cut ramps over BED.sceneRampSeconds, centred on it.
    expect(at(10) / at(5)).toBeGreaterThan(0.3);
    expect(at(10) / at(5)).toBeLessThan(0.7);
    expect(at(10 - BED.sceneRampSeconds)).toBeCloseTo(at(5), 5);
    expect(at(10 + BED.sceneRampSeconds)).toBe(0);
  });

  it("fades out over the last seconds", () => {
    const { gain, frameSamples } = levelTrack(sceneSpans([30], 30, SR), [{ levelDb: 0, duck: false }], { totalSamples: 30 * SR, sampleRate: SR, voiceDb, songDb: -26 });
    const at = (s: number) => gain[Math.round((s * SR) / frameSamples)]!;
    expect(db(at(15))).toBeCloseTo(6, 3);
    expect(at(30 - BED.fadeOutSeconds / 2) / at(15)).toBeCloseTo(0.5, 2);
    expect(at(30)).toBeCloseTo(0, 6);
  });
});

describe("the duck envelope", () => {
  const frames = 1000; // 10 s of 10 ms frames
  it("is full under speech, looks ahead by the attack and releases after the end", () => {
    const w = duckWeights([{ start: 2, end: 4 }], frames, 0.01, DUCK);
    expect(w[300]).toBe(1);
    expect(w[100]).toBe(0);
    expect(w[200]).toBe(1);
    expect(w[200 - 4]).toBeCloseTo(0.5, 1); // halfway through the 80 ms attack
    expect(w[400 + 20]).toBeCloseTo(0.5, 1); // halfway through the 400 ms release
    expect(w[400 + 41]).toBe(0);
    expect(db(duckGain(1, DUCK))).toBeCloseTo(-15, 6);
    expect(db(duckGain(0.5, DUCK))).toBeCloseTo(-7.5, 6);
  });

  it("holds across pauses shorter than the hold and lets music up in longer ones", () => {
    const w = duckWeights([{ start: 1, end: 2 }, { start: 2.3, end: 3 }, { start: 5, end: 6 }], frames, 0.01, DUCK);
    expect(Math.min(...w.slice(200, 230))).toBe(1);
    expect(w[400]).toBe(0);
  });
});

describe("loops", () => {
  const song = { durationMs: 12_000, loopStartMs: 2_000, loopEndMs: 10_000 };
  it("crossfades a few tens of ms around each join, reading the song's tail past the loop end", () => {
    const p = loopPoints(song, SR);
    expect(p).toMatchObject({ songSamples: 12 * SR, loopStart: 2 * SR, loopEnd: 10 * SR });
    expect((p.before + p.after) / SR).toBeCloseTo(BED.loopCrossfadeSeconds, 6);
    expect(sourceAt(5 * SR, p, true)).toEqual({ a: 5 * SR, wa: 1, b: -1, wb: 0 });
    // Just after the first join: the next pass from the loop start, still fading in.
    const join = sourceAt(10 * SR, p, true);
    expect(join.a).toBe(10 * SR);
    expect(join.b).toBe(2 * SR);
    expect(join.wa + join.wb).toBeCloseTo(1, 9);
    // One second into the second pass, and the third.
    expect(sourceAt(11 * SR, p, true)).toEqual({ a: 3 * SR, wa: 1, b: -1, wb: 0 });
    expect(sourceAt(19 * SR, p, true)).toEqual({ a: 3 * SR, wa: 1, b: -1, wb: 0 });
    // Played once: silence after the end.
    expect(sourceAt(13 * SR, p, false).a).toBe(-1);
  });

  it("without loop points the whole song loops with a long crossfade of its end into its start", () => {
    const p = loopPoints({ durationMs: 30_000, loopStartMs: null, loopEndMs: null }, SR);
    expect(p.loopStart).toBe(0);
    expect((p.after + p.before) / SR).toBeCloseTo(BED.plainLoopCrossfadeSeconds, 6);
    expect(p.loopEnd + p.after).toBe(p.songSamples);
    const mid = sourceAt(p.loopEnd + p.after / 2, p, true);
    expect(mid.wa).toBeCloseTo(0.5, 3);
    expect(mid.b).toBe(p.after / 2);
  });
});

describe("which song", () => {
  const songs = [
    { id: 1, durationMs: 180_000, energy: 1, tempo: 80 },
    { id: 2, durationMs: 170_000, energy: 1, tempo: 90 },
    { id: 3, durationMs: 150_000, energy: 3, tempo: 128 },
    { id: 4, durationMs: 40_000, energy: 1, tempo: 85 },
  ];
  const wanted = { style: "video", audioType: "speech", editSeconds: 120, recent: [] as number[], projectId: 7 };
  it("fits the style and the length, and is the same for the same project", () => {
    const pick = pickSong(songs, wanted);
    expect([1, 2]).toContain(pick?.id);
    expect(pickSong(songs, wanted)).toEqual(pick);
    expect(pickSong(songs, { ...wanted, style: "music" })?.id).toBe(3);
    // A short edit may take the short calm song too.
    const ids = new Set(Array.from({ length: 40 }, (_, i) => pickSong(songs, { ...wanted, editSeconds: 20, projectId: i })?.id));
    expect(ids).toEqual(new Set([1, 2, 4]));
  });

  it("never a recent project's song while another fits; one of them when nothing else is left", () => {
    for (let projectId = 0; projectId < 20; projectId++) expect(pickSong(songs, { ...wanted, projectId, recent: [1] })?.id).toBe(2);
    expect(pickSong(songs.slice(0, 1), { ...wanted, recent: [1] })?.id).toBe(1);
    expect(pickSong([], wanted)).toBeNull();
  });
});
