import type { Agent } from "node:https";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { loadConfig, type Config } from "./config";
import { migrate, openDatabase, type Db } from "./db";
import { seedPlans } from "./db/plans";
import { getOrCreateSetting, randomSecret } from "./db/settings";
import { buildApp } from "./http/app";
import { loadServerI18n } from "./notify/i18n";
import { outboxMailer, smtpMailer, type Mailer } from "./notify/mail";
import { loadVapidKeys, outboxPushSender, webPushSender, type PushLog } from "./notify/push";
import { createPush } from "./services/push";
import { createRenderMail } from "./services/render-mail";
import type { ProjectRow } from "./db/projects";
import { createAccounts } from "./services/accounts";
import { altchaProvider, noCaptcha, recaptchaProvider, type CaptchaProvider } from "./services/captcha";
import { fileLinks } from "./services/file-links";
import { createLibrary } from "./services/library";
import { shareTokens } from "./services/share-tokens";
import { createSharing } from "./services/sharing";
import { createProjects, FREE_PRIORITY, PAID_PRIORITY, projectGroup } from "./services/projects";
import { createScenes } from "./services/scenes";
import { createStoryboardEdits } from "./services/storyboard-edits";
import { createUploads, uploadOwner, type Uploads } from "./http/uploads";
import { createAccountSelfService } from "./services/account-self-service";
import { LocalQueue } from "./jobs/local";
import { BullQueue } from "./jobs/bullmq";
import { sweepLeftovers } from "./jobs/leftovers";
import { registerInstance } from "./jobs/instances";
import { LIBRARY_RECOVERY_MARGIN_MS, recoverLibraryAdds } from "./services/library-recovery";
import { setChildRegistry, sweepStaleChildren } from "./media/children";
import { createPipeline } from "./jobs/pipeline";
import { createSpeechToText } from "./speech";
import { createTranslator } from "./translate";
import { createSubtitleSets } from "./services/subtitle-sets";
import { createTranslateJob } from "./jobs/translate";
import { createVideoSiteExport } from "./jobs/video-site-export";
import { createYoutube } from "./services/youtube";
import { youtubeSealer } from "./services/youtube/cipher";
import { createFileStore } from "./storage";
import { s3ClientConfig } from "./storage/s3";
import { createMusicCatalogue, type MusicCatalogue } from "./music/catalogue";
import { createMusic } from "./services/music";
import { createPayments, type Payments } from "./services/payments";
import { createLocalGateway, type LocalGateway } from "./payments/local-gateway";
import { loadCatalogue, SHIPPED_VIDEO_EXPORT } from "./payments/catalogue";
import { createCheckout } from "./services/checkout";
import { checkPromotionCoupons } from "./payments/promotion";
import { createStripeGateway } from "./payments/stripe-gateway";
import { systemClock, type Clock } from "./payments/gateway";
import { createHmac } from "node:crypto";

export interface Server {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** The jobs table's queue, or BullMQ's in Redis when REDIS_URL is set (issue 19). */
  queue: LocalQueue | BullQueue;
  /** The tus uploads (their expiry sweep and storage count). */
  uploads: Uploads;
  /** Background music: the songs table's sync with the catalogue and MUSIC_DIR (issue 15). */
  musicCatalogue: MusicCatalogue;
  /** Plans and payments (issue 16); the local gateway when no Stripe keys are set (its `tick` runs renewals). */
  payments: Payments;
  localGateway: LocalGateway | null;
  /** Starts the job runner (done at creation unless `startRunner: false`). */
  startRunner(): Promise<void>;
  close(): Promise<void>;
}

export interface Overrides {
  mailer?: Mailer;
  captcha?: CaptchaProvider;
  /** Tests may hold the runner back to look at queued work. */
  startRunner?: boolean;
  /** The HTTPS agent for Web Push requests (tests trust their local receiver's certificate with it). */
  pushAgent?: Agent;
  /** The clock payments run on: tests move it to end trials and renew periods. */
  paymentsClock?: Clock;
}

/** Composition root: config → db (migrate) → services → http. */
export async function createServer(config: Config = loadConfig(), overrides: Overrides = {}): Promise<Server> {
  const db = openDatabase(config);
  await migrate(db);
  // Issue 16: the operator's PLANS_FILE (plans and coupons) or the shipped catalogue; a broken file stops the start.
  const catalogue = loadCatalogue(config.payments.plansFile);
  if (config.promotion) checkPromotionCoupons(config.promotion, catalogue);
  await seedPlans(db, catalogue);
  const secret = config.appSecret ?? (await getOrCreateSetting(db, "app_secret", randomSecret));
  const paymentsClock = overrides.paymentsClock ?? systemClock;

  const captcha =
    overrides.captcha ??
    (config.captcha.provider === "off"
      ? noCaptcha
      : config.captcha.provider === "recaptcha"
        ? recaptchaProvider(config.captcha.recaptchaSecret!)
        : altchaProvider(db, secret, config.captcha.altchaMaxNumber));

  // The mailer needs a logger, and the logger is made with the app; a late-bound reference joins them.
  let mailer: Mailer | undefined = overrides.mailer;
  const lateMailer: Mailer = { send: (mail) => mailer!.send(mail) };
  const i18n = loadServerI18n();
  // Payments (issue 16): Stripe when its keys are set, else the local gateway with Stripe's test-card semantics.
  const stripeKeys = config.payments.gateway.kind === "stripe" ? config.payments.gateway : null;
  const localGateway = stripeKeys
    ? null
    : createLocalGateway({
        db,
        clock: paymentsClock,
        webhookSecret: createHmac("sha256", secret).update("local-gateway-webhooks").digest("hex"),
        cardEndpoint: `${config.publicUrl}/local-gateway/v1`,
      });
  const gateway = stripeKeys
    ? createStripeGateway({
        ...stripeKeys,
        prices: {
          ...Object.fromEntries(catalogue.plans.flatMap((p) => (p.stripe_price ? [[p.id, p.stripe_price]] : []))),
          // The one-project export's Stripe price, when the plans file names one (else the amount is sent).
          ...(catalogue.video_export?.stripe_price ? { video_export: catalogue.video_export.stripe_price } : {}),
        },
        nowMs: () => paymentsClock.now(),
      })
    : localGateway!;
  const payments = createPayments({
    db,
    gateway,
    clock: paymentsClock,
    log: { warn: (fields, message) => app.log.warn(fields, message) },
    // Lifetime deals and one project's export (issue 16): their checkout sessions complete through the same webhook.
    checkoutCompleted: (session) => checkout.complete(session),
  });
  // Its events reach the webhook handler in-process; one that fails is logged (the next event carries the whole subscription again).
  localGateway?.setWebhookSink((raw, signature) =>
    payments.handleWebhook(raw, signature).then(
      () => undefined,
      (error) => app.log.warn({ error: String(error) }, "payment webhook failed"),
    ),
  );
  const accounts = createAccounts({
    db,
    mailer: lateMailer,
    captcha,
    secret,
    publicUrl: config.publicUrl,
    i18n,
    tokenLifetime: config.tokenLifetime,
    billing: { anchor: (userId) => payments.billingAnchor(userId), now: () => paymentsClock.now() },
  });
  const checkout = createCheckout({
    db,
    gateway,
    clock: paymentsClock,
    publicUrl: config.publicUrl,
    videoExportAmount: (catalogue.video_export ?? SHIPPED_VIDEO_EXPORT).amount,
    customerFor: (userId) => payments.customerFor(userId),
    renderRights: (userId) => accounts.renderRights(userId),
    log: { warn: (fields, message) => app.log.warn(fields, message) },
  });
  // Issue 19: DATA_DIR/store, or with STORAGE=s3 the bucket (this process's bounded cache under DATA_DIR/s3-cache).
  const store = createFileStore(config, { warn: (fields, message) => app.log.warn(fields, message) });
  await store.check?.();
  const links = fileLinks(secret);
  // Issue 19, scale mode: with REDIS_URL every API and worker process shares one BullMQ queue.
  const queue = config.redis ? new BullQueue({ url: config.redis.url, prefix: config.redis.prefix }) : new LocalQueue(db);
  // queue positions and time left (issue 13) from Redis, not the jobs table
  const queueSnapshot = queue instanceof BullQueue ? (now: number) => queue.snapshot(now, config.jobs.leaseMs) : undefined;
  const priorityOf = async (userId: number) => ((await accounts.isPaid(userId)) ? PAID_PRIORITY : FREE_PRIORITY);
  const uploads = createUploads({
    directory: config.uploadsDir,
    // Storage left for one more upload = plan storage − stored media (these quotas) − other pending uploads (counted by uploads).
    quotasFor: (userId) => accounts.quotas(userId),
    expiryMs: config.uploadExpiryMs,
    creationsPerMinute: config.rateLimits.uploads,
    ...(config.s3 && store.client && store.cache
      ? { bucket: { clientConfig: s3ClientConfig(config.s3), name: config.s3.bucket, client: store.client, fetch: (key: string) => store.fetch(key), forget: store.cache.forget } }
      : {}),
  });
  const scenes = createScenes({ db, links });
  const enqueueIngest = async (mediaFileId: number, userId: number) => {
    await queue.enqueue("ingest-media", { mediaFileId }, { priority: await priorityOf(userId), owner: String(userId) });
  };
  const library = createLibrary({ db, store, uploads, accounts, links, scenes, enqueueIngest });
  const shares = shareTokens(secret);
  const projects = createProjects({ db, queue, links, shares, isPaid: accounts.isPaid, renderRights: accounts.renderRights, mustBeVerified: accounts.mustBeVerified, library, store, quotas: accounts.quotas, concurrency: config.jobs.concurrency, queueSnapshot });
  const edits = createStoryboardEdits({ db, scenes, projects });
  // Subtitle translation (issue 14): TRANSLATE_URL's service for the pairs it lists, then Apertium for its five languages.
  const translator = createTranslator(config.translate);
  const subtitleSets = createSubtitleSets({ db, translator, queue, isPaid: accounts.isPaid, mustBeVerified: accounts.mustBeVerified });
  const translateJob = createTranslateJob({ db, translator });
  // Web Push (issue 5): VAPID keys made on first start; the log is bound late, like the mailer's.
  const vapid = config.push.mode === "off" ? null : await loadVapidKeys(db);
  const pushLog: PushLog = { info: (fields, message) => app.log.info(fields, message), warn: (fields, message) => app.log.warn(fields, message) };
  const pushSender =
    !vapid ? null
    : config.push.mode === "outbox" ? outboxPushSender(config.push.outboxDir, pushLog)
    : webPushSender({ vapid, subject: config.push.vapidSubject, agent: overrides.pushAgent });
  const push = createPush({ db, sender: pushSender, i18n, log: pushLog, privateEndpoints: config.push.privateEndpoints });
  const sharing = createSharing({ db, secret, shares, toProject: projects.toProject });
  // Video-site export (issue 13): tokens sealed with YOUTUBE_TOKEN_KEY, else a key derived from the app secret.
  const youtubeSeal = youtubeSealer(config.youtube?.tokenKey ?? secret);
  const youtube = createYoutube({
    db,
    config: config.youtube,
    publicUrl: config.publicUrl,
    sealer: youtubeSeal,
    queue,
    isPaid: accounts.isPaid,
    mustBeVerified: accounts.mustBeVerified,
    toProject: projects.toProject,
    log: { warn: (fields, message) => app.log.warn(fields, message) },
  });
  // Background music (issue 15): the songs table follows the shipped catalogue and MUSIC_DIR (at start, on a timer, and before a listing when either changed).
  const musicCatalogue = createMusicCatalogue({ db, dirs: config.music, syncEveryMs: config.music.syncEveryMs, log: pushLog });
  const music = createMusic({ db, catalogue: musicCatalogue, dirs: config.music, projects, secret });
  // Issue 16, the rest of the account: e-mail and password changes, deletion (subscription cancelled first), data export, password reset.
  const account = createAccountSelfService({
    db,
    mailer: lateMailer,
    i18n,
    secret,
    publicUrl: config.publicUrl,
    payments,
    queue,
    store,
    uploads: { directory: config.uploadsDir, remove: (id) => uploads.remove(id), ownerOf: uploadOwner, ownedBy: (userId) => uploads.ownedBy(userId) },
    youtube,
    log: { warn: (fields, message) => app.log.warn(fields, message) },
  });
  const app = await buildApp({ config, db, queueSnapshot, accounts, captcha, library, projects, scenes, edits, uploads, links, store, push, sharing, youtube, subtitleSets, music, i18n, vapidPublicKey: vapid?.publicKey ?? null, payments, localGateway, account, checkout });
  // Not awaited: a large MUSIC_DIR is probed in the background; a listing meanwhile waits for the pass.
  void musicCatalogue.start();
  mailer ??= config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(config.outboxDir, config.mailFrom, app.log);

  const tmpDir = path.join(config.dataDir, "tmp");
  const videoSiteExport = createVideoSiteExport({ db, store, youtube, sealer: youtubeSeal, chunkBytes: config.youtube?.chunkBytes ?? 8 * 1_048_576 });
  const speech = config.speechEnabled ? createSpeechToText(config.speech) : null;
  // Subtitles after Preview Ready (issue 14): a `transcribe` job just below its owner's priority, so waiting previews go first.
  const enqueueSubtitles = async (project: { id: number; user_id: number }) => {
    await queue.enqueue("transcribe", { projectId: project.id }, { priority: (await priorityOf(project.user_id)) - 1, group: projectGroup(project.id), owner: String(project.user_id) });
  };
  // A finished render tells its owner by push and by e-mail (SPEC §3 render_notifications; each never throws).
  const renderMail = createRenderMail({ db, mailer: lateMailer, i18n, publicUrl: config.publicUrl, log: { warn: (fields, message) => app.log.warn(fields, message) } });
  const onRenderDone = async (project: ProjectRow, ok: boolean) => void (await Promise.all([push.notifyRender(project, ok), renderMail.notifyRender(project, ok)]));
  const pipeline = createPipeline({ db, store, log: app.log, onRenderDone, tmpDir, speech, enqueueSubtitles, music: config.music, faces: config.faces });
  // Issue 12 items 4 and 9: what a killed predecessor left (its ffmpeg children, half-written
  // outputs, render scratch folders) goes before this runner claims any job.
  const childRegistry = path.join(config.dataDir, "run", "children");
  const instance = registerInstance(path.join(config.dataDir, "run", "servers"));
  const killed = sweepStaleChildren(childRegistry);
  setChildRegistry(childRegistry);
  let recoveryTimer: NodeJS.Timeout | undefined;
  const startRunner = async () => {
    const liveAttempts = queue instanceof BullQueue ? () => queue.liveAttempts() : undefined;
    const swept = await sweepLeftovers({ db, storeDir: config.storeDir, tmpDir, leaseMs: config.jobs.leaseMs, liveAttempts });
    if (killed || Object.values(swept).some(Boolean)) app.log.info({ killedChildren: killed, ...swept }, "swept what a previous run left");
    // POST /library requests a kill cut short are finished or undone; once more a little later for
    // those that were younger than the margin (a request in flight elsewhere is never touched).
    // Alone on the data folder and not serving yet: whatever is half-done is a dead process's, finished at once.
    let margin = instance.othersAlive === 0 && !app.server.listening ? 0 : LIBRARY_RECOVERY_MARGIN_MS;
    const recover = () =>
      recoverLibraryAdds({ db, store, enqueueIngest, ...(queue instanceof BullQueue ? { jobKnown: async (id: string) => (await queue.get(id)) !== undefined } : {}) }, margin)
        .then((done) => Object.values(done).some(Boolean) && app.log.info(done, "finished library adds a previous run left half-done"))
        .catch((error) => app.log.warn({ error: String(error) }, "library recovery failed"));
    await recover();
    margin = LIBRARY_RECOVERY_MARGIN_MS;
    clearTimeout(recoveryTimer);
    recoveryTimer = setTimeout(() => void recover(), 2 * LIBRARY_RECOVERY_MARGIN_MS).unref();
    await queue.start({ ...pipeline.handlers, "export-video-site": videoSiteExport.handler, translate: translateJob.handler }, {
      concurrency: config.jobs.concurrency,
      leaseMs: config.jobs.leaseMs,
      // A failed video-site export ends that export (the project stays Render Ready), unlike a failed render.
      // A failed translation ends that subtitle set (with its reason); the project is untouched.
      onFailed: (job, error) => (job.type === "export-video-site" ? videoSiteExport.onFailed(job) : job.type === "translate" ? translateJob.onFailed(job, error) : pipeline.onFailed(job)),
      log: (message, fields) => app.log.info(fields ?? {}, message),
    });
  };
  // RUNNER=off (issue 19): this process serves HTTP only; `npm run worker` processes run the jobs.
  if (overrides.startRunner !== false && config.jobs.runner) await startRunner();
  // Trials ending and periods renewing (the local gateway's clock; Stripe runs its own).
  const paymentsTimer = setInterval(() => {
    localGateway?.tick().catch((error) => app.log.warn({ error: String(error) }, "payments tick failed"));
  }, config.payments.tickMs).unref();

  return {
    app,
    db,
    config,
    queue,
    uploads,
    musicCatalogue,
    payments,
    localGateway,
    startRunner,
    async close() {
      clearTimeout(recoveryTimer);
      clearInterval(paymentsTimer);
      await musicCatalogue.stop();
      instance.release();
      // Requests in flight get a few seconds to finish (the progress streams end in preClose); then the
      // connections still open are dropped: a client's half-used keep-alive socket must not hold the shutdown.
      const drop = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      await app.close();
      clearTimeout(drop);
      if (queue instanceof BullQueue) await queue.close();
      else await queue.stop();
      await db.destroy();
    },
  };
}

const CLOSE_GRACE_MS = 5_000;

/** Runs until SIGINT/SIGTERM, then drains requests and closes the database. */
export async function run(config: Config = loadConfig()): Promise<Server> {
  const server = await createServer(config);
  await server.app.listen({ port: config.port, host: config.host });
  const { log } = server.app;
  log.info(`Cutroom is running at ${config.publicUrl} (data in ${config.dataDir})`);
  if (config.captcha.provider === "off") log.warn("CAPTCHA=off: registration is not protected. Use this only for tests.");
  if (!config.jobs.runner) log.info("RUNNER=off: this process runs no jobs; `npm run worker` processes take them from the shared queue");
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await server.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
