import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { z } from "zod";
import { fieldErrors } from "../../../api/errors";
import type { Failure } from "../../../workers/status";
import { failureFields, fieldMessage } from "../errors";

/** Field messages in the user's language, from the form's own check or from the server's answer. */
export function useFieldErrors() {
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<Record<string, string>>({});
  return {
    errors,
    clear: () => setErrors({}),
    fromIssues: (issues: readonly z.core.$ZodIssue[]) =>
      setErrors(Object.fromEntries(Object.entries(fieldErrors(issues)).map(([field, code]) => [field, fieldMessage(i18n, code)]))),
    fromFailure: (failure: Failure) => setErrors(failureFields(i18n, failure)),
  };
}
