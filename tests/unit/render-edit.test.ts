import { describe, expect, it } from "vitest";
import type { SceneRow } from "../../server/db/scenes";
import { FOOTAGE_VOLUMES, footageVolume } from "../../server/domain/audio";
import { renderOrder } from "../../server/domain/sequence";
import { buildRenderEdit, type SourceFile } from "../../server/jobs/render-edit";

let nextId = 1;
function scene(overrides: Partial<SceneRow> = {}): SceneRow {
  const id = nextId++;
  return {
    id,
    project_id: 1,
    media_file_id: 1,
    order: id,
    type: "default",
    visibility: 1,
    start: 0,
    end: 2,
    trim_start: 0,
    trim_end: 2,
    trim_start_default: 0,
    trim_end_default: 2,
    trim_start_raw: 0,
    trim_end_raw: 2,
    thumbnail_key: null,
    text: "[]",
    media_audio: "standard",
    music_type: "bgmstandard",
    punch_in: 1,
    punch_in_status: 0,
    crop: 0,
    selected_faces: "[]",
    parent_scene_id: null,
    overscene_type: null,
    overscene_fade: 0,
    overscene_overflow: 0,
    overscene_bg: 0,
    created_at: "",
    updated_at: "",
    ...overrides,
  };
}

const info = (kind: "video" | "image" | "audio", width = 1280, height = 720) => ({
  kind,
  durationSeconds: kind === "image" ? 0 : 30,
  ...(kind === "audio" ? {} : { width, height }),
  hasAudio: kind !== "image",
  formatName: "mp4",
  container: "mov",
  sizeBytes: 1,
});
const files = new Map<number, SourceFile>([
  [1, { file: "/m/talk.mp4", kind: "video", info: info("video") }],
  [2, { file: "/m/still.png", kind: "image", info: info("image", 240, 320) }],
  [3, { file: "/m/voice.m4a", kind: "audio", info: info("audio") }],
  [4, { file: "/m/other.mp4", kind: "video", info: info("video") }],
]);

describe("footage levels (SPEC §9)", () => {
  it("maps each level to its gain", () => {
    expect(FOOTAGE_VOLUMES).toEqual({ mute: 0, low: 0.5, standard: 1, loud: 1.6, extraloud: 2.2 });
    expect(footageVolume("loud", 0)).toBe(1.6);
    expect(footageVolume("mute", 0)).toBe(0);
    expect(footageVolume("bogus", 0)).toBe(1);
  });
  it("silences every scene of a muted project", () => {
    expect(footageVolume("extraloud", 1)).toBe(0);
    expect(footageVolume("standard", true)).toBe(0);
  });
});

describe("the render's sequence", () => {
  it("plays intro scenes first and outro scenes last, each group in order", () => {
    const rows = [{ type: "default", n: 1 }, { type: "outro", n: 2 }, { type: "intro", n: 3 }, { type: "", n: 4 }, { type: "intro", n: 5 }, { type: "outro", n: 6 }];
    expect(renderOrder(rows).map((r) => r.n)).toEqual([3, 5, 1, 4, 2, 6]);
  });

  it("leaves out hidden scenes, overlay rows and scenes without media", () => {
    const shown = scene({ trim_start: 1, trim_end: 3 });
    const edit = buildRenderEdit(
      [scene({ visibility: 0 }), shown, scene({ parent_scene_id: shown.id, type: "overscene" }), scene({ media_file_id: null }), scene({ media_file_id: 99 })],
      new Map(),
      files,
      {},
    );
    expect(edit.segments).toEqual([{ file: "/m/talk.mp4", kind: "video", start: 1, end: 3, volume: 1 }]);
    expect(edit.outputSeconds).toBe(2);
  });

  it("gives each scene its footage level, all muted with mute_videos", () => {
    const rows = [scene({ media_audio: "low" }), scene({ media_audio: "extraloud", media_file_id: 4 })];
    expect(buildRenderEdit(rows, new Map(), files, {}).segments.map((s) => s.volume)).toEqual([0.5, 2.2]);
    expect(buildRenderEdit(rows, new Map(), files, { mute_videos: 1 }).segments.map((s) => s.volume)).toEqual([0, 0]);
  });

  it("punches in on every other jump cut with automatic punch-in, and reports it", () => {
    const rows = [scene(), scene(), scene(), scene({ media_file_id: 4 }), scene({ media_file_id: 2 }), scene({ media_file_id: 2 })];
    const auto = buildRenderEdit(rows, new Map(), files, { autopunchin: 1 });
    expect(auto.segments.map((s) => !!s.crop)).toEqual([false, true, false, false, false, false]);
    expect(auto.autoPunchIn).toBe(true);
    const off = buildRenderEdit(rows, new Map(), files, { autopunchin: 0 });
    expect(off.segments.some((s) => s.crop)).toBe(false);
    expect(off.autoPunchIn).toBe(false);
  });

  it("crops to the aspect around the shown faces with autocrop, and pads without", () => {
    const faces = JSON.stringify([{ BoundingBox: { Left: 0.05, Top: 0.3, Width: 0.1, Height: 0.2 }, visibility: 1 }]);
    const rows = [scene({ selected_faces: faces, punch_in: 0 })];
    const cropped = buildRenderEdit(rows, new Map(), files, { aspect: "1x1", autocrop: 1 });
    expect(cropped.aspect).toBe(1);
    expect(cropped.segments[0]?.crop).toMatchObject({ x: 0, y: 0, h: 1 });
    expect(cropped.segments[0]?.crop?.w).toBeCloseTo(720 / 1280);
    expect(buildRenderEdit(rows, new Map(), files, { aspect: "1x1", autocrop: 0 }).segments[0]?.crop).toBeUndefined();
    // The scene's own crop flag crops even with autocrop off.
    expect(buildRenderEdit([scene({ crop: 1, punch_in: 0 })], new Map(), files, { aspect: "1x1", autocrop: 0 }).segments[0]?.crop).toBeDefined();
  });

  it("places an overlay over its scene, or over the following ones with overflow", () => {
    const first = scene({ overscene_type: "pip_br", overscene_fade: 1, overscene_bg: 0 });
    const second = scene({ overscene_type: "autozoom", overscene_overflow: 1, overscene_bg: 1 });
    const third = scene();
    const overlays = new Map([
      [first.id, scene({ parent_scene_id: first.id, type: "overscene", media_file_id: 2, trim_start: 0, trim_end: 4 })],
      [second.id, scene({ parent_scene_id: second.id, type: "overscene", media_file_id: 4, trim_start: 5, trim_end: 8.5 })],
      [third.id, scene({ parent_scene_id: third.id, type: "overscene", media_file_id: 3 })],
    ]);
    const edit = buildRenderEdit([first, second, third], overlays, files, {});
    expect(edit.overlays).toEqual([
      { file: "/m/still.png", start: 0, seconds: Number.POSITIVE_INFINITY, fromSegment: 0, untilSegment: 1, placement: "pip_br", fade: true, hideMain: false },
      { file: "/m/other.mp4", start: 5, seconds: 3.5, fromSegment: 1, untilSegment: 3, placement: "autozoom", fade: false, hideMain: true },
    ]);
  });
});
