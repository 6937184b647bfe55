import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AccountSelfService } from "../../services/account-self-service";
import { contentDisposition } from "../../services/file-links";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** The rest of the account (issue 16): e-mail, password, sessions, deletion, data export, password reset. */
export function accountRoutes(app: FastifyInstance, hooks: RouteHooks, account: AccountSelfService) {
  registerRoutes(app, hooks, {
    "user.changeEmail": ({ body, request }) => account.changeEmail(currentUser(request), body),
    "user.pendingEmail": ({ request }) => account.pendingEmail(currentUser(request)),
    "user.cancelEmailChange": ({ request }) => account.cancelEmailChange(currentUser(request)),
    "user.changePassword": ({ body, request }) => account.changePassword(currentUser(request), request.apiToken!, body),
    "user.signOutOthers": ({ request }) => account.signOutOthers(currentUser(request), request.apiToken!),
    "user.exportData": async ({ request }) => account.exportLink(currentUser(request)),
    "user.delete": ({ body, request }) => account.deleteAccount(currentUser(request), body),
    "user.forgotPassword": ({ body }) => account.forgotPassword(body.email),
    "user.resetPassword": ({ body }) => account.resetPassword(body),
  });

  // The link in the mail to the new address: a page visit, so it answers with a redirect into the app.
  const ConfirmQuery = z.object({ token: z.string().min(1).max(200) });
  app.get<{ Querystring: unknown }>("/user/email/confirm", { schema: { hide: true } as never }, async (request, reply) => {
    const query = ConfirmQuery.safeParse(request.query);
    const status = query.success ? await account.confirmEmailChange(query.data.token) : "expired";
    return reply.header("cache-control", "no-store").redirect(`/email-changed?status=${status}`, 303);
  });

  // The data export by signed link (a browser download sends no bearer header), streamed as it is made.
  const ExportQuery = z.object({ expires: z.coerce.number().int(), signature: z.string().max(200), filename: z.string().max(100).regex(/^[A-Za-z0-9._-]+\.zip$/) });
  app.get<{ Params: { id: string }; Querystring: unknown }>("/user/export/:id", { schema: { hide: true } as never }, async (request, reply) => {
    const query = ExportQuery.safeParse(request.query);
    const id = Number(request.params.id);
    if (!query.success || !Number.isInteger(id) || !account.verifyExportLink(id, query.data.expires, query.data.signature)) {
      return reply.status(404).header("cache-control", "no-store").send({ message: "Not found", code: "not_found" });
    }
    const stream = await account.exportZip(id);
    return reply
      .header("content-type", "application/zip")
      .header("content-disposition", contentDisposition(query.data.filename))
      .header("cache-control", "private, no-store")
      .send(stream);
  });
}
