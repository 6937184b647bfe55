import type { Plan } from "../../../api/plans";
import { isPaidPlan, planName } from "../billing/price";

/** SPEC §2: the promotion modal's plan cards leave out the plans nicknamed free and Basic (and any plan that costs nothing). */
export const promotionPlans = (plans: readonly Plan[]) =>
  plans.filter((plan) => isPaidPlan(plan) && !["free", "basic"].includes(planName(plan.nickname).toLowerCase()));
