import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";

describe("speech settings", () => {
  it("uses pocketsphinx alone when STT_URL is not set", () => {
    const { speech } = loadConfig({});
    expect(speech.http).toBeNull();
    expect(speech.pocketsphinx).toEqual({ binary: "pocketsphinx_continuous", modelDir: "/usr/share/pocketsphinx/model/en-us" });
  });

  it("adds the Whisper-compatible service with its key, model, languages, timeout and size limit", () => {
    const { speech } = loadConfig({
      STT_URL: "http://stt.local:8000",
      STT_API_KEY: "sk-1",
      STT_MODEL: "Systran/faster-whisper-small",
      STT_LANGUAGES: "pt-BR, es-ES",
      STT_TIMEOUT_SECONDS: "120",
      STT_MAX_REQUEST_MB: "10",
    });
    expect(speech.http).toMatchObject({
      url: "http://stt.local:8000",
      apiKey: "sk-1",
      model: "Systran/faster-whisper-small",
      languages: ["pt-BR", "es-ES"],
      timeoutMs: 120_000,
      maxRequestBytes: 10 * 1024 * 1024,
    });
    expect(loadConfig({ STT_URL: "http://stt.local" }).speech.http).toMatchObject({ apiKey: null, model: "whisper-1", maxRequestBytes: 25 * 1024 * 1024 });
    expect(loadConfig({ STT_URL: "http://stt.local" }).speech.http?.languages).toContain("hi-IN");
  });

  it("refuses a language no upload can have, and an address that is not a URL", () => {
    expect(() => loadConfig({ STT_URL: "http://stt.local", STT_LANGUAGES: "en-US,xx-YY" })).toThrow(/STT_LANGUAGES/);
    expect(() => loadConfig({ STT_URL: "stt.local" })).toThrow(/STT_URL/);
  });
});
