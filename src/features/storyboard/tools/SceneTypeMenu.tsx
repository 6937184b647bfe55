import { Button, Menu, MenuItem, MenuTrigger, Popover, type Selection } from "react-aria-components";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";
import { worker } from "../../../worker";
import { useSceneEdit } from "./edit";
import "./tools.css";

/** SPEC §4 Scenes: the three types a scene can take. */
export const SCENE_TYPES: readonly { id: Scene["type"]; label: MessageDescriptor }[] = [
  { id: "intro", label: msg`Intro` },
  { id: "default", label: msg`Default` },
  { id: "outro", label: msg`Outro` },
];

export interface SceneTypeMenuProps {
  scene: Scene;
  project: Project;
}

/** SPEC §2 Scene card "change type": a menu of intro, default and outro with the current one checked. */
export function SceneTypeMenu({ scene }: SceneTypeMenuProps) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const current = i18n._(SCENE_TYPES.find((s) => s.id === scene.type)?.label ?? SCENE_TYPES[1]!.label);

  function choose(selection: Selection) {
    const type = selection === "all" ? undefined : ([...selection][0] as Scene["type"] | undefined);
    if (type && type !== scene.type) void run(() => worker.setSceneType(scene.id, type));
  }

  return (
    <MenuTrigger>
      <Button className="btn btn-ghost btn-small scene-type-button" aria-label={t`Scene type: ${current}`} isDisabled={pending}>
        {current}
        <span aria-hidden="true" className="select-caret">
          ▾
        </span>
      </Button>
      <Popover className="popover" placement="bottom start">
        <Menu className="menu" aria-label={t`Scene type`} selectionMode="single" disallowEmptySelection selectedKeys={[scene.type]} onSelectionChange={choose}>
          {SCENE_TYPES.map((type) => (
            <MenuItem key={type.id} id={type.id} className="menu-item">
              {i18n._(type.label)}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
