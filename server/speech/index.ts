// Speech recognition, subtitle lines and subtitle files. Nothing here knows about HTTP, users or the database.
import { pocketsphinx, type PocketsphinxSettings } from "./pocketsphinx";
import { speechToText, type SpeechEngine, type SpeechToText } from "./stt";
import { whisperHttp, type WhisperHttpSettings } from "./whisper-http";

export * from "./stt";
export * from "./words";
export * from "./lines";
export * from "./subtitle-files";
export type { PocketsphinxSettings } from "./pocketsphinx";
export type { WhisperHttpSettings } from "./whisper-http";

export interface SpeechSettings {
  /** The Whisper-compatible service (STT_URL), or null for the local engine alone. */
  http: WhisperHttpSettings | null;
  pocketsphinx: PocketsphinxSettings;
}

/** The port as the configuration asks for it: the service first for the languages it serves, then pocketsphinx. */
export function createSpeechToText(settings: SpeechSettings): SpeechToText {
  const engines: SpeechEngine[] = [];
  if (settings.http) engines.push(whisperHttp(settings.http));
  engines.push(pocketsphinx(settings.pocketsphinx));
  return speechToText(engines);
}
