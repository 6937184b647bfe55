/**
 * Integration files that never open a database (ffmpeg, speech, translation, mail, BullMQ on Redis): project
 * integration-pg (issue 19) leaves them out, since on PostgreSQL they would only repeat themselves.
 * postgres-setup.ts fails the run if one of them starts opening a server or a database.
 */
export const NO_DATABASE_SUITES = ["children", "mail-outbox", "media", "queue-bullmq", "smart-render", "sound", "stt-http", "stt-pocketsphinx", "translate-apertium", "translate-http"].map(
  (name) => `tests/integration/${name}.test.ts`,
);
