import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApiClient } from "../../workers/api-client";
import { classifyFailure } from "../../workers/status";
import { refusalCode } from "../../workers/uploads";
import { failureMessage } from "../../src/features/errors";
import { uploadErrorMessage } from "../../src/features/upload/messages";
import { creationFailedToast } from "../../src/features/wizard/messages";

/**
 * Issue 12 item 15: processing refused for an unverified address is a 403 `email_not_verified` on
 * /library, /createproject, /projects/… and /uploads. SPEC §8 signs out on 401 and on 403 under /user only:
 * this one must be shown as a message, never sign the user out.
 */
const REFUSED = { message: "Confirm your email address first: open the link we sent you.", code: "email_not_verified" } as const;
const SHOWN = "Confirm your email address first: open the link we sent you, then try again.";

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

function clientAnswering(status: number, body: unknown) {
  const onSignedOut = vi.fn(async () => undefined);
  const fetchImpl = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));
  const call = createApiClient({ getToken: async () => "t", onSignedOut, fetchImpl: fetchImpl as unknown as typeof fetch });
  return { call, onSignedOut };
}

describe("a 403 email_not_verified", () => {
  it("falls through to the body on every processing route", () => {
    for (const path of ["/library", "/createproject", "/projects/3/render", "/projects/3/restart", "/projects/3/renderraw", "/projects/3/cuts"]) {
      expect(classifyFailure(403, path, REFUSED)).toEqual({ kind: "body", status: 403, body: REFUSED });
    }
  });

  it("does not sign the user out; a 401 (a lapsed token) does", async () => {
    const refused = clientAnswering(403, REFUSED);
    const result = await refused.call("projects.create", { body: { name: "P", locale: "en-US", style: "video", media: [1] } as never });
    expect(result).toEqual({ ok: false, failure: { kind: "body", status: 403, body: REFUSED } });
    expect(refused.onSignedOut).not.toHaveBeenCalled();

    const lapsed = clientAnswering(401, { message: "Please authenticate", code: "unauthenticated" });
    const gone = await lapsed.call("projects.list", { query: { page: 1 } as never });
    expect(gone).toEqual({ ok: false, failure: { kind: "signed_out" } });
    expect(lapsed.onSignedOut).toHaveBeenCalledTimes(1);
  });

  it("at tus upload creation fails the file with that code instead of waiting for a connection", () => {
    const answer = (status: number, body: unknown) =>
      ({ originalResponse: { getStatus: () => status, getBody: () => JSON.stringify(body) } }) as unknown as Parameters<typeof refusalCode>[0];
    expect(refusalCode(answer(403, REFUSED))).toBe("email_not_verified");
    expect(uploadErrorMessage(i18n, refusalCode(answer(403, REFUSED))!)).toBe(SHOWN);
  });

  it("is worded for the user by the upload list and the wizard's 'Error creating project' toast", () => {
    expect(failureMessage(i18n, { kind: "body", status: 403, body: REFUSED })).toBe(SHOWN);
    expect(uploadErrorMessage(i18n, "email_not_verified")).toBe(SHOWN);
    const toast = creationFailedToast(i18n, "email_not_verified");
    expect(toast).toMatchObject({ variant: "danger", title: "Error creating project" });
    expect(String((toast as { description: string }).description)).toContain(SHOWN);
  });
});
