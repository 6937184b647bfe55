import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import { PassThrough, type Readable } from "node:stream";
import type { I18n } from "@lingui/core";
import { strToU8, Zip, ZipDeflate } from "fflate";
import type { z } from "zod";
import { EMAIL_CHANGE_TTL_HOURS, PASSWORD_RESET_TTL_MINUTES, type EmailChangeStatus, type PendingEmail } from "../../api/account";
import type { AccountDeleteBody, EmailChangeBody, PasswordChangeBody, ResetPasswordBody } from "../../api/account";
import type { Db } from "../db";
import type { UserRow } from "../db/schema";
import { sha256 } from "../db/tokens";
import { findUserByEmail, findUserById, normaliseEmail, updateUser } from "../db/users";
import { emailChangeConfirmMail, emailChangeNoticeMail, passwordChangedMail, passwordResetMail } from "../notify/account-mails";
import type { Mail, Mailer } from "../notify/mail";
import { writeSrt, writeVtt } from "../speech/subtitle-files";
import type { FileStore } from "../storage/local";
import { DomainError, notFound } from "./errors";
import { safeFileName } from "./file-links";
import { hashPassword, verifyPassword } from "./passwords";
import { projectGroup } from "./projects";
import { sign, verifySignature } from "./signed-links";
import { parseTranslations, projectSubtitleLines } from "./subtitles";

/** How long the data-export link stays good: time to start the download, little to leak. */
export const EXPORT_LINK_TTL_S = 15 * 60;

export interface AccountSelfServiceDeps {
  db: Db;
  mailer: Mailer;
  i18n: (locale: string) => I18n;
  secret: string;
  publicUrl: string;
  /** Stops renewals and detaches cards before an account goes (payments.cancelForAccountDeletion). */
  payments: { cancelForAccountDeletion(userId: number): Promise<void>; customerEmailChanged(userId: number): Promise<void> };
  /** Stops a deleted project's jobs at once (the runner aborts running handlers of the group). */
  /** `cancelOwner` where the queue keeps its own index of a user's jobs (issue 19, BullMQ); else the jobs table is updated. */
  queue: { cancelGroup(group: string): Promise<number>; cancelOwner?(owner: string): Promise<number> };
  store: Pick<FileStore, "remove">;
  /** The user's unfinished uploads (their ids start with `${userId}-`). */
  uploads: { directory: string; remove(uploadId: string): Promise<void>; ownerOf(uploadId: string): number | undefined; ownedBy?(userId: number): Promise<string[]> };
  /** Revokes Cutroom's access to the user's YouTube account at Google (the tokens go with the user either way). */
  youtube?: { disconnect(userId: number): Promise<unknown> };
  log: { warn(fields: object, message: string): void };
  now?: () => number;
}

const wrongPassword = (field: string) => new DomainError("validation_failed", "This is not your current password", { [field]: "password_wrong" });
const isUnique = (error: unknown) => /unique/i.test(String(error));
const randomToken = () => randomBytes(32).toString("base64url");

/** At most one reset mail per address in this time. */
export const FORGOT_PASSWORD_EVERY_MS = 60_000;

/** The same answer to every POST /user/password/forgot: nothing tells whether the address has an account. */
export const FORGOT_PASSWORD_ANSWER = { msg: "If an account uses this address, we have sent it a link to reset the password." };

/** Keys of stored files and secrets stay out of the export: they mean nothing outside this server. */
const PRIVATE_FIELDS = /(_key|_hash|_nonce|^youtube_upload|^transcript|^analysis|^user_id)$/;
const withoutPrivate = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([k]) => !PRIVATE_FIELDS.test(k)));
const parsed = (text: string | null) => {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
};

/**
 * What a creator expects of an account besides plans (issue 16): changing the e-mail address (confirmed by a
 * link mailed to the new one) and the password, signing out other devices, deleting the account with
 * everything it owns, downloading one's data, and the password reset by e-mail. Mailed links carry a random
 * token of which only the SHA-256 is stored.
 */
export function createAccountSelfService(deps: AccountSelfServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => Date.now());
  const isoNow = () => new Date(now()).toISOString();

  async function mustFind(userId: number): Promise<UserRow> {
    const row = await findUserById(db, userId);
    if (!row) throw new DomainError("unauthenticated", "Please authenticate");
    return row;
  }

  async function mustKnowPassword(row: UserRow, password: string, field: string) {
    if (!(await verifyPassword(password, row.password_hash))) throw wrongPassword(field);
  }

  /** Mail that must not hold the answer back (the forgot-password answer takes the same time either way). */
  function sendLater(mail: Mail) {
    deps.mailer.send(mail).catch((error: unknown) => deps.log.warn({ template: mail.template, error: String(error) }, "mail not sent"));
  }

  async function issueLink(userId: number, purpose: "password_reset" | "email_change", ttlMs: number, newEmail: string | null) {
    const token = randomToken();
    // Earlier links of the same kind stop working: only the newest one counts.
    await db.deleteFrom("account_tokens").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
    await db
      .insertInto("account_tokens")
      .values({ user_id: userId, purpose, token_hash: sha256(token), new_email: newEmail, expires_at: new Date(now() + ttlMs).toISOString(), used_at: null, created_at: isoNow() })
      .execute();
    return token;
  }

  /** Spends a link once: the first caller gets its row, any later one (or an expired link) gets nothing. */
  async function spend(token: string, purpose: "password_reset" | "email_change") {
    return db
      .updateTable("account_tokens")
      .set({ used_at: isoNow() })
      .where("token_hash", "=", sha256(token))
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .where("expires_at", ">", isoNow())
      .returning(["user_id", "new_email"])
      .executeTakeFirst();
  }

  /** Revokes the user's live api tokens, all of them or all but `keep`; answers how many. */
  async function revokeTokens(userId: number, keep?: string): Promise<number> {
    let query = db.updateTable("api_tokens").set({ revoked_at: isoNow() }).where("user_id", "=", userId).where("revoked_at", "is", null);
    if (keep) query = query.where("token_hash", "!=", sha256(keep));
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async function pendingEmail(userId: number): Promise<PendingEmail> {
    const row = await db
      .selectFrom("account_tokens")
      .select(["new_email", "expires_at"])
      .where("user_id", "=", userId)
      .where("purpose", "=", "email_change")
      .where("used_at", "is", null)
      .where("expires_at", ">", isoNow())
      .orderBy("id", "desc")
      .executeTakeFirst();
    return { email: row?.new_email ?? null, expires_at: row?.expires_at ?? null };
  }

  /** Users whose reset link is being made: two requests at once make one link and one mail. */
  const resetsInFlight = new Set<number>();

  async function mailResetLink(row: UserRow) {
    if (resetsInFlight.has(row.id)) return;
    resetsInFlight.add(row.id);
    try {
      // One mail a minute per address at most, whoever asks from wherever: nobody's mailbox gets flooded.
      const recent = await db
        .selectFrom("account_tokens")
        .select("id")
        .where("user_id", "=", row.id)
        .where("purpose", "=", "password_reset")
        .where("created_at", ">", new Date(now() - FORGOT_PASSWORD_EVERY_MS).toISOString())
        .executeTakeFirst();
      if (recent) return;
      const token = await issueLink(row.id, "password_reset", PASSWORD_RESET_TTL_MINUTES * 60_000, null);
      await deps.mailer.send(passwordResetMail(deps.i18n(row.locale), row.email, row.first_name, `${deps.publicUrl}/reset-password?token=${token}`));
    } finally {
      resetsInFlight.delete(row.id);
    }
  }

  const exportSignature = (userId: number, expires: number) => sign(deps.secret, `export|${userId}|${expires}`);

  /** Writes the export's files one project at a time into a streamed zip. */
  async function writeExport(userId: number, add: (name: string, content: string) => Promise<void>) {
    const user = await mustFind(userId);
    const plan = await db.selectFrom("plans").select(["id", "nickname"]).where("id", "=", user.plan_id).executeTakeFirst();
    const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
    await add(
      "account.json",
      json({
        id: user.id,
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        email_verified_at: user.email_verified_at,
        locale: user.locale,
        created_at: user.created_at,
        plan: plan ?? { id: user.plan_id },
        ltd_tier: user.ltd_tier,
        ltd_renew_at: user.ltd_renew_at,
        settings: { render_notifications: user.render_notifications, show_wizard: user.show_wizard },
      }),
    );
    // Payment history without card data: no card, no gateway ids, no client secrets.
    const subscription = await db
      .selectFrom("subscriptions")
      .select(["plan_id", "pending_plan_id", "status", "trial_ends_at", "current_period_start", "current_period_end", "cancel_at", "coupon_code", "coupon_percent_off", "created_at", "updated_at"])
      .where("user_id", "=", userId)
      .executeTakeFirst();
    const payments = await db
      .selectFrom("payments")
      .select(["id", "plan_id", "amount", "currency", "percent_off", "coupon_code", "reason", "status", "failure_message", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    await add("payments.json", json({ subscription: subscription ?? null, payments }));
    const media = await db
      .selectFrom("media_files")
      .select(["id", "name", "kind", "type", "mime", "size_bytes", "duration_seconds", "width", "height", "language", "has_speech", "status", "created_at"])
      .where("user_id", "=", userId)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute();
    await add("library.json", json(media));

    const projects = await db.selectFrom("projects").selectAll().where("user_id", "=", userId).where("deleted_at", "is", null).where("type", "!=", "library").orderBy("id").execute();
    for (const project of projects) {
      const folder = `projects/${project.id}-${safeFileName(project.name, "x").slice(0, -2)}`;
      await add(`${folder}/project.json`, json({ ...withoutPrivate(project), settings: parsed(project.settings), applied_features: parsed(project.applied_features) }));
      const scenes = await db.selectFrom("scenes").selectAll().where("project_id", "=", project.id).orderBy("order").orderBy("id").execute();
      await add(`${folder}/scenes.json`, json(scenes.map((s) => ({ ...withoutPrivate(s), text: parsed(s.text), selected_faces: parsed(s.selected_faces) }))));
      const sets = await db.selectFrom("subtitle_sets").selectAll().where("project_id", "=", project.id).orderBy("id").execute();
      await add(
        `${folder}/subtitle-sets.json`,
        json(sets.map((s) => ({ locale: s.locale, original: s.original, status: s.status, engine: s.engine, draft: s.draft, translations: parseTranslations(s.translations), created_at: s.created_at, updated_at: s.updated_at }))),
      );
      // The subtitles as the edit plays them: the original lines, and each translated set's.
      const locales = [null, ...sets.filter((s) => !s.original).map((s) => s.locale)];
      for (const locale of locales) {
        const lines = await projectSubtitleLines(db, project.id, locale);
        if (lines.length === 0) continue;
        const base = `${folder}/subtitles/${locale ?? project.locale ?? "original"}`;
        await add(`${base}.vtt`, writeVtt(lines));
        await add(`${base}.srt`, writeSrt(lines));
      }
    }
  }

  return {
    pendingEmail,

    /** Asks for a new address: the change waits for the link mailed to it; the current address is told. */
    async changeEmail(userId: number, body: z.output<typeof EmailChangeBody>): Promise<PendingEmail> {
      const row = await mustFind(userId);
      await mustKnowPassword(row, body.password, "password");
      const email = normaliseEmail(body.email);
      if (email === row.email) throw new DomainError("validation_failed", "This is already your email address", { email: "email_unchanged" });
      // Only a signed-in user who knows the password gets here, and registration says as much already.
      if (await findUserByEmail(db, email)) throw new DomainError("validation_failed", "This email is already registered", { email: "email_taken" });
      const token = await issueLink(userId, "email_change", EMAIL_CHANGE_TTL_HOURS * 3600_000, email);
      const i18n = deps.i18n(row.locale);
      const link = `${deps.publicUrl}/api/v1/user/email/confirm?token=${token}`;
      await deps.mailer.send(emailChangeConfirmMail(i18n, email, row.first_name, link));
      await deps.mailer.send(emailChangeNoticeMail(i18n, row.email, row.first_name, email));
      return pendingEmail(userId);
    },

    async cancelEmailChange(userId: number): Promise<PendingEmail> {
      await db.deleteFrom("account_tokens").where("user_id", "=", userId).where("purpose", "=", "email_change").execute();
      return pendingEmail(userId);
    },

    /** The link in the mail to the new address: the address becomes the account's (and is verified by it). */
    async confirmEmailChange(token: string): Promise<EmailChangeStatus> {
      const spent = await spend(token, "email_change");
      if (!spent?.new_email) return "expired";
      const holder = await findUserByEmail(db, spent.new_email);
      if (holder && holder.id !== spent.user_id) return "taken";
      try {
        await updateUser(db, spent.user_id, { email: spent.new_email, email_verified_at: isoNow() });
      } catch (error) {
        // Someone registered the address between the request and the link: the unique index decides.
        if (isUnique(error)) return "taken";
        throw error;
      }
      // Receipts follow the address; the change stands even when the gateway cannot be told now.
      await deps.payments.customerEmailChanged(spent.user_id).catch((error: unknown) => deps.log.warn({ error: String(error) }, "payment customer's email not updated"));
      return "changed";
    },

    /** A new password, confirmed by the current one; every other session is signed out. */
    async changePassword(userId: number, currentToken: string, body: z.output<typeof PasswordChangeBody>) {
      const row = await mustFind(userId);
      await mustKnowPassword(row, body.current_password, "current_password");
      await updateUser(db, userId, { password_hash: await hashPassword(body.password) });
      const revoked = await revokeTokens(userId, currentToken);
      await db.deleteFrom("account_tokens").where("user_id", "=", userId).where("purpose", "=", "password_reset").execute();
      sendLater(passwordChangedMail(deps.i18n(row.locale), row.email, row.first_name));
      return { msg: "password changed", revoked };
    },

    async signOutOthers(userId: number, currentToken: string) {
      await mustFind(userId);
      return { msg: "signed out of other devices", revoked: await revokeTokens(userId, currentToken) };
    },

    /** Always the same answer, whether or not the address has an account; the mail goes out in the background. */
    async forgotPassword(email: string) {
      const row = await findUserByEmail(db, email);
      // The link is made and mailed after the answer: a known address answers as fast as an unknown one.
      if (row) void mailResetLink(row).catch((error: unknown) => deps.log.warn({ error: String(error) }, "password reset link not sent"));
      return FORGOT_PASSWORD_ANSWER;
    },

    /** Sets the password with a reset link's token (once, within 60 minutes); every session is signed out. */
    async resetPassword(body: z.output<typeof ResetPasswordBody>) {
      const spent = await spend(body.token, "password_reset");
      const row = spent && (await findUserById(db, spent.user_id));
      if (!row) throw new DomainError("reset_link_invalid", "This password reset link has expired or was already used");
      // The link reached the address, which proves it as well as the verification link would.
      await updateUser(db, row.id, { password_hash: await hashPassword(body.password), email_verified_at: row.email_verified_at ?? isoNow() });
      await revokeTokens(row.id);
      await db.deleteFrom("account_tokens").where("user_id", "=", row.id).where("purpose", "=", "password_reset").execute();
      sendLater(passwordChangedMail(deps.i18n(row.locale), row.email, row.first_name));
      return { msg: "password reset" };
    },

    /**
     * Deletes the account after the password: the subscription stops and the cards go first (if the gateway
     * fails nothing is deleted), then the jobs stop, then every row (projects, scenes, media, subtitles, push
     * subscriptions, tokens, payments… by the users row's cascades) and every stored file.
     */
    async deleteAccount(userId: number, body: z.output<typeof AccountDeleteBody>) {
      const row = await mustFind(userId);
      await mustKnowPassword(row, body.password, "password");
      await deps.payments.cancelForAccountDeletion(userId);
      if (deps.youtube && (await db.selectFrom("youtube_connections").select("user_id").where("user_id", "=", userId).executeTakeFirst())) {
        await deps.youtube.disconnect(userId).catch((error: unknown) => deps.log.warn({ error: String(error) }, "YouTube access not revoked; its tokens are deleted with the account"));
      }
      const projects = await db.selectFrom("projects").select("id").where("user_id", "=", userId).execute();
      for (const project of projects) await deps.queue.cancelGroup(projectGroup(project.id));
      // Jobs outside a project's group (a file's ingest): cancelled; a runner notices at its next lease renewal.
      if (deps.queue.cancelOwner) await deps.queue.cancelOwner(String(userId));
      else await db.updateTable("jobs").set({ status: "cancelled", updated_at: isoNow() }).where("owner", "=", String(userId)).where("status", "in", ["queued", "running"]).execute();
      const projectIds = projects.map((p) => p.id);
      await db.transaction().execute(async (trx) => {
        // Children before parents: some references (scene → media file) do not cascade.
        if (projectIds.length) {
          await trx.deleteFrom("subtitle_sets").where("project_id", "in", projectIds).execute();
          await trx.deleteFrom("scenes").where("project_id", "in", projectIds).where("parent_scene_id", "is not", null).execute();
          await trx.deleteFrom("scenes").where("project_id", "in", projectIds).execute();
          await trx.deleteFrom("project_media").where("project_id", "in", projectIds).execute();
          await trx.deleteFrom("projects").where("id", "in", projectIds).execute();
        }
        await trx.deleteFrom("media_files").where("user_id", "=", userId).execute();
        await trx.deleteFrom("users").where("id", "=", userId).execute();
      });
      await deps.store.remove(`projects/${userId}`);
      await deps.store.remove(`media/${userId}`);
      // Issue 19: with STORAGE=s3 the uploads are in the bucket, listed by the uploads port.
      const names = deps.uploads.ownedBy ? await deps.uploads.ownedBy(userId) : await fs.readdir(deps.uploads.directory).catch(() => [] as string[]);
      for (const name of names) {
        const id = name.replace(/\.json$/, "");
        if (deps.uploads.ownerOf(id) === userId) await deps.uploads.remove(id);
      }
      return { msg: "account deleted" };
    },

    /** A link the browser downloads without a bearer header, signed for this user and a few minutes. */
    exportLink(userId: number) {
      const expires = Math.floor(now() / 1000) + EXPORT_LINK_TTL_S;
      const filename = `cutroom-data-${new Date(now()).toISOString().slice(0, 10)}.zip`;
      return {
        url: `/api/v1/user/export/${userId}?expires=${expires}&signature=${exportSignature(userId, expires)}&filename=${encodeURIComponent(filename)}`,
        filename,
        expires_at: new Date(expires * 1000).toISOString(),
      };
    },

    verifyExportLink(userId: number, expires: number, signature: string): boolean {
      return expires * 1000 > now() && verifySignature(deps.secret, `export|${userId}|${expires}`, signature);
    },

    /** The zip, streamed as it is made: JSON files, and VTT and SRT per project. */
    async exportZip(userId: number): Promise<Readable> {
      if (!(await findUserById(db, userId))) throw notFound();
      const out = new PassThrough();
      const zip = new Zip((error, chunk, final) => {
        if (error) return void out.destroy(error);
        out.write(chunk);
        if (final) out.end();
      });
      const add = async (name: string, content: string) => {
        const file = new ZipDeflate(name, { level: 6 });
        zip.add(file);
        file.push(strToU8(content), true);
        if (out.destroyed) throw new Error("download closed");
        // The reader is slower than the zip: wait for it (or for the download to be closed).
        if (out.writableNeedDrain) await Promise.race([once(out, "drain"), once(out, "close")]);
      };
      void writeExport(userId, add).then(
        () => zip.end(),
        (error: unknown) => {
          // A download the browser closed is no failure of ours.
          if (!out.destroyed) deps.log.warn({ error: String(error) }, "data export failed");
          zip.terminate();
          out.destroy(error as Error);
        },
      );
      return out;
    },
  };
}

export type AccountSelfService = ReturnType<typeof createAccountSelfService>;
