import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { z } from "zod";
import type { Failure } from "../../../workers/status";
import { failureFields, fieldMessage } from "../errors";

/** A form's schema, loaded when the form is sent: the pages' first load carries no validation library (issue 18). */
type SchemaLoader<T> = () => Promise<z.ZodType<T>>;

/** Field messages in the user's language, from the form's own check or from the server's answer. */
export function useFieldErrors() {
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fromIssues = async (issues: readonly z.core.$ZodIssue[]) => {
    const { fieldErrors } = await import("../../../api/errors");
    setErrors(Object.fromEntries(Object.entries(fieldErrors(issues)).map(([field, code]) => [field, fieldMessage(i18n, code)])));
  };
  return {
    errors,
    clear: () => setErrors({}),
    fromIssues,
    /** Checks the form's values: the parsed values, or null with each field's message shown. */
    async check<T>(schema: SchemaLoader<T>, values: unknown): Promise<T | null> {
      const parsed = (await schema()).safeParse(values);
      if (parsed.success) {
        setErrors({});
        return parsed.data;
      }
      await fromIssues(parsed.error.issues);
      return null;
    },
    fromFailure: (failure: Failure) => setErrors(failureFields(i18n, failure)),
  };
}
