import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import type * as tus from "tus-js-client";
import { uploadErrorMessage } from "../../src/features/upload/messages";
import { refusalCode } from "../../workers/uploads";
import { messages as en } from "../../locales/en/messages.po";
import { messages as ptBR } from "../../locales/pt-BR/messages.po";

/** A tus-js-client error as the server's answer leaves it. */
const answered = (status: number, body: string) =>
  ({ originalResponse: { getStatus: () => status, getBody: () => body } }) as unknown as tus.DetailedError;

describe("tus refusals in the app (issue 12 item 11)", () => {
  it("reads the server's code from a JSON refusal, and resumes on what may get better", () => {
    expect(refusalCode(answered(413, JSON.stringify({ code: "file_too_big", message: "One or more files exceed the single-file size limit" })))).toBe("file_too_big");
    expect(refusalCode(answered(422, JSON.stringify({ code: "not_enough_storage", message: "Not enough storage" })))).toBe("not_enough_storage");
    expect(refusalCode(answered(410, JSON.stringify({ code: "upload_expired", message: "expired" })))).toBe("upload_expired");
    expect(refusalCode(answered(400, "not json"))).toBe("bad_request");
    for (const status of [401, 409, 423, 429, 500, 503]) expect(refusalCode(answered(status, "{}")), String(status)).toBeUndefined();
    expect(refusalCode({} as tus.DetailedError)).toBeUndefined();
  });

  it("shows SPEC's 'limit single file' message in the user's language", () => {
    const english = setupI18n({ locale: "en", messages: { en } });
    const portuguese = setupI18n({ locale: "pt-BR", messages: { "pt-BR": ptBR } });
    const code = refusalCode(answered(413, JSON.stringify({ code: "file_too_big", message: "x" })))!;
    expect(uploadErrorMessage(english, code)).toBe("One or more files exceed the single-file size limit.");
    expect(uploadErrorMessage(portuguese, code)).toBe("Um ou mais arquivos excedem o limite de tamanho por arquivo.");
  });
});
