import { defineConfig } from "@lingui/cli";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "pt-BR", "es", "it", "fr", "de"],
  fallbackLocales: { default: "en" },
  catalogs: [
    {
      path: "<rootDir>/locales/{locale}/messages",
      include: ["<rootDir>/src", "<rootDir>/workers", "<rootDir>/server/notify"],
      exclude: ["**/node_modules/**", "**/*.test.*"],
    },
  ],
  format: "po",
  orderBy: "messageId",
});
