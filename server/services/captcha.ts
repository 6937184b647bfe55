import { createChallenge, verifySolution } from "altcha-lib";
import type { Db } from "../db";
import type { CaptchaChallenge } from "../../api/config";

export interface CaptchaProvider {
  readonly name: "altcha" | "recaptcha" | "off";
  /** A challenge for the browser to solve; only ALTCHA has one. */
  challenge(): Promise<CaptchaChallenge | null>;
  /** True when `response` proves a human (or a browser that did the work). Single use. */
  verify(response: string, remoteIp: string): Promise<boolean>;
}

const CHALLENGE_TTL_MS = 10 * 60_000;

/** ALTCHA proof-of-work: self-hosted, invisible. Spent solutions are remembered until they expire. */
export function altchaProvider(db: Db, hmacKey: string, maxNumber: number): CaptchaProvider {
  return {
    name: "altcha",
    async challenge() {
      const c = await createChallenge({ hmacKey, maxNumber, expires: new Date(Date.now() + CHALLENGE_TTL_MS) });
      return { algorithm: c.algorithm, challenge: c.challenge, maxnumber: c.maxnumber, salt: c.salt, signature: c.signature };
    },
    async verify(response) {
      if (!response) return false;
      let signature: string;
      try {
        const decoded = JSON.parse(Buffer.from(response, "base64").toString("utf8")) as { signature?: unknown };
        if (typeof decoded.signature !== "string") return false;
        signature = decoded.signature;
      } catch {
        return false;
      }
      if (!(await verifySolution(response, hmacKey, true))) return false;
      const now = new Date().toISOString();
      await db.deleteFrom("captcha_spent").where("expires_at", "<", now).execute();
      const spent = await db
        .insertInto("captcha_spent")
        .values({ signature, expires_at: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString() })
        .onConflict((oc) => oc.column("signature").doNothing())
        .executeTakeFirst();
      return Number(spent.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}

/** Google reCAPTCHA, verified server-side with the secret key. */
export function recaptchaProvider(secret: string, fetchImpl: typeof fetch = fetch): CaptchaProvider {
  return {
    name: "recaptcha",
    challenge: async () => null,
    async verify(response, remoteIp) {
      if (!response) return false;
      const res = await fetchImpl("https://www.google.com/recaptcha/api/siteverify", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ secret, response, remoteip: remoteIp }),
      });
      if (!res.ok) return false;
      const body = (await res.json()) as { success?: boolean };
      return body.success === true;
    },
  };
}

/** For tests only (CAPTCHA=off). */
export const noCaptcha: CaptchaProvider = { name: "off", challenge: async () => null, verify: async () => true };
