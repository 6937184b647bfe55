import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import config, { E2E_DATA_DIR } from "../../playwright.config";
import { apiToken, createUser, readStore, signIn, userApi, type UserApi } from "./helpers";

/**
 * Issue 17, SPEC §2 Upload screen (import variant): the recorder with Chromium's fake camera and microphone.
 * The camera shows tests/fixtures/talk.mp4's picture and the microphone plays its voice, both made here by ffmpeg.
 */
const FAKE = path.resolve(E2E_DATA_DIR, "..", "recorder-fake");
const VIDEO = path.join(FAKE, "camera.y4m");
const AUDIO = path.join(FAKE, "microphone.wav");
if (!fs.existsSync(VIDEO) || !fs.existsSync(AUDIO)) {
  fs.mkdirSync(FAKE, { recursive: true });
  const talk = path.resolve("tests/fixtures/talk.mp4");
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", talk, "-t", "15", "-an", "-vf", "scale=320:200,fps=15", "-pix_fmt", "yuv420p", VIDEO]);
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", talk, "-t", "15", "-vn", "-ac", "1", "-ar", "48000", "-c:a", "pcm_s16le", AUDIO]);
}

const base = config.use!.launchOptions!;
test.use({
  launchOptions: {
    ...base,
    args: [
      ...(base.args ?? []),
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${VIDEO}`,
      `--use-file-for-fake-audio-capture=${AUDIO}`,
      "--auto-select-desktop-capture-source=Entire screen",
      "--autoplay-policy=no-user-gesture-required",
    ],
  },
});

const recorderOf = (page: Page) => page.getByRole("region", { name: "Record a video" });

async function openRecorder(page: Page, email: string) {
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/new");
  await page.getByRole("button", { name: "Record with camera or screen" }).click();
  const recorder = recorderOf(page);
  await expect(recorder.getByRole("radio", { name: "Camera", exact: true })).toBeChecked();
  return recorder;
}

/** Seconds on the recorder's timer ("00:07" → 7). */
async function timerSeconds(recorder: Locator): Promise<number> {
  const [m, s] = (await recorder.getByRole("timer").innerText()).trim().slice(0, 5).split(":").map(Number);
  return m! * 60 + s!;
}

/** The recording's row in IndexedDB (the one being made). */
const recordingRow = async (page: Page): Promise<Record<string, any>> => (await readStore(page, "cutroom", "recordings"))[0] ?? {};

/** The library file once POST /library took the upload. */
async function mediaNamed(api: UserApi, name: string) {
  let found: { size: number; duration: number; status: string } | undefined;
  await expect
    .poll(async () => {
      found = (await api.get("/library?page=1")).data.find((m: { name: string }) => m.name === name);
      return !!found;
    }, { timeout: 60_000, intervals: [1_000] })
    .toBe(true);
  return found!;
}

async function createProjectAndWait(page: Page, api: UserApi, name: string) {
  await expect(page).toHaveURL(/\/new\?step=2$/);
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+\/preview$/, { timeout: 120_000 });
  const id = Number(/\/projects\/(\d+)\//.exec(page.url())![1]);
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 200_000, intervals: [2_000] }).toBe("Preview Ready");
}

test("records 10 s with the camera and microphone, streams it while recording, keeps it, uploads it, and the project reaches Preview Ready", async ({ page, request }) => {
  test.setTimeout(360_000);
  const { email } = await createUser(request);
  const api = userApi(request, await apiToken(request, email));
  const recorder = await openRecorder(page, email);
  // Screen recording is offered where the browser has it.
  await expect(recorder.getByRole("radio", { name: "Screen and camera" })).toBeVisible();

  await recorder.getByRole("button", { name: "Start recording" }).click();
  await expect(recorder.getByText(/Recording starts in [1-3]/)).toBeVisible();
  await expect(recorder.getByRole("button", { name: "Pause" })).toBeVisible({ timeout: 10_000 });
  // The level meter follows the voice.
  const meter = recorder.getByRole("meter", { name: "Microphone level" });
  await expect.poll(async () => Number(await meter.getAttribute("aria-valuenow")), { timeout: 10_000 }).toBeGreaterThan(5);
  // Chunks reach IndexedDB and the server while it records, not at the end.
  await expect.poll(async () => (await recordingRow(page))?.uploadedBytes ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
  expect((await recordingRow(page)).status).toBe("recording");

  // Pause and resume: the paused time is not recorded.
  await expect.poll(() => timerSeconds(recorder), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await recorder.getByRole("button", { name: "Pause" }).click();
  await expect(recorder.getByText("Paused")).toBeVisible();
  const paused = await timerSeconds(recorder);
  await page.waitForTimeout(2_000);
  expect(await timerSeconds(recorder)).toBe(paused);
  await recorder.getByRole("button", { name: "Resume" }).click();
  await expect.poll(() => timerSeconds(recorder), { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
  await recorder.getByRole("button", { name: "Stop recording" }).click();

  // The preview plays before it is kept.
  const preview = recorder.getByLabel("Recording preview");
  await expect(preview).toBeVisible({ timeout: 15_000 });
  await preview.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
  // The stream sent the rest and declared the length.
  await expect.poll(async () => (await recordingRow(page))?.uploaded, { timeout: 20_000 }).toBe(true);
  const streamed = await recordingRow(page);
  expect(streamed.durationSeconds).toBeGreaterThanOrEqual(10);
  expect(streamed.durationSeconds).toBeLessThan(13);

  await recorder.getByRole("button", { name: "Keep recording" }).click();
  // In the upload list like a dropped file, with its language.
  const row = page.getByRole("listitem", { name: /^Recording \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\.(webm|mp4)$/ });
  await expect(row).toBeVisible();
  await expect(row.getByText(/ · 00:1[0-2]/)).toBeVisible();
  await expect(row.getByRole("button", { name: /Spoken language/ })).toContainText("English (US)");
  await expect(recorder.getByRole("button", { name: "Start recording" })).toBeVisible();
  expect(await readStore(page, "cutroom", "recordings")).toEqual([]);
  const [upload] = await readStore(page, "cutroom", "uploads");
  expect(upload).toMatchObject({ deferred: true, uploadUrl: streamed.uploadUrl, size: streamed.bytes, locale: "en-US" });

  await page.getByRole("button", { name: "Upload 1 file" }).click();
  const media = await mediaNamed(api, upload!.name);
  // The server has every byte the browser recorded, and measured the same length.
  expect(media.size).toBe(streamed.bytes);
  expect(Math.abs(media.duration - streamed.durationSeconds)).toBeLessThan(1.5);
  await createProjectAndWait(page, api, "Recorded talk");
});

test("a connection lost mid-recording loses nothing: the chunks wait in IndexedDB and the recording arrives complete after reconnecting", async ({ page, context, request }) => {
  test.setTimeout(360_000);
  const { email } = await createUser(request);
  const api = userApi(request, await apiToken(request, email));
  const recorder = await openRecorder(page, email);
  await recorder.getByRole("button", { name: "Start recording" }).click();
  await expect.poll(async () => (await recordingRow(page))?.uploadedBytes ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);

  await context.setOffline(true);
  const cutAt = (await recordingRow(page)).bytes as number;
  await expect.poll(() => timerSeconds(recorder), { timeout: 20_000 }).toBeGreaterThanOrEqual(8);
  // Recorded offline: kept here, not on the server.
  const offline = await recordingRow(page);
  expect(offline.bytes).toBeGreaterThan(cutAt);
  expect(offline.uploadedBytes).toBeLessThan(offline.bytes);
  await recorder.getByRole("button", { name: "Stop recording" }).click();
  await expect(recorder.getByLabel("Recording preview")).toBeVisible({ timeout: 15_000 });
  const recorded = await recordingRow(page);
  expect(recorded.uploaded).toBe(false);
  await recorder.getByRole("button", { name: "Keep recording" }).click();
  await expect(page.getByRole("listitem", { name: recorded.name })).toBeVisible();
  const [upload] = await readStore(page, "cutroom", "uploads");
  expect(upload!.size).toBe(recorded.bytes);
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  await expect(page).toHaveURL(/\/new\?step=2$/);
  await page.getByLabel("Project name").fill("Recorded offline");
  await expect(page.getByText("Waiting for connection…").first()).toBeVisible({ timeout: 30_000 });

  await context.setOffline(false);
  const media = await mediaNamed(api, upload!.name);
  expect(media.size).toBe(recorded.bytes);
  expect(Math.abs(media.duration - recorded.durationSeconds)).toBeLessThan(1.5);
});

test("screen, and screen plus camera, record in headless Chromium (or say why not)", async ({ page, request }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const recorder = await openRecorder(page, email);
  for (const [label, mode] of [["Screen and camera", "screenCamera"], ["Screen", "screen"]] as const) {
    await recorder.getByText(label, { exact: true }).click();
    await expect(recorder.getByRole("radio", { name: label, exact: true })).toBeChecked();
    await recorder.getByRole("button", { name: "Start recording" }).click();
    const started = recorder.getByRole("button", { name: "Pause" });
    const refused = recorder.getByRole("alert");
    await expect(started.or(refused)).toBeVisible({ timeout: 15_000 });
    if (await refused.isVisible()) {
      // No screen to share here: the person is told why.
      await expect(refused).toHaveText(/refused|could not start|cannot record the screen/);
      test.info().annotations.push({ type: "screen", description: `getDisplayMedia unavailable headless: ${await refused.innerText()}` });
      return;
    }
    await expect.poll(async () => (await recordingRow(page))?.bytes ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await recordingRow(page)).mode).toBe(mode);
    await expect.poll(() => timerSeconds(recorder), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await recorder.getByRole("button", { name: "Stop recording" }).click();
    const preview = recorder.getByLabel("Recording preview");
    // The encoder drains what it holds first: on a busy machine a drawn picture can take a while.
    await expect(preview).toBeVisible({ timeout: 60_000 });
    // The picture is the screen's (the fake camera is 320x200), at most 1920x1080.
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    const size = await preview.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]);
    expect(size).not.toEqual([320, 200]);
    expect(size[0]).toBeLessThanOrEqual(1920);
    expect(size[1]).toBeLessThanOrEqual(1080);
    await recorder.getByRole("button", { name: "Discard" }).click();
    await expect.poll(async () => (await readStore(page, "cutroom", "recordings")).length).toBe(0);
  }
});

test("a refused camera gets a clear message; the recorder works from the keyboard and fits a 360 px phone", async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  // The page's own permission answer: what a person who clicks "Block" gets.
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  const { email } = await createUser(request);
  const recorder = await openRecorder(page, email);
  await recorder.getByRole("button", { name: "Start recording" }).focus();
  await page.keyboard.press("Enter");
  await expect(recorder.getByRole("alert")).toHaveText("Access to the camera, microphone or screen was refused. Allow it in the browser's site settings, then try again.");
  await expect(recorder.getByRole("button", { name: "Start recording" })).toBeEnabled();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const box = (await recorder.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await recorder.getByRole("button", { name: "Close the recorder" }).click();
  await expect(page.getByRole("button", { name: "Record with camera or screen" })).toBeVisible();
});
