import { msg } from "@lingui/core/macro";
import type { I18n } from "@lingui/core";
import { ErrorCode } from "../../../api/errors";
import type { Quotas } from "../../../api/user";
import { formatSize } from "../../lib/format";
import type { ToastContentValue } from "../../ui/Toast";
import { failureMessage } from "../errors";
import type { Refusal } from "./checks";

/** SPEC §8's upload toasts ('double file', 'limit single file', 'limits restriction') for a refused file. */
export function refusalToast(i18n: I18n, reason: Refusal, name: string, quotas: Quotas | null): ToastContentValue {
  switch (reason) {
    case "double_file":
      return {
        variant: "danger",
        title: i18n._(msg`Double file`),
        description: i18n._(msg`“${name}” is already in the list or in your media library. Rename it to add it.`),
      };
    case "limit_single_file": {
      const size = quotas ? formatSize(quotas.uploadMaxSizeBytes) : "";
      const minutes = quotas?.uploadMaxLengthMinutes ?? 0;
      return {
        variant: "danger",
        title: i18n._(msg`Single-file limit`),
        description: i18n._(msg`“${name}” is over the limit of ${size} and ${minutes} minutes per file.`),
      };
    }
    case "limits_minutes": {
      const minutes = Math.floor(quotas?.processingMinutes ?? 0);
      return {
        variant: "danger",
        title: i18n._(msg`Limits restriction`),
        description: i18n._(msg`“${name}” exceeds your processing minutes: ${minutes} min left in total.`),
      };
    }
    case "limits_storage": {
      const size = formatSize(quotas?.storageBytes ?? 0);
      return {
        variant: "danger",
        title: i18n._(msg`Limits restriction`),
        description: i18n._(msg`“${name}” exceeds your storage: ${size} left in total.`),
      };
    }
  }
}

export const unsupportedToast = (i18n: I18n, name: string): ToastContentValue => ({
  variant: "warning",
  title: i18n._(msg`Unsupported format`),
  description: i18n._(msg`“${name}” is not a video, audio or image file.`),
});

/** What went wrong with one file, from the error code the worker stored on the upload row. */
export function uploadErrorMessage(i18n: I18n, code: string): string {
  if (code === "network") return i18n._(msg`Waiting for connection…`);
  if (code === "signed_out" || code === "internal" || code === "bad_request") return failureMessage(i18n, { kind: code });
  const known = ErrorCode.safeParse(code);
  if (known.success) return failureMessage(i18n, { kind: "body", status: 0, body: { code: known.data, message: "" } });
  return i18n._(msg`Error uploading file`);
}
