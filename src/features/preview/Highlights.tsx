import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import type { HighlightsRow } from "../../db";

const FLAGS = [
  ["music", msg`Background music`],
  ["autoduck", msg`Auto-duck`],
  ["audioEnhancer", msg`Audio enhancer`],
  ["noiseCancelling", msg`Noise cancelling`],
  ["autoPunchIn", msg`Auto punch-in`],
] as const;

/** What the automatic edit did: silence removed, jump cuts, subtitle lines, and which features ran. */
export function Highlights({ highlights }: { highlights: HighlightsRow }) {
  const { t, i18n } = useLingui();
  const seconds = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 }).format(highlights.removedLength);
  return (
    <section className="highlights" aria-labelledby="highlights-title">
      <h2 id="highlights-title" className="section-title">
        <Trans>What Cutroom did</Trans>
      </h2>
      <dl className="highlight-numbers">
        <div>
          <dt>
            <Trans>Silence removed</Trans>
          </dt>
          <dd>
            <Trans>{seconds} s</Trans>
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Jump cuts created</Trans>
          </dt>
          <dd>{highlights.jumpCutsCreated}</dd>
        </div>
        <div>
          <dt>
            <Trans>Subtitle lines</Trans>
          </dt>
          <dd>{highlights.subtitlesLinesCount}</dd>
        </div>
      </dl>
      <ul className="highlight-flags" aria-label={t`Features`}>
        {FLAGS.map(([key, label]) => (
          <li key={key} data-on={highlights[key] || undefined}>
            <span aria-hidden="true" className="flag-mark">
              {highlights[key] ? "✓" : "–"}
            </span>
            {i18n._(label)}
            <span className="visually-hidden">: {highlights[key] ? t`on` : t`off`}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
