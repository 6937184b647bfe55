import Dexie, { liveQuery, type EntityTable, type Table } from "dexie";
import { DB_NAME, mirrorLoaded, pageConfig } from "./mirror";
import type { User } from "../../api/user";
import type { PublicConfig } from "../../api/config";
import type { HomeFeed } from "../../api/home";
import type { PendingEmail } from "../../api/account";
import type { LibraryItem, LibraryTab, MediaFile, MediaKind } from "../../api/media";
import type { Scene } from "../../api/scenes";
import type { Project } from "../../api/projects";
import type { z } from "zod";
import type { Highlights, CreateProjectBody } from "../../api/projects";
import type { Quotas } from "../../api/user";
import type { Limits } from "../../api/user";
import type { PaymentMethod, SubscriptionInfo } from "../../api/payments";
import type { Plan } from "../../api/plans";
import type { RouteName } from "../../api/routes";
import type { Failure } from "../../workers/status";
import type { YoutubeConnection } from "../../api/youtube";
import type { SubtitleSet, TranslateOptions } from "../../api/subtitles";
import type { Word } from "../../api/subtitles";
import type { Waveform } from "../../api/subtitles";
import type { Song } from "../../api/music";
import type { WizardSettings } from "../features/wizard/settings";

/** The signed-in user, as views read it. There is at most one row, with id "me". */
export interface UserRow extends User {
  key: "me";
}

/** The api token lives apart from the user: only the sync worker reads it. */
export interface AuthRow {
  key: "token";
  token: string;
}

export type MetaRow =
  | { key: "config"; value: PublicConfig }
  | { key: "quotas"; value: Quotas }
  | { key: "projects"; value: { total: number; lastPage: number; fetchedAt: string } }
  | { key: `storyboard:${number}`; value: StoryboardMeta }
  | { key: `library:${LibraryTab}:${string}`; value: LibraryListMeta }
  | { key: `libraryScenes:${number}:${string}`; value: LibraryListMeta }
  /** A media file's waveform and silences (issue 14, trim and split dialogs): fetched once, kept for offline use. */
  | { key: `waveform:${number}`; value: Waveform }
  /** Whether the last call reached the server (with navigator.onLine, the storyboard's offline indicator). */
  | { key: "connection"; value: { reachable: boolean; at: string } }
  /** Issue 16: an e-mail change waiting for the link mailed to the new address. */
  | { key: "pendingEmail"; value: PendingEmail }
  /** The new-project wizard's step 2 and chosen languages (issue 18), kept across a reload until created or cancelled. */
  | { key: "wizard"; value: { settings: WizardSettings; languageChosen: string[] } }
  /** Video-site export: whether the server offers it and the user's YouTube account is connected. */
  | { key: "youtube"; value: YoutubeConnection }
  /** The progress stream (issue 13): live while events arrive; otherwise the screens' 60 s poll is what updates. */
  | { key: "progressStream"; value: { state: ProgressStreamState; at: string } }
  /** The Translate page's languages (issue 14): what GET /projects/{id}/translate/options said, and when. */
  | { key: `translate:${number}`; value: TranslateOptions & { fetchedAt: string } }
  /** Home's tips and updates (issue 17, GET /home/feed) in the language they were asked in; null entries: the app's own. */
  | { key: "homeFeed"; value: HomeFeed & { locale: string; fetchedAt: string } }
  /** The music picker's songs (issue 15): when GET /bgms last filled the `songs` table. */
  | { key: "songs"; value: { total: number; fetchedAt: string } }
  /** The /account page (issue 16): the plan's limits, the subscription and the saved cards, as last fetched. */
  | { key: "limits"; value: Limits & { fetchedAt: string } }
  | { key: "subscription"; value: SubscriptionInfo & { fetchedAt: string } }
  | { key: "paymentMethods"; value: { data: PaymentMethod[]; fetchedAt: string } }
  /** The plans on sale per billing interval (issue 16: pricing view and plan picker), as GET /payment/plans last answered. */
  | { key: `plans:${"month" | "year"}`; value: { plans: Plan[]; fetchedAt: string } };

export type ProgressStreamState = "live" | "retrying" | "off";

/** How much of a project's storyboard the mirror holds (25 scenes first, then 250 at a time). */
export interface StoryboardMeta {
  total: number;
  loaded: number;
  loading: boolean;
  fetchedAt: string;
}

/** A library list (a tab and query, or one item's scenes and query): the ids in server order and the pages fetched. */
export interface LibraryListMeta {
  ids: number[];
  page: number;
  lastPage: number;
  total: number;
  fetchedAt: string;
}

export type HighlightsRow = z.infer<typeof Highlights> & { projectId: number };

/** SPEC §4 Upload states, plus failed (the server refused the file). */
export type UploadStatus = "selected" | "uploading" | "success" | "canceled" | "completed" | "failed";
export type UploadRole = "main" | "intro" | "outro";

/** A file on its way to the library. The blob stays here until it is uploaded, so a reload resumes it. */
export interface UploadRow {
  id: string;
  name: string;
  size: number;
  mime: string;
  kind: MediaKind;
  durationSeconds: number;
  /** Spoken language; null means no speech. */
  locale: string | null;
  role: UploadRole;
  file: Blob;
  status: UploadStatus;
  /** Percent with one decimal. */
  progress: number;
  uploadUrl?: string;
  mediaFileId?: number;
  /** Error code from the server (e.g. duplicate_name), for the view to word. */
  error?: string;
  createdAt: number;
  /**
   * Issue 17: the file is a recording whose server upload (at `uploadUrl`) was opened with its length deferred
   * while recording; finishing it declares the length.
   */
  deferred?: boolean;
}

/** How a recording was made (issue 17, SPEC §2 Upload screen, import variant). */
export type RecordingMode = "camera" | "screen" | "screenCamera";

/**
 * A recording made in the app (issue 17). Its bytes are kept in `recordingChunks` as the recorder hands them
 * over, and stream to the server (tus, length deferred) while it records; a crashed tab finds it here again.
 */
export interface RecordingRow {
  id: string;
  name: string;
  mime: string;
  mode: RecordingMode;
  /** "recording" until the recorder stops (or is found interrupted), then "stopped". */
  status: "recording" | "stopped";
  /** Bytes kept so far (the sum of the chunks). */
  bytes: number;
  /** Recorded time, pauses left out. */
  durationSeconds: number;
  /** The server's tus upload, once created. */
  uploadUrl?: string;
  /** Bytes the server confirmed. */
  uploadedBytes: number;
  /** The server has the whole recording (its length declared). */
  uploaded: boolean;
  /** Error code of a refusal by the server (e.g. file_too_big): the stream stops. */
  error?: string;
  createdAt: number;
}

/** One piece of a recording as MediaRecorder gave it; `start` is its byte offset in the recording. */
export interface RecordingChunkRow {
  recordingId: string;
  seq: number;
  start: number;
  data: Blob;
}

/** A project the wizard scheduled while its files were still uploading. */
export interface ProjectDraftRow {
  id: string;
  settings: Omit<z.input<typeof CreateProjectBody>, "media">;
  uploadIds: string[];
  status: "waiting" | "creating" | "created" | "failed";
  projectId?: number;
  error?: string;
  createdAt: number;
}

/** The scene edits that can wait in the outbox (ARCHITECTURE "Offline edits"): attribute edits only. */
export type OutboxCommand = "trimScene" | "setSceneText" | "removeSceneLines" | "setSceneAttributes" | "removeOverlay" | "hideScene" | "showScene" | "setSceneType"
  /** A subtitle set's line (issue 14): PUT /subtitles/{id}; `sceneId` is the line's scene. */
  | "setSubtitleLine"
  /** The project's song (issue 15): PUT /bgms/{id}; `sceneId` is 0 (no scene). */
  | "pickSong";
/** What an edit changed, in the words the storyboard uses when it reports a refused edit. */
export type EditKind = "trim" | "text" | "removeText" | "hide" | "show" | "type" | "volume" | "faces" | "framing" | "overlay" | "removeOverlay" | "attributes" | "translation" | "music";

/**
 * One attribute edit waiting to reach the server, sent strictly in `seq` order. The key is made once,
 * when the edit is queued, so every attempt (and the service worker's background-sync replay) carries it.
 */
export interface OutboxRow {
  seq?: number;
  sceneId: number;
  projectId: number;
  command: OutboxCommand;
  /** The command's arguments: what the optimistic change is computed from again after a refresh. */
  args: unknown;
  kind: EditKind;
  request: { route: RouteName; params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  idempotencyKey: string;
  createdAt: number;
  attempts: number;
  /** Server faults (5xx) met so far: after a few the edit is given up, so one bad request cannot block the rest. */
  serverErrors?: number;
  state: "waiting" | "sending";
  lastError?: string;
}

/** A queued edit the server refused: shown on the storyboard until dismissed. */
export interface FailedEditRow {
  id?: number;
  projectId: number;
  sceneId: number;
  /** The scene's place when the edit failed (the storyboard names scenes by number). */
  sceneOrder: number | null;
  kind: EditKind;
  failure: Failure;
  at: number;
}

/** A song of the music picker (SPEC §3 Song, api/music.ts), as GET /bgms lists it. */
export type SongRow = Song;

/** A project's subtitle set (SPEC §3 Subtitle set, api/subtitles.ts), with this device's waiting line edits on top. */
export type SubtitleSetRow = SubtitleSet;

/**
 * The recognised words of one media file (issue 14, edit by transcript), as GET /projects/{id}/words gives
 * them: times in the file, seconds. `project_ids`: the opened projects that use the file.
 */
export interface WordsRow {
  media_file_id: number;
  project_ids: number[];
  language: string;
  draft: 0 | 1;
  words: Word[];
  fetchedAt: string;
}

export { DB_NAME };

/** The IndexedDB mirror. Views read it with useLiveQuery; the sync worker writes it. */
export class CutroomDb extends Dexie {
  users!: EntityTable<UserRow, "key">;
  auth!: EntityTable<AuthRow, "key">;
  meta!: EntityTable<MetaRow, "key">;
  projects!: EntityTable<Project, "id">;
  highlights!: EntityTable<HighlightsRow, "projectId">;
  media!: EntityTable<MediaFile, "id">;
  uploads!: EntityTable<UploadRow, "id">;
  drafts!: EntityTable<ProjectDraftRow, "id">;
  /** Scenes of opened projects and of browsed library items, keyed by id; a project's order by [project_id+order]. */
  scenes!: EntityTable<Scene, "id">;
  /** Items of the media library page (library-type uploads and the user's projects). */
  library!: EntityTable<LibraryItem, "id">;
  /** Attribute edits on their way to the server, in order (workers/outbox.ts). */
  outbox!: EntityTable<OutboxRow, "seq">;
  /** Queued edits the server refused, until the person dismisses them. */
  failedEdits!: EntityTable<FailedEditRow, "id">;
  songs!: EntityTable<SongRow, "id">;
  subtitleSets!: EntityTable<SubtitleSetRow, "id">;
  /** Words of the media files of opened projects, by media file (issue 14). */
  words!: EntityTable<WordsRow, "media_file_id">;
  /** Recordings made in the app and their bytes, until kept or discarded (issue 17). */
  recordings!: EntityTable<RecordingRow, "id">;
  recordingChunks!: Table<RecordingChunkRow, [string, number]>;

  constructor(name = DB_NAME) {
    super(name);
    this.version(1).stores({ users: "key", auth: "key", meta: "key" });
    this.version(2).stores({
      projects: "id, updated_at",
      highlights: "projectId",
      media: "id, kind",
      uploads: "id, status, createdAt",
      drafts: "id, status",
    });
    this.version(3).stores({
      drafts: "id, status, createdAt",
    });
    this.version(4).stores({
      scenes: "id, project_id, [project_id+order]",
      library: "id, type, kind",
    });
    this.version(5).stores({
      outbox: "++seq, sceneId, projectId",
      failedEdits: "++id, projectId",
      songs: "id",
      subtitleSets: "id, project_id",
    });
    // Issue 14: edit by transcript.
    this.version(7).stores({
      words: "media_file_id, *project_ids",
    });
    // Issue 15: the songs table is filled from GET /bgms, with the contract's fields; rows of the old shape (never
    // written) are cleared.
    this.version(8)
      .stores({ songs: "id, title" })
      .upgrade((tx) => tx.table("songs").clear());
    // Issue 17: recordings made in the app, kept chunk by chunk while they stream to the server.
    this.version(9).stores({
      recordings: "id, status",
      recordingChunks: "[recordingId+seq], recordingId",
    });
  }

  /** The signed-in user, or null when nobody is signed in. */
  currentUser = async (): Promise<UserRow | null> => (await this.users.get("me")) ?? null;
  /** The server's public set-up: the mirror's copy, else the one the server wrote into the page (issue 18). */
  config = async (): Promise<PublicConfig | null> => {
    const row = await this.meta.get("config");
    return row?.key === "config" ? row.value : pageConfig();
  };

  /** Signing out forgets the user's data too: the next person on this device must not see it. */
  async signOutLocally(): Promise<void> {
    const tables = [this.users, this.auth, this.projects, this.highlights, this.media, this.uploads, this.drafts, this.scenes, this.library, this.outbox, this.failedEdits, this.songs, this.subtitleSets, this.words, this.recordings, this.recordingChunks];
    await this.transaction("rw", tables, async () => {
      await Promise.all(tables.map((t) => t.clear()));
    });
    await this.meta.where("key").noneOf(["config"]).delete();
  }
}

export const db = new CutroomDb();

// Views that watch the mirror without importing Dexie themselves (src/app/hooks.ts) start now.
mirrorLoaded({ db, liveQuery });
