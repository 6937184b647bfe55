/** Moved to steps/transcribe.ts (the pipeline's steps each have a file); kept so older imports still resolve. */
export * from "./steps/transcribe";
