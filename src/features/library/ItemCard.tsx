import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Button as AriaButton } from "react-aria-components";
import type { LibraryItem } from "../../../api/media";
import { PROGRESS_DONE } from "../../lib/constants";
import { formatDuration, formatPercent } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Checkbox } from "../../ui/Checkbox";
import { ConfirmButton } from "../../ui/ConfirmDialog";
import { ProgressBar } from "../../ui/ProgressBar";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { ProjectThumbnail } from "../projects/ProjectThumbnail";
import { RenameDialog } from "./RenameDialog";
import { isFullyProcessed } from "./selection";

export interface ItemCardProps {
  item: LibraryItem;
  /** Its scenes are shown in the scenes pane. */
  isOpen: boolean;
  onOpen: (id: number) => void;
  /** Insert mode only (not overlay): the checkbox that picks the whole item. */
  pick?: { isPicked: boolean; onToggle: () => void };
  /** Insert mode: the item can be picked once fully processed (SPEC §5). */
  insertMode: boolean;
}

/** One library item: thumbnail, name, length, processing state; open, rename, remove; pick when inserting. */
export function ItemCard({ item, isOpen, onOpen, pick, insertMode }: ItemCardProps) {
  const { t, i18n } = useLingui();
  const [renaming, setRenaming] = useState(false);
  const name = item.name;
  const ready = isFullyProcessed(item);

  async function rename(next: string) {
    const result = await worker.renameLibraryItem(item.id, next);
    if (!result.ok) toast({ variant: "danger", title: t`Could not rename the file`, description: failureMessage(i18n, result.failure) });
    return result.ok;
  }
  async function remove() {
    const result = await worker.removeLibraryItem(item.id);
    if (result.ok) toast({ variant: "success", title: t`“${name}” removed` });
    else toast({ variant: "danger", title: t`Could not remove “${name}”`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <li className="card library-item" data-item-id={item.id} data-open={isOpen || undefined} data-picked={pick?.isPicked || undefined}>
      <AriaButton className="library-item-open" aria-label={t`Open ${name}`} aria-current={isOpen || undefined} onPress={() => onOpen(item.id)}>
        <ProjectThumbnail src={item.thumbnail_url} />
        <span className="library-item-name">{name}</span>
      </AriaButton>
      <div className="library-item-meta muted">
        {item.kind !== "image" && <span>{formatDuration(item.duration)}</span>}
        {ready && (
          <span>
            <Plural value={item.scenes_count} one="# scene" other="# scenes" />
          </span>
        )}
        {item.used_in_projects > 0 && (
          <span>
            <Plural value={item.used_in_projects} one="Used in # project" other="Used in # projects" />
          </span>
        )}
        {item.type === "project" && (
          <span className="status-badge">
            <Trans>Project</Trans>
          </span>
        )}
      </div>
      {!ready &&
        (item.progress < PROGRESS_DONE ? (
          <ProgressBar label={t`Processing ${name}`} hideLabel value={item.progress} valueLabel={t`Processing ${formatPercent(item.progress, i18n.locale)}`} />
        ) : (
          <p className="muted library-item-state">
            <Trans>Preparing the preview…</Trans>
          </p>
        ))}
      {pick && ready && (
        <Checkbox isSelected={pick.isPicked} onChange={pick.onToggle} aria-label={t`Select all scenes of ${name}`}>
          <Trans>All scenes</Trans>
        </Checkbox>
      )}
      {insertMode && !ready && (
        <p className="muted library-item-state">
          <Trans>It can be inserted once processed.</Trans>
        </p>
      )}
      <div className="library-item-actions">
        <Button variant="ghost" className="btn-small" onPress={() => setRenaming(true)} aria-label={t`Rename ${name}`}>
          <Trans>Rename</Trans>
        </Button>
        {item.type === "library" && (
          <ConfirmButton
            label={<Trans>Remove</Trans>}
            aria-label={t`Remove ${name}`}
            buttonVariant="ghost"
            title={t`Remove “${name}”?`}
            confirmLabel={t`Remove file`}
            onConfirm={remove}
          >
            <p>
              <Trans>The file and its scenes leave your library. This cannot be undone. A file used in a project cannot be removed.</Trans>
            </p>
          </ConfirmButton>
        )}
      </div>
      {renaming && <RenameDialog isOpen onOpenChange={setRenaming} name={name} onRename={rename} />}
    </li>
  );
}
