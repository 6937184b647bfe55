import { z } from "zod";
import { MediaLanguage } from "./locales";

export const MediaKind = z.enum(["video", "audio", "image"]);
export type MediaKind = z.infer<typeof MediaKind>;

/** A file in the user's media library (SPEC §3 Media file). */
export const MediaFile = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: MediaKind,
  type: z.string(),
  duration: z.number(),
  size: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  language: z.string().nullable(),
  has_speech: z.union([z.literal(0), z.literal(1)]),
  status: z.enum(["processing", "ready", "failed"]),
  progress: z.number(),
  raw_preview_render: z.union([z.literal(0), z.literal(1)]),
  thumbnail_url: z.string().nullable(),
  preview_url: z.string().nullable(),
  created_at: z.string(),
});
export type MediaFile = z.infer<typeof MediaFile>;

/** The only form of upload id the server mints (a tus upload): `<owner's user id>-<uuid v4>`. */
export const UPLOAD_ID_PATTERN = /^[1-9]\d{0,15}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** POST /library (SPEC §3 Library upload record): turns a finished upload into a library file. */
export const LibraryCreateBody = z.object({
  media_file: z.string().max(200).regex(UPLOAD_ID_PATTERN, { error: "invalid" }),
  name: z.string().trim().min(1, { error: "required" }).max(255, { error: "too_long" }),
  locale: MediaLanguage.nullable(),
  process: z.union([z.literal(0), z.literal(1)]).default(1),
  has_speech: z.union([z.literal(0), z.literal(1)]),
  /** Intro and outro files are tagged so the project places them first and last. */
  role: z.enum(["main", "intro", "outro"]).default("main"),
});
export type LibraryCreateBody = z.input<typeof LibraryCreateBody>;

export const LibraryCreateResponse = z.object({ status: z.literal("success"), media_file: MediaFile });

/** POST /signeds3 (SPEC §7, STORAGE=s3): a presigned POST straight to the bucket, for one file of this extension. */
export const SignedS3Body = z.object({ extension: z.string().trim().regex(/^\.?[A-Za-z0-9]{1,8}$/, { error: "invalid" }) });
/**
 * `postEndpoint` takes a multipart/form-data POST of every `signature` field, then the file as `file`;
 * `signature.key` is then the upload id to add with POST /library (`media_file`).
 */
export const SignedS3Response = z.object({ postEndpoint: z.string().url(), signature: z.record(z.string(), z.string()) });

export const LibraryListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  type: MediaKind.optional(),
});

export const Paginated = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), current_page: z.number().int(), last_page: z.number().int(), total: z.number().int() });

/**
 * An item of the media library page (SPEC §2 Media library): every upload is a library-type
 * project holding its file's scenes; the "scenes" tab lists the user's own projects.
 */
export const LibraryItem = z.object({
  /** The project id: its scenes are GET /library/projects/{id}/scenes. */
  id: z.number().int(),
  name: z.string(),
  /** 'library' for an uploaded file (removable), 'project' for an edited project. */
  type: z.enum(["library", "project"]),
  kind: MediaKind.nullable(),
  media_file_id: z.number().int().nullable(),
  duration: z.number(),
  scenes_count: z.number().int(),
  thumbnail_url: z.string().nullable(),
  /** The raw preview a scene preview plays from trim_start_raw to trim_end_raw. */
  preview_url: z.string().nullable(),
  raw_preview_render: z.union([z.literal(0), z.literal(1)]),
  /** 0…100; only items at 100 with raw_preview_render 1 can be selected. */
  progress: z.number(),
  /** Other projects that use this file: such a file cannot be removed. */
  used_in_projects: z.number().int(),
  created_at: z.string(),
});
export type LibraryItem = z.infer<typeof LibraryItem>;

export const LibraryTab = z.enum(["video", "audio", "image", "scenes"]);
export type LibraryTab = z.infer<typeof LibraryTab>;

/** GET /library/projects/search: an empty query lists everything of the tab. */
export const LibrarySearchQuery = z.object({
  query: z.string().max(140).default(""),
  page: z.coerce.number().int().min(1).default(1),
  type: LibraryTab.default("video"),
});
export const LibraryScenesQuery = z.object({ page: z.coerce.number().int().min(1).default(1) });
/** GET /library/projects/{id}/search: scenes whose text contains the query; empty lists them all. */
export const LibraryProjectSearchQuery = z.object({ query: z.string().max(140).default(""), page: z.coerce.number().int().min(1).default(1) });
/** Library lists are pages of this many items. */
export const LIBRARY_PAGE_SIZE = 24;
