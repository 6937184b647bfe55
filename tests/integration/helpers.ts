import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { solveChallenge } from "altcha-lib";
import { loadConfig } from "../../server/config";
import { createServer, type Overrides, type Server } from "../../server/main";
import type { Mail, Mailer } from "../../server/notify/mail";
import { tusUpload } from "./tus";
import { databaseEnv, dropDatabase } from "./database";

export interface TestServer extends Server {
  mails: Mail[];
  dataDir: string;
  /** Registers through the API with a solved captcha; answers the response. */
  register(overrides?: Record<string, unknown>): Promise<{ statusCode: number; json: () => any }>;
  /** Registers, follows the verification link and signs in; answers the api token. */
  signUp(email?: string, locale?: string): Promise<{ token: string; email: string }>;
  captchaPayload(): Promise<string>;
}

let counter = 0;

export async function startTestServer(env: Record<string, string> = {}, options: Omit<Overrides, "mailer"> = {}): Promise<TestServer> {
  // Under a dot-directory on purpose: the app must not care where DATA_DIR lives.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), ".cutroom-it-"));
  // SQLite in the data folder, or (project integration-pg) a PostgreSQL database of its own.
  const database = databaseEnv(env.DATA_DIR ?? dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ALTCHA_MAX_NUMBER: "2000", RATE_LIMIT_LOGIN: "1000", RATE_LIMIT_REGISTER: "1000", RATE_LIMIT_RESEND: "1000", RATE_LIMIT_UPLOADS: "1000", STATIC_DIR: path.join(dataDir, "no-app"), STT: "off", FACE_DETECTION: "off", ...database, ...env });
  const mails: Mail[] = [];
  const mailer: Mailer = { send: async (mail) => void mails.push(mail) };
  const server = await createServer(config, { ...options, mailer });

  const captchaPayload = async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/v1/captcha/challenge" });
    const c = res.json();
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution!.number, salt: c.salt, signature: c.signature })).toString("base64");
  };

  const register = async (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    const email = `user${counter}-${Date.now()}@example.com`;
    const body = {
      locale: "en",
      first_name: "Ana",
      last_name: "Silva",
      email,
      password: "secret123",
      password_confirmation: "secret123",
      terms: true,
      "g-recaptcha-response": config.captcha.provider === "off" ? "" : await captchaPayload(),
      ...overrides,
    };
    return server.app.inject({ method: "POST", url: "/api/v1/register", payload: body });
  };

  const signUp = async (email?: string, locale = "en") => {
    const res = await register({ ...(email ? { email } : {}), locale });
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.body}`);
    const address = res.json().email as string;
    const link = mails.filter((m) => m.to === address).at(-1)!.links![0]!;
    await server.app.inject({ method: "GET", url: new URL(link).pathname + new URL(link).search });
    const login = await server.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email: address, password: "secret123" } });
    return { token: login.json().api_token as string, email: address };
  };

  return {
    ...server,
    mails,
    dataDir,
    register,
    signUp,
    captchaPayload,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!env.DATA_DIR) await dropDatabase(dataDir);
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Listens on a free loopback port, for tests that need real HTTP (tus uploads, media). */
export async function listen(server: TestServer): Promise<string> {
  const address = await server.app.listen({ port: 0, host: "127.0.0.1" });
  return address;
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 90_000, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A JSON client for the API over real HTTP; `as` picks another user's token. */
export function jsonApi(base: () => string, token: () => string) {
  return async (method: string, url: string, body?: unknown, as = token()) => {
    const res = await fetch(`${base()}/api/v1${url}`, {
      method,
      headers: { ...bearer(as), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Uploads tests/fixtures/talk.mp4 for `token`'s user and makes a project of it; answers its id once it is Preview Ready. */
export async function processedTalkProject(base: string, token: string, name: string): Promise<number> {
  const api = jsonApi(() => base, () => token);
  const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/talk.mp4"), { name: "talk.mp4" });
  const media = await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
  const projectId = (await api("POST", "/createproject", { name, locale: "en-US", style: "video", media: [media.body.media_file.id] })).body.id as number;
  // Preview Ready, then its subtitles (issue 14: recognised after the preview, in a job of their own).
  await waitFor(async () => {
    const body = (await api("GET", `/projects/${projectId}`)).body;
    return body.status === "Preview Ready" && !body.subtitles_pending ? true : undefined;
  });
  return projectId;
}
