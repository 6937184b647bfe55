import { Trans, useLingui } from "@lingui/react/macro";
import { Label, Radio, RadioGroup } from "react-aria-components";
import type { PaymentMethod } from "../../../api/payments";
import { Button } from "../../ui/Button";
import { CardForm } from "./CardForm";
import { cardBrandName } from "./card-brand";

export interface CardChoiceProps {
  cards: readonly PaymentMethod[];
  /** The saved card paid with (an id of `cards`), or null. */
  selected: string | null;
  onSelect: (id: string) => void;
  /** The card form is open instead of the list. */
  adding: boolean;
  onAddingChange: (adding: boolean) => void;
  isDisabled?: boolean;
}

/**
 * The card step of a payment (SPEC §2 Plan selection flow: "card form or saved card"; the promotion's card
 * confirmation): the saved cards to pick from, newest first, or the card form; a saved new card is selected.
 */
export function CardChoice({ cards, selected, onSelect, adding, onAddingChange, isDisabled }: CardChoiceProps) {
  const { t } = useLingui();
  if (adding) {
    return (
      <CardForm
        submitLabel={t`Save card`}
        onSaved={(saved) => {
          onSelect(saved.id);
          onAddingChange(false);
        }}
        onCancel={() => onAddingChange(false)}
      />
    );
  }
  return (
    <>
      {cards.length > 0 ? (
        <RadioGroup className="radio-options" value={selected} onChange={onSelect} isDisabled={isDisabled}>
          <Label className="field-label">
            <Trans>Pay with</Trans>
          </Label>
          {[...cards].reverse().map((card) => (
            <Radio key={card.id} value={card.id} className="radio">
              <span className="radio-dot" aria-hidden="true" />
              <span className="radio-text">
                <Trans>
                  {cardBrandName(card.brand)} ending in {card.last_four}, expires {String(card.exp_month).padStart(2, "0")}/{String(card.exp_year).slice(-2)}
                </Trans>
              </span>
            </Radio>
          ))}
        </RadioGroup>
      ) : (
        <p className="muted">
          <Trans>No saved cards yet.</Trans>
        </p>
      )}
      <div>
        <Button variant="secondary" onPress={() => onAddingChange(true)} isDisabled={isDisabled}>
          <Trans>Add a new card</Trans>
        </Button>
      </div>
    </>
  );
}
