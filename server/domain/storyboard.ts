/** Building the first storyboard from analysed media: pure rules, no I/O. */

export interface TimeRange {
  start: number;
  end: number;
}

export interface MediaForScenes {
  id: number;
  kind: "video" | "audio" | "image";
  durationSeconds: number;
  /** Kept stretches of speech, in media time; absent when the file has no speech or no audio. */
  speech?: readonly TimeRange[];
  /** Where this file starts inside the project's raw preview. */
  rawOffset: number;
}

export interface SceneDraft {
  mediaFileId: number;
  order: number;
  start: number;
  end: number;
  trimStart: number;
  trimEnd: number;
  trimStartRaw: number;
  trimEndRaw: number;
}

/** An image becomes a still scene this long. */
export const IMAGE_SCENE_SECONDS = 4;
/** Stretches shorter than this are breaths or clicks, not words worth a scene. */
export const MIN_SCENE_SECONDS = 0.2;

const round = (t: number) => Math.round(t * 1000) / 1000;

/**
 * One scene per kept stretch of speech, in media order, when auto cut is on; otherwise one scene
 * per file. Images become still scenes; a file without detected speech is kept whole.
 */
export function buildScenes(media: readonly MediaForScenes[], autoCut: boolean): SceneDraft[] {
  const scenes: SceneDraft[] = [];
  for (const file of media) {
    const whole: TimeRange = { start: 0, end: file.kind === "image" ? IMAGE_SCENE_SECONDS : file.durationSeconds };
    const ranges =
      autoCut && file.kind !== "image" && file.speech && file.speech.length > 0
        ? file.speech.filter((r) => r.end - r.start >= MIN_SCENE_SECONDS)
        : [whole];
    for (const range of ranges.length ? ranges : [whole]) {
      const start = round(Math.max(0, range.start));
      const end = round(Math.min(whole.end, range.end));
      if (end <= start) continue;
      scenes.push({
        mediaFileId: file.id,
        order: scenes.length + 1,
        start,
        end,
        trimStart: start,
        trimEnd: end,
        trimStartRaw: round(start + file.rawOffset),
        trimEndRaw: round(end + file.rawOffset),
      });
    }
  }
  return scenes;
}

/** SPEC §3 Highlights from the storyboard: seconds removed and jump cuts made. */
export function highlightsOf(media: readonly MediaForScenes[], scenes: readonly SceneDraft[]) {
  const inputSeconds = media.reduce((sum, m) => sum + (m.kind === "image" ? IMAGE_SCENE_SECONDS : m.durationSeconds), 0);
  const outputSeconds = scenes.reduce((sum, s) => sum + (s.trimEnd - s.trimStart), 0);
  const filesWithScenes = new Set(scenes.map((s) => s.mediaFileId)).size;
  return {
    removedLength: round(Math.max(0, inputSeconds - outputSeconds)),
    jumpCutsCreated: Math.max(0, scenes.length - filesWithScenes),
    outputSeconds: round(outputSeconds),
  };
}
