import { z } from "zod";

/** SPEC §7 "Other interactions": the product events, by their names in the analytics sink. */
export const ANALYTICS_EVENTS = [
  "Project Preview Opened",
  "Project Scene Split",
  "Project Opened",
  "Project Deleting Started",
  "Project Unqueue Started",
  "Lifetime Deal Buy Now Clicked",
  "Sign Up",
  "Registration Conversion",
] as const;
export const AnalyticsEvent = z.enum(ANALYTICS_EVENTS);
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

/**
 * POST /events: one product event. Only what counts need: no user, project or e-mail; the page's path has its ids
 * replaced on the server. Properties are a closed list.
 */
export const TrackBody = z.object({
  name: AnalyticsEvent,
  path: z.string().max(300).startsWith("/"),
  props: z
    .object({
      /** Lifetime tier clicked (ltd_tier1…3). */
      tier: z.string().regex(/^[a-z0-9_]{1,32}$/).optional(),
      /** How the account was made (email). */
      method: z.enum(["email"]).optional(),
      /** The sign-up came through a referral link. */
      referred: z.boolean().optional(),
      /** How a scene was split: at a position or by a text line. */
      split: z.enum(["position", "line"]).optional(),
    })
    .strict()
    .default({}),
});
export type TrackBody = z.input<typeof TrackBody>;
export const Tracked = z.object({ accepted: z.boolean() });
