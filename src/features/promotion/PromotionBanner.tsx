import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Button } from "react-aria-components";
import type { Promotion } from "../../../api/promotion";
import type { UserRow } from "../../db";
import { BannerText } from "../../app/BannerText";
import { formatDate } from "../../lib/format";
import { PromotionModal } from "./PromotionModal";
import { usePromotion } from "./usePromotion";
import "./promotion.css";

/**
 * SPEC §1 marketing context: the seasonal promotion's banner in the shell, for free users while the
 * operator's window is open (PROMOTION_START–PROMOTION_END); its button opens the promotion modal.
 */
export function PromotionBanner({ user }: { user: UserRow }) {
  const promotion = usePromotion(user);
  // Once open, the modal stays (its success step comes when the user is no longer free) until it is closed.
  const [opened, setOpened] = useState<Promotion | null>(null);
  return (
    <>
      {promotion && <Banner promotion={promotion} user={user} onOpen={() => setOpened(promotion)} />}
      {opened && <PromotionModal promotion={opened} user={user} onClose={() => setOpened(null)} />}
    </>
  );
}

function Banner({ promotion, user, onOpen }: { promotion: Promotion; user: UserRow; onOpen: () => void }) {
  const { t } = useLingui();
  const { year, month } = promotion.coupons;
  const until = formatDate(promotion.ends_at, user.locale);
  return (
    <div className="promotion-banner" role="region" aria-label={t`Seasonal offer`}>
      <BannerText>
        {year && month ? (
          <Trans>
            Seasonal offer: {year.percent_off}% off yearly plans or {month.percent_off}% off monthly plans, until {until}.
          </Trans>
        ) : year ? (
          <Trans>
            Seasonal offer: {year.percent_off}% off yearly plans, until {until}.
          </Trans>
        ) : (
          <Trans>
            Seasonal offer: {month!.percent_off}% off monthly plans, until {until}.
          </Trans>
        )}
      </BannerText>
      <Button className="banner-link" onPress={onOpen}>
        <Trans>See the offer</Trans>
      </Button>
    </div>
  );
}
