import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { allowedTiers, carriesWatermark, projectExportRights, userVideoTier, type ExportTier } from "../../../api/export-tiers";
import type { Project, ProjectSettings } from "../../../api/projects";
import { PROJECT_NAME_MAX } from "../../../api/limits";
import { VIDEO_DESCRIPTION_MAX, type Privacy } from "../../../api/share";
import { useCurrentUser } from "../../app/hooks";
import { Button } from "../../ui/Button";
import { RadioGroup } from "../../ui/RadioGroup";
import { Select } from "../../ui/Select";
import { Switch } from "../../ui/Switch";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { PRIVACY_OPTIONS } from "../share/privacy";

type AspectChoice = Exclude<ProjectSettings["aspect"], ""> | "original";
const TIER_KEYS: Record<ExportTier, "720" | "1080" | "2160"> = { 1: "720", 2: "1080", 4: "2160" };
const TIER_OF_KEY: Record<"720" | "1080" | "2160", ExportTier> = { "720": 1, "1080": 2, "2160": 4 };

/**
 * SPEC §3 Export options, §5 Export: the resolution (only the tiers the user's plan has, the server's rule in
 * api/export-tiers.ts), the aspect with crop (fill it by cropping, or fit with bars; only with an aspect), the
 * video's name (the download's file name and the share page's title), its description (the share page's text) and
 * the share page's privacy. Export asks the server for a final render with all of them, and the tab then shows the
 * rendering progress. Render Ready projects offer it as "Export again".
 */
export function ExportForm({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  // A project bought once (SPEC §6) exports at 1080p without the watermark, as the server allows it.
  const rights = user ? projectExportRights({ videoTier: userVideoTier(user), watermark: carriesWatermark(user) }, project) : null;
  const tiers = rights ? allowedTiers(rights.videoTier) : [];
  const [tierKey, setTierKey] = useState<"720" | "1080" | "2160" | null>(null);
  const [aspect, setAspect] = useState<AspectChoice>(project.aspect || "original");
  const [crop, setCrop] = useState(project.autocrop === 1);
  // Until edited here, these follow the project (the share panel may change its privacy meanwhile).
  const [nameInput, setName] = useState<string | null>(null);
  const [descriptionInput, setDescription] = useState<string | null>(null);
  const [privacyInput, setPrivacy] = useState<Privacy | null>(null);
  const name = nameInput ?? (project.video_name || project.name);
  const description = descriptionInput ?? project.description ?? "";
  const privacy = privacyInput ?? project.privacy ?? "private";
  const [nameError, setNameError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  if (!user || (project.status !== "Preview Ready" && project.status !== "Render Ready")) return null;

  // Default: 1080p where the plan has it, else 720p (as the server's default).
  const chosenKey = tierKey && tiers.includes(TIER_OF_KEY[tierKey]) ? tierKey : TIER_KEYS[tiers.includes(2) ? 2 : 1];
  const names: Record<ExportTier, string> = { 1: t`720p`, 2: t`1080p (Full HD)`, 4: t`4k (Ultra HD)` };
  const again = project.status === "Render Ready";

  const submit = async () => {
    if (!name.trim()) return setNameError(t`Give the video a name.`);
    setNameError(undefined);
    setPending(true);
    const result = await worker.renderProject(project.id, true, {
      tier: TIER_OF_KEY[chosenKey],
      aspect: aspect === "original" ? "" : aspect,
      // Crop only means something with an aspect (SPEC §2 Share and export page).
      ...(aspect === "original" ? {} : { crop }),
      name: name.trim(),
      description: description.trim(),
      privacy,
    });
    setPending(false);
    if (!result.ok) toast({ variant: "danger", title: t`Could not start the export`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <form
      className="card export-form"
      aria-label={t`Export`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 className="section-title">
        <Trans>Export settings</Trans>
      </h2>
      <RadioGroup<"720" | "1080" | "2160">
        label={t`Resolution`}
        name="tier"
        value={chosenKey}
        onChange={setTierKey}
        options={tiers.map((tier) => ({ id: TIER_KEYS[tier], label: names[tier] }))}
      />
      <Select<AspectChoice>
        label={t`Aspect`}
        name="aspect"
        value={aspect}
        onChange={setAspect}
        options={[
          { id: "original", label: t`Original` },
          { id: "16x9", label: t`Landscape 16:9` },
          { id: "9x16", label: t`Portrait 9:16` },
          { id: "1x1", label: t`Square 1:1` },
        ]}
      />
      {aspect !== "original" && (
        <Switch isSelected={crop} onChange={setCrop} description={crop ? t`The picture fills the frame; its edges are cropped, following the faces you framed.` : t`The whole picture is kept, with bars at its sides or above and below.`}>
          <Trans>Crop to fill the frame</Trans>
        </Switch>
      )}
      <p className="field-description">
        <Trans>Cutroom never upscales: a smaller source stays at its own size.</Trans>
      </p>
      <TextField
        label={t`Video name`}
        name="video-name"
        value={name}
        onChange={(value) => {
          setName(value);
          if (value.trim()) setNameError(undefined);
        }}
        maxLength={PROJECT_NAME_MAX}
        isRequired
        errorMessage={nameError}
        description={t`The file name of the download and the title of the share page.`}
      />
      <TextField
        label={t`Description`}
        name="video-description"
        multiline
        value={description}
        onChange={setDescription}
        maxLength={VIDEO_DESCRIPTION_MAX}
        description={t`Shown under the video on the share page.`}
      />
      {/* Once finished, the share panel above sets who can watch; the form keeps that choice. */}
      {!again && (
        <RadioGroup<Privacy>
          label={t`Who can watch the share page`}
          name="privacy"
          value={privacy}
          onChange={setPrivacy}
          options={PRIVACY_OPTIONS.map((o) => ({ id: o.id, label: i18n._(o.label), description: i18n._(o.description) }))}
        />
      )}
      {rights?.watermark && (
        <p className="field-description">
          <Trans>On your plan the exported video carries the Cutroom watermark.</Trans>
        </p>
      )}
      <Button type="submit" variant="primary" isPending={pending}>
        {again ? <Trans>Export again</Trans> : <Trans>Export</Trans>}
      </Button>
    </form>
  );
}
