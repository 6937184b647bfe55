import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { ProjectSettings } from "../../../api/projects";

/** Background music levels in the interface's words (SPEC §9): low, medium, high, full, plus mute. */
export const MUSIC_LEVEL_LABELS: Record<ProjectSettings["musicType"], MessageDescriptor> = {
  bgmmute: msg`Mute`,
  bgmlow: msg`Low`,
  bgmstandard: msg`Medium`,
  bgmloud: msg`High`,
  mainmusic: msg`Full`,
};

/** Footage levels (SPEC §9): mute, low, standard, loud, extra loud. */
export const FOOTAGE_LEVEL_LABELS: Record<ProjectSettings["mediaAudio"], MessageDescriptor> = {
  mute: msg`Mute`,
  low: msg`Low`,
  standard: msg`Standard`,
  loud: msg`Loud`,
  extraloud: msg`Extra loud`,
};

/** The 10 subtitle swatches' names, read out instead of their colour codes. */
export const SWATCH_LABELS: Record<string, MessageDescriptor> = {
  "#ffffff": msg`White`,
  "#000000": msg`Black`,
  "#ffd400": msg`Yellow`,
  "#ff8a00": msg`Orange`,
  "#e53935": msg`Red`,
  "#ec407a": msg`Pink`,
  "#8e24aa": msg`Purple`,
  "#1e88e5": msg`Blue`,
  "#00acc1": msg`Cyan`,
  "#43a047": msg`Green`,
};
