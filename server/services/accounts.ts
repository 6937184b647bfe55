import { randomBytes } from "node:crypto";
import type { I18n } from "@lingui/core";
import type { z } from "zod";
import type { Db } from "../db";
import type { PlanRow, UserRow } from "../db/schema";
import type { Limits, LoginBody, Quotas, User } from "../../api/user";
import type { Locale } from "../../api/locales";
import { carriesWatermark, userVideoTier } from "../../api/export-tiers";
import { findPlan } from "../db/plans";
import { usageOf } from "../db/media";
import { findUserByEmail, findUserById, insertUser, normaliseEmail, updateUser } from "../db/users";
import { DEFAULT_TOKEN_LIFETIME, issueToken, revokeToken, sha256, type TokenLifetime } from "../db/tokens";
import { FREE_PLAN_ID, lifetimePlanId } from "../domain/plans";
import { BYTES_PER_GB, remainingQuotas } from "../domain/quotas";
import { usageWindowStart } from "../domain/billing";
import type { Mailer } from "../notify/mail";
import { verificationMail } from "../notify/templates";
import type { CaptchaProvider } from "./captcha";
import { DomainError, notFound } from "./errors";
import { decoyHash, hashPassword, verifyPassword } from "./passwords";
import { sign, verifySignature } from "./signed-links";

export const VERIFY_LINK_TTL_S = 24 * 3600;
export const HANDOFF_TTL_MS = 2 * 60_000;

export interface AccountsDeps {
  db: Db;
  mailer: Mailer;
  captcha: CaptchaProvider;
  secret: string;
  publicUrl: string;
  i18n: (locale: string) => I18n;
  /** How long api tokens live (TOKEN_IDLE_DAYS, TOKEN_MAX_DAYS). */
  tokenLifetime?: TokenLifetime;
  /**
   * Issue 16: where the user's billing period started (null: no subscription), and the clock payments run
   * on, so processing minutes reset each billing period.
   */
  billing?: { anchor: (userId: number) => Promise<number | null>; now: () => number };
}

type RegisterInput = z.output<typeof import("../../api/user").RegisterBody>;

const planMeta = (plan: PlanRow) => JSON.parse(plan.metadata) as z.infer<typeof import("../../api/plans").PlanMetadata>;

export function createAccounts(deps: AccountsDeps) {
  const { db } = deps;
  const tokenLifetime = deps.tokenLifetime ?? DEFAULT_TOKEN_LIFETIME;

  async function planOf(user: UserRow): Promise<PlanRow> {
    // A lifetime tier (bought, or a partner licence `{product}_tierN`) gives its lifetime plan's limits, whatever a subscription did.
    const lifetime = lifetimePlanId(user.ltd_tier);
    const lifetimePlan = lifetime ? await findPlan(db, lifetime) : undefined;
    if (lifetimePlan) return lifetimePlan;
    return (await findPlan(db, user.plan_id)) ?? (await findPlan(db, FREE_PLAN_ID))!;
  }

  async function toUser(row: UserRow): Promise<User> {
    const plan = await planOf(row);
    const meta = planMeta(plan);
    const usage = await usageOf(db, row.id);
    return {
      id: row.id,
      name: `${row.first_name} ${row.last_name}`.trim(),
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      email_verified_at: row.email_verified_at,
      locale: row.locale as Locale,
      video_tier: meta.video_tier,
      created_at: row.created_at,
      total_used_storage: usage.storageBytes,
      max_storage: meta.storage_gb * BYTES_PER_GB,
      render_notifications: row.render_notifications ? 1 : 0,
      show_wizard: row.show_wizard ? 1 : 0,
      ltd_tier: row.ltd_tier,
      ltd_renew_at: row.ltd_renew_at,
      appsumo_license_uuid: row.appsumo_license_uuid,
      stripe_id: row.stripe_id,
      plan: { id: plan.id, nickname: plan.nickname },
      features: JSON.parse(plan.features) as string[],
    };
  }

  function verificationLink(user: UserRow): string {
    const expires = Math.floor(Date.now() / 1000) + VERIFY_LINK_TTL_S;
    const signature = sign(deps.secret, `${user.id}|${user.email}|${expires}`);
    return `${deps.publicUrl}/api/v1/user/email/verify/${user.id}?expires=${expires}&signature=${signature}`;
  }

  async function sendVerification(user: UserRow) {
    const link = verificationLink(user);
    await deps.mailer.send(verificationMail(deps.i18n(user.locale), user.email, user.first_name, link));
  }

  async function mustFind(userId: number): Promise<UserRow> {
    const row = await findUserById(db, userId);
    if (!row) throw new DomainError("unauthenticated", "Please authenticate");
    return row;
  }

  return {
    toUser,

    async register(input: RegisterInput, remoteIp: string) {
      if (!(await deps.captcha.verify(input["g-recaptcha-response"] ?? "", remoteIp))) {
        throw new DomainError("captcha_failed", "The captcha could not be verified");
      }
      const email = normaliseEmail(input.email);
      if (await findUserByEmail(db, email)) {
        throw new DomainError("validation_failed", "This email is already registered", { email: "email_taken" });
      }
      const now = new Date().toISOString();
      let row: UserRow;
      try {
        row = await insertUser(db, {
          email,
          password_hash: await hashPassword(input.password),
          first_name: input.first_name,
          last_name: input.last_name,
          locale: input.locale,
          email_verified_at: null,
          plan_id: FREE_PLAN_ID,
          render_notifications: 1,
          show_wizard: 0,
          ltd_tier: null,
          ltd_renew_at: null,
          appsumo_license_uuid: null,
          stripe_id: null,
          referral: input.referral ?? null,
          clickid: input.clickid ?? null,
          total_used_storage: 0,
          created_at: now,
          updated_at: now,
        });
      } catch (error) {
        // Two registrations racing for the same email: the unique index decides.
        if (String(error).includes("UNIQUE") || String(error).includes("unique")) {
          throw new DomainError("validation_failed", "This email is already registered", { email: "email_taken" });
        }
        throw error;
      }
      await sendVerification(row);
      return { id: row.id, email: row.email, name: `${row.first_name} ${row.last_name}`, created_at: row.created_at, locale: row.locale as Locale };
    },

    /** Verifies a signed link; answers where the app should go. */
    async verifyEmail(userId: number, expires: number, signature: string): Promise<"verified" | "expired" | "invalid"> {
      const row = await findUserById(db, userId);
      if (!row || !verifySignature(deps.secret, `${row.id}|${row.email}|${expires}`, signature)) return "invalid";
      if (row.email_verified_at) return "verified";
      if (expires * 1000 < Date.now()) return "expired";
      await updateUser(db, row.id, { email_verified_at: new Date().toISOString() });
      return "verified";
    },

    async resendVerification(userId: number) {
      const row = await mustFind(userId);
      if (row.email_verified_at) throw new DomainError("already_verified", "This email is already verified");
      await sendVerification(row);
      return { msg: "check mailbox" };
    },

    async login(input: LoginBody) {
      const row = await findUserByEmail(db, input.email);
      const ok = await verifyPassword(input.password, row?.password_hash ?? (await decoyHash()));
      if (!row || !ok) throw new DomainError("invalid_credentials", "Invalid e-mail address or password");
      const token = await issueToken(db, row.id, tokenLifetime);
      return { ...(await toUser(row)), api_token: token };
    },

    logout: (token: string) => revokeToken(db, token).then(() => ({ msg: "logged out" })),

    get: async (userId: number) => toUser(await mustFind(userId)),

    async update(userId: number, changes: { first_name?: string; last_name?: string; locale?: Locale; render_notifications?: 0 | 1 }) {
      await mustFind(userId);
      return toUser(await updateUser(db, userId, changes));
    },

    async limits(userId: number): Promise<z.infer<typeof Limits>> {
      const plan = await planOf(await mustFind(userId));
      const meta = planMeta(plan);
      return {
        plan: { id: plan.id, nickname: plan.nickname },
        monthly_minutes: meta.monthly_minutes,
        video_tier: meta.video_tier,
        storage_gb: meta.storage_gb,
        upload_max_length_minutes: meta.upload_max_length_minutes,
        upload_max_size_mb: meta.upload_max_size_mb,
      };
    },

    async quotas(userId: number): Promise<Quotas> {
      const row = await mustFind(userId);
      const meta = planMeta(await planOf(row));
      const usage = await usageOf(db, userId, deps.billing ? usageWindowStart(deps.billing.now(), await deps.billing.anchor(userId)) : undefined);
      return remainingQuotas(meta, { usedStorageBytes: usage.storageBytes, usedMinutesThisPeriod: usage.minutesThisMonth });
    },

    /**
     * Processing (uploads, ingest, projects, renders) waits for a verified address (issue 12 item 15): a 403
     * that the app shows as a message; it does not sign out (SPEC §8 signs out on 403 only under /user).
     */
    async mustBeVerified(userId: number): Promise<void> {
      const row = await mustFind(userId);
      if (!row.email_verified_at) {
        throw new DomainError("email_not_verified", "Confirm your email address first: open the link we sent you.");
      }
    },

    /** Paid plans' jobs run first (SPEC §4 queue behaviour). */
    async isPaid(userId: number): Promise<boolean> {
      const row = await mustFind(userId);
      return planMeta(await planOf(row)).video_tier >= 1 || !!row.ltd_tier;
    },

    /**
     * What a final render may be (SPEC §6): the plan's video_tier (a lifetime deal exports 1080p, SPEC §9)
     * and whether it carries the watermark (plans without the no_watermark feature; never a lifetime deal).
     */
    async renderRights(userId: number): Promise<{ videoTier: number; watermark: boolean }> {
      const row = await mustFind(userId);
      const plan = await planOf(row);
      const features = JSON.parse(plan.features) as string[];
      return {
        videoTier: userVideoTier({ video_tier: planMeta(plan).video_tier, ltd_tier: row.ltd_tier }),
        watermark: carriesWatermark({ features, ltd_tier: row.ltd_tier }),
      };
    },

    /** A short-lived, single-use code for the new-AI-version link; the long-lived token never leaves. */
    async createHandoffCode(userId: number) {
      const code = randomBytes(24).toString("base64url");
      const expires = new Date(Date.now() + HANDOFF_TTL_MS).toISOString();
      await db.deleteFrom("handoff_codes").where("expires_at", "<", new Date().toISOString()).execute();
      await db.insertInto("handoff_codes").values({ code_hash: sha256(code), user_id: userId, expires_at: expires, used_at: null }).execute();
      return { code, expires_at: expires };
    },

    async exchangeHandoffCode(code: string) {
      const now = new Date().toISOString();
      const spent = await db
        .updateTable("handoff_codes")
        .set({ used_at: now })
        .where("code_hash", "=", sha256(code))
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .returning("user_id")
        .executeTakeFirst();
      if (!spent) throw new DomainError("code_invalid", "This link has expired. Open it again from Cutroom.");
      const row = await findUserById(db, spent.user_id);
      if (!row) throw notFound();
      return { ...(await toUser(row)), api_token: await issueToken(db, row.id, tokenLifetime) };
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
