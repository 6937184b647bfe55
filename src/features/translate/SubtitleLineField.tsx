import { useEffect, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { FieldError, Input, Label, Text, TextField } from "react-aria-components";
import { SCENE_LINE_MAX } from "../../../api/limits";
import type { SubtitleSetLine } from "../../../api/subtitles";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { lineLength } from "../storyboard/tools/lines";
import { refusalMessage } from "../storyboard/tools/edit";
import { formatTimecode } from "./languages";

export interface SubtitleLineFieldProps {
  setId: number;
  line: SubtitleSetLine;
  number: number;
  /** The page pauses its refresh while a line has the focus (SPEC §2 Translate page). */
  onEditingChange: (editing: boolean) => void;
  isDisabled?: boolean;
}

type SaveState = { kind: "idle" } | { kind: "saved" } | { kind: "queued" } | { kind: "failed"; message: string };

/**
 * One subtitle line: its timecode and its text, 35 characters at most with a live count. Saved when the field
 * loses the focus or on Enter (a longer line is refused and kept here to shorten); Escape puts the saved text back.
 */
export function SubtitleLineField({ setId, line, number, onEditingChange, isDisabled }: SubtitleLineFieldProps) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState(line.text);
  const [focused, setFocused] = useState(false);
  const [state, setState] = useState<SaveState>({ kind: "idle" });
  /** The text last handed to the worker: Enter then blur saves once. */
  const sent = useRef(line.text);
  const count = lineLength(draft);
  const tooLong = count > SCENE_LINE_MAX;

  // A new text from the mirror (the server, another tab) shows unless the person is typing here.
  const shown = useRef(line.text);
  useEffect(() => {
    if (line.text === shown.current) return;
    shown.current = line.text;
    if (!focused) {
      setDraft(line.text);
      sent.current = line.text;
    }
  }, [line.text, focused]);

  async function save() {
    if (draft === sent.current) return;
    if (tooLong) return setState({ kind: "failed", message: refusalMessage(i18n, "line_too_long") });
    sent.current = draft;
    const result = await worker.setSubtitleLine(setId, line.key, draft);
    if (!result.ok) {
      sent.current = line.text;
      return setState({ kind: "failed", message: failureMessage(i18n, result.failure) });
    }
    setState({ kind: result.queued ? "queued" : "saved" });
  }

  const from = formatTimecode(line.start);
  const to = formatTimecode(line.end);
  const error = tooLong ? refusalMessage(i18n, "line_too_long") : state.kind === "failed" ? state.message : undefined;

  return (
    <TextField
      className="field subtitle-line"
      value={draft}
      isDisabled={isDisabled}
      isInvalid={!!error}
      onChange={(text) => {
        setDraft(text);
        if (state.kind !== "idle") setState({ kind: "idle" });
      }}
      onFocus={() => {
        setFocused(true);
        onEditingChange(true);
      }}
      onBlur={() => {
        setFocused(false);
        onEditingChange(false);
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          void save();
        } else if (event.key === "Escape") {
          setDraft(sent.current);
          setState({ kind: "idle" });
        }
      }}
    >
      <Label className="field-label subtitle-line-label">
        <span className="subtitle-line-number">{t`Line ${number}`}</span>{" "}
        <span className="subtitle-line-time">
          {from} – {to}
        </span>
        {line.edited === 1 && (
          <span className="subtitle-line-edited">
            {" "}
            <Trans>(edited)</Trans>
          </span>
        )}
      </Label>
      <Input className="field-input" />
      <Text slot="description" className="field-description subtitle-line-status">
        <span data-over={tooLong || undefined}>{t`${count}/${SCENE_LINE_MAX} characters`}</span>
        {state.kind === "saved" && (
          <span>
            {" · "}
            <Trans>Saved</Trans>
          </span>
        )}
        {state.kind === "queued" && (
          <span>
            {" · "}
            <Trans>Saved on this device</Trans>
          </span>
        )}
      </Text>
      <FieldError className="field-error">{error}</FieldError>
    </TextField>
  );
}
