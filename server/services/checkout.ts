import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { lifetimePlanId, type CheckoutOffers, type CheckoutSession, type LifetimeTier } from "../../api/checkout";
import type { Db } from "../db";
import { findPlan, toApiPlan } from "../db/plans";
import type { CheckoutSessionRow } from "../db/schema";
import { findUserById, updateUser } from "../db/users";
import type { Clock, GatewayCheckoutSession, PaymentGateway } from "../payments/gateway";
import { DomainError, notFound } from "./errors";

/**
 * One-time purchases (issue 16; SPEC §2 Lifetime-deal purchase, §6, §7): a lifetime deal (Tier 1–3) and the
 * watermark-free 1080p export of one project. Opening one writes what it sells, to whom and for how much
 * (our catalogue's price), then the buyer pays on the gateway's page (Stripe Checkout, or the local
 * gateway's test-mode page); the gateway's `checkout.session.completed` webhook, verified and applied once,
 * gives what was bought.
 *
 * A lifetime deal: the user's ltd_tier is the plan (ltd_tier1…3), whose limits the quotas read (SPEC §9:
 * 90 minutes a file, 5 GB an upload, 150 GB, 1080p, no watermark); show_wizard = 1 so /account greets them.
 * ltd_renew_at stays null: a lifetime deal is paid once and never renews (nothing is charged again), so
 * /account shows no renewal date for it. A live subscription stops renewing at its period end (the
 * lifetime plan is kept when it ends).
 */
export interface CheckoutDeps {
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
  publicUrl: string;
  /** SPEC §6's one-time fee (US$ cents), from the plans file. */
  videoExportAmount: number;
  /** The user's billing customer at the gateway (made on first use). */
  customerFor: (userId: number) => Promise<string>;
  /** What the user's plan exports (a video already watermark-free at 1080p needs no purchase). */
  renderRights: (userId: number) => Promise<{ videoTier: number; watermark: boolean }>;
  log?: { warn(fields: object, message: string): void };
}

/** The item id of the one-project export in the plans file (its Stripe price, if any, is under this id). */
export const VIDEO_EXPORT_ITEM = "video_export";

export function createCheckout(deps: CheckoutDeps) {
  const { db, gateway, clock } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();

  async function mustUser(userId: number) {
    const user = await findUserById(db, userId);
    if (!user) throw new DomainError("unauthenticated", "Please authenticate");
    return user;
  }

  async function open(
    userId: number,
    sale: { kind: "ltd" | "video"; item: string; name: string; amount: number; planId: string | null; projectId: number | null; success: string; cancel: string },
  ): Promise<CheckoutSession> {
    const customer = await deps.customerFor(userId);
    const user = await mustUser(userId);
    // The local gateway's test page speaks the buyer's language (Stripe's page follows the browser's).
    const metadata: Record<string, string> = { user_id: String(userId), locale: user.locale, kind: sale.kind, ...(sale.planId ? { plan: sale.planId } : {}), ...(sale.projectId ? { project: String(sale.projectId) } : {}) };
    const session = await gateway.createCheckoutSession({
      customer,
      item: sale.item,
      name: sale.name,
      amount: sale.amount,
      metadata,
      successUrl: `${deps.publicUrl}${sale.success}`,
      cancelUrl: `${deps.publicUrl}${sale.cancel}`,
      idempotencyKey: `cutroom-checkout-${userId}-${sale.kind}-${sale.planId ?? sale.projectId}-${randomUUID()}`,
    });
    await db
      .insertInto("checkout_sessions")
      .values({ id: session.id, user_id: userId, kind: sale.kind, plan_id: sale.planId, project_id: sale.projectId, amount: sale.amount, gateway: gateway.name, status: "open", created_at: nowIso(), completed_at: null })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    return { id: session.id, url: session.url };
  }

  async function applyLifetime(row: CheckoutSessionRow): Promise<void> {
    await updateUser(db, row.user_id, { ltd_tier: row.plan_id, ltd_renew_at: null, show_wizard: 1, plan_id: row.plan_id! });
    // A subscription still renewing would bill a lifetime user again: it stops at its period end.
    const sub = await db.selectFrom("subscriptions").selectAll().where("user_id", "=", row.user_id).executeTakeFirst();
    if (sub?.gateway_subscription_id && ["trialing", "active", "past_due"].includes(sub.status) && !sub.cancel_at) {
      try {
        await gateway.setCancelAtPeriodEnd(sub.gateway_subscription_id, true);
      } catch (error) {
        deps.log?.warn({ subscription: sub.gateway_subscription_id, error: String(error) }, "lifetime deal bought: the subscription's renewal could not be stopped");
      }
    }
  }

  return {
    /** The lifetime tiers and the one-project export's price (anyone may read them, like the plans). */
    async offers(): Promise<z.input<typeof CheckoutOffers>> {
      const lifetime = [];
      for (const tier of ["tier1", "tier2", "tier3"] as const) {
        const plan = await findPlan(db, lifetimePlanId(tier));
        if (plan && plan.active === 1) lifetime.push(toApiPlan(plan));
      }
      return { lifetime, video_export: { amount: deps.videoExportAmount } };
    },

    /** SPEC §7 GET /stripe/checkout/ltd: a user who already has a lifetime deal buys none. */
    async lifetime(userId: number, tier: LifetimeTier): Promise<CheckoutSession> {
      const user = await mustUser(userId);
      if (user.ltd_tier) throw new DomainError("lifetime_owned", "You already have a lifetime deal");
      const plan = await findPlan(db, lifetimePlanId(tier));
      if (!plan || plan.active !== 1 || plan.interval !== null) throw notFound("No such plan");
      return open(userId, { kind: "ltd", item: plan.id, name: plan.nickname, amount: plan.amount, planId: plan.id, projectId: null, success: "/congratulations", cancel: `/ltd/buy/${tier}` });
    },

    /** SPEC §7 GET /stripe/checkout/video: the owner's project, not yet unlocked, on a plan that watermarks or stops at 720p. */
    async video(userId: number, projectId: number): Promise<CheckoutSession> {
      const project = await db
        .selectFrom("projects")
        .select(["id", "name", "type", "export_unlocked_at"])
        .where("id", "=", projectId)
        .where("user_id", "=", userId)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      if (!project || project.type === "library") throw notFound("No such project");
      if (project.export_unlocked_at) throw new DomainError("export_unlocked", "This video already exports at 1080p without the watermark");
      const rights = await deps.renderRights(userId);
      if (rights.videoTier >= 2 && !rights.watermark) throw new DomainError("export_included", "Your plan already exports at 1080p without the watermark");
      const back = `/projects/${project.id}/preview`;
      return open(userId, { kind: "video", item: VIDEO_EXPORT_ITEM, name: `Cutroom: ${project.name} (1080p, no watermark)`, amount: deps.videoExportAmount, planId: null, projectId: project.id, success: back, cancel: back });
    },

    /**
     * The webhook's `checkout.session.completed` (and `async_payment_succeeded`): only a session we opened, only
     * once paid, only once (open → complete in one guarded update; a replay finds it complete).
     */
    async complete(session: GatewayCheckoutSession): Promise<void> {
      if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") return;
      const row = await db.selectFrom("checkout_sessions").selectAll().where("id", "=", session.id).executeTakeFirst();
      if (!row) {
        deps.log?.warn({ session: session.id }, "checkout session completed that this server did not open: ignored");
        return;
      }
      if (row.status === "complete") return;
      if (session.metadata.user_id !== undefined && session.metadata.user_id !== String(row.user_id)) {
        deps.log?.warn({ session: session.id }, "checkout session's user differs from the one it was opened for: ignored");
        return;
      }
      if (session.amount_total !== row.amount) deps.log?.warn({ session: session.id, paid: session.amount_total, price: row.amount }, "checkout session paid another amount than the catalogue's (Stripe price differs)");
      const claimed = await db.updateTable("checkout_sessions").set({ status: "complete", completed_at: nowIso() }).where("id", "=", row.id).where("status", "=", "open").executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return;
      if (row.kind === "ltd") await applyLifetime(row);
      else if (row.project_id) {
        await db.updateTable("projects").set({ export_unlocked_at: nowIso() }).where("id", "=", row.project_id).where("user_id", "=", row.user_id).execute();
      }
    },

    /** SPEC §7 PUT /user/wizard/toggle/{value}. */
    async setWizard(userId: number, value: 0 | 1): Promise<void> {
      await mustUser(userId);
      await updateUser(db, userId, { show_wizard: value });
    },
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
