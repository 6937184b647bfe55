import { Trans, useLingui } from "@lingui/react/macro";
import {
  Button,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
  SubmenuTrigger,
  type Selection,
} from "react-aria-components";
import { LOCALES, type Locale } from "../../api/language-codes";
import type { UserRow } from "../db";
import { LOCALE_NAMES } from "../i18n/locale";
import { worker } from "../worker";
import { promptInstall, useCanInstall } from "./install";
import { signOut } from "./session";
import { useDeviceStorage } from "./storage";
import { useRenderNotificationsMenu } from "./useRenderNotificationsMenu";

const initials = (user: UserRow) => `${user.first_name[0] ?? ""}${user.last_name[0] ?? ""}`.toUpperCase() || "?";

export function Avatar({ user }: { user: UserRow }) {
  return (
    // The initials are drawn by CSS: a picture, not text, so the account button's name ("Account menu for
    // Rui Costa") holds all of its visible text (WCAG 2.5.3, label in name).
    <span className="avatar" data-initials={initials(user)} aria-hidden="true" />
  );
}

/**
 * Name, email, avatar, this device's storage use, language, my plan, render notifications (when the
 * plan has them), install app (when offered), exit.
 */
export function UserMenu({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const canInstall = useCanInstall();
  const [deviceStorage, refreshDeviceStorage] = useDeviceStorage();
  const notifications = useRenderNotificationsMenu(user);

  const chooseLanguage = (keys: Selection) => {
    const [locale] = keys === "all" ? [] : [...keys];
    if (locale && locale !== user.locale) void worker.setLocale(locale as Locale);
  };

  return (
    <MenuTrigger onOpenChange={(open) => open && refreshDeviceStorage()}>
      <Button className="user-button" aria-label={t`Account menu for ${user.name}`}>
        <Avatar user={user} />
        <span className="user-button-name">{user.first_name}</span>
      </Button>
      <Popover className="popover" placement="bottom end">
        <Menu className="menu" aria-label={t`Account`}>
          <MenuSection>
            <Header className="menu-header">
              <Avatar user={user} />
              <span>
                <strong>{user.name}</strong>
                <span className="muted">{user.email}</span>
                {deviceStorage && (
                  <span className="muted">
                    <Trans>
                      On this device: {deviceStorage.used} of {deviceStorage.quota}
                    </Trans>
                  </span>
                )}
              </span>
            </Header>
          </MenuSection>
          <Separator className="menu-separator" />
          <SubmenuTrigger>
            <MenuItem className="menu-item" textValue={t`Language`}>
              <Trans>Language</Trans>: {LOCALE_NAMES[user.locale]}
            </MenuItem>
            <Popover className="popover">
              <Menu
                className="menu"
                aria-label={t`Language`}
                selectionMode="single"
                selectedKeys={[user.locale]}
                onSelectionChange={chooseLanguage}
              >
                {LOCALES.map((locale) => (
                  <MenuItem key={locale} id={locale} className="menu-item" textValue={LOCALE_NAMES[locale]} lang={locale}>
                    {LOCALE_NAMES[locale]}
                  </MenuItem>
                ))}
              </Menu>
            </Popover>
          </SubmenuTrigger>
          <MenuItem className="menu-item" href="/account" textValue={t`My plan`}>
            <Trans>My plan</Trans>: {user.plan.nickname.split(" - ")[0]}
          </MenuItem>
          {notifications.available && (
            <MenuSection
              selectionMode="multiple"
              selectedKeys={notifications.on ? ["render-notifications"] : []}
              onSelectionChange={(keys) => notifications.toggle(keys === "all" || keys.has("render-notifications"))}
            >
              <MenuItem id="render-notifications" className="menu-item" textValue={t`Render notifications`}>
                <Trans>Render notifications</Trans>
              </MenuItem>
            </MenuSection>
          )}
          {notifications.canAllowHere && (
            <MenuItem className="menu-item" onAction={notifications.allowHere}>
              <Trans>Allow notifications on this device</Trans>
            </MenuItem>
          )}
          {canInstall && (
            <MenuItem className="menu-item" onAction={() => void promptInstall()}>
              <Trans>Install app</Trans>
            </MenuItem>
          )}
          <Separator className="menu-separator" />
          <MenuItem className="menu-item" onAction={() => void signOut()}>
            <Trans>Exit</Trans>
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
