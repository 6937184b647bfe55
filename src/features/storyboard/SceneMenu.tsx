import { useState } from "react";
import type { Key } from "react-aria-components";
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator, SubmenuTrigger, Text } from "react-aria-components";
import { Trans, useLingui } from "@lingui/react/macro";
import { SCENE_TYPES } from "./tools/SceneTypeMenu";
import { Icon } from "./icons";
import type { SceneCardProps } from "./SceneCard";

/** Everything a scene card can ask for; the storyboard runs it (worker call, tool dialog or navigation). */
export type SceneAction =
  | "play"
  | "playFromHere"
  | "editText"
  | "hide"
  | "show"
  | "type:intro"
  | "type:default"
  | "type:outro"
  | "trim"
  | "split"
  | "splitByLine"
  | "volume"
  | "duplicate"
  | "faces"
  | "addOverlay"
  | "overlay"
  | "moveEarlier"
  | "moveLater"
  | "moveTo";

/**
 * The card's less frequent actions, in a menu so the card stays compact (SPEC §2 Scene card). Items a
 * rule forbids stay listed, disabled, with the reason under them. An open menu keeps the connection state
 * it opened with (see SceneMenuItems); the storyboard checks the connection again when an item is chosen.
 */
export function SceneMenu(props: SceneCardProps) {
  const { t } = useLingui();
  return (
    <MenuTrigger>
      <Button className="btn btn-ghost scene-action" aria-label={t`More actions for scene ${props.scene.order}`}>
        <Icon name="more" />
        <span aria-hidden="true">
          <Trans>More</Trans>
        </span>
      </Button>
      <Popover className="popover scene-menu-popover" placement="bottom end">
        <SceneMenuItems {...props} />
      </Popover>
    </MenuTrigger>
  );
}

/** The menu itself: rendered only while open, so a closed menu costs a card nothing. */
function SceneMenuItems({ scene, readOnly, muted, online: onlineNow, canPlay, canMoveEarlier, canMoveLater, onAction }: SceneCardProps) {
  const { t, i18n } = useLingui();
  // Frozen while the menu is open: on a flapping network, items gaining and losing their reason line would
  // change the menu's height and move the items under the pointer (a click landing on the item below).
  const [online] = useState(onlineNow);
  const number = scene.order;
  const hasText = scene.text.length > 0;
  const run = (key: Key) => onAction(String(key) as SceneAction, scene);
  const offline = online ? null : t`Needs a connection.`;
  // Offline, structural items stay listed, disabled, with the reason under them.
  const stacked = online ? "menu-item" : "menu-item menu-item-stacked";
  const offlineNote = offline && (
    <Text slot="description" className="field-description">
      {offline}
    </Text>
  );

  return (
    <Menu className="menu" aria-label={t`Actions for scene ${number}`} onAction={run}>
      <MenuItem id="playFromHere" className="menu-item" isDisabled={!canPlay} textValue={t`Play from here`}>
        <Icon name="playFrom" />
        <Trans>Play from here</Trans>
      </MenuItem>
      {!readOnly && (
        <>
          <SubmenuTrigger>
            <MenuItem className="menu-item" textValue={t`Change type`}>
              <Trans>Change type</Trans>
              <span className="menu-chevron" aria-hidden="true">
                ›
              </span>
            </MenuItem>
            <Popover className="popover">
              <Menu className="menu" aria-label={t`Type of scene ${number}`} selectionMode="single" selectedKeys={[scene.type]} onAction={(key) => run(`type:${String(key)}`)}>
                {SCENE_TYPES.map((type) => (
                  <MenuItem key={type.id} id={type.id} className="menu-item" textValue={i18n._(type.label)}>
                    {i18n._(type.label)}
                  </MenuItem>
                ))}
              </Menu>
            </Popover>
          </SubmenuTrigger>
          <Separator className="menu-separator" />
          <MenuItem id="trim" className="menu-item" textValue={t`Trim`}>
            <Trans>Trim</Trans>
          </MenuItem>
          <MenuItem id="split" className="menu-item menu-item-stacked" isDisabled={hasText || !online} textValue={t`Split`}>
            <Text slot="label">
              <Trans>Split</Trans>
            </Text>
            {(hasText || offline) && (
              <Text slot="description" className="field-description">
                {offline ?? t`Only for scenes without text.`}
              </Text>
            )}
          </MenuItem>
          {scene.text.length > 1 && (
            <MenuItem id="splitByLine" className={stacked} isDisabled={!online} textValue={t`Split by text line`}>
              <Text slot="label">
                <Trans>Split by text line (scissors)</Trans>
              </Text>
              {offlineNote}
            </MenuItem>
          )}
          <MenuItem id="volume" className="menu-item menu-item-stacked" isDisabled={muted} textValue={t`Volume`}>
            <Text slot="label">
              <Trans>Volume</Trans>
            </Text>
            {muted && (
              <Text slot="description" className="field-description">
                <Trans>Unavailable: the project's videos are muted.</Trans>
              </Text>
            )}
          </MenuItem>
          <MenuItem id="faces" className="menu-item" textValue={t`Select faces`}>
            <Trans>Select faces</Trans>
          </MenuItem>
          {scene.overscene ? (
            <MenuItem id="overlay" className="menu-item" textValue={t`Overlay options`}>
              <Trans>Overlay options</Trans>
            </MenuItem>
          ) : (
            <MenuItem id="addOverlay" className={stacked} isDisabled={!online} textValue={t`Add overlay`}>
              <Text slot="label">
                <Trans>Add overlay</Trans>
              </Text>
              {offlineNote}
            </MenuItem>
          )}
          <MenuItem id="duplicate" className={stacked} isDisabled={!online} textValue={t`Duplicate`}>
            <Text slot="label">
              <Trans>Duplicate</Trans>
            </Text>
            {offlineNote}
          </MenuItem>
          <Separator className="menu-separator" />
          <MenuItem id="moveEarlier" className={stacked} isDisabled={!online || !canMoveEarlier} textValue={t`Move earlier`}>
            <Text slot="label">
              <Trans>Move earlier</Trans>
            </Text>
            {offlineNote}
          </MenuItem>
          <MenuItem id="moveLater" className={stacked} isDisabled={!online || !canMoveLater} textValue={t`Move later`}>
            <Text slot="label">
              <Trans>Move later</Trans>
            </Text>
            {offlineNote}
          </MenuItem>
          <MenuItem id="moveTo" className={stacked} isDisabled={!online || (!canMoveEarlier && !canMoveLater)} textValue={t`Move to position`}>
            <Text slot="label">
              <Trans>Move to position…</Trans>
            </Text>
            {offlineNote}
          </MenuItem>
        </>
      )}
    </Menu>
  );
}
