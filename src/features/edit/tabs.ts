import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

/** The path segments that open the edit screen (SPEC §2 Routes: /projects/{id}/<segment>). */
export const EDIT_ROUTE_TABS = ["storyboard", "translate", "music", "settings", "share", "download"] as const;
export type EditRouteTab = (typeof EDIT_ROUTE_TABS)[number];

/** The tabs shown, each one its URL (SPEC §2 Project edit: Storyboard, Translate, Music, Options, Preview & Export). */
export const EDIT_TABS = ["storyboard", "translate", "music", "settings", "share"] as const;
export type EditTab = (typeof EDIT_TABS)[number];

export const EDIT_TAB_LABELS: Record<EditTab, MessageDescriptor> = {
  storyboard: msg`Storyboard`,
  translate: msg`Translate`,
  music: msg`Music`,
  settings: msg`Options`,
  share: msg`Preview & Export`,
};

export const isEditRouteTab = (segment: string): segment is EditRouteTab => (EDIT_ROUTE_TABS as readonly string[]).includes(segment);

/** The tab a path opens: /download opens the Preview & Export tab. */
export function tabOfRoute(segment: EditRouteTab): EditTab {
  if (segment === "download") return "share";
  return segment;
}
