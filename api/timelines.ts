import { z } from "zod";

/** Timelines for desktop editors (issue 13): Final Cut Pro / DaVinci Resolve XML, OpenTimelineIO, CMX 3600 EDL. */
export const TimelineFormat = z.enum(["fcpxml", "otio", "edl"]);
export type TimelineFormat = z.infer<typeof TimelineFormat>;

export const TimelineQuery = z.object({ format: TimelineFormat });

/** The file itself (answered as an attachment, not JSON). */
export const TimelineFile = z.string();
