import { msg } from "@lingui/core/macro";
import type { I18n } from "@lingui/core";
import type { ToastContentValue } from "../../ui/Toast";
import { uploadErrorMessage } from "../upload/messages";

/** SPEC §8 "Project creation failure": the title, the apology and why. */
export function creationFailedToast(i18n: I18n, code: string | undefined): ToastContentValue {
  const reason =
    code === "signed_out"
      ? i18n._(msg`Your session may have expired. Please try again.`)
      : code === "upload_failed" || !code
        ? i18n._(msg`Error uploading file`)
        : uploadErrorMessage(i18n, code);
  return {
    variant: "danger",
    title: i18n._(msg`Error creating project`),
    description: `${i18n._(msg`Sorry, unable to create your project`)}. ${reason}`,
  };
}
