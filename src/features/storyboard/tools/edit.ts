import { useCallback, useState } from "react";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { I18n } from "@lingui/core";
import type { RuleRefusal } from "../../../../api/storyboard";
import type { Result } from "../../../../workers/status";
import { toast } from "../../../ui/Toast";
import { failureMessage } from "../../errors";

/**
 * SPEC §4: every scene edit ends with the 'settings updated' toast (2.5 s), or says why it failed. An
 * edit made offline (`queued`, workers/outbox.ts) is kept on this device and says so instead.
 */
export function notifySceneEdit(i18n: I18n, result: Result<unknown> & { queued?: boolean }): boolean {
  if (result.ok && result.queued) {
    toast({ variant: "info", title: i18n._(msg`Saved on this device`), description: i18n._(msg`It will be sent when you are back online.`) });
  } else if (result.ok) toast({ variant: "success", title: i18n._(msg`Settings updated`) });
  else toast({ variant: "danger", title: i18n._(msg`The scene was not changed`), description: failureMessage(i18n, result.failure) });
  return result.ok;
}

/** A storyboard rule's refusal in the user's words, the same as the server's answer would read. */
export const refusalMessage = (i18n: I18n, refusal: RuleRefusal) => failureMessage(i18n, { kind: "bad_request", code: refusal });

/** Runs one scene edit at a time with a pending flag, and toasts how it went. Resolves to whether it worked. */
export function useSceneEdit() {
  const { i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async (action: () => Promise<Result<unknown>>) => {
      setPending(true);
      try {
        return notifySceneEdit(i18n, await action().catch((): Result<unknown> => ({ ok: false, failure: { kind: "internal" } })));
      } finally {
        setPending(false);
      }
    },
    [i18n],
  );
  return { pending, run };
}
