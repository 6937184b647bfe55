import type { I18n } from "@lingui/core";
import type { PushKind, PushPayload, PushSubscribeBody } from "../../api/push";
import type { Db } from "../db";
import { findPlan } from "../db/plans";
import type { ProjectRow } from "../db/projects";
import { deletePushSubscription, deletePushSubscriptionById, listPushSubscriptions, trimPushSubscriptions, upsertPushSubscription } from "../db/push";
import { findUserById } from "../db/users";
import { FREE_PLAN_ID } from "../domain/plans";
import { endpointOrigin, PushGoneError, PushSendError, renderNotificationText, type PushLog, type PushSender } from "../notify/push";
import { DomainError, notFound } from "./errors";

/** SPEC §6: render notifications are a plan feature. */
export const RENDER_NOTIFICATIONS_FEATURE = "render_notifications";
/** Browsers (devices) per user that get a push; the oldest subscription goes first. */
export const MAX_PUSH_SUBSCRIPTIONS = 20;
const RENDER_NOTICE_TTL_S = 24 * 3600;

export interface PushDeps {
  db: Db;
  /** null when PUSH=off. */
  sender: PushSender | null;
  i18n: (locale: string) => I18n;
  log: PushLog;
  /** Subscriptions may point at loopback/private hosts (tests with a local push service only). */
  privateEndpoints?: boolean;
}

/**
 * A push endpoint on this machine or the private network would let a user make the server POST to
 * internal services; real push services are public hosts. (A public name resolving to a private
 * address is not caught here.)
 */
export function isPrivateEndpoint(endpoint: string): boolean {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(":")) return host === "::1" || host === "::" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith("::ffff:");
  return false;
}

const decoded = (base64url: string) => Buffer.from(base64url, "base64url");

/** The app path a notification opens: the share view for a final render, the storyboard otherwise. */
export const notificationUrl = (projectId: number, kind: PushKind) =>
  kind === "render_ready" ? `/projects/${projectId}/share` : `/projects/${projectId}/storyboard`;

/** What a finished render tells its owner: a finished preview, a final render, or a failure. */
export const renderNoticeKind = (project: ProjectRow, ok: boolean): PushKind => (!ok ? "render_failed" : project.final_render ? "render_ready" : "preview_ready");

/**
 * The owner of a rendered project when they want a render notice (push or e-mail): the account's and the
 * project's render_notifications are on and the plan includes the feature. Never for a library item.
 */
export async function renderNoticeRecipient(db: Db, project: ProjectRow) {
  if (project.type === "library") return undefined;
  const settings = JSON.parse(project.settings) as { render_notifications?: number };
  if ((settings.render_notifications ?? 1) !== 1) return undefined;
  const user = await findUserById(db, project.user_id);
  if (!user || user.render_notifications !== 1) return undefined;
  const plan = (await findPlan(db, user.plan_id)) ?? (await findPlan(db, FREE_PLAN_ID));
  const features = plan ? (JSON.parse(plan.features) as string[]) : [];
  return features.includes(RENDER_NOTIFICATIONS_FEATURE) ? user : undefined;
}

export function createPush(deps: PushDeps) {
  const { db } = deps;
  const wantsRenderNotice = (project: ProjectRow) => renderNoticeRecipient(db, project);

  return {
    async subscribe(userId: number, body: PushSubscribeBody) {
      // A P-256 point (uncompressed) and a 16-byte secret, or the message could never be encrypted.
      const fields = {
        ...(decoded(body.keys.p256dh).length === 65 && decoded(body.keys.p256dh)[0] === 4 ? {} : { "keys.p256dh": "invalid" as const }),
        ...(decoded(body.keys.auth).length === 16 ? {} : { "keys.auth": "invalid" as const }),
        ...(!deps.privateEndpoints && isPrivateEndpoint(body.endpoint) ? { endpoint: "invalid" as const } : {}),
      };
      if (Object.keys(fields).length) throw new DomainError("validation_failed", "Some fields are not valid", fields);
      const row = await upsertPushSubscription(db, {
        user_id: userId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        device: body.device || null,
        expires_at: typeof body.expirationTime === "number" ? new Date(body.expirationTime).toISOString() : null,
      });
      // Another user's endpoint with other keys: not this browser's subscription to move.
      if (!row) throw notFound("No such push subscription");
      await trimPushSubscriptions(db, userId, MAX_PUSH_SUBSCRIPTIONS);
      return { endpoint: row.endpoint, device: row.device, created_at: row.created_at };
    },

    async unsubscribe(userId: number, endpoint: string) {
      return { removed: await deletePushSubscription(db, userId, endpoint) };
    },

    /** The pipeline's render hook: never throws, so a push problem never fails a render. */
    async notifyRender(project: ProjectRow, ok: boolean): Promise<void> {
      const sender = deps.sender;
      if (!sender || project.type === "library") return;
      try {
        const user = await wantsRenderNotice(project);
        if (!user) return;
        const subscriptions = await listPushSubscriptions(db, user.id);
        if (!subscriptions.length) return;
        const kind = renderNoticeKind(project, ok);
        const payload: PushPayload = {
          ...renderNotificationText(deps.i18n(user.locale), kind, project.name),
          url: notificationUrl(project.id, kind),
          projectId: project.id,
          kind,
          tag: `project-${project.id}`,
        };
        const now = new Date().toISOString();
        await Promise.all(
          subscriptions.map(async (subscription) => {
            if (subscription.expires_at && subscription.expires_at < now) return deletePushSubscriptionById(db, subscription.id);
            try {
              await sender.send(
                { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
                payload,
                { ttlSeconds: RENDER_NOTICE_TTL_S, topic: payload.tag },
              );
            } catch (error) {
              if (error instanceof PushGoneError) return deletePushSubscriptionById(db, subscription.id);
              const status = error instanceof PushSendError ? error.status : undefined;
              const reason = error instanceof Error ? error.message : String(error);
              deps.log.warn({ push: endpointOrigin(subscription.endpoint), status, reason, projectId: project.id }, "push not delivered");
            }
          }),
        );
      } catch (error) {
        deps.log.warn({ projectId: project.id, reason: error instanceof Error ? error.message : String(error) }, "render notification failed");
      }
    },
  };
}

export type Push = ReturnType<typeof createPush>;
