/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import babel from "@rolldown/plugin-babel";
import { lingui } from "@lingui/vite-plugin";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import { VitePWA } from "vite-plugin-pwa";
import { NO_DATABASE_SUITES } from "./tests/integration/no-database-suites";
import { publicCatalog } from "./scripts/public-catalog";

const linguiMacro = () => babel({ plugins: ["@lingui/babel-plugin-lingui-macro"] });
const apiTarget = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: "src/routes",
      generatedRouteTree: "src/routeTree.gen.ts",
    }),
    react(),
    linguiMacro(),
    publicCatalog(),
    lingui(),
    VitePWA({
      strategies: "injectManifest",
      srcDir: "sw",
      filename: "service-worker.ts",
      injectRegister: false,
      registerType: "prompt",
      manifest: {
        // A stable identity: the installed app stays the same app if start_url ever changes.
        id: "/",
        name: "Cutroom",
        short_name: "Cutroom",
        description: "AI-assisted video editor: silences cut, subtitles, music, storyboard.",
        lang: "en",
        categories: ["productivity"],
        theme_color: "#5b3df5",
        background_color: "#111018",
        display: "standalone",
        start_url: "/",
        scope: "/",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          // Full-bleed artwork with the logo inside the safe zone, for launchers that crop to a shape.
          { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
        // Long-press on the installed icon (SPEC §2 routes /open and /library).
        shortcuts: [
          {
            name: "Project list",
            short_name: "Projects",
            url: "/open",
            icons: [{ src: "/icons/shortcut-projects-96.png", sizes: "96x96", type: "image/png" }],
          },
          {
            name: "Media library",
            short_name: "Library",
            url: "/library",
            icons: [{ src: "/icons/shortcut-library-96.png", sizes: "96x96", type: "image/png" }],
          },
        ],
      },
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
      },
      devOptions: { enabled: false },
    }),
  ],
  worker: {
    format: "es",
    plugins: () => [linguiMacro(), lingui()],
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Issue 18: what every page runs first (React, the router, Lingui) in one chunk instead of a
            // dozen sub-2 KB ones, each of which costs a round trip and ~0.5 KB of headers.
            {
              name: "boot",
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|store|react-store)|@lingui[\\/](core|react)|use-sync-external-store)[\\/]/,
              priority: 10,
            },
            // Dexie apart: a visitor's first visit has no mirror to read (src/db/mirror.ts).
            {
              name: "dexie",
              test: /node_modules[\\/](dexie|dexie-react-hooks)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { "/api": apiTarget } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["tests/unit/setup.ts"],
          // jsdom renders of whole views take seconds on a loaded 2-core machine; 5 s (the default) is too tight there.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          pool: "forks",
          // Two files at a time: most of a file's time is spent waiting on ffmpeg, servers and child processes.
          maxWorkers: 2,
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Issue 19: the same integration files on PostgreSQL (TEST_POSTGRES_URL, default
          // postgres://postgres@127.0.0.1:5432/test); each test server gets its own database.
          name: "integration-pg",
          include: ["tests/integration/**/*.test.ts"],
          // Files that open no database would only repeat themselves here (no-database-suites.ts); scale-mode
          // and queue-bullmq bring their own PostgreSQL database and Redis prefix: the "integration" run covers them.
          exclude: [...NO_DATABASE_SUITES, "tests/integration/scale-mode.test.ts"],
          environment: "node",
          pool: "forks",
          maxWorkers: 2,
          globalSetup: ["tests/integration/global-setup.ts", "tests/integration/postgres-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
