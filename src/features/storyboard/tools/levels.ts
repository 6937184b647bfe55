import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";

/** SPEC §9: footage levels as the interface names them (mute, low, medium, high, full). */
export const FOOTAGE_LEVELS: readonly { id: Scene["mediaAudio"]; label: MessageDescriptor }[] = [
  { id: "mute", label: msg`Mute` },
  { id: "low", label: msg`Low` },
  { id: "standard", label: msg`Medium` },
  { id: "loud", label: msg`High` },
  { id: "extraloud", label: msg`Full` },
];

/** SPEC §9: background-music levels with the same interface words. */
export const MUSIC_LEVELS: readonly { id: Scene["musicType"]; label: MessageDescriptor }[] = [
  { id: "bgmmute", label: msg`Mute` },
  { id: "bgmlow", label: msg`Low` },
  { id: "bgmstandard", label: msg`Medium` },
  { id: "bgmloud", label: msg`High` },
  { id: "mainmusic", label: msg`Full` },
];

/** SPEC §5 Settings: the volume tool is unavailable when the project's footage is muted. */
export const volumeUnavailable = (project: Pick<Project, "mute_videos">) => project.mute_videos === 1;
