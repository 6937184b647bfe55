import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { Project } from "../../../api/projects";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Switch } from "../../ui/Switch";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import type { RecreateOptions } from "../../../workers/projects";
import { failureMessage } from "../errors";
import { isLocked } from "./NeedsRenderAlert";

/**
 * SPEC §2 Storyboard: Reset storyboard (the project's own options; every edit is lost) and Recreate
 * storyboard (choosing auto-cut silences and smooth cuts again). Not while the project is busy or finished.
 */
export function StoryboardTools({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const [dialog, setDialog] = useState<"reset" | "recreate" | null>(null);
  const [options, setOptions] = useState<RecreateOptions>({ autocutsilences: project.autocutsilences, smoothcuts: project.smoothcuts, removefillers: project.removefillers ?? 0 });
  const disabled = isLocked(project);

  async function run(chosen: RecreateOptions, done: string) {
    const result = await worker.recreateStoryboard(project.id, chosen);
    if (result.ok) toast({ variant: "success", title: done });
    else toast({ variant: "danger", title: t`Could not rebuild the storyboard`, description: failureMessage(i18n, result.failure) });
  }

  const openRecreate = () => {
    setOptions({ autocutsilences: project.autocutsilences, smoothcuts: project.smoothcuts, removefillers: project.removefillers ?? 0 });
    setDialog("recreate");
  };
  const close = (open: boolean) => !open && setDialog(null);

  return (
    <div className="storyboard-tools">
      <Button variant="ghost" className="btn-small" onPress={() => setDialog("reset")} isDisabled={disabled}>
        <Trans>Reset storyboard</Trans>
      </Button>
      <Button variant="ghost" className="btn-small" onPress={openRecreate} isDisabled={disabled}>
        <Trans>Recreate storyboard</Trans>
      </Button>
      <ConfirmDialog
        isOpen={dialog === "reset"}
        onOpenChange={close}
        title={t`Reset the storyboard?`}
        confirmLabel={t`Reset storyboard`}
        onConfirm={() => run({ autocutsilences: project.autocutsilences, smoothcuts: project.smoothcuts }, t`Storyboard reset`)}
      >
        <p>
          <Trans>The storyboard is made again from your footage. All your edits to the scenes are lost.</Trans>
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={dialog === "recreate"}
        onOpenChange={close}
        title={t`Recreate the storyboard`}
        confirmLabel={t`Recreate storyboard`}
        onConfirm={() => run(options, t`Storyboard recreated`)}
      >
        <div className="recreate-options">
          <p>
            <Trans>The storyboard is made again from your footage with these options. All your edits to the scenes are lost.</Trans>
          </p>
          <Switch
            isSelected={options.autocutsilences === 1}
            onChange={(on) => setOptions((o) => ({ ...o, autocutsilences: on ? 1 : 0 }))}
            description={t`Removes silences and adds jump cuts`}
          >
            <Trans>Auto-cut silences</Trans>
          </Switch>
          <Switch
            isSelected={options.smoothcuts === 1}
            onChange={(on) => setOptions((o) => ({ ...o, smoothcuts: on ? 1 : 0 }))}
            description={t`Softens the sound at each cut`}
          >
            <Trans>Smooth cuts</Trans>
          </Switch>
          <Switch
            isSelected={options.removefillers === 1}
            onChange={(on) => setOptions((o) => ({ ...o, removefillers: on ? 1 : 0 }))}
            description={t`Cuts out the "um" and "uh" the speech recognition hears, as hidden scenes you can restore`}
          >
            <Trans>Remove filler words</Trans>
          </Switch>
        </div>
      </ConfirmDialog>
    </div>
  );
}
