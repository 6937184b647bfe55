import { Trans, useLingui } from "@lingui/react/macro";
import { useRenderNotificationsMenu } from "../../app/useRenderNotificationsMenu";
import type { UserRow } from "../../db";
import { Button } from "../../ui/Button";
import { Switch } from "../../ui/Switch";

/**
 * SPEC §2 Account and §6: the render-notification toggle, only when the plan has the feature. The same
 * switch as the user menu's: an email, and a push on the devices that allowed it, when a render ends.
 */
export function NotificationsCard({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const notifications = useRenderNotificationsMenu(user);
  if (!notifications.available) return null;
  return (
    <section className="card account-card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">
        <Trans>Notifications</Trans>
      </h2>
      <Switch
        isSelected={notifications.on}
        onChange={notifications.toggle}
        description={t`An email, and a notification on the devices that allow it, when a render is ready.`}
      >
        <Trans>Render notifications</Trans>
      </Switch>
      {notifications.canAllowHere && (
        <div className="actions">
          <Button variant="secondary" onPress={notifications.allowHere}>
            <Trans>Allow notifications on this device</Trans>
          </Button>
        </div>
      )}
    </section>
  );
}
