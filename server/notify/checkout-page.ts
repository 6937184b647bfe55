import type { I18n } from "@lingui/core";
import type { LocalCheckoutSession } from "../payments/local-gateway";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The card errors the test page words itself (the gateway's codes, Stripe's). */
function cardError(i18n: I18n, code: string): string {
  switch (code) {
    case "incorrect_number":
      return i18n._({ id: "checkout.page.error.number", message: "Your card number is incorrect." });
    case "invalid_expiry_month":
    case "invalid_expiry_year":
      return i18n._({ id: "checkout.page.error.expiry", message: "Your card's expiration date is invalid." });
    case "expired_card":
      return i18n._({ id: "checkout.page.error.expired", message: "Your card has expired." });
    case "invalid_cvc":
      return i18n._({ id: "checkout.page.error.cvc", message: "Your card's security code is invalid." });
    case "payment_intent_authentication_failure":
      return i18n._({ id: "checkout.page.error.authentication", message: "We are unable to authenticate your payment method. Please choose a different payment method and try again." });
    default:
      return i18n._({ id: "checkout.page.error.declined", message: "Your card was declined." });
  }
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f6;color:#1d1d24}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
.test{background:#ffe8a3;color:#5a4100;font-weight:700;padding:.5rem .75rem;border-radius:6px;text-align:center;letter-spacing:.05em}
h1{font-size:1.25rem}.amount{font-size:1.75rem;font-weight:700;margin:.25rem 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;font-size:1rem;padding:.6rem;border:1px solid #999;border-radius:6px}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button,.cancel{display:inline-block;font-size:1rem;padding:.7rem 1.2rem;border-radius:6px;border:0;margin-top:1rem;cursor:pointer}
button{background:#4b3fd6;color:#fff;width:100%}.secondary{background:#e4e4ea;color:#1d1d24}.cancel{color:#4b3fd6;text-align:center;width:100%;box-sizing:border-box}
.error{background:#fde2e2;color:#8a1010;padding:.6rem;border-radius:6px}.hint{font-size:.875rem;color:#555}`;

/**
 * The local gateway's hosted checkout page (issue 16), in the buyer's language: it never takes real money and
 * says so first. `null`: the session does not exist (or is no longer open).
 */
export function checkoutPage(i18n: I18n, session: LocalCheckoutSession | null): string {
  const title = i18n._({ id: "checkout.page.title", message: "Cutroom test checkout" });
  const testMode = i18n._({ id: "checkout.page.testMode", message: "TEST MODE: no real money is taken" });
  const head = `<!doctype html><html lang="${escapeHtml(i18n.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>`;
  const foot = `</main></body></html>`;
  if (!session) {
    const gone = i18n._({ id: "checkout.page.notFound", message: "This checkout session does not exist or has ended." });
    return `${head}<p class="test">${escapeHtml(testMode)}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(gone)}</p>${foot}`;
  }
  const amount = `US$ ${(session.amount_total / 100).toFixed(2)}`;
  const error = session.last_error ? `<p class="error" role="alert">${escapeHtml(cardError(i18n, session.last_error.code))}</p>` : "";
  const summary = `<p class="test">${escapeHtml(testMode)}</p><h1>${escapeHtml(session.name)}</h1><p class="amount">${escapeHtml(amount)}</p>`;
  const cancel = `<a class="cancel" href="${escapeHtml(session.cancel_url)}">${escapeHtml(i18n._({ id: "checkout.page.cancel", message: "Cancel and go back" }))}</a>`;
  const action = `/local-gateway/checkout/${encodeURIComponent(session.id)}`;
  if (session.requires_action) {
    const explain = i18n._({ id: "checkout.page.3ds", message: "Your bank asks you to confirm this payment (3-D Secure test)." });
    const complete = i18n._({ id: "checkout.page.3dsComplete", message: "Complete authentication" });
    const fail = i18n._({ id: "checkout.page.3dsFail", message: "Fail authentication" });
    return `${head}${summary}<p>${escapeHtml(explain)}</p><form method="post" action="${action}/authenticate"><button type="submit" name="outcome" value="complete">${escapeHtml(complete)}</button><button type="submit" name="outcome" value="fail" class="secondary">${escapeHtml(fail)}</button></form>${cancel}${foot}`;
  }
  const hint = i18n._({ id: "checkout.page.hint", message: "Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0027 6000 3184 asks for 3-D Secure. Any future expiry date and any 3 digits." });
  const pay = i18n._({ id: "checkout.page.pay", message: "Pay {amount}", values: { amount } });
  const field = (id: string, label: string, attrs: string) => `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" ${attrs}>`;
  return (
    `${head}${summary}${error}<form method="post" action="${action}">` +
    field("name", i18n._({ id: "checkout.page.name", message: "Name on card" }), `name="name" autocomplete="cc-name" maxlength="255"`) +
    field("number", i18n._({ id: "checkout.page.number", message: "Card number" }), `name="number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required`) +
    `<div class="row"><div>` +
    field("expiry", i18n._({ id: "checkout.page.expiry", message: "Expiry (MM / YY)" }), `name="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="9" required`) +
    `</div><div>` +
    field("cvc", i18n._({ id: "checkout.page.cvc", message: "Security code" }), `name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required`) +
    `</div></div><p class="hint">${escapeHtml(hint)}</p><button type="submit">${escapeHtml(pay)}</button></form>${cancel}${foot}`
  );
}
