/** The scene card's tools (SPEC §2 Scene card): one dialog or control per action, each `{ scene, project }`. */
export { TrimDialog, type TrimDialogProps } from "./TrimDialog";
export { SplitDialog, canSplitByPosition, type SplitDialogProps } from "./SplitDialog";
export { SplitByLineDialog, canSplitByLine, type SplitByLineDialogProps } from "./SplitByLineDialog";
export { TextLinesEditor, type TextLinesEditorProps } from "./TextLinesEditor";
export { VolumeDialog, type VolumeDialogProps } from "./VolumeDialog";
export { volumeUnavailable, FOOTAGE_LEVELS, MUSIC_LEVELS } from "./levels";
export { FacesDialog, type FacesDialogProps } from "./FacesDialog";
export { OverlayDialog, OVERLAY_POSITIONS, type OverlayDialogProps } from "./OverlayDialog";
export { SceneTypeMenu, SCENE_TYPES, type SceneTypeMenuProps } from "./SceneTypeMenu";
export { notifySceneEdit, refusalMessage, useSceneEdit } from "./edit";
export { toRawSeconds, formatSeconds } from "./time";
