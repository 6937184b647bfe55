import { z } from "zod";
import { LOCALES } from "./locales";

/** Text of a feed entry: one string for every language, or one per interface language (en is the fallback). */
const Localised = (max: number) =>
  z.union([z.string().trim().min(1).max(max), z.partialRecord(z.enum(LOCALES), z.string().trim().min(1).max(max)).refine((v) => !!v.en, { error: "needs an en text" })]);

/** One entry of an operator's home feed (HOME_FEED), as the file or URL gives it. */
export const HomeFeedEntrySource = z.object({
  id: z.string().trim().min(1).max(64),
  kind: z.enum(["tip", "update"]),
  title: Localised(140),
  body: Localised(600),
  /** A page to read more (https only); shown as a link, never fetched by the app. */
  url: z.url({ protocol: /^https$/ }).max(500).optional(),
});

/** The operator's feed file: at most 12 entries, shown in this order. */
export const HomeFeedSource = z.object({ entries: z.array(HomeFeedEntrySource).min(1).max(12) });

/** GET /home/feed: the entries in the user's language; null entries: the posts shipped with the app. */
export const HomeFeed = z.object({
  entries: z
    .array(z.object({ id: z.string(), kind: z.enum(["tip", "update"]), title: z.string(), body: z.string(), url: z.string().nullable() }))
    .nullable(),
});
export type HomeFeed = z.infer<typeof HomeFeed>;
