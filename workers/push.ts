import type { PushSubscribeBody } from "../api/push";
import type { ApiCall } from "./api-client";

/** The page holds the browser's push subscription (it lives on the service worker); the server hears of it from here. */
export function createPushActions(call: ApiCall) {
  return {
    /** Stores this device's subscription for the signed-in user (sent again after a new subscription). */
    subscribePush(subscription: PushSubscriptionJSON, device?: string) {
      const body: PushSubscribeBody = {
        endpoint: subscription.endpoint ?? "",
        expirationTime: subscription.expirationTime ?? null,
        keys: { p256dh: subscription.keys?.p256dh ?? "", auth: subscription.keys?.auth ?? "" },
        device: device?.slice(0, 255),
      };
      return call("push.subscribe", { body });
    },
    /** The server forgets this device: render notifications turned off, or signing out. */
    unsubscribePush: (endpoint: string) => call("push.unsubscribe", { body: { endpoint } }),
  };
}
