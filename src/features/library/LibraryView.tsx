import { Trans } from "@lingui/react/macro";

/** The media library (/library). A new account has no media yet. */
export function LibraryView() {
  return (
    <section aria-labelledby="library-title">
      <h1 id="library-title">
        <Trans>Media</Trans>
      </h1>
      <p className="empty-state">
        <Trans>No results</Trans>
      </p>
    </section>
  );
}
