import type { z } from "zod";
import type { Db } from "../db";
import { filesInProjects, findMedia, queuedProjectsOf } from "../db/media";
import { projectChargeMinutes, queuedProjectsCap } from "../domain/quotas";
import { findProject, FRESH_PROJECT, insertProject, listProjects, projectMedia, updateProject, type ProjectRow } from "../db/projects";
import type { CreateProjectBody, Project, ProjectSettings, RenderBody } from "../../api/projects";
import { BUSY_STATUSES, SubtitlesUnavailable } from "../../api/projects";
import { applySettingsRules, DEFAULT_SETTINGS } from "../domain/project-settings";
import { buildStoryboard } from "./storyboard-builder";
import { projectSubtitlesFile, trackKeyOf, type SubtitlesFormat } from "./subtitles";
import { allowedTiers, exportTier, type ExportTier } from "../domain/export-tiers";
import { projectExportRights } from "../../api/export-tiers";
import type { JobPayloads, JobType } from "../jobs/types";
import { safeFileName, type FileLinks } from "./file-links";
import type { ShareTokens } from "./share-tokens";
import type { Privacy } from "../../api/share";
import type { FileStore } from "../storage/local";
import type { Library } from "./library";
import { DomainError, mustNotBeFinished, notFound } from "./errors";
import { findSong } from "../db/songs";
import { queueEstimates, type QueueSnapshotSource } from "./progress";
import { youtubeWatchUrl } from "./youtube/watch-url";

export const PROJECTS_PAGE_SIZE = 20;
const TIER_NAMES: Record<ExportTier, string> = { 1: "720p", 2: "1080p", 4: "4k" };

/** Features a render applied; the pipeline records them with each render. */
export interface AppliedFeatures {
  music: boolean;
  autoduck: boolean;
  audioEnhancer: boolean;
  noiseCancelling: boolean;
  autoPunchIn: boolean;
  /** Issue 15: the song the render's music bed was made of (its attribution), when one was mixed in. */
  music_song_id?: number;
}
export const PAID_PRIORITY = 10;
export const FREE_PRIORITY = 0;

/** What the projects service needs of the job queue. */
export interface ProjectQueue {
  /** `owner` is the user the job works for: the runner takes turns between users within a priority. */
  enqueue<T extends JobType>(type: T, payload: JobPayloads[T], options: { id?: string; priority: number; group: string; owner: string }): Promise<unknown>;
  cancelGroup(group: string): Promise<number>;
  /** A job's state (the queue's own store: the jobs table, or Redis in scale mode); without it, the jobs table is read. */
  get?(id: string): Promise<{ status: string } | undefined>;
}

export interface ProjectsDeps {
  db: Db;
  queue: ProjectQueue;
  links: FileLinks;
  isPaid: (userId: number) => Promise<boolean>;
  /** The plan's video_tier and whether its final renders carry the watermark (accounts.renderRights). */
  renderRights: (userId: number) => Promise<{ videoTier: number; watermark: boolean }>;
  /** Refuses (email_not_verified) a user whose address is not verified: nothing is processed for them. */
  mustBeVerified: (userId: number) => Promise<void>;
  /** A library-type project is its file: renaming or deleting it renames or removes the file. */
  library: Pick<Library, "renameItem" | "removeItem">;
  /** A deleted project's renders and previews are removed from it. */
  store: Pick<FileStore, "remove" | "pathOf" | "exists" | "commit" | "list">;
  /** What the user has left of the plan: a new project is charged its processing minutes. */
  quotas: (userId: number) => Promise<{ processingMinutes: number }>;
  /** The job runner's slots (JOB_CONCURRENCY), for a queued project's time left; 1 when not told. */
  /** The queue's own snapshot for estimates when it is not the jobs table (issue 19, BullMQ). */
  queueSnapshot?: QueueSnapshotSource;
  concurrency?: number;
  /** Share links (SPEC §6): the owner sees the project's link, derived from its stored nonce. */
  shares: ShareTokens;
}

export const projectGroup = (projectId: number) => `project:${projectId}`;
/** Every file a project's renders make (previews, final renders) lives under this prefix of the store. */
export const projectFolder = (userId: number, projectId: number) => `projects/${userId}/${projectId}`;
const bit = (v: unknown): 0 | 1 => (v ? 1 : 0);

/** Issue 14: why a project has no subtitles, as the pipeline recorded it (null: it has them, or nothing is spoken). */
function subtitlesUnavailableOf(row: ProjectRow): SubtitlesUnavailable | null {
  if (!row.subtitles_unavailable) return null;
  const parsed = SubtitlesUnavailable.safeParse(JSON.parse(row.subtitles_unavailable));
  return parsed.success ? parsed.data : null;
}

export function createProjects(deps: ProjectsDeps) {
  const { db } = deps;

  function settingsOf(row: ProjectRow): ProjectSettings {
    const stored = JSON.parse(row.settings) as Partial<ProjectSettings>;
    // A project saved before a subtitle setting existed (shadow colour, embedded language) gets its default.
    return { ...DEFAULT_SETTINGS, ...stored, font: { ...DEFAULT_SETTINGS.font, ...stored.font } };
  }

  function toProject(row: ProjectRow): Project {
    return {
      ...settingsOf(row),
      id: row.id,
      name: row.name,
      title: row.title,
      locale: row.locale,
      status: row.status as Project["status"],
      failure: row.failure,
      is_new: bit(row.is_new),
      is_queued: bit(row.is_queued),
      deleted_at: row.deleted_at,
      thumbnailPath: row.thumbnail_key ? deps.links.url(row.thumbnail_key) : null,
      duration_in_seconds: row.duration_in_seconds,
      duration_out_seconds: row.duration_out_seconds,
      total_filesize: Number(row.total_filesize),
      scenes_count: row.scenes_count,
      type: row.type,
      cuts_project: bit(row.cuts_project),
      audioonly: bit(row.audioonly),
      working_progress: row.working_progress,
      working_progress_raw: row.working_progress_raw,
      raw_preview_render: bit(row.raw_preview_render),
      export_url: row.export_key ? deps.links.url(row.export_key) : null,
      export_raw_url: row.raw_preview_key ? deps.links.url(row.raw_preview_key) : null,
      final_render: bit(row.final_render),
      needs_render: bit(row.needs_render),
      export_width: row.export_width ?? null,
      export_height: row.export_height ?? null,
      youtube_export: row.youtube_export === "exporting" || row.youtube_export === "done" ? row.youtube_export : null,
      youtubeUrl: row.youtube_video_id ? youtubeWatchUrl(row.youtube_video_id) : null,
      youtube_error: (row.youtube_error as Project["youtube_error"]) ?? null,
      privacy: (row.privacy ?? "private") as Privacy,
      share_token: row.share_nonce ? deps.shares.tokenOf(row.id, row.share_nonce) : null,
      video_name: row.video_name ?? null,
      description: row.description ?? "",
      subtitles_unavailable: subtitlesUnavailableOf(row),
      subtitles_draft: bit(row.subtitles_draft ?? 0),
      subtitles_pending: bit(row.subtitles_pending ?? 0),
      subtitles_track_url: row.export_key && row.subtitles_lines_count > 0 ? deps.links.url(trackKeyOf(row.export_key)) : null,
      export_unlocked: row.export_unlocked_at ? 1 : 0,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async function mustFind(userId: number, id: number): Promise<ProjectRow> {
    const row = await findProject(db, userId, id);
    if (!row) throw notFound("No such project");
    return row;
  }

  /** Deterministic ids (the queue's default) dedupe; `id` only where two payloads must share one job. */
  async function queueJob<T extends JobType>(row: ProjectRow, type: T, payload: JobPayloads[T], id?: string) {
    // Every route that queues work is checked before it changes anything; this is the last line.
    await deps.mustBeVerified(row.user_id);
    const priority = (await deps.isPaid(row.user_id)) ? PAID_PRIORITY : FREE_PRIORITY;
    await deps.queue.enqueue(type, payload, { ...(id ? { id } : {}), priority, group: projectGroup(row.id), owner: String(row.user_id) });
  }

  /** Library items hold an upload's scenes to pick from; they are never queued, rendered or reopened. */
  const notLibrary = (row: ProjectRow) => {
    if (row.type === "library") throw new DomainError("bad_request", "A library item is not rendered; insert its scenes into a project");
  };

  const isBusy = (row: ProjectRow) => (BUSY_STATUSES as readonly string[]).includes(row.status) || row.is_queued === 1;

  /** At most queuedProjectsCap(paid) projects of one user wait or work at once (issue 12 item 6). */
  async function mustHaveQueueRoom(userId: number) {
    const cap = queuedProjectsCap(await deps.isPaid(userId));
    if ((await queuedProjectsOf(db, userId, BUSY_STATUSES)) >= cap) {
      throw new DomainError("too_many_queued", `You already have ${cap} projects waiting or in progress; start another when one has finished`);
    }
  }

  return {
    toProject,
    settingsOf,
    mustBeVerified: deps.mustBeVerified,

    async create(userId: number, body: z.output<typeof CreateProjectBody>): Promise<Project> {
      await deps.mustBeVerified(userId);
      const media = [];
      for (const id of body.media) {
        const row = await findMedia(db, userId, id);
        if (!row) throw notFound(`No such media file ${id}`);
        if (row.status === "failed") throw new DomainError("media_unreadable", "Uploaded file may be corrupted or not be compatible");
        media.push(row);
      }
      // Intro first, outro last, the rest in the order given (SPEC §2 wizard).
      const rank = (type: string) => (type === "intro" ? 0 : type === "outro" ? 2 : 1);
      const ordered = media.map((m, i) => ({ m, i })).sort((a, b) => rank(a.m.type) - rank(b.m.type) || a.i - b.i);
      await mustHaveQueueRoom(userId);
      // Charged what it processes (domain/quotas.ts projectChargeMinutes: a file's first project is its upload's).
      const earlier = await filesInProjects(db, userId, media.map((m) => m.id));
      const minutes = projectChargeMinutes(media.map((m) => ({ kind: m.kind, durationSeconds: m.duration_seconds, inEarlierProject: earlier.has(m.id) })));
      if (minutes > (await deps.quotas(userId)).processingMinutes) throw new DomainError("not_enough_minutes", "Not enough processing minutes");
      const now = new Date().toISOString();
      const settings: ProjectSettings = applySettingsRules({
        ...DEFAULT_SETTINGS,
        style: body.style,
        audio_type: body.audio_type,
        autocutsilences: body.autocutsilences,
        smoothcuts: body.smoothcuts,
        autobgm: body.autobgm,
        render_subtitle: body.render_subtitle,
        audio_preprocessor: body.audio_preprocessor,
        voice_booster: body.audio_preprocessor ? body.voice_booster : 0,
        intro_seconds: body.intro_seconds,
        outro_seconds: body.outro_seconds,
        intro_mode: body.intro_mode,
        outro_mode: body.outro_mode,
      });
      const row = await db.transaction().execute(async (trx) => {
        const project = await insertProject(trx, {
          user_id: userId,
          name: body.name,
          title: body.title ?? null,
          locale: body.locale,
          privacy: body.privacy,
          type: "project",
          status: "new",
          failure: null,
          is_new: 1,
          is_queued: 1,
          cuts_project: 0,
          audioonly: ordered.every(({ m }) => m.kind === "audio") ? 1 : 0,
          thumbnail_key: ordered.find(({ m }) => m.thumbnail_key)?.m.thumbnail_key ?? null,
          duration_in_seconds: ordered.reduce((sum, { m }) => sum + m.duration_seconds, 0),
          ...FRESH_PROJECT,
          total_filesize: ordered.reduce((sum, { m }) => sum + Number(m.size_bytes), 0),
          settings: JSON.stringify(settings),
          created_at: now,
          updated_at: now,
        });
        await trx
          .insertInto("project_media")
          .values(ordered.map(({ m }, position) => ({ project_id: project.id, media_file_id: m.id, position, role: rank(m.type) === 0 ? "intro" : rank(m.type) === 2 ? "outro" : "main" } as const)))
          .execute();
        return project;
      });
      await queueJob(row, "create-project", { projectId: row.id });
      return toProject(row);
    },

    async list(userId: number, page: number) {
      const { rows, total } = await listProjects(db, userId, page, PROJECTS_PAGE_SIZE);
      // Busy ones with their queue position and time left (issue 13), as GET /projects/{id} gives them.
      const estimates = await queueEstimates(db, rows, { concurrency: deps.concurrency ?? 1, source: deps.queueSnapshot });
      return { data: rows.map((row) => ({ ...toProject(row), ...estimates.get(row.id) })), current_page: page, last_page: Math.max(1, Math.ceil(total / PROJECTS_PAGE_SIZE)), total };
    },

    async count(userId: number) {
      const { total } = await listProjects(db, userId, 1, 1);
      return { count: total };
    },

    /** With its queue position and time left while busy (issue 13), so the 60 s poll shows them too. */
    async get(userId: number, id: number): Promise<Project> {
      const row = await mustFind(userId, id);
      return { ...toProject(row), ...(await queueEstimates(db, [row], { concurrency: deps.concurrency ?? 1, source: deps.queueSnapshot })).get(row.id) };
    },

    /** What the automatic edit did: flags come from what the render applied, not from what was asked. */
    async highlights(userId: number, id: number) {
      const row = await mustFind(userId, id);
      const applied = JSON.parse(row.applied_features) as Partial<AppliedFeatures>;
      return {
        removedLength: row.removed_length,
        jumpCutsCreated: row.jump_cuts_created,
        subtitlesLinesCount: row.subtitles_lines_count,
        music: !!applied.music,
        autoduck: !!applied.autoduck,
        audioEnhancer: !!applied.audioEnhancer,
        noiseCancelling: !!applied.noiseCancelling,
        autoPunchIn: !!applied.autoPunchIn,
      };
    },

    async update(userId: number, id: number, body: Partial<ProjectSettings> & { name?: string }) {
      const row = await mustFind(userId, id);
      if (row.deleted_at) throw notFound("No such project");
      const { name, ...changes } = body;
      const settingsChange = Object.values(changes).some((v) => v !== undefined);
      // SPEC §4: a finished project's Options are read-only until reopened; its name is not an Option.
      if (settingsChange) mustNotBeFinished(row);
      if (row.type === "library" && name && name !== row.name) await deps.library.renameItem(row, name);
      // A song must be one the server has (GET /bgms); an unknown id would leave the render nothing to play.
      if (typeof changes.bgm_id === "number" && changes.bgm_id !== settingsOf(row).bgm_id && !(await findSong(db, changes.bgm_id))) {
        throw new DomainError("validation_failed", "No such song", { bgm_id: "invalid" });
      }
      const settings = applySettingsRules({ ...settingsOf(row), ...changes });
      // The project's footage volume (Options) moves the scenes that follow it — those still at its old level — as
      // the music level does; a scene given its own level keeps it (issue 17 audit: it changed no render before).
      const footageFrom = settingsOf(row).mediaAudio;
      if (changes.mediaAudio && changes.mediaAudio !== footageFrom) {
        await db.updateTable("scenes").set({ media_audio: changes.mediaAudio }).where("project_id", "=", id).where("media_audio", "=", footageFrom).execute();
      }
      // SPEC §4 Needs-render: any settings change; a pure rename is not one.
      const needsRender = settingsChange ? { needs_render: 1 } : {};
      return toProject(await updateProject(db, id, { settings: JSON.stringify(settings), ...(name ? { name } : {}), ...needsRender }));
    },

    async remove(userId: number, id: number) {
      const row = await mustFind(userId, id);
      if (row.deleted_at) return toProject(row);
      if (row.type === "library") {
        await deps.library.removeItem(row);
        return toProject((await findProject(db, userId, id))!);
      }
      // Its jobs stop (a render finishing in another process checks the row and removes what it made),
      // then its renders go: an old signed link answers 404 from now on.
      await deps.queue.cancelGroup(projectGroup(id));
      const deleted = await updateProject(db, id, { deleted_at: new Date().toISOString(), is_queued: 0, export_key: null, share_nonce: null, share_token_hash: null });
      await deps.store.remove(projectFolder(row.user_id, id));
      // Its subtitle sets go with it (issue 14); the rows' foreign key also cascades if the row itself is removed.
      await db.deleteFrom("subtitle_sets").where("project_id", "=", id).execute();
      return toProject(deleted);
    },

    /** Out of the queue before it started: it can be restarted or deleted (SPEC §4). */
    async dequeue(userId: number, id: number) {
      const row = await mustFind(userId, id);
      notLibrary(row);
      if (!row.is_queued) throw new DomainError("project_busy", "This project is not waiting in the queue");
      await deps.queue.cancelGroup(projectGroup(id));
      return toProject(await updateProject(db, id, { is_queued: 0, status: "Not Started", working_progress: 0 }));
    },

    async restart(userId: number, id: number) {
      const row = await mustFind(userId, id);
      notLibrary(row);
      await deps.mustBeVerified(userId);
      if (row.deleted_at || !["Not Started", "Failed"].includes(row.status)) throw new DomainError("project_busy", "Only a project that did not start or failed can be restarted");
      await mustHaveQueueRoom(userId);
      const updated = await updateProject(db, id, { is_queued: 1, status: "new", failure: null, working_progress: 0 });
      await queueJob(updated, "create-project", { projectId: id });
      return toProject(updated);
    },

    async render(userId: number, id: number, body: z.output<typeof RenderBody>) {
      const row = await mustFind(userId, id);
      notLibrary(row);
      await deps.mustBeVerified(userId);
      if (row.deleted_at) throw notFound("No such project");
      if (isBusy(row)) throw new DomainError("project_busy", "This project is busy");
      // Refused here rather than failing in the queue: a render needs at least one shown scene.
      const shown = await db.selectFrom("scenes").select("id").where("project_id", "=", id).where("parent_scene_id", "is", null).where("visibility", "=", 1).limit(1).executeTakeFirst();
      if (!shown) throw new DomainError("nothing_to_render", "Every scene is hidden; show at least one scene first");
      // A final render is made at the tier asked for, which the plan must include (SPEC §5 Export, §6);
      // a preview is always 720p and never watermarked.
      let finalOptions: Pick<JobPayloads["render"], "tier" | "aspect" | "watermark" | "crop"> = {};
      // SPEC §3 Export options: the video's name, description and share privacy are kept with the project.
      let exportOptions: Partial<Pick<ProjectRow, "video_name" | "description" | "privacy" | "share_nonce" | "share_token_hash">> = {};
      // SPEC §7 exportvideo 0 asks for a final export without its video. Cutroom's only other export output is
      // the subtitles, which any Preview Ready project with lines offers already (Download subtitles), so a
      // final export always makes the video and says so rather than finishing the project with nothing new.
      if (body.final && body.exportvideo === 0) throw new DomainError("nothing_to_export", "A final export always makes the video; the subtitles download beside it")
      if (body.final) {
        // A project bought once (SPEC §6) exports at 1080p without the watermark whatever the plan.
        const rights = projectExportRights(await deps.renderRights(userId), { export_unlocked: row.export_unlocked_at ? 1 : 0 });
        const tier = exportTier(body.tier, rights.videoTier);
        if (tier === null) {
          throw new DomainError("tier_not_allowed", `Your plan does not include ${body.tier === 4 ? "4k" : "1080p"} exports; choose ${allowedTiers(rights.videoTier).map((t) => TIER_NAMES[t]).join(" or ")}`);
        }
        finalOptions = { tier, watermark: rights.watermark, ...(body.aspect != null ? { aspect: body.aspect } : {}), ...(body.aspect && body.crop !== undefined ? { crop: body.crop } : {}) };
        exportOptions = {
          ...(body.name !== undefined ? { video_name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.privacy !== undefined ? { privacy: body.privacy, ...(row.share_nonce ? {} : deps.shares.fresh(id)) } : {}),
        };
      }
      await mustHaveQueueRoom(userId);
      const updated = await updateProject(db, id, { status: body.final ? "Final Rendering" : "Rendering", is_queued: 1, working_progress: 0, needs_render: 0, ...exportOptions });
      // One render job per project, preview or final: a new request while one runs is refused above.
      await queueJob(updated, "render", { projectId: id, final: body.final, ...finalOptions }, `render:${id}`);
      return toProject(updated);
    },

    async renderRaw(userId: number, id: number) {
      const row = await mustFind(userId, id);
      notLibrary(row);
      await deps.mustBeVerified(userId);
      if (row.deleted_at) throw notFound("No such project");
      await queueJob(row, "render-raw", { projectId: id });
      return toProject(row);
    },

    async reopen(userId: number, id: number) {
      const row = await mustFind(userId, id);
      notLibrary(row);
      if (row.status !== "Render Ready") return toProject(row);
      return toProject(await updateProject(db, id, { status: "Preview Ready", final_render: 0 }));
    },

    /**
     * The download link of a project's final render (SPEC §7 downloadrender): signed, short-lived, named after
     * the project. Another user's project is not found; free plans cannot download (SPEC §6); a project
     * without a finished final render has nothing to download.
     */
    async downloadLink(userId: number, id: number, now = Date.now()) {
      const row = await mustFind(userId, id);
      if (row.deleted_at) throw notFound("No such project");
      if (!row.export_key || !row.final_render) throw new DomainError("render_not_ready", "This project has no final render yet");
      // A project whose export was bought (SPEC §6 one-time fee) is downloadable on any plan.
      if (!row.export_unlocked_at && !(await deps.isPaid(userId))) throw new DomainError("upgrade_required", "Downloading the finished video needs a paid plan");
      const filename = safeFileName(row.video_name || row.name, "mp4");
      const link = deps.links.downloadUrl(row.export_key, filename, now);
      return { url: link.url, filename, expires_at: new Date(link.expires * 1000).toISOString() };
    },

    /**
     * The subtitles link (SPEC §7 subtitles): the owner's project, then its subtitles as WebVTT (or SRT), made from
     * its shown scenes' text lines (services/subtitles.ts), signed and named after the project like the video.
     * A project without lines has nothing to download; free plans cannot download (SPEC §6).
     */
    async subtitlesLink(userId: number, id: number, format: SubtitlesFormat = "vtt", now = Date.now(), locale?: string): Promise<{ url: string; filename: string; expires_at: string }> {
      const row = await mustFind(userId, id);
      if (row.deleted_at) throw notFound("No such project");
      // `locale` (issue 14): a translation's lines; the spoken language's (or none) gives the original lines.
      const translated = locale && locale !== row.locale ? locale : undefined;
      const key = await projectSubtitlesFile(db, deps.store, row, format, translated);
      if (!key) throw new DomainError("no_subtitles", "This project has no subtitles");
      if (!(await deps.isPaid(userId))) throw new DomainError("upgrade_required", "Downloading the subtitles needs a paid plan");
      const filename = safeFileName(`${row.video_name || row.name}${translated ? `.${translated}` : ""}`, format);
      const link = deps.links.downloadUrl(key, filename, now);
      return { url: link.url, filename, expires_at: new Date(link.expires * 1000).toISOString() };
    },

    mediaOf: (projectId: number) => projectMedia(db, projectId),

    /** "Reset" and "recreate storyboard": scenes again from the analysis, with these options. */
    async recreateStoryboard(userId: number, id: number, options: { autocutsilences: 0 | 1; smoothcuts: 0 | 1; removefillers?: 0 | 1 }) {
      const row = await mustFind(userId, id);
      notLibrary(row);
      if (row.deleted_at) throw notFound("No such project");
      if (isBusy(row)) throw new DomainError("project_busy", "This project is busy");
      mustNotBeFinished(row);
      const media = await projectMedia(db, id);
      if (media.some((m) => m.status !== "ready")) throw new DomainError("media_not_ready", "This file is still being processed");
      const settings = {
        ...settingsOf(row),
        autocutsilences: options.autocutsilences,
        smoothcuts: options.smoothcuts,
        ...(options.removefillers === undefined ? {} : { removefillers: options.removefillers }),
      };
      const updated = await updateProject(db, id, { settings: JSON.stringify(settings), needs_render: 1 });
      return toProject(await buildStoryboard(db, updated, media, !!options.autocutsilences));
    },

    async resetVolumes(userId: number, id: number, autoduck: boolean) {
      const row = await mustFind(userId, id);
      if (row.deleted_at) throw notFound("No such project");
      mustNotBeFinished(row);
      await db.updateTable("scenes").set({ media_audio: "standard", music_type: "bgmstandard" }).where("project_id", "=", id).execute();
      // A scene at "bgmstandard" plays the project's music level (domain/music.ts): it goes back to standard too.
      return toProject(await updateProject(db, id, { settings: JSON.stringify({ ...settingsOf(row), musicType: "bgmstandard", mediaAudio: "standard", autoduck: autoduck ? 1 : 0 }), needs_render: 1 }));
    },
  };
}

export type Projects = ReturnType<typeof createProjects>;
