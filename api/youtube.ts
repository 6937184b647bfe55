import { z } from "zod";

/** SPEC §9 Privacy, as YouTube names it (status.privacyStatus). */
export const VIDEO_SITE_PRIVACY = ["public", "private", "unlisted"] as const;
export const VideoSitePrivacy = z.enum(VIDEO_SITE_PRIVACY);
export type VideoSitePrivacy = z.infer<typeof VideoSitePrivacy>;

/** YouTube's own limits: a title of at most 100 characters, a description of at most 5000 bytes, neither with < or >. */
export const VIDEO_SITE_TITLE_MAX = 100;
export const VIDEO_SITE_DESCRIPTION_MAX_BYTES = 5000;
const noAngleBrackets = (value: string) => !/[<>]/.test(value);

/** SPEC §3 Video-site export form, §5: title, description and privacy, all required (non-empty). */
export const VideoSiteExportBody = z.object({
  title: z
    .string({ error: "required" })
    .trim()
    .min(1, { error: "required" })
    .max(VIDEO_SITE_TITLE_MAX, { error: "too_long" })
    .refine(noAngleBrackets, { error: "invalid" }),
  description: z
    .string({ error: "required" })
    .trim()
    .min(1, { error: "required" })
    .refine((v) => new TextEncoder().encode(v).length <= VIDEO_SITE_DESCRIPTION_MAX_BYTES, { error: "too_long" })
    .refine(noAngleBrackets, { error: "invalid" }),
  privacy: z.enum(VIDEO_SITE_PRIVACY, { error: "required" }),
});
export type VideoSiteExportBody = z.input<typeof VideoSiteExportBody>;

/** The user's link to YouTube: whether this server can export there at all, and whether this user connected. */
export const YoutubeConnection = z.object({
  /** False when the server has no YouTube client credentials (SPEC: "temporarily unavailable"). */
  available: z.boolean(),
  connected: z.boolean(),
  /** The channel the videos go to, as YouTube names it; null when unknown or not connected. */
  channel: z.string().nullable(),
});
export type YoutubeConnection = z.infer<typeof YoutubeConnection>;

/** Where to send the user to allow Cutroom to upload (Google's consent page, opened in a new window). */
export const YoutubeConnectLink = z.object({ url: z.string() });
