import fs from "node:fs/promises";
import path from "node:path";
import type { Agent } from "node:https";
import { randomBytes } from "node:crypto";
import type { I18n } from "@lingui/core";
import webpush from "web-push";
import type { PushKind, PushPayload } from "../../api/push";
import type { Db } from "../db";
import { getOrCreateSetting } from "../db/settings";

/** A browser's subscription, as the push service needs it. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushDelivery {
  /** Seconds the push service keeps an undelivered message: a render notice a day late is stale. */
  ttlSeconds: number;
  /** A newer message with the same topic replaces an undelivered older one (≤ 32 base64url chars). */
  topic?: string;
}

/** The push service says the subscription no longer exists (404 or 410): forget it. */
export class PushGoneError extends Error {}

/** Any other failure; `status` when the push service answered. */
export class PushSendError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** The port: how a notification leaves the server. */
export interface PushSender {
  send(target: PushTarget, payload: PushPayload, delivery: PushDelivery): Promise<void>;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Made on first start and kept in the database, so subscriptions survive restarts. One setting: one pair. */
export async function loadVapidKeys(db: Db): Promise<VapidKeys> {
  const stored = await getOrCreateSetting(db, "vapid_keys", () => JSON.stringify(webpush.generateVAPIDKeys()));
  return JSON.parse(stored) as VapidKeys;
}

/** Only the origin of an endpoint is logged: its path identifies the browser to the push service. */
export const endpointOrigin = (endpoint: string) => {
  try {
    return new URL(endpoint).origin;
  } catch {
    return "(invalid endpoint)";
  }
};

const SEND_TIMEOUT_MS = 10_000;

/** Real Web Push (RFC 8030/8291/8292): aes128gcm payload, VAPID signed. `agent` lets tests trust their receiver. */
export function webPushSender(options: { vapid: VapidKeys; subject: string; agent?: Agent }): PushSender {
  return {
    async send(target, payload, delivery) {
      try {
        await webpush.sendNotification(target, JSON.stringify(payload), {
          vapidDetails: { subject: options.subject, publicKey: options.vapid.publicKey, privateKey: options.vapid.privateKey },
          contentEncoding: "aes128gcm",
          TTL: delivery.ttlSeconds,
          ...(delivery.topic ? { topic: delivery.topic } : {}),
          timeout: SEND_TIMEOUT_MS,
          ...(options.agent ? { agent: options.agent } : {}),
        });
      } catch (error) {
        if (error instanceof webpush.WebPushError) {
          if (error.statusCode === 404 || error.statusCode === 410) throw new PushGoneError(`push service answered ${error.statusCode}`);
          throw new PushSendError(`push service answered ${error.statusCode}`, error.statusCode);
        }
        const message = error instanceof Error ? error.message : String(error);
        throw new PushSendError(message.split(target.endpoint).join(endpointOrigin(target.endpoint)));
      }
    },
  };
}

/** PUSH=outbox: each message is written to DATA_DIR/push-outbox/ as JSON, like the mail outbox. */
export function outboxPushSender(dir: string, log: PushLog): PushSender {
  return {
    async send(target, payload, delivery) {
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}.json`);
      await fs.writeFile(file, JSON.stringify({ endpoint: target.endpoint, payload, ...delivery, created_at: new Date().toISOString() }, null, 2));
      log.info({ outbox: file, push: endpointOrigin(target.endpoint), url: payload.url }, `push written to outbox: ${payload.title}`);
    },
  };
}

/** Title and body of a render notification, in the user's language. */
export function renderNotificationText(i18n: I18n, kind: PushKind, name: string): { title: string; body: string } {
  switch (kind) {
    case "preview_ready":
      return {
        title: i18n._({ id: "push.preview_ready.title", message: "Preview ready" }),
        body: i18n._({ id: "push.preview_ready.body", message: "“{name}” is ready to watch.", values: { name } }),
      };
    case "render_ready":
      return {
        title: i18n._({ id: "push.render_ready.title", message: "Render ready" }),
        body: i18n._({ id: "push.render_ready.body", message: "“{name}” is rendered and ready to download and share.", values: { name } }),
      };
    case "render_failed":
      return {
        title: i18n._({ id: "push.render_failed.title", message: "Render failed" }),
        body: i18n._({ id: "push.render_failed.body", message: "“{name}” could not be rendered. Open the storyboard to try again.", values: { name } }),
      };
  }
}
