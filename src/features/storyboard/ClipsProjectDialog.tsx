import { useState } from "react";
import { Form } from "react-aria-components";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { PROJECT_NAME_MAX } from "../../../api/limits";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { Select } from "../../ui/Select";
import { Switch } from "../../ui/Switch";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { clipsRequest, type ClipsAspect, type ClipsForm } from "./model";

export interface ClipsProjectDialogProps {
  projectId: number;
  /** The selected scenes' ids, in storyboard order. */
  sceneIds: readonly number[];
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

const EMPTY: ClipsForm = { name: "", aspect: "", autocrop: true, final: true };

/**
 * SPEC §2 Selection toolbar and clips project: a new project from the selected scenes. The name is
 * required (the field is flagged, with no message, SPEC §5); auto crop is offered only with a size.
 * A download-ready project goes to the project list, the other kind opens in its storyboard.
 */
export function ClipsProjectDialog({ projectId, sceneIds, isOpen, onOpenChange }: ClipsProjectDialogProps) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [form, setForm] = useState<ClipsForm>(EMPTY);
  const [nameInvalid, setNameInvalid] = useState(false);
  const [pending, setPending] = useState(false);
  const none = sceneIds.length === 0;
  const sizes: { id: ClipsAspect | "original"; label: string }[] = [
    { id: "original", label: t`Original` },
    { id: "16x9", label: t`Landscape 16x9` },
    { id: "9x16", label: t`Portrait 9x16` },
    { id: "1x1", label: t`Square 1x1` },
  ];
  const set = (changes: Partial<ClipsForm>) => setForm((current) => ({ ...current, ...changes }));

  async function create() {
    const request = clipsRequest(form, sceneIds);
    if (!request.ok) {
      setNameInvalid(request.invalid === "name");
      return;
    }
    setPending(true);
    try {
      const result = await worker.createClips(projectId, request.body);
      if (!result.ok) {
        toast({ variant: "danger", title: t`The clips project was not created`, description: failureMessage(i18n, result.failure) });
        return;
      }
      // SPEC §8: navigation only when the answer's status is success.
      if (result.data.status !== "success") return;
      onOpenChange(false);
      setForm(EMPTY);
      if (request.body.final) void navigate({ to: "/open" });
      else void navigate({ to: "/projects/$id/storyboard", params: { id: result.data.cutsproject_id } });
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Create a clips project`} isDismissable={!pending}>
      {none ? (
        <>
          <p role="status">
            <Trans>No scenes are selected. Select the scenes to put in the clips project first.</Trans>
          </p>
          <div className="dialog-actions">
            <Button variant="secondary" onPress={() => onOpenChange(false)}>
              <Trans>Close</Trans>
            </Button>
          </div>
        </>
      ) : (
        <Form
          className="clips-form"
          validationBehavior="aria"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <p className="muted">
            {sceneIds.length === 1 ? <Trans>1 scene selected.</Trans> : <Trans>{sceneIds.length} scenes selected.</Trans>}
          </p>
          <TextField
            label={t`Name`}
            name="name"
            value={form.name}
            onChange={(name) => {
              set({ name });
              if (name.trim()) setNameInvalid(false);
            }}
            maxLength={PROJECT_NAME_MAX}
            isRequired
            isInvalid={nameInvalid}
            autoFocus
          />
          <Select
            label={t`Size`}
            name="aspect"
            options={sizes}
            value={form.aspect === "" ? "original" : form.aspect}
            onChange={(id) => set({ aspect: id === "original" ? "" : id })}
          />
          {form.aspect !== "" && (
            <Switch isSelected={form.autocrop} onChange={(autocrop) => set({ autocrop })} description={t`Keeps faces in the frame when the size changes.`}>
              <Trans>Auto crop</Trans>
            </Switch>
          )}
          <Switch isSelected={form.final} onChange={(final) => set({ final })} description={t`On: rendered ready to download. Off: opens as a storyboard to edit.`}>
            <Trans>Download ready</Trans>
          </Switch>
          <div className="dialog-actions">
            <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={pending}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" isPending={pending}>
              <Trans>Create clips project</Trans>
            </Button>
          </div>
        </Form>
      )}
    </Dialog>
  );
}
