import type { Project } from "../../../api/projects";
import type { Scene } from "../../../api/scenes";
import { FacesDialog, OverlayDialog, SplitByLineDialog, SplitDialog, TrimDialog, VolumeDialog } from "./tools";

/** The tools that open in a dialog; one at a time, for one scene. */
export type SceneTool = "trim" | "split" | "splitByLine" | "volume" | "faces" | "overlay";

export interface SceneToolsProps {
  tool: SceneTool | null;
  scene: Scene | undefined;
  project: Project;
  onClose: () => void;
}

/**
 * The open tool, mounted once at the storyboard's level rather than in every card: it stays open while
 * its card scrolls out of the virtual window, and cards stay cheap to mount.
 */
export function SceneTools({ tool, scene, project, onClose }: SceneToolsProps) {
  if (!tool || !scene) return null;
  const props = { scene, project, isOpen: true, onOpenChange: (open: boolean) => !open && onClose() };
  switch (tool) {
    case "trim":
      return <TrimDialog {...props} />;
    case "split":
      return <SplitDialog {...props} />;
    case "splitByLine":
      return <SplitByLineDialog {...props} />;
    case "volume":
      return <VolumeDialog {...props} />;
    case "faces":
      return <FacesDialog {...props} />;
    case "overlay":
      return <OverlayDialog {...props} />;
  }
}
