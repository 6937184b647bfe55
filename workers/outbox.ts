import type { CutroomDb, EditKind, OutboxCommand, OutboxRow } from "../src/db";
import type { Scene, SceneUpdateBody } from "../api/scenes";
import type { SubtitleSet } from "../api/subtitles";
import type { Project } from "../api/projects";
import type { RouteName } from "../api/routes";
import { overlayOptions, type TextLine } from "../api/storyboard";
import { STORYBOARD_BATCH } from "../src/lib/constants";
import type { ApiCall, CallOptions } from "./api-client";
import type { Failure, Result } from "./status";
import { putSets, withLineText, withSetLine, type SubtitleLineEdit } from "./subtitle-sets";

/** An edit's answer to the view; `queued` when it waits on this device for the connection. */
export type EditResult<T> = Result<T> & { queued?: boolean };

/** A pass that stopped on the network is tried again after 2 s, then 4 s, … up to a minute. */
export const OUTBOX_RETRY_BASE_MS = 2_000;
export const OUTBOX_RETRY_MAX_MS = 60_000;
/** Server faults (5xx) are retried; after this many the edit is given up as failed, so the queue moves on. */
export const OUTBOX_MAX_SERVER_ERRORS = 5;
/** A send that neither answers nor fails within this long is given up and tried again later (the key keeps it safe). */
export const OUTBOX_SEND_TIMEOUT_MS = 30_000;
/** One sender per browser: tabs (each with its own sync worker) take turns through a Web Lock. */
const LOCK_NAME = "cutroom-outbox";

export interface CommandArgs {
  trimScene: { trim_start: number; trim_end: number };
  setSceneText: { lines: TextLine[] };
  removeSceneLines: null;
  setSceneAttributes: { patch: SceneUpdateBody };
  removeOverlay: null;
  hideScene: null;
  showScene: null;
  setSceneType: { type: Scene["type"] };
  setSubtitleLine: SubtitleLineEdit;
  pickSong: SongPick;
}

/** What a song pick carries through the outbox (issue 15): the project and the song it gets. */
export interface SongPick {
  projectId: number;
  songId: number;
}

interface CommandDef<A> {
  kind: (args: A) => EditKind;
  /** The change the mirror shows at once; computed again on top of the server's scene after a refresh. */
  optimistic: (scene: Scene, args: A) => Partial<Scene>;
  request: (sceneId: number, args: A) => OutboxRow["request"];
}

const has = (patch: object, keys: string[]) => keys.some((k) => (patch as Record<string, unknown>)[k] !== undefined);
const OVERLAY_KEYS = ["overscene_type", "overscene_fade", "overscene_overflow", "overscene_bg"];

/** Every attribute edit, as the outbox stores, shows and sends it. Every change sets values, so applying one twice is harmless. */
const COMMANDS: { [C in OutboxCommand]: CommandDef<CommandArgs[C]> } = {
  trimScene: {
    kind: () => "trim",
    optimistic: (s, a) => ({
      trim_start: a.trim_start,
      trim_end: a.trim_end,
      trim_start_raw: s.trim_start_raw + (a.trim_start - s.trim_start),
      trim_end_raw: s.trim_end_raw + (a.trim_end - s.trim_end),
    }),
    request: (id, a) => ({ route: "scenes.trim", params: { id }, body: { trim_start: a.trim_start, trim_end: a.trim_end } }),
  },
  setSceneText: {
    kind: () => "text",
    optimistic: (_, a) => ({ text: a.lines }),
    request: (id, a) => ({ route: "scenes.update", params: { id }, body: { text: a.lines } }),
  },
  removeSceneLines: {
    kind: () => "removeText",
    optimistic: () => ({ text: [] }),
    request: (id) => ({ route: "scenes.removeLines", params: { id } }),
  },
  setSceneAttributes: {
    kind: ({ patch }) =>
      has(patch, ["mediaAudio", "musicType"])
        ? "volume"
        : has(patch, ["selected_faces"])
          ? "faces"
          : has(patch, ["punch_in", "crop"])
            ? "framing"
            : has(patch, OVERLAY_KEYS)
              ? "overlay"
              : has(patch, ["text"])
                ? "text"
                : "attributes",
    optimistic: (s, { patch }) => {
      const { overscene_type, overscene_fade, overscene_overflow, overscene_bg, ...rest } = patch;
      // SPEC §4: a new overlay type brings its background unless the edit gives one, as the server does.
      const overlay = has(patch, OVERLAY_KEYS) ? overlayOptions(s, { overscene_type, overscene_fade, overscene_overflow, overscene_bg }) : {};
      return { ...(rest as Partial<Scene>), ...overlay };
    },
    request: (id, { patch }) => ({ route: "scenes.update", params: { id }, body: patch }),
  },
  removeOverlay: {
    kind: () => "removeOverlay",
    optimistic: () => ({ overscene: null, overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0 }),
    request: (id) => ({ route: "scenes.removeOverlay", params: { id } }),
  },
  hideScene: { kind: () => "hide", optimistic: () => ({ visibility: 0 }), request: (id) => ({ route: "scenes.hide", params: { id } }) },
  showScene: { kind: () => "show", optimistic: () => ({ visibility: 1 }), request: (id) => ({ route: "scenes.show", params: { id } }) },
  setSceneType: {
    kind: () => "type",
    optimistic: (_, { type }) => ({ type }),
    request: (id, { type }) => (type === "default" ? { route: "scenes.typeDefault", params: { id } } : { route: "scenes.type", params: { id, type } }),
  },
  // Issue 14: a line of a subtitle set. An original set's line is the scene's own text line, so the card shows it too.
  setSubtitleLine: {
    kind: (a) => (a.original ? "text" : "translation"),
    optimistic: (s, a) => {
      const text = a.original ? withLineText(s, a.key, a.text) : null;
      return text ? { text } : {};
    },
    request: (_, a) => ({ route: "subtitles.update", params: { id: a.setId }, body: { lines: [{ key: a.key, text: a.text }] } }),
  },
  // Issue 15: the project's song. It changes the project row, not a scene (see `withWaitingPick`).
  pickSong: {
    kind: () => "music",
    optimistic: () => ({}),
    request: (_, a) => ({ route: "bgms.pick", params: { id: a.songId }, body: { project_id: a.projectId } }),
  },
};

/** The last song pick of `projectId` among waiting edits, or null. */
export function waitingPick(projectId: number, waiting: readonly OutboxRow[]): SongPick | null {
  let last: SongPick | null = null;
  for (const entry of waiting) if (entry.command === "pickSong" && entry.projectId === projectId) last = entry.args as SongPick;
  return last;
}

/** A project as the server sent it with this device's waiting song pick on top (the server's pick keeps automatic music on). */
export function withWaitingPick<P extends Pick<Project, "id" | "bgm_id" | "autobgm">>(project: P, waiting: readonly OutboxRow[]): P {
  const pick = waitingPick(project.id, waiting);
  return pick ? { ...project, bgm_id: pick.songId, autobgm: 1 } : project;
}

const def = (command: OutboxCommand) => COMMANDS[command] as CommandDef<unknown>;

/** The waiting edits of a scene, applied in order on top of what the server says. */
export function applyWaiting(scene: Scene, waiting: readonly OutboxRow[]): Scene {
  return waiting.reduce<Scene>((s, entry) => ({ ...s, ...def(entry.command).optimistic(s, entry.args) }), scene);
}

/**
 * The server never answers these itself (SPEC §8: its faults are 500): a proxy or load balancer in front of
 * it does, while it restarts or is deployed. Like a network failure, they say nothing about the edit, which
 * waits for the server however long that takes rather than being given up after a few tries.
 */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** What came of one attempt at the head of the outbox. */
type Verdict = "sent" | "retry" | "serverError" | "refused" | "signedOut";

function verdictOf(result: Result<unknown>, serverErrors: number): Verdict {
  if (result.ok) return "sent";
  const failure = result.failure;
  const serverError = () => (serverErrors + 1 >= OUTBOX_MAX_SERVER_ERRORS ? "refused" : "serverError");
  switch (failure.kind) {
    case "network":
      return "retry";
    case "signed_out":
      return "signedOut";
    case "internal":
      return failure.status !== undefined && GATEWAY_STATUSES.has(failure.status) ? "retry" : serverError();
    case "bad_request":
      return "refused";
    case "body":
      // Timeouts, rate limits and a first attempt still running (same key) are worth another try.
      if (failure.status === 408 || failure.status === 429 || GATEWAY_STATUSES.has(failure.status) || failure.body.code === "idempotency_in_flight") return "retry";
      return failure.status >= 500 ? serverError() : "refused";
  }
}

const isNotFound = (failure: Failure) => failure.kind === "body" && (failure.status === 404 || failure.body.code === "not_found");
const describe = (failure: Failure) =>
  failure.kind === "body"
    ? `${failure.status} ${failure.body.code}`
    : failure.kind === "bad_request"
      ? `400 ${failure.code ?? "bad_request"}`
      : failure.kind === "internal" && failure.status
        ? `${failure.status} internal`
        : failure.kind;

type Outcome = { sent: unknown } | { refused: Failure } | "queued";
type LooseCall = (name: RouteName, input: { params?: unknown; query?: unknown; body?: unknown }, options?: CallOptions) => Promise<Result<unknown>>;

export interface OutboxOptions {
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/**
 * ARCHITECTURE "Offline edits": attribute edits of scenes apply to the mirror at once and wait in
 * the Dexie outbox, which survives reloads. One sender drains it strictly in `seq` order, one request
 * at a time, each with the Idempotency-Key made when the edit was queued (so a replay, by this sender
 * or by the service worker's background sync, is applied once). A network failure stops the pass and
 * leaves the entry for later; the server's answer replaces the optimistic scene; a refusal drops the
 * edit, puts back the server's scene and records which edit failed and why.
 */
export function createOutbox(db: CutroomDb, call: ApiCall, options: OutboxOptions = {}) {
  const send = call as unknown as LooseCall;
  const retryBase = options.retryBaseMs ?? OUTBOX_RETRY_BASE_MS;
  const retryMax = options.retryMaxMs ?? OUTBOX_RETRY_MAX_MS;
  /** The view waiting on an edit it just made, by the edit's key. */
  const waiters = new Map<string, { sceneId: number; resolve: (outcome: Outcome) => void }>();
  let running: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  const withLock = <T>(fn: () => Promise<T>): Promise<T> => (locks ? (locks.request(LOCK_NAME, fn) as Promise<T>) : fn());

  const waitingOf = (sceneIds: number[]) => db.outbox.where("sceneId").anyOf(sceneIds).sortBy("seq");

  /** Writes scenes from the server with this device's waiting edits on top, so none is lost to the eye. */
  async function putScenes(scenes: Scene[]) {
    if (scenes.length === 0) return;
    await db.transaction("rw", db.scenes, db.outbox, async () => {
      const waiting = await waitingOf(scenes.map((s) => s.id));
      await db.scenes.bulkPut(scenes.map((s) => applyWaiting(s, waiting.filter((e) => e.sceneId === s.id))));
    });
  }

  /** The same, for a writer already inside a transaction over `scenes` and `outbox`. */
  async function rebase(scenes: Scene[]): Promise<Scene[]> {
    const waiting = scenes.length ? await waitingOf(scenes.map((s) => s.id)) : [];
    return waiting.length ? scenes.map((s) => applyWaiting(s, waiting.filter((e) => e.sceneId === s.id))) : scenes;
  }

  /** SPEC §4: an attribute edit reloads the edited scenes' slice; done once the outbox is empty, per project. */
  async function reloadSlices(touched: Map<number, Set<number>>) {
    for (const [projectId, ids] of touched) {
      const all = [...ids];
      for (let i = 0; i < all.length; i += STORYBOARD_BATCH) {
        const scenesIds = all.slice(i, i + STORYBOARD_BATCH);
        const result = await call("storyboard.get", { params: { id: projectId }, query: { offset: 0, limit: scenesIds.length }, body: { scenesIds } });
        if (!result.ok) return;
        const present = new Set(await db.scenes.where("id").anyOf(scenesIds).primaryKeys());
        await putScenes(result.data.timeline.scenes.filter((s) => present.has(s.id)));
      }
    }
  }

  /** The server refused the edit: drop it, show the server's scene (or forget a deleted one), say why. */
  async function refuse(entry: OutboxRow, failure: Failure) {
    if (entry.command === "setSubtitleLine") return refuseLine(entry, failure);
    if (entry.command === "pickSong") return refusePick(entry, failure);
    const scene = await db.scenes.get(entry.sceneId);
    await db.outbox.delete(entry.seq!);
    const dropped: OutboxRow[] = [entry];
    let gone = isNotFound(failure);
    if (!gone) {
      const fresh = await call("scenes.get", { params: { id: entry.sceneId } });
      if (fresh.ok) {
        if (scene) await putScenes([fresh.data]);
      } else gone = isNotFound(fresh.failure);
    }
    if (gone) {
      // The scene no longer exists: its later edits cannot land either.
      await db.transaction("rw", db.scenes, db.outbox, async () => {
        const later = await db.outbox.where("sceneId").equals(entry.sceneId).toArray();
        dropped.push(...later);
        await db.outbox.bulkDelete(later.map((e) => e.seq!));
        await db.scenes.delete(entry.sceneId);
      });
    }
    // A view still waiting on the edit shows the refusal itself; otherwise the storyboard lists it.
    const unanswered = dropped.filter((e) => !waiters.has(e.idempotencyKey));
    if (unanswered.length > 0) {
      await db.failedEdits.bulkAdd(
        unanswered.map((e) => ({ projectId: e.projectId, sceneId: e.sceneId, sceneOrder: scene?.order ?? null, kind: e.kind, failure, at: Date.now() })),
      );
    }
    for (const e of dropped) answer(e.idempotencyKey, { refused: failure });
  }

  /** A subtitle line the server refused: drop it, show the server's sets (and scene), say why. */
  async function refuseLine(entry: OutboxRow, failure: Failure) {
    const edit = entry.args as SubtitleLineEdit;
    await db.outbox.delete(entry.seq!);
    const dropped: OutboxRow[] = [entry];
    const fresh = await call("subtitles.list", { params: { id: entry.projectId }, query: {} });
    if (fresh.ok) await putSets(db, fresh.data.data, entry.projectId);
    if (isNotFound(failure) || (fresh.ok && !fresh.data.data.some((s) => s.id === edit.setId))) {
      // The set no longer exists: its later edits cannot land either.
      const later = (await db.outbox.where("projectId").equals(entry.projectId).toArray()).filter((e) => e.command === "setSubtitleLine" && (e.args as SubtitleLineEdit).setId === edit.setId);
      dropped.push(...later);
      await db.outbox.bulkDelete(later.map((e) => e.seq!));
      await db.subtitleSets.delete(edit.setId);
    }
    const scene = await db.scenes.get(entry.sceneId);
    if (edit.original && scene) {
      const again = await call("scenes.get", { params: { id: entry.sceneId } });
      if (again.ok) await putScenes([again.data]);
    }
    const unanswered = dropped.filter((e) => !waiters.has(e.idempotencyKey));
    if (unanswered.length > 0) {
      await db.failedEdits.bulkAdd(unanswered.map((e) => ({ projectId: e.projectId, sceneId: e.sceneId, sceneOrder: scene?.order ?? null, kind: e.kind, failure, at: Date.now() })));
    }
    for (const e of dropped) answer(e.idempotencyKey, { refused: failure });
  }

  /** Writes a project from the server with a song pick still waiting on top; a project the mirror does not hold stays out. */
  async function putProject(project: Project) {
    await db.transaction("rw", db.projects, db.outbox, async () => {
      if (!(await db.projects.get(project.id))) return;
      await db.projects.put(withWaitingPick(project, await db.outbox.where("projectId").equals(project.id).sortBy("seq")));
    });
  }

  /** A song pick the server refused: drop it, show the server's project (or forget a deleted one), say why. */
  async function refusePick(entry: OutboxRow, failure: Failure) {
    await db.outbox.delete(entry.seq!);
    const dropped: OutboxRow[] = [entry];
    const fresh = await call("projects.get", { params: { id: entry.projectId } });
    if (fresh.ok) await putProject(fresh.data);
    else if (isNotFound(fresh.failure)) {
      // The project no longer exists: its later picks cannot land either.
      await db.transaction("rw", db.projects, db.outbox, async () => {
        const later = await db.outbox.where("projectId").equals(entry.projectId).filter((e) => e.command === "pickSong").toArray();
        dropped.push(...later);
        await db.outbox.bulkDelete(later.map((e) => e.seq!));
        await db.projects.delete(entry.projectId);
      });
    }
    const unanswered = dropped.filter((e) => !waiters.has(e.idempotencyKey));
    if (unanswered.length > 0) {
      await db.failedEdits.bulkAdd(unanswered.map((e) => ({ projectId: e.projectId, sceneId: 0, sceneOrder: null, kind: e.kind, failure, at: Date.now() })));
    }
    for (const e of dropped) answer(e.idempotencyKey, { refused: failure });
  }

  function answer(key: string, outcome: Outcome) {
    waiters.get(key)?.resolve(outcome);
    waiters.delete(key);
  }

  /** Sends the head of the outbox until it is empty or the connection stops it. */
  async function pass(): Promise<"empty" | "stopped" | "signedOut"> {
    const touched = new Map<number, Set<number>>();
    for (;;) {
      if (disposed) return "stopped";
      const entry = await db.outbox.orderBy("seq").first();
      if (!entry) {
        await reloadSlices(touched);
        return "empty";
      }
      const seq = entry.seq!;
      await db.outbox.update(seq, { state: "sending", attempts: entry.attempts + 1 });
      const { route, params, query, body } = entry.request;
      const result = await send(route, { params, query, body }, { idempotencyKey: entry.idempotencyKey, timeoutMs: OUTBOX_SEND_TIMEOUT_MS }).catch((): Result<unknown> => ({ ok: false, failure: { kind: "network" } }));
      const verdict = verdictOf(result, entry.serverErrors ?? 0);
      if (verdict === "signedOut") return "signedOut";
      if (verdict === "retry" || verdict === "serverError") {
        const failure = (result as { failure: Failure }).failure;
        await db.outbox.update(seq, { state: "waiting", lastError: describe(failure), ...(verdict === "serverError" ? { serverErrors: (entry.serverErrors ?? 0) + 1 } : {}) });
        return "stopped";
      }
      failures = 0;
      if (verdict === "refused") {
        await refuse(entry, (result as { failure: Failure }).failure);
        continue;
      }
      if (entry.command === "setSubtitleLine") {
        const set = (result as { data: SubtitleSet }).data;
        await db.transaction("rw", db.subtitleSets, db.scenes, db.outbox, async () => {
          await db.outbox.delete(seq);
          // A set the mirror has since dropped is not brought back.
          if (await db.subtitleSets.get(set.id)) await putSets(db, [set]);
        });
        // An original line is the scene's: its slice is reloaded once the outbox is empty.
        if ((entry.args as SubtitleLineEdit).original) {
          if (!touched.has(entry.projectId)) touched.set(entry.projectId, new Set());
          touched.get(entry.projectId)!.add(entry.sceneId);
        }
        answer(entry.idempotencyKey, { sent: set });
        continue;
      }
      if (entry.command === "pickSong") {
        const project = (result as { data: Project }).data;
        await db.outbox.delete(seq);
        await putProject(project);
        answer(entry.idempotencyKey, { sent: project });
        continue;
      }
      const scene = (result as { data: Scene }).data;
      await db.transaction("rw", db.scenes, db.outbox, async () => {
        await db.outbox.delete(seq);
        // A scene the storyboard has since dropped (a merge, a reload) is not brought back.
        if (await db.scenes.get(entry.sceneId)) await db.scenes.put((await rebase([scene]))[0]!);
      });
      if (!touched.has(entry.projectId)) touched.set(entry.projectId, new Set());
      touched.get(entry.projectId)!.add(entry.sceneId);
      answer(entry.idempotencyKey, { sent: scene });
    }
  }

  async function loop() {
    for (;;) {
      again = false;
      const outcome = await withLock(pass);
      if (!again || outcome === "signedOut") return outcome;
    }
  }

  function scheduleRetry() {
    clearTimeout(timer);
    if (disposed) return;
    failures += 1;
    const delay = Math.min(retryBase * 2 ** (failures - 1), retryMax);
    timer = setTimeout(() => void drain(), delay);
  }

  /** Starts a pass (or asks the running one to look again); resolves when the sender rests. */
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = loop()
      .catch((): "stopped" => "stopped")
      .then(async (outcome) => {
        if (outcome === "signedOut") {
          for (const key of [...waiters.keys()]) answer(key, { refused: { kind: "signed_out" } });
        } else if (!again && waiters.size > 0) {
          // Edits still in the outbox wait for the connection, and their views hear that now; one that
          // is gone was sent by another tab's sender.
          const left = new Set((await db.outbox.toArray()).map((e) => e.idempotencyKey));
          for (const [key, waiter] of [...waiters]) {
            const scene = left.has(key) ? undefined : await db.scenes.get(waiter.sceneId);
            answer(key, scene ? { sent: scene } : "queued");
          }
        }
        running = null;
        // Kicked between the last look and now: look again.
        if (again && outcome !== "signedOut") return drain();
        if (outcome === "stopped") scheduleRetry();
        else failures = 0;
      });
    return running;
  }

  /** Drains, then tells whether nothing waits any more: structural edits and renders go only after queued edits. */
  async function flush(): Promise<boolean> {
    await drain();
    return (await db.outbox.count()) === 0;
  }

  return {
    putScenes,
    rebase,
    drain,

    flush,

    /** Applies an attribute edit to the mirror, queues it and waits for the first attempt to send it. */
    async submit<C extends OutboxCommand>(command: C, sceneId: number, args: CommandArgs[C]): Promise<EditResult<Scene>> {
      const d = def(command);
      const idempotencyKey = crypto.randomUUID();
      const request = d.request(sceneId, args);
      const queued = await db.transaction("rw", db.scenes, db.outbox, db.projects, async () => {
        const scene = await db.scenes.get(sceneId);
        if (!scene) return false;
        await db.scenes.put({ ...scene, ...d.optimistic(scene, args) });
        // SPEC §4 Needs-render: set after any scene edit.
        await db.projects.update(scene.project_id, { needs_render: 1 });
        await db.outbox.add({
          sceneId,
          projectId: scene.project_id,
          command,
          args,
          kind: d.kind(args),
          request,
          idempotencyKey,
          createdAt: Date.now(),
          attempts: 0,
          state: "waiting",
        });
        return true;
      });
      // A scene this device never loaded has nothing to show or keep: it is simply sent.
      if (!queued) return (await send(request.route, request, { idempotencyKey })) as Result<Scene>;
      const outcome = new Promise<Outcome>((resolve) => waiters.set(idempotencyKey, { sceneId, resolve }));
      void drain();
      const settled = await outcome;
      if (settled === "queued") {
        const scene = await db.scenes.get(sceneId);
        return { ok: true, data: scene!, queued: true };
      }
      return "sent" in settled ? { ok: true, data: settled.sent as Scene } : { ok: false, failure: settled.refused };
    },

    /**
     * Issue 14: a subtitle set's line, edited like a scene's text (offline too): the set in the mirror (and, for
     * the original set, the scene card) changes at once; PUT /subtitles/{id} is queued and sent in order.
     */
    async submitLine(projectId: number, sceneId: number, edit: SubtitleLineEdit): Promise<EditResult<null>> {
      const d = def("setSubtitleLine");
      const idempotencyKey = crypto.randomUUID();
      await db.transaction("rw", [db.subtitleSets, db.scenes, db.outbox, db.projects], async () => {
        const set = await db.subtitleSets.get(edit.setId);
        if (set) await db.subtitleSets.put(withSetLine(set, edit.key, edit.text));
        const scene = edit.original ? await db.scenes.get(sceneId) : undefined;
        if (scene) await db.scenes.put({ ...scene, ...d.optimistic(scene, edit) });
        // SPEC §4 Needs-render: the original lines are the render's subtitles.
        if (edit.original) await db.projects.update(projectId, { needs_render: 1 });
        await db.outbox.add({
          sceneId,
          projectId,
          command: "setSubtitleLine",
          args: edit,
          kind: d.kind(edit),
          request: d.request(sceneId, edit),
          idempotencyKey,
          createdAt: Date.now(),
          attempts: 0,
          state: "waiting",
        });
      });
      const outcome = new Promise<Outcome>((resolve) => waiters.set(idempotencyKey, { sceneId, resolve }));
      void drain();
      const settled = await outcome;
      if (settled === "queued") return { ok: true, data: null, queued: true };
      return "sent" in settled ? { ok: true, data: null } : { ok: false, failure: settled.refused };
    },

    /**
     * Issue 15: the project's song (offline too). The project row shows it at once; PUT /bgms/{id} is queued and
     * sent in order. A pick still waiting for the same project is replaced: only the last one needs to reach the server.
     */
    async submitPick(pick: SongPick): Promise<EditResult<Project | null>> {
      const d = def("pickSong");
      const idempotencyKey = crypto.randomUUID();
      const replaced = await db.transaction("rw", db.projects, db.outbox, async () => {
        // One being sent now stays: its answer may already be on its way.
        const earlier = await db.outbox.where("projectId").equals(pick.projectId).filter((e) => e.command === "pickSong" && e.state === "waiting").toArray();
        await db.outbox.bulkDelete(earlier.map((e) => e.seq!));
        // SPEC §4 Needs-render: the song is part of the render.
        await db.projects.update(pick.projectId, { bgm_id: pick.songId, autobgm: 1, needs_render: 1 });
        await db.outbox.add({
          sceneId: 0,
          projectId: pick.projectId,
          command: "pickSong",
          args: pick,
          kind: d.kind(pick),
          request: d.request(0, pick),
          idempotencyKey,
          createdAt: Date.now(),
          attempts: 0,
          state: "waiting",
        });
        return earlier;
      });
      // A view still waiting on a replaced pick hears that it is settled by the newer one.
      for (const e of replaced) answer(e.idempotencyKey, "queued");
      const outcome = new Promise<Outcome>((resolve) => waiters.set(idempotencyKey, { sceneId: 0, resolve }));
      void drain();
      const settled = await outcome;
      if (settled === "queued") return { ok: true, data: (await db.projects.get(pick.projectId)) ?? null, queued: true };
      return "sent" in settled ? { ok: true, data: settled.sent as Project } : { ok: false, failure: settled.refused };
    },

    /** Calls that must come after the queued edits (renders, structural edits) wait for the outbox first. */
    ordered(after: ReadonlySet<RouteName>): ApiCall {
      const gated = async (name: RouteName, input?: unknown, callOptions?: CallOptions) => {
        if (after.has(name) && !(await flush())) return { ok: false, failure: { kind: "network" } };
        return send(name, (input ?? {}) as never, callOptions);
      };
      return gated as unknown as ApiCall;
    },

    /** Stops the retry timer (tests; a worker that goes away). */
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

/** Calls that must not overtake edits still in the outbox. */
export const AFTER_OUTBOX: ReadonlySet<RouteName> = new Set<RouteName>([
  "projects.render",
  "projects.renderRaw",
  "projects.recreateStoryboard",
  "projects.resetVolumes",
  "projects.import",
  "projects.importOverlay",
  "projects.cuts",
  "scenes.splitByLine",
  "scenes.splitByPosition",
  "scenes.mergeNext",
  "scenes.order",
  "scenes.duplicate",
  // A translation starts from the original lines as edited, queued edits included (issue 14).
  "subtitles.translate",
]);
