import { useEffect, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useLiveQuery } from "dexie-react-hooks";
import { FieldError, Form, Label, TextArea, TextField as AriaTextField } from "react-aria-components";
import { fieldErrors } from "../../../api/errors";
import type { Project } from "../../../api/projects";
import { VIDEO_SITE_TITLE_MAX, VideoSiteExportBody, type VideoSitePrivacy, type YoutubeConnection } from "../../../api/youtube";
import { useConfig } from "../../app/hooks";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { VIDEO_SITE_CONNECT_POLL_MS, VIDEO_SITE_CONNECT_POLL_TIMES, VIDEO_SITE_POLL_MS } from "../../lib/constants";
import { Button, Spinner } from "../../ui/Button";
import { Select } from "../../ui/Select";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { codeMessage, failureFields, failureMessage, fieldMessage } from "../errors";
import "./video-site-export.css";

/** The user's YouTube connection from the mirror: undefined while loading, null before the first check. */
const useYoutubeConnection = (): YoutubeConnection | null | undefined =>
  useLiveQuery(async () => {
    const row = await db.meta.get("youtube");
    return row?.key === "youtube" ? row.value : null;
  }, []);

/**
 * Video-site export (SPEC §2 finished view, §3 form, §4 states): connect a YouTube account in a consent window
 * (checked every 1 s, up to 180 times), then publish the final render with a title, description and privacy,
 * all required. While it uploads the project is re-read every 30 s; once done, the link and "export again".
 * A server without YouTube credentials shows SPEC's "temporarily unavailable" empty state.
 */
export function VideoSiteExport({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const connection = useYoutubeConnection();
  const available = config?.youtube?.available ?? connection?.available ?? false;
  const exporting = project.youtube_export === "exporting";
  const finished = project.status === "Render Ready" && project.final_render === 1;

  // Prefilled with the export form's video name and description.
  const [title, setTitle] = useState((project.video_name || project.name).slice(0, VIDEO_SITE_TITLE_MAX));
  const [description, setDescription] = useState(project.description ?? "");
  // Until chosen here, the project's privacy (chosen in the wizard or on the share panel, SPEC §3).
  const [privacyInput, setPrivacy] = useState<VideoSitePrivacy | null>(null);
  const privacy = privacyInput ?? project.privacy ?? null;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState<"export" | "connect" | "disconnect" | null>(null);
  // The consent window (closed once connected where the browser still lets the app reach it: Google's origin
  // in between usually cuts that link, and the callback page says it can be closed), and the connection check.
  const popup = useRef<Window | null>(null);
  const [waiting, setWaiting] = useState(false);
  // Each Connect press starts the check over (a window closed without answering leaves nothing to wait for).
  const [round, setRound] = useState(0);
  const [gaveUp, setGaveUp] = useState(false);
  const [consentUrl, setConsentUrl] = useState<string | null>(null);

  useEffect(() => {
    if (available) void worker.refreshYoutube();
  }, [available]);
  usePolling(() => worker.refreshProject(project.id), project.id, VIDEO_SITE_POLL_MS, exporting);

  // SPEC §9: the connection check, every 1 s up to 180 times.
  useEffect(() => {
    if (!waiting) return;
    let checks = 0;
    const timer = setInterval(() => {
      checks += 1;
      void worker.refreshYoutube();
      if (checks >= VIDEO_SITE_CONNECT_POLL_TIMES) {
        clearInterval(timer);
        setWaiting(false);
        setGaveUp(true);
      }
    }, VIDEO_SITE_CONNECT_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, round]);
  useEffect(() => {
    if (!waiting || !connection?.connected) return;
    setWaiting(false);
    setConsentUrl(null);
    popup.current?.close();
    popup.current = null;
  }, [waiting, connection?.connected]);

  if (config === undefined || connection === undefined) return null;

  const heading = (
    <h2 id={`video-site-${project.id}`} className="section-title">
      <Trans>Publish on YouTube</Trans>
    </h2>
  );

  if (!available) {
    return (
      <section className="card video-site-export" aria-labelledby={`video-site-${project.id}`}>
        {heading}
        <p className="empty-state">
          <Trans>Video-site export is temporarily unavailable.</Trans>
        </p>
      </section>
    );
  }

  async function connect() {
    setGaveUp(false);
    // Opened in the click itself, so no popup blocker stops it; it is sent to Google's page once the link arrives.
    popup.current = window.open("", "cutroom-youtube", "popup,width=520,height=700");
    setPending("connect");
    const link = await worker.youtubeConnectLink();
    setPending(null);
    if (!link.ok) {
      popup.current?.close();
      popup.current = null;
      toast({ variant: "danger", title: t`Could not connect YouTube`, description: failureMessage(i18n, link.failure) });
      return;
    }
    if (popup.current && !popup.current.closed) popup.current.location.href = link.data.url;
    else setConsentUrl(link.data.url);
    setWaiting(true);
    setRound((r) => r + 1);
  }

  async function disconnect() {
    setPending("disconnect");
    const result = await worker.disconnectYoutube();
    setPending(null);
    if (!result.ok) toast({ variant: "danger", title: t`Could not disconnect YouTube`, description: failureMessage(i18n, result.failure) });
  }

  async function submit() {
    const parsed = VideoSiteExportBody.safeParse({ title, description, privacy: privacy ?? undefined });
    if (!parsed.success) {
      setErrors(Object.fromEntries(Object.entries(fieldErrors(parsed.error.issues)).map(([field, code]) => [field, fieldMessage(i18n, code)])));
      return;
    }
    setErrors({});
    setPending("export");
    const result = await worker.exportToYoutube(project.id, parsed.data);
    setPending(null);
    if (result.ok) return;
    setErrors(failureFields(i18n, result.failure));
    if (result.failure.kind === "body" && result.failure.body.code === "youtube_not_connected") void worker.refreshYoutube();
    toast({ variant: "danger", title: t`Could not export to YouTube`, description: failureMessage(i18n, result.failure) });
  }

  if (!connection?.connected) {
    return (
      <section className="card video-site-export" aria-labelledby={`video-site-${project.id}`}>
        {heading}
        <p>
          <Trans>Connect your YouTube account to publish this video on your channel.</Trans>
        </p>
        {waiting ? (
          <p className="notice notice-neutral" role="status">
            <Spinner /> <Trans>Waiting for you to allow access in the YouTube window…</Trans>
          </p>
        ) : null}
        {consentUrl && (
          <p>
            <a href={consentUrl} target="_blank" rel="noopener noreferrer">
              <Trans>Open the YouTube sign-in page</Trans>
            </a>
          </p>
        )}
        {gaveUp && (
          <p className="notice notice-warning" role="alert">
            <Trans>YouTube was not connected. Try again.</Trans>
          </p>
        )}
        <div className="preview-actions">
          <Button variant="primary" onPress={() => void connect()} isPending={pending === "connect"}>
            <Trans>Connect YouTube</Trans>
          </Button>
        </div>
      </section>
    );
  }

  const done = project.youtube_export === "done" && project.youtubeUrl;
  return (
    <section className="card video-site-export" aria-labelledby={`video-site-${project.id}`}>
      {heading}
      <div className="preview-actions">
        <p>{connection.channel ? t`Connected to YouTube as ${connection.channel}` : t`Connected to YouTube`}</p>
        <Button variant="ghost" onPress={() => void disconnect()} isPending={pending === "disconnect"} isDisabled={exporting}>
          <Trans>Disconnect YouTube</Trans>
        </Button>
      </div>
      {project.youtube_error && !exporting && (
        <p className="notice notice-danger" role="alert">
          <Trans>The last export to YouTube did not finish.</Trans> {i18n._(codeMessage(project.youtube_error))}
        </p>
      )}
      {exporting ? (
        <p className="notice notice-neutral" role="status">
          <Spinner /> <Trans>Uploading to YouTube… This can take a while; you can leave this page.</Trans>
        </p>
      ) : !finished ? (
        <p className="field-description">
          <Trans>Export the video first; then you can publish it on YouTube.</Trans>
        </p>
      ) : (
        <>
          {done && (
            <p className="notice notice-success" role="status">
              <Trans>Already exported to YouTube.</Trans>{" "}
              <a href={project.youtubeUrl!} target="_blank" rel="noopener noreferrer">
                <Trans>Watch on YouTube</Trans>
              </a>{" "}
              <Trans>You can export it again.</Trans>
            </p>
          )}
          <Form
            className="export-form"
            aria-label={t`Publish on YouTube`}
            validationBehavior="aria"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <TextField label={t`Title`} name="title" value={title} onChange={setTitle} isRequired maxLength={VIDEO_SITE_TITLE_MAX} errorMessage={errors.title} description={t`Up to 100 characters, without < or >.`} />
            <AriaTextField className="field" name="description" value={description} onChange={setDescription} isRequired isInvalid={!!errors.description}>
              <Label className="field-label">
                <Trans>Description</Trans>
              </Label>
              <TextArea className="field-input" rows={4} />
              <FieldError className="field-error">{errors.description}</FieldError>
            </AriaTextField>
            <Select<VideoSitePrivacy>
              label={t`Privacy`}
              name="privacy"
              value={privacy}
              onChange={setPrivacy}
              placeholder={t`Choose who can watch`}
              errorMessage={errors.privacy}
              options={[
                { id: "public", label: t`Public` },
                { id: "unlisted", label: t`Unlisted (anyone with the link)` },
                { id: "private", label: t`Private (only you)` },
              ]}
            />
            <Button type="submit" variant="primary" isPending={pending === "export"}>
              {done ? <Trans>Export to YouTube again</Trans> : <Trans>Export to YouTube</Trans>}
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
