import { useState, type KeyboardEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";
import { SCENE_LINE_MAX } from "../../../../api/limits";
import { checkLines, type TextLine } from "../../../../api/storyboard";
import { Button } from "../../../ui/Button";
import { ConfirmButton } from "../../../ui/ConfirmDialog";
import { TextField } from "../../../ui/TextField";
import { worker } from "../../../worker";
import { refusalMessage, useSceneEdit } from "./edit";
import { lineLength, withAddedLine } from "./lines";
import "./tools.css";

export interface TextLinesEditorProps {
  scene: Scene;
  project: Project;
  /** Called after a save (or nothing to save) and on cancel: the card goes back to showing the text. */
  onClose: () => void;
}

/** SPEC §2 Scene card: the text lines edited in place, 35 characters each. Enter saves, Escape cancels. */
export function TextLinesEditor({ scene, onClose }: TextLinesEditorProps) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const [lines, setLines] = useState<TextLine[]>(() => scene.text.map((l) => ({ ...l })));
  const [formError, setFormError] = useState<string | null>(null);
  const tooLong = refusalMessage(i18n, "line_too_long");

  const edit = (index: number, text: string) => {
    setFormError(null);
    setLines((all) => all.map((l, i) => (i === index ? { ...l, text } : l)));
  };

  async function save() {
    // Blank lines are dropped rather than saved as empty subtitles.
    const kept = lines.filter((l) => l.text.trim() !== "");
    const rule = checkLines(kept);
    if (!rule.ok) return setFormError(refusalMessage(i18n, rule.refusal));
    const unchanged = kept.length === scene.text.length && kept.every((l, i) => l.text === scene.text[i]?.text && l.start === scene.text[i]?.start && l.end === scene.text[i]?.end);
    if (unchanged) return onClose();
    const ok = await run(() => (kept.length === 0 ? worker.removeSceneLines(scene.id) : worker.setSceneText(scene.id, kept)));
    if (ok) onClose();
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape" && !pending) {
      event.preventDefault();
      onClose();
    }
  }

  return (
    <form
      className="lines-editor"
      aria-label={t`Text lines of scene ${scene.order}`}
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault();
        if (!pending) void save();
      }}
    >
      {lines.length === 0 && (
        <p className="field-description">
          <Trans>This scene has no text.</Trans>
        </p>
      )}
      {lines.map((line, index) => {
        const count = lineLength(line.text);
        const n = index + 1;
        return (
          <div className="lines-editor-row" key={index}>
            <TextField
              label={t`Line ${n}`}
              value={line.text}
              onChange={(text) => edit(index, text)}
              description={t`${count}/${SCENE_LINE_MAX} characters`}
              errorMessage={count > SCENE_LINE_MAX ? tooLong : undefined}
              autoFocus={index === 0}
              isDisabled={pending}
            />
            <Button variant="ghost" className="icon-button" aria-label={t`Remove line ${n}`} onPress={() => setLines((all) => all.filter((_, i) => i !== index))} isDisabled={pending}>
              ×
            </Button>
          </div>
        );
      })}
      {formError && (
        <p className="field-error" role="alert">
          {formError}
        </p>
      )}
      <div className="lines-editor-actions">
        <Button variant="ghost" className="btn-small" onPress={() => setLines((all) => withAddedLine(all, scene.trim_start, scene.trim_end))} isDisabled={pending}>
          <Trans>Add a line</Trans>
        </Button>
        {scene.text.length > 0 && (
          <ConfirmButton
            label={<Trans>Remove all lines</Trans>}
            buttonVariant="ghost"
            title={t`Remove all text lines of scene ${scene.order}?`}
            confirmLabel={t`Remove all lines`}
            onConfirm={async () => {
              if (await run(() => worker.removeSceneLines(scene.id))) onClose();
            }}
          >
            <p>
              <Trans>The scene keeps its picture and sound, without text.</Trans>
            </p>
          </ConfirmButton>
        )}
        <span className="lines-editor-spacer" />
        <Button variant="secondary" className="btn-small" onPress={onClose} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" className="btn-small" isPending={pending}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </form>
  );
}
