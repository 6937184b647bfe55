import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { Privacy } from "../../../api/share";

/** SPEC §6 sharing: what each privacy means, in the words the export form and the share panel both use. */
export const PRIVACY_OPTIONS: readonly { id: Privacy; label: MessageDescriptor; description: MessageDescriptor }[] = [
  { id: "private", label: msg`Private`, description: msg`Only you can watch it, signed in.` },
  { id: "unlisted", label: msg`Unlisted`, description: msg`Anyone with the link can watch it. Search engines do not list it.` },
  { id: "public", label: msg`Public`, description: msg`Anyone with the link can watch it, and search engines may list it.` },
];
