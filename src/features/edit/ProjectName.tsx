import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { PROJECT_NAME_MAX } from "../../../api/limits";
import type { Project } from "../../../api/projects";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { fieldMessage } from "../errors";
import { useSaveSettings } from "./OptionsPanel";

/** The edit screen's heading: the project's name, renamed in place (max 140 characters, SPEC §5). */
export function ProjectName({ project, headingId }: { project: Project; headingId: string }) {
  const { t, i18n } = useLingui();
  const save = useSaveSettings(project.id);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const cancel = () => {
    setDraft(null);
    setError(undefined);
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    const name = (draft ?? "").trim();
    if (!name) return setError(fieldMessage(i18n, "required"));
    if (name === project.name) return cancel();
    setPending(true);
    const ok = await save({ name });
    setPending(false);
    if (ok) cancel();
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") cancel();
  };

  if (draft === null) {
    return (
      <div className="project-title">
        <h1 id={headingId}>{project.name}</h1>
        <Button variant="ghost" className="btn-small" aria-label={t`Rename ${project.name}`} onPress={() => setDraft(project.name)}>
          <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" />
          </svg>
          <Trans>Rename</Trans>
        </Button>
      </div>
    );
  }
  return (
    <form className="project-title project-rename" onSubmit={(e) => void submit(e)} onKeyDown={onKeyDown} noValidate>
      <h1 id={headingId} className="visually-hidden">
        {project.name}
      </h1>
      <TextField
        label={t`Project name`}
        value={draft}
        onChange={(v) => {
          setDraft(v);
          setError(undefined);
        }}
        maxLength={PROJECT_NAME_MAX}
        isRequired
        validationBehavior="aria"
        errorMessage={error}
        autoFocus
      />
      <div className="actions">
        <Button type="submit" isPending={pending}>
          <Trans>Save</Trans>
        </Button>
        <Button variant="secondary" onPress={cancel} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
