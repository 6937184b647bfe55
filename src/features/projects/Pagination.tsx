import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";

/** Previous / page n of m / next, as links to ?page=n. */
export function Pagination({ page, lastPage, nextDisabled }: { page: number; lastPage: number; nextDisabled: boolean }) {
  const { t } = useLingui();
  const search = (n: number) => (n > 1 ? { page: n } : {});
  return (
    <nav className="pagination" aria-label={t`Pages`}>
      {page > 1 ? (
        <Link to="/open" search={search(page - 1)} className="btn btn-secondary">
          <Trans>Previous</Trans>
        </Link>
      ) : (
        <span className="btn btn-secondary" aria-disabled="true" data-disabled>
          <Trans>Previous</Trans>
        </span>
      )}
      <span className="pagination-current" aria-current="page">
        <Trans>
          Page {page} of {lastPage}
        </Trans>
      </span>
      {nextDisabled ? (
        <span className="btn btn-secondary" aria-disabled="true" data-disabled>
          <Trans>Next</Trans>
        </span>
      ) : (
        <Link to="/open" search={search(page + 1)} className="btn btn-secondary">
          <Trans>Next</Trans>
        </Link>
      )}
    </nav>
  );
}
