import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CutroomDb } from "../../src/db";
import type { ApiCall } from "../../workers/api-client";
import { createProjectActions } from "../../workers/projects";
import type { Result } from "../../workers/status";
import { makeProject } from "./edit-fixtures";

type Handler = (input: { params?: { id: number }; query?: Record<string, unknown>; body?: Record<string, unknown> }) => Result<unknown> | Promise<Result<unknown>>;

let db: CutroomDb;
let handlers: Record<string, Handler>;
let calls: { name: string; input: Parameters<Handler>[0] }[];
let loadStoryboard: ReturnType<typeof vi.fn<(projectId: number) => Promise<Result<{ total: number }>>>>;
let actions: ReturnType<typeof createProjectActions>;

/** The API as the worker sees it: each route answered by a handler of the test, every call recorded. */
const call = (async (name: string, input: Parameters<Handler>[0] = {}) => {
  calls.push({ name, input });
  const handler = handlers[name];
  if (!handler) return { ok: false, failure: { kind: "network" } };
  return handler(input);
}) as unknown as ApiCall;

const ok = <T>(data: T): Result<T> => ({ ok: true, data });
const names = () => calls.map((c) => c.name);

beforeEach(() => {
  db = new CutroomDb(`edit-${Math.random()}`);
  handlers = {};
  calls = [];
  loadStoryboard = vi.fn(async (_projectId: number) => ok({ total: 3 }));
  actions = createProjectActions(db, call, loadStoryboard);
});

afterEach(async () => {
  await db.delete();
});

describe("a settings change of the Options tab (SPEC §2 Settings panel, §4 Needs-render)", () => {
  it("shows at once with the needs-render flag, then keeps the server's answer", async () => {
    await db.projects.put(makeProject());
    let seenWhileSending: unknown;
    handlers["projects.update"] = async ({ body }) => {
      seenWhileSending = await db.projects.get(41);
      return ok(makeProject({ ...body, needs_render: 1, updated_at: "2026-11-02T00:00:00.000Z" }));
    };
    const result = await actions.updateProjectSettings(41, { render_subtitle: 1 });
    expect(result.ok).toBe(true);
    expect(seenWhileSending).toMatchObject({ render_subtitle: 1, needs_render: 1 });
    expect(calls).toEqual([{ name: "projects.update", input: { params: { id: 41 }, body: { render_subtitle: 1 } } }]);
    expect(await db.projects.get(41)).toMatchObject({ render_subtitle: 1, needs_render: 1, updated_at: "2026-11-02T00:00:00.000Z" });
  });

  it("puts everything back, flag included, when the server refuses", async () => {
    await db.projects.put(makeProject({ autobgm: 1, intro_mode: "music", outro_mode: "music" }));
    handlers["projects.update"] = () => ({ ok: false, failure: { kind: "internal" } });
    const result = await actions.updateProjectSettings(41, { autobgm: 0, intro_mode: "", outro_mode: "" });
    expect(result).toEqual({ ok: false, failure: { kind: "internal" } });
    expect(await db.projects.get(41)).toMatchObject({ autobgm: 1, intro_mode: "music", outro_mode: "music", needs_render: 0 });
  });

  it("rolls back offline too, without undoing a newer change made meanwhile", async () => {
    await db.projects.put(makeProject({ audio_preprocessor: 0, smoothcuts: 1 }));
    handlers["projects.update"] = async ({ body }) => {
      // While this change is on its way, another one lands in the mirror.
      if (body?.audio_preprocessor === 1) await db.projects.update(41, { smoothcuts: 0, audio_preprocessor: 0 });
      return { ok: false, failure: { kind: "network" } };
    };
    await actions.updateProjectSettings(41, { audio_preprocessor: 1, smoothcuts: 1 });
    // audio_preprocessor was changed again meanwhile (to 0): it stays as the newer change left it.
    expect(await db.projects.get(41)).toMatchObject({ audio_preprocessor: 0, smoothcuts: 0, needs_render: 1 });
  });

  it("does not flag a rename alone as needing a render", async () => {
    await db.projects.put(makeProject());
    handlers["projects.update"] = ({ body }) => ok(makeProject({ name: String(body?.name) }));
    await actions.updateProjectSettings(41, { name: "Renamed" });
    expect(await db.projects.get(41)).toMatchObject({ name: "Renamed", needs_render: 0 });
  });

  it("forgets a project the server no longer has", async () => {
    await db.projects.put(makeProject());
    handlers["projects.update"] = () => ({ ok: false, failure: { kind: "body", status: 404, body: { message: "No such project", code: "not_found" } } });
    await actions.updateProjectSettings(41, { autopunchin: 1 });
    expect(await db.projects.get(41)).toBeUndefined();
  });
});

describe("Render now (SPEC §4: render-raw first when needed, then a render with final false)", () => {
  beforeEach(() => {
    handlers["projects.renderRaw"] = () => ok(makeProject());
    handlers["projects.render"] = () => ok(makeProject({ status: "Rendering", is_queued: 1, needs_render: 0 }));
    handlers["projects.get"] = () => ok(makeProject({ status: "Rendering", is_queued: 1, needs_render: 0 }));
  });

  it("renders straight away when the raw preview exists", async () => {
    await db.projects.put(makeProject({ needs_render: 1, raw_preview_render: 1 }));
    const result = await actions.renderNow(41);
    expect(result.ok).toBe(true);
    expect(names()).toEqual(["projects.render", "projects.get"]);
    expect(calls[0]!.input.body).toEqual({ final: false });
    expect(await db.projects.get(41)).toMatchObject({ status: "Rendering", needs_render: 0 });
  });

  it("asks for the raw render first when there is none", async () => {
    await db.projects.put(makeProject({ needs_render: 1, raw_preview_render: 0, export_raw_url: null }));
    await actions.renderNow(41);
    expect(names()).toEqual(["projects.renderRaw", "projects.render", "projects.get"]);
    expect(calls[1]!.input.body).toEqual({ final: false });
  });

  it("stops when the raw render is refused", async () => {
    await db.projects.put(makeProject({ needs_render: 1, raw_preview_render: 0 }));
    handlers["projects.renderRaw"] = () => ({ ok: false, failure: { kind: "bad_request", code: "project_busy" } });
    const result = await actions.renderNow(41);
    expect(result).toEqual({ ok: false, failure: { kind: "bad_request", code: "project_busy" } });
    expect(names()).toEqual(["projects.renderRaw"]);
    expect(await db.projects.get(41)).toMatchObject({ needs_render: 1, status: "Preview Ready" });
  });

  it("loads the project first when the mirror does not have it", async () => {
    handlers["projects.get"] = () => ok(makeProject({ raw_preview_render: 0 }));
    await actions.renderNow(41);
    expect(names().slice(0, 3)).toEqual(["projects.get", "projects.renderRaw", "projects.render"]);
  });
});

describe("reopen (SPEC §4: a finished project back to Preview Ready)", () => {
  it("asks the API to reopen and stores the project it returns, so the edit screen turns editable", async () => {
    await db.projects.put(makeProject({ status: "Render Ready", final_render: 1 }));
    const reopened = makeProject({ status: "Preview Ready", final_render: 0, updated_at: "2026-11-03T00:00:00.000Z" });
    handlers["projects.reopen"] = () => ok(reopened);
    handlers["projects.get"] = () => ok(reopened);
    const result = await actions.reopenProject(41);
    expect(result.ok).toBe(true);
    expect(calls[0]).toEqual({ name: "projects.reopen", input: { params: { id: 41 } } });
    expect((await db.projects.get(41))?.status).toBe("Preview Ready");
  });

  it("leaves the project finished when the API refuses", async () => {
    await db.projects.put(makeProject({ status: "Render Ready", final_render: 1 }));
    handlers["projects.reopen"] = () => ({ ok: false, failure: { kind: "body", status: 409, body: { message: "busy", code: "project_busy" } } });
    handlers["projects.get"] = () => ok(makeProject({ status: "Render Ready", final_render: 1 }));
    expect((await actions.reopenProject(41)).ok).toBe(false);
    expect((await db.projects.get(41))?.status).toBe("Render Ready");
  });
});

describe("storyboard tools (SPEC §2 Storyboard, §7)", () => {
  it("recreates with the chosen options, then reloads the project and its storyboard", async () => {
    await db.projects.put(makeProject());
    handlers["projects.recreateStoryboard"] = ({ body }) => ok(makeProject({ ...body, needs_render: 1 }));
    handlers["projects.get"] = () => ok(makeProject({ autocutsilences: 0, smoothcuts: 1, needs_render: 1 }));
    const result = await actions.recreateStoryboard(41, { autocutsilences: 0, smoothcuts: 1 });
    expect(result.ok).toBe(true);
    expect(calls[0]).toEqual({ name: "projects.recreateStoryboard", input: { params: { id: 41 }, body: { autocutsilences: 0, smoothcuts: 1 } } });
    expect(names()).toEqual(["projects.recreateStoryboard", "projects.get"]);
    expect(loadStoryboard).toHaveBeenCalledWith(41, true);
    expect(await db.projects.get(41)).toMatchObject({ autocutsilences: 0, needs_render: 1 });
  });

  it("leaves the storyboard alone when the server refuses", async () => {
    handlers["projects.recreateStoryboard"] = () => ({ ok: false, failure: { kind: "body", status: 409, body: { message: "busy", code: "project_busy" } } });
    handlers["projects.get"] = () => ok(makeProject());
    const result = await actions.recreateStoryboard(41, { autocutsilences: 1, smoothcuts: 1 });
    expect(result.ok).toBe(false);
    expect(loadStoryboard).not.toHaveBeenCalled();
  });

  it("resets volumes with auto-duck as chosen, then reloads the scenes", async () => {
    handlers["projects.resetVolumes"] = () => ok(makeProject({ autoduck: 0 }));
    handlers["projects.get"] = () => ok(makeProject({ autoduck: 0 }));
    await actions.resetVolumes(41, false);
    expect(calls[0]).toEqual({ name: "projects.resetVolumes", input: { params: { id: 41 }, query: { autoduck: "false" } } });
    expect(loadStoryboard).toHaveBeenCalledWith(41, true);
    expect(await db.projects.get(41)).toMatchObject({ autoduck: 0 });
  });

  it("asks for a raw render and reloads the project", async () => {
    handlers["projects.renderRaw"] = () => ok(makeProject({ raw_preview_render: 0, working_progress_raw: 0 }));
    handlers["projects.get"] = () => ok(makeProject({ raw_preview_render: 0, working_progress_raw: 40 }));
    await actions.renderRaw(41);
    expect(names()).toEqual(["projects.renderRaw", "projects.get"]);
    expect(await db.projects.get(41)).toMatchObject({ working_progress_raw: 40 });
  });
});
