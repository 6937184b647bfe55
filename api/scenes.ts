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
export const SceneUpdateBody = z.object({ text: z.array(TextLine).max(50).optional(), mediaAudio: MediaAudio.optional(), musicType: MusicType.optional() });
export const TrimBody = z.object({ trim_start: z.number(), trim_end: z.number() });
export const Scenes = z.object({ scenes: z.array(Scene) });
