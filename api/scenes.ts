import { z } from "zod";
import { SCENE_LINE_MAX } from "./limits";

export const TextLine = z.object({
  start: z.number().min(0),
  end: z.number().min(0),
  text: z.string().max(SCENE_LINE_MAX, { error: "too_long" }),
});

export const MediaAudio = z.enum(["mute", "low", "standard", "loud", "extraloud"]);
export const MusicType = z.enum(["bgmmute", "bgmlow", "bgmstandard", "bgmloud", "mainmusic"]);
export const SceneType = z.enum(["intro", "default", "outro"]);
/** Where an overlay scene sits over its main scene (SPEC §9 Overlay types). */
export const OverlayType = z.enum(["fullscrn", "autozoom", "pip_tl", "pip_tr", "pip_bl", "pip_br"]);
export type OverlayType = z.infer<typeof OverlayType>;
const bit = z.union([z.literal(0), z.literal(1)]);

/** A face the creator picked on a frame: a box in fractions (0…1) of the frame, shown (1) or ignored (0). */
export const FaceBox = z.object({
  BoundingBox: z.object({
    Left: z.number().min(0).max(1),
    Top: z.number().min(0).max(1),
    Width: z.number().min(0).max(1),
    Height: z.number().min(0).max(1),
  }),
  visibility: bit,
  /** Issue 17: the detected face (DetectedFace.track) this box stands for; the framing follows it as it moves. Absent: drawn by hand. */
  track: z.number().int().positive().optional(),
});
export type FaceBox = z.infer<typeof FaceBox>;

/** Issue 17: a face the server found during a scene (SPEC §2 face selection): where it typically is, and its picture. */
export const DetectedFace = z.object({
  track: z.number().int().positive(),
  BoundingBox: FaceBox.shape.BoundingBox,
  /** Share of the scene's samples it was seen on (0…1). */
  presence: z.number().min(0).max(1),
  /** A signed link to the face cut from its frame, or null when it has none. */
  thumbnail: z.string().nullable(),
});
export type DetectedFace = z.infer<typeof DetectedFace>;

/** The scene an overlay shows over its main scene: a piece of another (or the same) media file. */
export const OverScene = z.object({
  id: z.number().int(),
  media_file_id: z.number().int().nullable(),
  start: z.number(),
  end: z.number(),
  trim_start: z.number(),
  trim_end: z.number(),
  thumbnail: z.string().nullable(),
  /** A signed link to the overlay's media preview, for playing it in the app. */
  preview_url: z.string().nullable(),
});
export type OverScene = z.infer<typeof OverScene>;

/** A scene of the storyboard (SPEC §3 Scene). */
export const Scene = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  order: z.number().int(),
  media_file_id: z.number().int().nullable(),
  media_file: z.object({ raw_preview_offset: z.number() }).nullable(),
  isScene: z.literal(true),
  type: SceneType,
  visibility: z.union([z.literal(0), z.literal(1)]),
  start: z.number(),
  end: z.number(),
  trim_start: z.number(),
  trim_end: z.number(),
  trim_start_default: z.number(),
  trim_end_default: z.number(),
  trim_start_raw: z.number(),
  trim_end_raw: z.number(),
  thumbnail: z.string().nullable(),
  text: z.array(TextLine),
  mediaAudio: MediaAudio,
  musicType: MusicType,
  /** 0 force out, 1 auto, 2 force in (SPEC §3 Framing). */
  punch_in: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  punch_in_status: bit,
  crop: z.boolean(),
  selected_faces: z.array(FaceBox),
  /** Issue 17: the faces found in the scene, most prominent first (empty until found, or for stills and sounds). */
  faces: z.array(DetectedFace).optional(),
  overscene: OverScene.nullable(),
  overscene_type: OverlayType.nullable(),
  overscene_fade: bit,
  overscene_overflow: bit,
  /** 1 hides the main scene behind the overlay (autozoom and fullscrn turn it on, pip types off). */
  overscene_bg: bit,
});
export type Scene = z.infer<typeof Scene>;

/** SPEC §3 Storyboard: a slice of the project's scenes. */
export const Storyboard = z.object({
  projectId: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  hasMoreScenes: z.boolean(),
  timeline: z.object({ scenes: z.array(Scene), projectScenesTotal: z.number().int() }),
});

export const StoryboardQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(250).default(25),
  projectScenesTotal: z.coerce.number().int().optional(),
});
export const StoryboardBody = z.object({ scenesIds: z.array(z.number().int()).max(250).optional() }).default({});

export const SceneId = z.object({ id: z.coerce.number().int().positive() });
/**
 * PUT /scenes/{id}: any subset of the scene's attributes. Changing `overscene_type` without
 * `overscene_bg` sets the background by SPEC §4's rule.
 */
export const SceneUpdateBody = z.object({
  text: z.array(TextLine).max(50).optional(),
  mediaAudio: MediaAudio.optional(),
  musicType: MusicType.optional(),
  punch_in: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
  crop: z.boolean().optional(),
  selected_faces: z.array(FaceBox).max(20).optional(),
  overscene_type: OverlayType.optional(),
  overscene_fade: bit.optional(),
  overscene_overflow: bit.optional(),
  overscene_bg: bit.optional(),
});
export type SceneUpdateBody = z.input<typeof SceneUpdateBody>;
export const TrimBody = z.object({ trim_start: z.number(), trim_end: z.number() });
export const Scenes = z.object({ scenes: z.array(Scene) });
/** POST /scenes/{id}/cutrange (issue 14, edit by transcript): the stretch to cut, seconds in the scene's media file (word edges). */
export const CutRangeBody = z.object({ from: z.number().nonnegative(), to: z.number().nonnegative() });
