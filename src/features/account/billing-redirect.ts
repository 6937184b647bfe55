import type { PublicConfig } from "../../../api/config";
import type { User } from "../../../api/user";

/**
 * SPEC §2 Account: the page sends a user with no billing customer (no stripe_id) to the external billing app,
 * only when the operator configured one (BILLING_APP_URL, issue 16). Otherwise /account is the billing page.
 */
export function externalBillingRedirect(config: Pick<PublicConfig, "links"> | null | undefined, user: Pick<User, "stripe_id"> | null | undefined): string | null {
  const target = config?.links.billingApp;
  if (!target || !user || user.stripe_id) return null;
  return target;
}
