import { z } from "zod";
import { MediaLanguage, SubtitleLanguage } from "./locales";
import { PROJECT_NAME_MAX } from "./limits";
import { ErrorCode } from "./errors";
import { Privacy, VideoDescription, VideoName } from "./share";

/** Statuses of SPEC §4. Busy ones show as "creating" with progress. */
export const PROJECT_STATUSES = ["new", "Working", "Rendering", "Final Rendering", "Rdg Request", "Not Started", "Preview Ready", "Render Ready", "Failed"] as const;
export const ProjectStatus = z.enum(PROJECT_STATUSES);
export type ProjectStatus = z.infer<typeof ProjectStatus>;
export const BUSY_STATUSES: readonly ProjectStatus[] = ["new", "Working", "Rendering", "Final Rendering", "Rdg Request"];

export const Style = z.enum(["video", "music", "video_music"]);
export const AudioType = z.enum(["speech", "music", "mixed"]);
export const IntroOutroMode = z.enum(["", "music", "silent"]);

/** A subtitle colour: "#rrggbb" (or "#rgb"). */
export const HexColour = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, { error: "invalid" });

/** The editable settings of a project (SPEC §3 Project settings). */
export const ProjectSettings = z.object({
  autobgm: z.union([z.literal(0), z.literal(1)]),
  bgm_id: z.number().int().nullable(),
  autoduck: z.union([z.literal(0), z.literal(1)]),
  audio_preprocessor: z.union([z.literal(0), z.literal(1)]),
  video_preprocessor: z.union([z.literal(0), z.literal(1)]),
  voice_booster: z.union([z.literal(0), z.literal(1)]),
  autopunchin: z.union([z.literal(0), z.literal(1)]),
  autocrop: z.union([z.literal(0), z.literal(1)]),
  mute_videos: z.union([z.literal(0), z.literal(1)]),
  render_subtitle: z.union([z.literal(0), z.literal(1)]),
  export_subtitle: z.union([z.literal(0), z.literal(1)]),
  smoothcuts: z.union([z.literal(0), z.literal(1)]),
  autocutsilences: z.union([z.literal(0), z.literal(1)]),
  /** Issue 14: filler words the speech engine reports ("um", "uh"…) become hidden, restorable cuts when the storyboard is made. */
  removefillers: z.union([z.literal(0), z.literal(1)]).optional(),
  render_notifications: z.union([z.literal(0), z.literal(1)]),
  musicType: z.enum(["bgmmute", "bgmlow", "bgmstandard", "bgmloud", "mainmusic"]),
  mediaAudio: z.enum(["mute", "low", "standard", "loud", "extraloud"]),
  intro_mode: IntroOutroMode,
  outro_mode: IntroOutroMode,
  intro_seconds: z.number().min(0).max(60),
  outro_seconds: z.number().min(0).max(60),
  style: Style,
  audio_type: AudioType,
  /**
   * SPEC §3 Subtitles: text, border and shadow colours ("#rrggbb"), drop shadow, and the embedded language (null:
   * the original lines; else a subtitle set's locale) — what the final render burns in when render_subtitle is on.
   */
  font: z.object({
    color: HexColour,
    border_color: HexColour,
    shadow_color: HexColour.default("#000000"),
    dropshadow: z.union([z.literal(0), z.literal(1)]),
    locale: SubtitleLanguage.nullable().default(null),
  }),
  /** Size of the output: original (""), 16x9, 9x16 or 1x1 (SPEC §9 Aspects); clips projects choose it. */
  aspect: z.enum(["", "16x9", "9x16", "1x1"]),
});
export type ProjectSettings = z.infer<typeof ProjectSettings>;

/** A project as the app sees it (SPEC §3 Project). */
/**
 * Issue 14, why a project has no subtitles: no engine knows the spoken language, its engine is not installed,
 * the operator turned speech recognition off (STT=off), or recognition failed (the code is in the server's log).
 */
export const SubtitlesUnavailableReason = z.enum(["no_engine_for_language", "engine_not_installed", "speech_off", "speech_failed"]);
export const SubtitlesUnavailable = z.object({ reason: SubtitlesUnavailableReason, language: z.string() });
export type SubtitlesUnavailable = z.infer<typeof SubtitlesUnavailable>;

export const Project = ProjectSettings.extend({
  id: z.number().int(),
  name: z.string(),
  title: z.string().nullable(),
  locale: z.string().nullable(),
  status: ProjectStatus,
  failure: z.string().nullable(),
  is_new: z.union([z.literal(0), z.literal(1)]),
  is_queued: z.union([z.literal(0), z.literal(1)]),
  deleted_at: z.string().nullable(),
  thumbnailPath: z.string().nullable(),
  duration_in_seconds: z.number(),
  duration_out_seconds: z.number(),
  total_filesize: z.number(),
  scenes_count: z.number().int(),
  type: z.string(),
  cuts_project: z.union([z.literal(0), z.literal(1)]),
  audioonly: z.union([z.literal(0), z.literal(1)]),
  working_progress: z.number(),
  working_progress_raw: z.number(),
  raw_preview_render: z.union([z.literal(0), z.literal(1)]),
  export_url: z.string().nullable(),
  export_raw_url: z.string().nullable(),
  final_render: z.union([z.literal(0), z.literal(1)]),
  /** SPEC §4 Needs-render: set by any edit since the last render request, cleared by a render. */
  needs_render: z.union([z.literal(0), z.literal(1)]),
  /** The size of the render at export_url (a final render's follows the tier asked for, never above the source). */
  export_width: z.number().int().nullable().optional(),
  export_height: z.number().int().nullable().optional(),
  /** Issue 13 progress (api/progress.ts QueueEstimate): while waiting, how many projects the runner starts first. */
  queue_ahead: z.number().int().min(0).nullable().optional(),
  /** Issue 13 progress: seconds until done, only when measured; null without a basis. */
  seconds_left: z.number().min(0).nullable().optional(),
  /** SPEC §3 outputs: the video-site export (null, 'exporting' or 'done'), the video's address, and why the last one failed. */
  youtube_export: z.enum(["exporting", "done"]).nullable().optional(),
  youtubeUrl: z.string().nullable().optional(),
  youtube_error: ErrorCode.nullable().optional(),
  /** SPEC §6 sharing: the share page's privacy, its token (the owner's to hand out; null until shared or after a revoke). */
  privacy: Privacy.optional(),
  share_token: z.string().nullable().optional(),
  /** The export form's video name (null: the project's name) and description. */
  video_name: z.string().nullable().optional(),
  description: z.string().optional(),
  /** Issue 14: why the project has no subtitles (null: it has them, or nothing in it is spoken), and 1 when its lines are draft captions. */
  subtitles_unavailable: SubtitlesUnavailable.nullable().optional(),
  subtitles_draft: z.union([z.literal(0), z.literal(1)]).optional(),
  /** Issue 14: 1 while speech recognition runs after Preview Ready; the scenes get their lines (and this turns 0) when it ends. */
  subtitles_pending: z.union([z.literal(0), z.literal(1)]).optional(),
  /** Issue 14: the render's subtitle track (WebVTT, signed link) when it has lines; the preview player shows it when render_subtitle is set. */
  subtitles_track_url: z.string().nullable().optional(),
  /** Issue 16 (SPEC §6): 1 when this project's watermark-free 1080p export was bought for a one-time fee. */
  export_unlocked: z.union([z.literal(0), z.literal(1)]).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof Project>;

export const Highlights = z.object({
  removedLength: z.number(),
  jumpCutsCreated: z.number().int(),
  subtitlesLinesCount: z.number().int(),
  music: z.boolean(),
  autoduck: z.boolean(),
  audioEnhancer: z.boolean(),
  noiseCancelling: z.boolean(),
  autoPunchIn: z.boolean(),
});

/** POST /createproject: the wizard's step 2 with the uploaded files in order. */
export const CreateProjectBody = z.object({
  name: z.string().trim().min(1, { error: "required" }).max(PROJECT_NAME_MAX, { error: "too_long" }),
  title: z.string().trim().max(255, { error: "too_long" }).nullish(),
  locale: MediaLanguage,
  style: Style,
  audio_type: AudioType.default("speech"),
  autocutsilences: z.union([z.literal(0), z.literal(1)]).default(1),
  smoothcuts: z.union([z.literal(0), z.literal(1)]).default(1),
  autobgm: z.union([z.literal(0), z.literal(1)]).default(0),
  render_subtitle: z.union([z.literal(0), z.literal(1)]).default(0),
  audio_preprocessor: z.union([z.literal(0), z.literal(1)]).default(0),
  voice_booster: z.union([z.literal(0), z.literal(1)]).default(0),
  intro_seconds: z.number().min(0).max(60).default(0),
  outro_seconds: z.number().min(0).max(60).default(0),
  intro_mode: IntroOutroMode.default(""),
  outro_mode: IntroOutroMode.default(""),
  /** SPEC §3 wizard wording, §6: who may watch the project's share page; the video-site export starts from it too. */
  privacy: Privacy.default("private"),
  // A file is in a project once (issue 12 item 10: a repeated id broke a UNIQUE constraint).
  media: z
    .array(z.number().int())
    .min(1, { error: "required" })
    .max(200)
    .refine((ids) => new Set(ids).size === ids.length, { error: "invalid" }),
});
export type CreateProjectBody = z.input<typeof CreateProjectBody>;

export const ProjectId = z.object({ id: z.coerce.number().int().positive() });
export const ProjectsQuery = z.object({ page: z.coerce.number().int().min(1).optional(), count: z.coerce.number().int().optional() });
export const ProjectCount = z.object({ count: z.number().int() });
export const RenderBody = z.object({
  final: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean).default(false),
  locale: z.string().nullish(),
  aspect: z.enum(["", "16x9", "9x16", "1x1"]).nullish(),
  /** SPEC §9 export resolutions: 720p (1), 1080p (2), 4k (4). Absent: 1080p when the plan has it, else 720p. */
  tier: z.union([z.literal(1), z.literal(2), z.literal(4)]).optional(),
  exportvideo: z.union([z.literal(0), z.literal(1)]).default(1),
  /** With an aspect: fill it by cropping (following the framing) rather than fitting with bars. Absent: the project's autocrop. */
  crop: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean).optional(),
  /** SPEC §3 Export options: the video's name (download file name, share page title), description and share privacy. */
  name: VideoName.optional(),
  description: VideoDescription.optional(),
  privacy: Privacy.optional(),
});

/** SPEC §5: mute_videos and render_notifications arrive as booleans or numbers and are stored as 1 or 0. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v): 0 | 1 => (v ? 1 : 0));
export const ProjectUpdateBody = ProjectSettings.partial().extend({
  name: CreateProjectBody.shape.name.optional(),
  mute_videos: flag.optional(),
  render_notifications: flag.optional(),
});

export const RecreateStoryboardBody = z.object({
  autocutsilences: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v): 0 | 1 => (v ? 1 : 0)),
  smoothcuts: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v): 0 | 1 => (v ? 1 : 0)),
  removefillers: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v): 0 | 1 => (v ? 1 : 0)).optional(),
});
export const ResetVolumesQuery = z.object({ autoduck: z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1") });

/** POST /projects/{id}/library/import: scenes (or whole projects) from the library, inserted at a 1-based position. */
export const ImportBody = z
  .object({
    order: z.number().int().min(1),
    scenes: z.array(z.number().int()).max(2000).default([]),
    /** Whole projects: each brings its shown scenes in order (selecting a project replaces picking its scenes). */
    projects: z.array(z.number().int()).max(100).default([]),
  })
  .refine((b) => b.scenes.length + b.projects.length > 0, { error: "required", path: ["scenes"] });

/** POST /projects/{id}/library/import/overscene: one library scene over the project's scene `sceneid`. */
export const OverlayImportBody = z.object({
  sceneid: z.number().int(),
  scenes: z.array(z.number().int()).length(1, { error: "overlay_needs_one_scene" }),
  overscene_type: z.enum(["fullscrn", "autozoom", "pip_tl", "pip_tr", "pip_bl", "pip_br"]).default("pip_br"),
});

/** SPEC §3 Clips project request. */
export const CutsBody = z.object({
  name: CreateProjectBody.shape.name,
  final: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v): 0 | 1 => (v ? 1 : 0)).default(1),
  scenes: z.array(z.number().int()).min(1, { error: "required" }).max(2000),
  aspect: z.enum(["", "16x9", "9x16", "1x1"]).nullish().transform((v) => v ?? ""),
  autocrop: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v): 0 | 1 => (v ? 1 : 0)).default(1),
});
export const CutsResponse = z.object({ status: z.literal("success"), cutsproject_id: z.number().int() });
