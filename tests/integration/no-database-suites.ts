/**
 * Integration files that never open a database (ffmpeg, speech, translation, mail, BullMQ on Redis): project
 * integration-pg (issue 19) leaves them out, since on PostgreSQL they would only repeat themselves.
 * postgres-setup.ts fails the run if one of them starts opening a server or a database.
 */
export const NO_DATABASE_SUITES = ["children", "mail-outbox", "media", "queue-bullmq", "smart-render", "sound", "stt-http", "stt-pocketsphinx", "translate-apertium", "translate-http"].map(
  (name) => `tests/integration/${name}.test.ts`,
);

/**
 * Integration files whose time goes to rendering and recognising media (ffmpeg, pocketsphinx) and whose
 * database use is the ordinary one the other suites cover on PostgreSQL: `npm test`'s PostgreSQL stage leaves
 * them out to keep the whole run within CI's time; `npm run test:integration:pg:all` runs them there too.
 */
export const MEDIA_SUITES = ["burned-subtitles", "crafted-media", "cuts-words", "faces", "final-render", "hostile-media", "music-render", "render-edits", "subtitles", "transcript", "waveform"].map(
  (name) => `tests/integration/${name}.test.ts`,
);
