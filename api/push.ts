import { z } from "zod";

/** base64url without padding, as `PushSubscription.toJSON()` gives the keys. */
const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+=*$/, "invalid");

/** What `PushSubscription.toJSON()` gives in the browser, plus a label for the device. */
export const PushSubscribeBody = z.object({
  endpoint: z.string().max(2048).url().refine((u) => u.startsWith("https://"), "invalid"),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(255), auth: base64url(255) }),
  device: z.string().trim().max(255).optional(),
});
export type PushSubscribeBody = z.infer<typeof PushSubscribeBody>;

export const PushUnsubscribeBody = z.object({ endpoint: z.string().max(2048) });

export const PushSubscriptionInfo = z.object({
  endpoint: z.string(),
  device: z.string().nullable(),
  created_at: z.string(),
});

export const PushUnsubscribed = z.object({ removed: z.boolean() });

export const PushKind = z.enum(["preview_ready", "render_ready", "render_failed"]);
export type PushKind = z.infer<typeof PushKind>;

/** The JSON a render notification carries; the service worker shows it and refreshes the project. */
export const PushPayload = z.object({
  title: z.string(),
  body: z.string(),
  /** App path to open: the storyboard (previews, failures) or the share view (final renders). */
  url: z.string(),
  projectId: z.number().int(),
  kind: PushKind,
  /** `project-<id>`: a newer notification of a project replaces the older one. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof PushPayload>;
