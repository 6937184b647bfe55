import type { CutroomDb } from "../src/db";
import type { Locale } from "../api/locales";
import type { RegisterBody, User } from "../api/user";
import type { ApiCall } from "./api-client";
import { solveAltcha } from "./captcha";
import { createDrafts, createProjectActions } from "./projects";
import { createSceneActions } from "./scenes";
import { AFTER_OUTBOX, createOutbox } from "./outbox";
import { createLibraryActions, type LibraryDeps } from "./library";
import { createPushActions } from "./push";
import { createYoutubeActions } from "./youtube";
import { createDownloadActions } from "./downloads";
import { createShareActions } from "./share";
import { createTimelineActions } from "./timelines";
import { createWordsActions } from "./words";
import { createTranscriptActions } from "./transcript";
import { createSubtitleActions } from "./subtitles";
import { createWaveformActions } from "./waveform";
import { createMusicActions } from "./music";
import { createAccountActions } from "./account";
import { createPlanActions } from "./plans";
import { createPaymentActions } from "./payments";
import { createCheckoutActions } from "./checkout";
import { createLicenceActions } from "./licences";
import { createHomeActions } from "./home";
import { createUploader } from "./uploads";
import { createRecordingStreams } from "./recordings";
import { createProgressStream } from "./progress";
import type { ProjectDraftRow, UploadRole, UploadRow } from "../src/db";
import type { Result } from "./status";

/** Finished or failed wizard drafts are kept this long, then forgotten at boot. */
const DRAFT_RETENTION_MS = 24 * 3600_000;

type RegisterInput = Omit<RegisterBody, "g-recaptcha-response">;

/** Every action a view can ask of the sync worker. Views never call fetch. */
export function createActions(db: CutroomDb, call: ApiCall) {
  const storeUser = async (user: User) => {
    await db.users.put({ ...user, key: "me" });
  };

  // Queued scene edits reach the server before any render, insert or structural edit (workers/outbox.ts).
  const outbox = createOutbox(db, call);
  const ordered = outbox.ordered(AFTER_OUTBOX);
  const scenes = createSceneActions(db, call, outbox);
  const projects = createProjectActions(db, ordered, scenes.loadStoryboard);
  const drafts = createDrafts(db, call, projects.refreshProject);
  // Issue 13: live progress; a render that ends reloads its project and "What Cutroom did".
  const progress = createProgressStream({
    db,
    getToken: async () => (await db.auth.get("token"))?.token,
    onSettled: async (id, settled) => {
      const result = await projects.refreshProject(id);
      const status = result.ok ? result.data.status : settled.status;
      if (status === "Preview Ready" || status === "Render Ready") await projects.refreshHighlights(id);
    },
  });
  const uploader = createUploader(db, call, async () => (await db.auth.get("token"))?.token);
  // Issue 17: recordings made in the app stream to the server while they record.
  const recordings = createRecordingStreams(db, async () => (await db.auth.get("token"))?.token);
  /** An upload ended one way or another: a scheduled project may now be complete. */
  const upload = (id: string) => uploader.start(id).then(() => drafts.advanceAll());
  const downloads = createDownloadActions(async () => (await db.auth.get("token"))?.token);

  const actions = {
    ...projects,
    ...scenes,
    ...createLibraryActions(db, ordered, (): LibraryDeps => actions),
    ...createPushActions(call),
    ...createYoutubeActions(db, call),
    ...downloads,
    ...createSubtitleActions(db, ordered, outbox, downloads.subtitlesLink),
    ...createShareActions(db, ordered),
    ...createTimelineActions(async () => (await db.auth.get("token"))?.token),
    ...createWordsActions(db, call),
    ...createTranscriptActions(db, ordered, outbox, scenes.loadStoryboard),
    ...createWaveformActions(db, call),
    ...createMusicActions(db, call, outbox),
    // Issue 16: name, e-mail, password, other devices, data export, deletion, password reset.
    ...createAccountActions(db, call),
    // Issue 16: a plan change re-reads the user (tier, storage), quotas, limits and subscription, so Upgrade and export limits follow at once.
    ...createPlanActions(db, call, (): Promise<unknown> => Promise.all([actions.refreshUser(), actions.refreshQuotas(), actions.refreshLimits(), actions.refreshSubscription()])),
    ...createPaymentActions(db, call),
    // Issue 16: lifetime deals and one project's export, paid on a checkout page; a purchase re-reads the user, quotas and limits.
    ...createCheckoutActions(db, call, (): Promise<unknown> => Promise.all([actions.refreshUser(), actions.refreshQuotas(), actions.refreshLimits()])),
    // Issue 16: a redeemed licence gives the lifetime tier; quotas, limits and the subscription are read again.
    ...createLicenceActions(db, call, (): Promise<unknown> => Promise.all([actions.refreshQuotas(), actions.refreshLimits(), actions.refreshSubscription()])),

    /** The app's wish for live progress: some project is busy and the page is visible and online (issue 13). */
    watchProgress: (on: boolean) => progress.setWanted(on),

    ...recordings,

    ...createHomeActions(db, call),

    /** Loads the server's public set-up and, when signed in, the user. Works offline from the mirror. */
    async boot(): Promise<void> {
      const config = await call("config.get");
      if (config.ok) await db.meta.put({ key: "config", value: config.data });
      if (await db.auth.get("token")) {
        await actions.refreshUser();
        // Uploads and scheduled projects carry on after a reload; week-old finished drafts go.
        await db.drafts.where("createdAt").below(Date.now() - DRAFT_RETENTION_MS).and((d) => d.status !== "waiting").delete();
        void actions.resumeUploads();
        void recordings.resumeRecordings();
        // Issue 15: the music picker's songs, kept for offline use.
        void actions.refreshSongs();
      }
    },

    /** Adds files chosen in the upload screen; nothing is sent until `startUploads`. */
    async addUploads(files: { file: File; kind: UploadRow["kind"]; durationSeconds: number; locale: string | null; role: UploadRole; recordingId?: string }[]) {
      const now = Date.now();
      // A kept recording (issue 17): the row carries on the server upload its stream began.
      const adopted = await Promise.all(files.map((f) => (f.recordingId ? recordings.adoptRecording(f.recordingId) : null)));
      const rows: UploadRow[] = files.map((f, i) => ({
        id: crypto.randomUUID(),
        name: f.file.name,
        size: f.file.size,
        mime: f.file.type,
        kind: f.kind,
        durationSeconds: f.durationSeconds,
        locale: f.locale,
        role: f.role,
        file: f.file,
        status: "selected",
        progress: 0,
        createdAt: now + i,
        ...(adopted[i]?.uploadUrl ? { uploadUrl: adopted[i]!.uploadUrl, deferred: true } : {}),
      }));
      await db.uploads.bulkPut(rows);
      return rows.map((r) => r.id);
    },
    /** After a reload or when the connection is back: continue what was under way or cut off. */
    async resumeUploads() {
      const pending = await db.uploads.filter((u) => u.status === "uploading" || u.status === "success" || (u.status === "selected" && u.error === "network")).primaryKeys();
      await Promise.all(pending.map(upload));
      await drafts.advanceAll();
    },
    setUploadLanguage: (id: string, locale: string | null) => db.uploads.update(id, { locale }).then(() => undefined),
    setUploadRole: (id: string, role: UploadRole) => db.uploads.update(id, { role }).then(() => undefined),
    /** Removes a file from the list (before it is sent) or forgets a finished row. */
    async removeUpload(id: string) {
      const row = await db.uploads.get(id);
      if (row?.status === "uploading") await uploader.cancel(id);
      await db.uploads.delete(id);
    },
    /** Intro first, outro last, the rest in the order chosen. */
    async startUploads(ids: string[]) {
      const rows = (await db.uploads.bulkGet(ids)).filter((r): r is UploadRow => !!r);
      const rank = (r: UploadRow) => (r.role === "intro" ? 0 : r.role === "outro" ? 2 : 1);
      for (const row of [...rows].sort((a, b) => rank(a) - rank(b))) await upload(row.id);
    },
    cancelUpload: (id: string) => uploader.cancel(id).then(() => drafts.advanceAll()),
    /** The wizard's step 2: create the project now, or as soon as its files are in the library. */
    async scheduleProject(settings: ProjectDraftRow["settings"], uploadIds: string[]) {
      const id = crypto.randomUUID();
      await drafts.schedule(id, settings, uploadIds);
      return id;
    },
    forgetDraft: (id: string) => db.drafts.delete(id),
    async refreshLibrary(page = 1) {
      const result = await call("library.list", { query: { page } });
      if (result.ok) await db.media.bulkPut(result.data.data);
      return result.ok ? ({ ok: true, data: { lastPage: result.data.last_page } } as const) : result;
    },

    async login(email: string, password: string) {
      await db.signOutLocally();
      const result = await call("user.login", { body: { email, password } });
      if (result.ok) {
        const { api_token, ...user } = result.data;
        await db.transaction("rw", db.users, db.auth, async () => {
          await db.auth.put({ key: "token", token: api_token });
          await storeUser(user);
        });
        return { ok: true, data: user } as const;
      }
      return result;
    },

    /** Solves the captcha when the server uses ALTCHA, then registers. */
    async register(input: RegisterInput, recaptchaToken?: string) {
      let captcha = recaptchaToken ?? "";
      const config = await db.config();
      if (!recaptchaToken && config?.captcha.provider !== "off") {
        const challenge = await call("captcha.challenge");
        if (!challenge.ok) return challenge;
        captcha = (await solveAltcha(challenge.data)) ?? "";
      }
      return call("user.register", { body: { ...input, "g-recaptcha-response": captcha } });
    },

    /** Clears the stored user at once (the views leave), then revokes the token on the server when it can. */
    async logout(): Promise<void> {
      await db.users.clear();
      await call("user.logout");
      await db.auth.clear();
    },

    async refreshUser() {
      const result = await call("user.get");
      if (result.ok) await storeUser(result.data);
      return result;
    },

    resendVerification: () => call("user.resendEmail"),

    /** Applies the language at once; the server keeps it for the next sign-in. */
    async setLocale(locale: Locale) {
      await db.users.update("me", { locale });
      const result = await call("user.locale", { params: { locale } });
      if (result.ok) await storeUser(result.data);
      return result;
    },

    async setRenderNotifications(on: boolean) {
      await db.users.update("me", { render_notifications: on ? 1 : 0 });
      const result = await call("user.renderNotifications", { params: { value: on ? "1" : "0" } });
      if (result.ok) await storeUser(result.data);
      return result;
    },

    /** The new-AI-version link, with a single-use code that expires in minutes. */
    async newAiVersionLink(): Promise<Result<string>> {
      const config = await db.config();
      if (config && !config.links.newAiApp) return { ok: false, failure: { kind: "network" } };
      const result = await call("user.handoff");
      if (!result.ok || !config?.links.newAiApp) return result.ok ? { ok: false, failure: { kind: "network" } } : result;
      const url = new URL(config.links.newAiApp);
      url.searchParams.set("token", result.data.code);
      return { ok: true, data: url.toString() };
    },
  };
  return actions;
}

export type Actions = ReturnType<typeof createActions>;
