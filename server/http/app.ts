import zlib from "node:zlib";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import compress from "@fastify/compress";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { API_BASE } from "../../api/route";
import type { ErrorBody } from "../../api/errors";
import type { Config } from "../config";
import type { Db } from "../db";
import type { Accounts } from "../services/accounts";
import type { Library } from "../services/library";
import type { Projects } from "../services/projects";
import type { Scenes } from "../services/scenes";
import type { StoryboardEdits } from "../services/storyboard-edits";
import { sceneRoutes } from "./resources/scenes";
import type { FileLinks } from "../services/file-links";
import type { FileStore } from "../storage/local";
import { bucketOrigins } from "../storage";
import { registerUploads, type Uploads } from "./uploads";
import { fileRoutes } from "./resources/files";
import { libraryRoutes } from "./resources/library";
import { projectRoutes } from "./resources/projects";
import { timelineRoutes } from "./resources/timelines";
import { subtitleRoutes } from "./resources/subtitles";
import type { SubtitleSets } from "../services/subtitle-sets";
import { mediaRoutes } from "./resources/media";
import type { CaptchaProvider } from "../services/captcha";
import { authenticator, bearerToken } from "./auth";
import { DomainError } from "../services/errors";
import { registerErrorHandling } from "./errors";
import { clientErrorHandler, frameworkErrors, registerNoStore } from "./protocol-errors";
import { appShellHtml, encodeShell, registerStaticApp } from "./static";
import { publicConfig, publicRoutes } from "./resources/public";
import { userRoutes } from "./resources/user";
import { homeRoutes } from "./resources/home";
import { pushRoutes } from "./resources/push";
import { eventRoutes } from "./resources/events";
import { PROGRESS_EVENTS_PATH } from "../../api/progress";
import { createProgressHub } from "../services/progress-hub";
import type { QueueSnapshotSource } from "../services/progress";
import { youtubeRoutes } from "./resources/youtube";
import type { Youtube } from "../services/youtube";
import type { I18n } from "@lingui/core";
import { registerIdempotency } from "./idempotency";
import type { Push } from "../services/push";
import type { Sharing } from "../services/sharing";
import { maskShareTokens, shareRoutes, watchPageHeaders } from "./resources/share";
import { musicRoutes } from "./resources/music";
import type { Music } from "../services/music";
import type { Payments } from "../services/payments";
import type { LocalGateway } from "../payments/local-gateway";
import { localGatewayRoutes, paymentRoutes } from "./resources/payments";
import type { Checkout } from "../services/checkout";
import { checkoutRoutes, localCheckoutPages } from "./resources/checkout";
import { accountRoutes } from "./resources/account";
import type { AccountSelfService } from "../services/account-self-service";
import { licenceRoutes } from "./resources/licences";
import { API_BROTLI_QUALITY, API_COMPRESS_THRESHOLD } from "./prepared-answers";

export interface AppDeps {
  config: Config;
  db: Db;
  /** The queue's own snapshot for the progress streams' estimates when it is not the jobs table (issue 19, BullMQ). */
  queueSnapshot?: QueueSnapshotSource;
  accounts: Accounts;
  captcha: CaptchaProvider;
  library: Library;
  projects: Projects;
  scenes: Scenes;
  edits: StoryboardEdits;
  uploads: Uploads;
  links: FileLinks;
  store: FileStore;
  push: Push;
  /** Video-site export (issue 13), and the server's translations for the page its OAuth callback shows. */
  youtube: Youtube;
  i18n: (locale: string) => I18n;
  sharing: Sharing;
  /** Subtitle sets and translation (issue 14). */
  subtitleSets: SubtitleSets;
  /** Background music (issue 15). */
  music: Music;
  /** Served in GET /config; null when PUSH=off. */
  vapidPublicKey: string | null;
  /** Plans, subscriptions and cards (issue 16), and the local gateway when it is the one in use. */
  payments: Payments;
  localGateway: LocalGateway | null;
  /** One-time purchases: lifetime deals and one project's watermark-free 1080p export (issue 16). */
  checkout: Checkout;
  /** E-mail and password changes, other devices, deletion, data export, password reset (issue 16). */
  account: AccountSelfService;
}

const REDACT = ["req.headers.authorization", "req.headers.cookie", "req.body.password", "req.body.password_confirmation", "req.body.current_password", "req.body.token"];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: REDACT,
      // Never log query strings: verification signatures and one-time codes travel there.
      serializers: { req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskShareTokens(req.url.split("?")[0]!), ip: req.ip }) },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Issue 12 item 11: Fastify's and Node's own refusals in the one error shape.
    frameworkErrors,
    clientErrorHandler,
  } as never) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerNoStore(app);

  // Issue 16: with Stripe, Stripe.js loads from js.stripe.com, talks to api.stripe.com and shows its card
  // field and 3-D Secure pages in frames (Stripe's CSP guide); nothing of Stripe is allowed otherwise.
  const stripe = config.payments.gateway.kind === "stripe";
  // Issue 19: with STORAGE=s3, media and downloads come from the bucket (presigned GETs) and /signeds3 posts to it.
  const bucket = config.s3 ? bucketOrigins(config.s3) : [];
  const frames = [...(config.captcha.provider === "recaptcha" ? ["https://www.google.com"] : []), ...(stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : [])];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(config.captcha.provider === "recaptcha" ? ["https://www.google.com", "https://www.gstatic.com"] : []), ...(stripe ? ["https://js.stripe.com"] : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...bucket],
        // The quick-tips video may live on a CDN.
        mediaSrc: ["'self'", "blob:", ...(config.links.tipsVideo ? [new URL(config.links.tipsVideo).origin] : []), ...bucket],
        workerSrc: ["'self'", "blob:"],
        connectSrc: ["'self'", ...(stripe ? ["https://api.stripe.com"] : []), ...bucket],
        frameSrc: frames.length ? frames : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });

  await app.register(swagger, {
    openapi: {
      info: { title: "Cutroom API", version: "1" },
      servers: [{ url: API_BASE }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  const authenticate = authenticator(deps.db, config.tokenLifetime);
  const perMinute = (max: number, key: (ip: string, body: unknown, token?: string) => string) => ({
    rateLimit: {
      max,
      timeWindow: 60_000,
      keyGenerator: (req: { ip: string; body: unknown; headers: Record<string, unknown> }) =>
        key(req.ip, req.body, bearerToken(req as never)),
    },
  });
  // Sign-in (issue 12 item 14): limited per client AND address, after the body is parsed (preHandler), so
  // one address tried too often does not lock every other account out from the same client; each client
  // still has a ceiling over all the addresses it tries.
  const loginCeiling = app.createRateLimit({ max: config.rateLimits.loginPerIp, timeWindow: 60_000, keyGenerator: (req) => `login-ip:${req.ip}` });
  const loginLimit = {
    rateLimit: {
      max: config.rateLimits.login,
      timeWindow: 60_000,
      hook: "preHandler" as const,
      keyGenerator: async (req: FastifyRequest) => {
        const ceiling = await loginCeiling(req);
        if (!ceiling.isAllowed && ceiling.isExceeded) throw new DomainError("rate_limited", "Too many attempts. Wait a minute and try again.");
        return `login:${req.ip}:${String((req.body as { email?: unknown } | undefined)?.email ?? "").toLowerCase()}`;
      },
    },
  };
  // Progress streams (issue 13) end before the server closes, or close would wait for them.
  const progressHub = createProgressHub({ db: deps.db, concurrency: config.jobs.concurrency, queueSnapshot: deps.queueSnapshot, log: (message, fields) => app.log.warn(fields ?? {}, message) });
  app.addHook("preClose", () => progressHub.close());
  await app.register(
    async (api) => {
      const hooks = {
        authenticate,
        options: {
          "user.login": loginLimit,
          "user.register": perMinute(config.rateLimits.register, (ip) => `register:${ip}`),
          "user.resendEmail": perMinute(config.rateLimits.resend, (ip, _b, token) => `resend:${token ?? ip}`),
          "handoff.exchange": perMinute(config.rateLimits.login, (ip) => `handoff:${ip}`),
          // No guessing coupon codes (issue 16): per user, whatever the client.
          "payment.coupon": perMinute(config.rateLimits.coupon, (ip, _b, token) => `coupon:${token ?? ip}`),
          // Issue 16: reset requests per client (the service also mails one address at most once a minute); reset
          // tokens and password checks like sign-in.
          "user.forgotPassword": perMinute(config.rateLimits.passwordReset, (ip) => `forgot:${ip}`),
          "user.resetPassword": perMinute(config.rateLimits.login, (ip) => `reset:${ip}`),
          "user.changePassword": perMinute(config.rateLimits.login, (ip, _b, token) => `password:${token ?? ip}`),
          "user.changeEmail": perMinute(config.rateLimits.login, (ip, _b, token) => `email:${token ?? ip}`),
          "user.delete": perMinute(config.rateLimits.login, (ip, _b, token) => `delete:${token ?? ip}`),
          // Nor licence codes: per user, whatever the client.
          "licence.redeem": perMinute(config.rateLimits.licence, (ip, _b, token) => `licence:${token ?? ip}`),
        },
      };
      // Before the routes: it hooks into each one as it is registered.
      registerIdempotency(api, deps.db);
      // Issue 18: JSON and text answers over 1 KB go out brotli- or gzip-compressed. Registered after the
      // idempotency hook so a stored answer is the plain JSON (each route's onSend runs in this order).
      // Never compressed: the progress stream (events must flush one by one) and signed media/downloads
      // (Range offsets and Content-Length describe the file); partial (206) answers the plugin itself leaves.
      // The tus uploads and the precompressed static app are registered outside this scope.
      api.addHook("onRoute", (route) => {
        if (route.routePath === PROGRESS_EVENTS_PATH || route.routePath.startsWith("/files/")) route.compress = false;
      });
      await api.register(compress, {
        threshold: API_COMPRESS_THRESHOLD,
        encodings: ["br", "gzip"],
        customTypes: /^(application\/(json|problem\+json|xml)|text\/(?!event-stream))/,
        // Quick enough for each answer; the default (11) is for build-time work.
        brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: API_BROTLI_QUALITY } },
      });
      userRoutes(api, hooks, deps.accounts);
      homeRoutes(api, hooks, deps);
      publicRoutes(api, hooks, deps);
      libraryRoutes(api, hooks, deps.library);
      projectRoutes(api, hooks, deps.projects, deps.edits);
      timelineRoutes(api, hooks, deps);
      mediaRoutes(api, hooks, deps);
      sceneRoutes(api, hooks, deps.scenes);
      subtitleRoutes(api, hooks, deps.subtitleSets);
      musicRoutes(api, hooks, deps.music);
      pushRoutes(api, hooks, deps.push);
      eventRoutes(api, hooks, progressHub);
      youtubeRoutes(api, hooks, deps.youtube, deps.i18n);
      fileRoutes(api, deps);
      shareRoutes(api, hooks, deps);
      paymentRoutes(api, hooks, deps.payments);
      checkoutRoutes(api, hooks, deps.checkout, deps.accounts);
      accountRoutes(api, hooks, deps.account);
      licenceRoutes(api, hooks, deps);
    },
    { prefix: API_BASE },
  );

  registerUploads(app, deps.uploads, async (request) => {
    await authenticate(request);
    // Uploading is the first step of processing: a new upload waits for a verified address (issue 12 item 15).
    if (request.method === "POST") await deps.accounts.mustBeVerified(request.userId!);
  });

  if (deps.localGateway) localGatewayRoutes(app, deps.localGateway, config.rateLimits.cards);
  if (deps.localGateway) localCheckoutPages(app, deps.localGateway, deps.i18n, config.rateLimits.cards);
  watchPageHeaders(app, deps.sharing);
  const appShell = await registerStaticApp(app, config.staticDir);
  app.setNotFoundHandler((request, reply) => {
    const shell = appShell(request.url, request.method);
    if (shell) {
      return publicConfig(deps)
        .then((setUp) => appShellHtml(shell, setUp))
        .then((html) => {
          const { body, encoding } = encodeShell(html, request.headers["accept-encoding"]);
          if (encoding) reply.header("content-encoding", encoding);
          return reply.header("cache-control", "no-cache").header("vary", "accept-encoding").type("text/html; charset=utf-8").send(body);
        });
    }
    return reply.status(404).send({ message: `No route ${request.method} ${maskShareTokens(request.url.split("?")[0]!)}`, code: "not_found" } satisfies ErrorBody);
  });
  return app;
}
