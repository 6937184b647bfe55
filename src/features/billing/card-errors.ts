import { t } from "@lingui/core/macro";

/**
 * A card error in the user's language (issue 16): Stripe's codes (and the local gateway's, which are the
 * same), Stripe Elements' own field codes, and the failure_code of a payment attempt. An unknown code gets
 * the fallback when one is given (the gateway's own words), else a general message.
 */
export function cardErrorMessage(code: string | null, fallback?: string): string {
  switch (code) {
    case "card_declined":
    case "generic_decline":
    case "do_not_honor":
    case "live_card_in_test_mode":
      return t`Your card was declined. Try another card or contact your bank.`;
    case "insufficient_funds":
      return t`Your card has insufficient funds.`;
    case "lost_card":
    case "stolen_card":
    case "pickup_card":
      return t`Your card was declined. Contact your bank or use another card.`;
    case "incorrect_number":
    case "invalid_number":
    case "incomplete_number":
      return t`Your card number is incorrect.`;
    case "invalid_expiry_month":
      return t`Your card's expiration month is invalid.`;
    case "invalid_expiry_year":
    case "incomplete_expiry":
      return t`Your card's expiration date is invalid.`;
    case "expired_card":
      return t`Your card has expired.`;
    case "incorrect_cvc":
    case "invalid_cvc":
    case "incomplete_cvc":
      return t`Your card's security code is incorrect.`;
    case "incorrect_zip":
    case "incomplete_zip":
      return t`Your card's postal code is incorrect.`;
    case "authentication_required":
      return t`Your bank asks you to confirm this payment. Confirm it to finish.`;
    case "authentication_failed":
    case "setup_intent_authentication_failure":
    case "payment_intent_authentication_failure":
      return t`We could not confirm your card with your bank. Try again or use another card.`;
    case "processing_error":
      return t`An error occurred while processing your card. Try again in a moment.`;
    case "card_not_supported":
    case "currency_not_supported":
      return t`Your card does not support this kind of payment. Use another card.`;
    case "payment_method_missing":
      return t`There is no card to charge. Add a card first.`;
    case "resource_missing":
      return t`This card entry has expired. Start again.`;
    case "rate_limited":
      return t`Too many attempts. Wait a minute and try again.`;
    default:
      return fallback || t`Your card could not be used. Try another card.`;
  }
}
