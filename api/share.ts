import { z } from "zod";
import { PROJECT_NAME_MAX } from "./limits";

/** SPEC §6 "Project sharing is private, public or unlisted"; §9 Privacy. */
export const PRIVACIES = ["private", "unlisted", "public"] as const;
export const Privacy = z.enum(PRIVACIES);
export type Privacy = z.infer<typeof Privacy>;

/** The export form's description (the share page's text, later the video site's): YouTube's own limit. */
export const VIDEO_DESCRIPTION_MAX = 5000;

/** The export form's video name: the download's file name and the share page's title, as long as a project name. */
export const VideoName = z.string().trim().min(1, { error: "required" }).max(PROJECT_NAME_MAX, { error: "too_long" });
export const VideoDescription = z.string().trim().max(VIDEO_DESCRIPTION_MAX, { error: "too_long" });

/** PUT /projects/{id}/share: the share page's privacy, and optionally its title and text. */
export const ShareBody = z.object({
  privacy: Privacy,
  name: VideoName.optional(),
  description: VideoDescription.optional(),
});
export type ShareBody = z.input<typeof ShareBody>;

/** A share token as it appears in a link; anything else is simply not found. */
export const ShareToken = z.object({ token: z.string().max(200) });

/** A subtitle track of the watch page (subtitles arrive with issue 14; until then the list is empty). */
export const ShareTrack = z.object({ locale: z.string(), label: z.string(), url: z.string() });

/**
 * GET /share/{token}: only what the watch page shows — the video's title, text and a short-lived signed link
 * to the final render. Nothing about the owner or their other projects.
 */
export const SharePage = z.object({
  name: z.string(),
  description: z.string(),
  privacy: Privacy,
  video: z.object({
    url: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    duration_seconds: z.number(),
  }),
  poster: z.string().nullable(),
  tracks: z.array(ShareTrack),
});
export type SharePage = z.infer<typeof SharePage>;

/** Where a share token's watch page lives in the app (outside the signed-in layout). */
export const watchPath = (token: string) => `/watch/${token}`;
