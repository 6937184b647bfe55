import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerI18n } from "../../server/notify/i18n";
import { outboxMailer } from "../../server/notify/mail";
import { renderFinishedMail } from "../../server/notify/render-mail";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

let server: TestServer;
let base = "";
let token = "";
let email = "";
let projectId = 0;
const api = jsonApi(() => base, () => token);

const renderMails = () => server.mails.filter((m) => m.to === email && m.template?.startsWith("render-"));

/** Renders and waits until the render job is over (its notices go out before the job is marked done). */
async function render(final: boolean) {
  const since = new Date().toISOString();
  const res = await api("POST", `/projects/${projectId}/render`, { final });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await waitFor(async () => {
    const job = await server.db.selectFrom("jobs").select(["status", "updated_at"]).where("id", "=", `render:${projectId}`).executeTakeFirst();
    return job?.status === "done" && job.updated_at > since ? true : undefined;
  }, 60_000);
}

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://cutroom.example" });
  base = await listen(server);
  ({ token, email } = await server.signUp(undefined, "de"));
  const me = (await api("GET", "/user")).body;
  // SPEC §6: render notifications are a feature of paid plans.
  await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("id", "=", me.id).execute();
  projectId = await processedTalkProject(base, token, "Mein Video");
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe("the render e-mail", () => {
  it("tells of the finished preview in the user's language, with the storyboard link", async () => {
    const [mail] = await waitFor(async () => (renderMails().length ? renderMails() : undefined), 15_000);
    expect(renderMails()).toHaveLength(1);
    expect(mail!.template).toBe("render-preview_ready");
    expect(mail!.subject).not.toMatch(/preview of/i);
    expect(mail!.subject).toContain("Mein Video");
    expect(mail!.links).toEqual([`https://cutroom.example/projects/${projectId}/storyboard`]);
    expect(mail!.text).toContain(`https://cutroom.example/projects/${projectId}/storyboard`);
    // German, not the English source text.
    expect(mail!.text).toContain("Hallo Ana");
  });

  it("links a final render to the share view", async () => {
    await render(true);
    const mail = renderMails().at(-1)!;
    expect(mail.template).toBe("render-render_ready");
    expect(mail.links).toEqual([`https://cutroom.example/projects/${projectId}/share`]);
    await api("GET", `/projects/${projectId}/reopen`);
  }, 90_000);

  it("is not sent when the user's switch, the project's switch or the plan says no", async () => {
    const me = (await api("GET", "/user")).body;
    const count = renderMails().length;
    expect((await api("POST", "/user/settings/notifications/render/0")).body.render_notifications).toBe(0);
    await render(false);
    expect(renderMails()).toHaveLength(count);
    await api("POST", "/user/settings/notifications/render/1");

    expect((await api("PUT", `/projects/${projectId}`, { render_notifications: false })).body.render_notifications).toBe(0);
    await render(false);
    expect(renderMails()).toHaveLength(count);
    await api("PUT", `/projects/${projectId}`, { render_notifications: true });

    await server.db.updateTable("users").set({ plan_id: "free" }).where("id", "=", me.id).execute();
    await render(false);
    expect(renderMails()).toHaveLength(count);
    await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("id", "=", me.id).execute();

    await render(false);
    expect(renderMails()).toHaveLength(count + 1);
    expect(renderMails().at(-1)!.template).toBe("render-preview_ready");
  }, 240_000);
});

describe("the render e-mail through the outbox mailer", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-render-outbox-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is written to DATA_DIR/outbox/ in each language, and the log names only its template", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const log = Fastify({ logger: { level: "info", stream } }).log;
    const mailer = outboxMailer(dir, "Cutroom <no-reply@cutroom.local>", log);
    const i18n = loadServerI18n();
    const subjects = new Set<string>();
    for (const locale of ["en", "pt-BR", "es", "it", "fr", "de"]) {
      const mail = renderFinishedMail(i18n(locale), "ana.silva@example.com", "Ana", "render_ready", "Demo", "https://cutroom.example/projects/7/share");
      subjects.add(mail.subject);
      expect(mail.subject).toContain("Demo");
      await mailer.send(mail);
    }
    // Six languages, six different subjects.
    expect(subjects.size).toBe(6);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(6);
    const written = JSON.parse(fs.readFileSync(path.join(dir, files[0]!), "utf8"));
    expect(written.links).toEqual(["https://cutroom.example/projects/7/share"]);
    expect(written.html).toContain('<a href="https://cutroom.example/projects/7/share">');
    const logged = lines.filter((l) => l.includes("mail written to outbox")).map((l) => JSON.parse(l));
    expect(logged).toHaveLength(6);
    for (const entry of logged) expect(entry).toMatchObject({ template: "render-render_ready", to: "a***@example.com" });
    for (const l of lines) expect(l).not.toContain("ana.silva@");
  });
});
