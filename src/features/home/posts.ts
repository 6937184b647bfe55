import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

export interface HomePost {
  id: string;
  kind: "tip" | "update";
  title: MessageDescriptor;
  body: MessageDescriptor;
}

/** Tips and product updates on Home: static, translated with the rest of the app. */
export const HOME_POSTS: readonly HomePost[] = [
  {
    id: "quiet-room",
    kind: "tip",
    title: msg`Record in a quiet room`,
    body: msg`Cutroom finds silences by comparing your voice with the room's background noise. A quieter room gives cleaner cuts.`,
  },
  {
    id: "languages",
    kind: "tip",
    title: msg`Tag every file with its spoken language`,
    body: msg`Subtitles follow the language you choose for each video or audio. Choose "No speech" for music and b-roll.`,
  },
  {
    id: "intro-outro",
    kind: "tip",
    title: msg`Open and close with your brand`,
    body: msg`When you upload, mark one file as the intro and one as the outro: they always go first and last.`,
  },
  {
    id: "offline",
    kind: "update",
    title: msg`Install Cutroom and keep working offline`,
    body: msg`Install the app from the account menu. Uploads carry on after a reload and resume when the connection comes back.`,
  },
];
