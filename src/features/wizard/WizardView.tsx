import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { isMediaLanguage } from "../../lib/languages";
import { Button } from "../../ui/Button";
import { ConfirmButton, ConfirmDialog } from "../../ui/ConfirmDialog";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { fieldMessage } from "../errors";
import { activeUploads, useWizardUploads } from "../upload/hooks";
import { UploadScreen } from "../upload/UploadScreen";
import { ConfigureStep } from "./ConfigureStep";
import { clearWizard, loadWizard, saveWizard } from "./savedSettings";
import { DEFAULT_WIZARD_SETTINGS, errorsAfterEdit, settingsTouched, validateSettings, type WizardSettings } from "./settings";
import { useLeaveGuard } from "./useLeaveGuard";
import { useDraftOutcome, useRefusedUploadToasts, useResumeWhenOnline, useUploadedToasts, useWaitingDraft } from "./useWizardEffects";
import { WizardSteps } from "./WizardSteps";

const withoutExtension = (name: string) => name.replace(/\.[^.]+$/, "");

/** The new-project wizard (SPEC §2): step 1 uploads files, step 2 configures and creates the project. */
export function WizardView() {
  const { t, i18n } = useLingui();
  const { step = 1 } = useSearch({ from: "/_app/new" });
  const navigate = useNavigate();
  const [settings, setSettings] = useState<WizardSettings>(DEFAULT_WIZARD_SETTINGS);
  const [languageChosen, setLanguageChosen] = useState<ReadonlySet<string>>(new Set());
  const [showMissingLanguage, setShowMissingLanguage] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [draftId, setDraftId] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const leaving = useRef(false);
  const [restored, setRestored] = useState(false);

  // Issue 18: step 2's settings survive a reload (kept in IndexedDB until the project is created or the wizard cancelled).
  useEffect(() => {
    let live = true;
    void loadWizard().then((saved) => {
      if (!live) return;
      if (saved) {
        setSettings((current) => (settingsTouched(current) ? current : saved.settings));
        setLanguageChosen((current) => (current.size > 0 ? current : new Set(saved.languageChosen)));
      }
      setRestored(true);
    });
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (!restored) return;
    if (leaving.current || (!settingsTouched(settings) && languageChosen.size === 0)) void clearWizard();
    else void saveWizard({ settings, languageChosen: [...languageChosen] });
  }, [restored, settings, languageChosen]);

  const rows = useWizardUploads(draftId);
  const uploads = rows ?? [];
  const files = activeUploads(uploads);
  const draft = useDraftOutcome(draftId, () => setDraftId(null), leaving);
  useWaitingDraft((waiting) => {
    setDraftId(waiting.id);
    void navigate({ to: "/new", search: { step: 2 }, replace: true });
  });
  useRefusedUploadToasts(uploads);
  useUploadedToasts(uploads);
  useEffect(() => {
    if (draft?.status === "created") void clearWizard();
  }, [draft?.status]);
  useResumeWhenOnline(uploads);

  const scheduled = draft?.status === "waiting" || draft?.status === "creating";
  const sending = uploads.some((u) => u.status === "uploading" || u.status === "success");
  const hasWork = scheduled || uploads.length > 0 || settingsTouched(settings);
  const blocker = useLeaveGuard({
    block: !scheduled && hasWork,
    warnOnUnload: sending || hasWork,
    allowed: leaving,
  });

  // Step 2 needs files; an empty wizard starts at step 1.
  useEffect(() => {
    if (rows && rows.length === 0 && step === 2 && !draftId && !leaving.current) void navigate({ to: "/new", search: {}, replace: true });
  }, [rows, step, draftId, navigate]);

  function upload() {
    const missing = files.filter((u) => u.kind !== "image" && u.status === "selected" && !u.locale && !languageChosen.has(u.id));
    if (missing.length > 0) {
      setShowMissingLanguage(true);
      toast({ variant: "warning", title: t`Select languages for all videos or audios` });
      return;
    }
    void worker.startUploads(files.filter((u) => u.status === "selected").map((u) => u.id));
    const speaking = files.find((u) => isMediaLanguage(u.locale));
    setSettings((s) => ({
      ...s,
      name: s.name || withoutExtension(files.find((u) => u.role === "main")?.name ?? files[0]?.name ?? ""),
      locale: s.locale ?? (isMediaLanguage(speaking?.locale) ? speaking.locale : null),
    }));
    void navigate({ to: "/new", search: { step: 2 } });
  }

  function edit(next: WizardSettings) {
    setErrors((current) => errorsAfterEdit(current, settings, next));
    setSettings(next);
  }

  async function create() {
    const checked = validateSettings(settings);
    if (!checked.ok) {
      setErrors(Object.fromEntries(Object.entries(checked.fields).map(([field, code]) => [field, fieldMessage(i18n, code)])));
      return;
    }
    if (uploads.some((u) => u.status === "failed")) {
      setErrors({ files: t`Remove the files that could not be uploaded before creating the project.` });
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const unsent = files.filter((u) => u.status === "selected").map((u) => u.id);
      if (unsent.length > 0) void worker.startUploads(unsent);
      setDraftId(await worker.scheduleProject(checked.settings, files.map((u) => u.id)));
    } finally {
      setSubmitting(false);
    }
  }

  /** The scheduled project carries on in the background; the wizard starts afresh. */
  function startAnother() {
    setDraftId(null);
    setSettings(DEFAULT_WIZARD_SETTINGS);
    setLanguageChosen(new Set());
    setShowMissingLanguage(false);
  }

  /** Cancelling: the files leave the list (uploads stop) and a scheduled project is forgotten. */
  async function discard() {
    leaving.current = true;
    if (draftId) await worker.forgetDraft(draftId);
    await clearWizard();
    await Promise.all(uploads.map((u) => worker.removeUpload(u.id)));
  }

  return (
    <section className="wizard" aria-labelledby="wizard-title">
      <div className="page-head">
        <h1 id="wizard-title">
          <Trans>New project</Trans>
        </h1>
        {hasWork ? (
          <ConfirmButton
            label={<Trans>Cancel</Trans>}
            buttonVariant="ghost"
            title={t`Cancel this project?`}
            confirmLabel={t`Cancel project`}
            cancelLabel={t`Keep editing`}
            onConfirm={async () => {
              await discard();
              await navigate({ to: "/" });
            }}
          >
            <p>
              <Trans>Your files and settings will be lost. Files still uploading stop now.</Trans>
            </p>
          </ConfirmButton>
        ) : (
          <Button variant="ghost" onPress={() => void navigate({ to: "/" })}>
            <Trans>Cancel</Trans>
          </Button>
        )}
      </div>
      <WizardSteps step={step} />

      {step === 1 ? (
        <UploadScreen
          uploads={uploads}
          languageChosen={languageChosen}
          onLanguageChosen={(id) => setLanguageChosen((s) => new Set(s).add(id))}
          showMissingLanguage={showMissingLanguage}
          onUpload={upload}
        />
      ) : (
        <ConfigureStep
          settings={settings}
          onChange={edit}
          errors={errors}
          scheduled={scheduled}
          submitting={submitting}
          uploads={uploads}
          onCreate={() => void create()}
          onBack={() => void navigate({ to: "/new", search: {} })}
          onStartAnother={startAnother}
        />
      )}

      <ConfirmDialog
        isOpen={blocker.status === "blocked"}
        onOpenChange={(open) => !open && blocker.status === "blocked" && blocker.reset()}
        title={t`Leave this project?`}
        confirmLabel={t`Leave`}
        cancelLabel={t`Stay`}
        onConfirm={async () => {
          if (blocker.status !== "blocked") return;
          await discard();
          blocker.proceed();
        }}
      >
        <p>
          <Trans>Your files and settings will be lost.</Trans>
        </p>
      </ConfirmDialog>
    </section>
  );
}
