import { useLingui } from "@lingui/react/macro";
import type { UserRow } from "../db";
import { failureMessage } from "../features/errors";
import { toast } from "../ui/Toast";
import { useConfig } from "./hooks";
import {
  allowNotificationsHere,
  hasRenderNotifications,
  pushSupported,
  turnOffRenderNotifications,
  turnOnRenderNotifications,
  useNotificationPermission,
  vapidKey,
} from "./push";

/**
 * The account menu's render-notifications switch (SPEC §2 Account, §6: only with the plan feature).
 * Turning it on asks this browser for permission — from the click itself, never on load — and
 * subscribes the device; turning it off unsubscribes it. Emails follow the same switch.
 */
export function useRenderNotificationsMenu(user: UserRow) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const permission = useNotificationPermission();
  const available = hasRenderNotifications(user);
  const on = available && user.render_notifications === 1;
  const pushHere = pushSupported() && !!vapidKey(config);

  const blocked = () =>
    toast({ variant: "warning", title: t`Notifications are blocked in this browser`, description: t`Allow them in the site settings to get them here; the email still comes.` });

  const toggle = (wanted: boolean) => {
    if (wanted === on) return;
    // Not awaited before asking: the permission question must start inside the gesture.
    const done = wanted ? turnOnRenderNotifications() : turnOffRenderNotifications().then((result) => ({ result, permission }));
    void done.then(({ result, permission: given }) => {
      if (!result.ok) toast({ variant: "danger", title: t`Could not update the settings`, description: failureMessage(i18n, result.failure) });
      else if (wanted && pushHere && given === "denied") blocked();
      else toast({ variant: "success", title: t`Settings updated` });
    });
  };

  const allowHere = () => {
    void allowNotificationsHere().then((given) => {
      if (given === "denied") blocked();
      else if (given === "granted") toast({ variant: "success", title: t`Notifications turned on for this device` });
    });
  };

  return { available, on, toggle, allowHere, canAllowHere: on && pushHere && permission === "default" };
}
