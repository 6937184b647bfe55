import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 8181);
/** E2E_DATA_DIR lets two runs (e.g. with another E2E_PORT) share the tree without sharing data. */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".tmp/e2e-data";
/** Where tests/e2e/youtube.spec.ts starts its stand-in for Google (OAuth and YouTube uploads); the server is pointed at it. */
export const E2E_YOUTUBE_PORT = Number(process.env.E2E_YOUTUBE_PORT ?? PORT + 1000);
const youtubeStandIn = `http://127.0.0.1:${E2E_YOUTUBE_PORT}`;
/** A coupon the payment specs apply (25 % off, one billing cycle). */
export const E2E_COUPON = { code: "E2E-SAVE25", percent_off: 25 };
/** The shipped plans plus E2E_COUPON: a PLANS_FILE replaces the whole catalogue, so it is written from the shipped one. */
const E2E_PLANS_FILE = path.resolve(`${E2E_DATA_DIR}-plans.json`);
fs.mkdirSync(path.dirname(E2E_PLANS_FILE), { recursive: true });
fs.writeFileSync(
  E2E_PLANS_FILE,
  JSON.stringify({ plans: JSON.parse(fs.readFileSync(path.resolve("server/payments/plans.json"), "utf8")).plans, coupons: [E2E_COUPON] }),
);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: ".tmp/e2e-results.json" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // A fresh data folder every run; the app is built first when its sources changed.
    command: `node -e "require('fs').rmSync('${E2E_DATA_DIR}',{recursive:true,force:true})" && npx tsx server/start.ts`,
    url: `http://localhost:${PORT}/api/v1/config`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_DATA_DIR,
      ALTCHA_MAX_NUMBER: "20000",
      LOG_LEVEL: "warn",
      RATE_LIMIT_LOGIN: "200",
      RATE_LIMIT_REGISTER: "200",
      YOUTUBE_CLIENT_ID: "cutroom-e2e.apps.googleusercontent.com",
      YOUTUBE_CLIENT_SECRET: "e2e-client-secret",
      YOUTUBE_AUTH_URL: `${youtubeStandIn}/o/oauth2/v2/auth`,
      YOUTUBE_TOKEN_URL: `${youtubeStandIn}/token`,
      YOUTUBE_REVOKE_URL: `${youtubeStandIn}/revoke`,
      YOUTUBE_API_BASE: youtubeStandIn,
      YOUTUBE_CHUNK_BYTES: "262144",
      PLANS_FILE: E2E_PLANS_FILE,
    },
  },
});
