import type { I18n } from "@lingui/core";
import type { Db } from "../db";
import type { ProjectRow } from "../db/projects";
import type { Mailer } from "../notify/mail";
import { renderFinishedMail } from "../notify/render-mail";
import { notificationUrl, renderNoticeKind, renderNoticeRecipient } from "./push";

export interface RenderMailDeps {
  db: Db;
  mailer: Mailer;
  i18n: (locale: string) => I18n;
  publicUrl: string;
  log: { warn: (fields: Record<string, unknown>, message: string) => void };
}

/**
 * SPEC §3 render_notifications: an e-mail when a render finishes, under the same rules as the push (the account's
 * and the project's switches, the plan's feature), in the user's language, through the mail port.
 */
export function createRenderMail(deps: RenderMailDeps) {
  return {
    /** The pipeline's render hook: never throws, so a mail problem never fails a render. */
    async notifyRender(project: ProjectRow, ok: boolean): Promise<void> {
      try {
        const user = await renderNoticeRecipient(deps.db, project);
        if (!user) return;
        const kind = renderNoticeKind(project, ok);
        const link = `${deps.publicUrl}${notificationUrl(project.id, kind)}`;
        await deps.mailer.send(renderFinishedMail(deps.i18n(user.locale), user.email, user.first_name, kind, project.name, link));
      } catch (error) {
        deps.log.warn({ projectId: project.id, reason: error instanceof Error ? error.message : String(error) }, "render e-mail not sent");
      }
    },
  };
}
