import type { Db } from "../db";
import { findProject } from "../db/projects";
import { loadRenderEdit } from "../jobs/render-edit";
import { planRender, RENDER_DEFAULTS, EmptyEditListError } from "../media/render-plan";
import { MAX_INPUTS_PER_PASS, pictureChunks } from "../media/render";
import { renderSourceFrames, TIMELINE_CONTENT_TYPES, timelineFile, timelineOf, type SourceInfo, type TimelineFormat } from "../media/timelines";
import type { FileStore } from "../storage/local";
import { TIER_SIZES } from "../domain/export-tiers";
import { DomainError, notFound } from "./errors";
import { safeFileName } from "./file-links";

/**
 * The timeline's canvas: the size of the final render when there is one, else the footage's own size
 * (never scaled up, at most 4k) — a desktop editor works from the original media, not the 720p preview.
 */
function canvasLimits(project: { final_render: number; export_width: number | null; export_height: number | null }) {
  if (project.final_render && project.export_width && project.export_height) {
    return { maxShortSide: Math.min(project.export_width, project.export_height), maxLongSide: Math.max(project.export_width, project.export_height) };
  }
  return TIER_SIZES[4];
}

/** Statuses while the storyboard is being made (or rebuilt): there is no edit to export yet. */
const BUILDING = new Set(["new", "Working"]);

/**
 * The project's edit as a timeline file for a desktop editor (issue 13): planned exactly as the
 * render plans it (same frame rate, sample rate, canvas, frame rounding), each clip naming the
 * original media file. The owner's projects only; another user's is not found.
 */
export function projectTimelines(db: Db, store: FileStore) {
  return {
    async file(userId: number, id: number, format: TimelineFormat) {
      const project = await findProject(db, userId, id);
      if (!project || project.deleted_at) throw notFound("No such project");
      if (project.type === "library") throw new DomainError("bad_request", "A library item has no edit; insert its scenes into a project");
      if (BUILDING.has(project.status)) throw new DomainError("project_busy", "This project has no storyboard yet");
      const { edit, probes } = await loadRenderEdit(db, store, project);
      const settings = JSON.parse(project.settings) as { smoothcuts?: number };
      let plan;
      try {
        plan = planRender(edit.segments, probes, {
          fps: RENDER_DEFAULTS.fps,
          sampleRate: RENDER_DEFAULTS.sampleRate,
          // As the render job asks for it (pipeline.ts renderPreview → media/render.ts): the crossfades move where runs are seeked.
          crossfadeSamples: settings.smoothcuts ? Math.round(RENDER_DEFAULTS.crossfadeSeconds * RENDER_DEFAULTS.sampleRate) : 0,
          ...canvasLimits(project),
          aspect: edit.aspect,
        }, edit.overlays);
      } catch (error) {
        if (error instanceof EmptyEditListError) throw new DomainError("nothing_to_render", "Every scene is hidden; show at least one scene first");
        throw error;
      }
      const media = await db
        .selectFrom("media_files")
        .select(["storage_key", "name", "duration_seconds"])
        .where("user_id", "=", userId)
        .where("id", "in", db.selectFrom("scenes").select("media_file_id").where("project_id", "=", project.id))
        .execute();
      const sources = new Map<string, SourceInfo>();
      for (const m of media) {
        const file = store.pathOf(m.storage_key);
        const info = probes.get(file);
        if (info) sources.set(file, { name: m.name, durationSeconds: info.durationSeconds || m.duration_seconds });
      }
      const chunked = pictureChunks(plan, MAX_INPUTS_PER_PASS).length > 0;
      const timeline = timelineOf(plan, sources, project.name, renderSourceFrames(plan, chunked));
      return { fileName: safeFileName(project.name, format), contentType: TIMELINE_CONTENT_TYPES[format], body: timelineFile(timeline, format) };
    },
  };
}

export type ProjectTimelines = ReturnType<typeof projectTimelines>;
