import { Trans } from "@lingui/react/macro";

/** Where the user is: 1 upload files, 2 configure. */
export function WizardSteps({ step }: { step: 1 | 2 }) {
  return (
    <ol className="wizard-steps">
      <li aria-current={step === 1 ? "step" : undefined} data-done={step > 1 || undefined}>
        <span className="wizard-step-number" aria-hidden="true">1</span>
        <Trans>Upload files</Trans>
      </li>
      <li aria-current={step === 2 ? "step" : undefined}>
        <span className="wizard-step-number" aria-hidden="true">2</span>
        <Trans>Configure</Trans>
      </li>
    </ol>
  );
}
