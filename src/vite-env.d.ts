/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}

/** The part of a catalog a visitor's pages use (scripts/public-catalog.ts). */
declare module "*.po?public" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}
