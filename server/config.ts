import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { MEDIA_LANGUAGES } from "../api/locales";
import type { SpeechSettings } from "./speech";
import type { TranslateSettings } from "./translate";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes" || v === "on");

/** A marketing link (issue 18): a URL, or an empty value to hide the element that uses it. */
const hideableUrl = (fallback: string) => z.union([z.literal(""), z.string().url()]).default(fallback);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  /**
   * Issue 19, scale mode: `postgres://user:password@host:5432/database` keeps the data in PostgreSQL (the same
   * migrations and queries as SQLite); unset: SQLite in DATA_DIR/cutroom.sqlite.
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// (or postgresql://) URL")
    .optional(),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: flag.default(false),
  APP_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Cutroom <no-reply@cutroom.local>"),
  CAPTCHA: z.enum(["altcha", "recaptcha", "off"]).optional(),
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(10).max(10_000_000).default(100_000),
  RECAPTCHA_SITE_KEY: z.string().optional(),
  RECAPTCHA_SECRET: z.string().optional(),
  RATE_LIMIT_LOGIN: z.coerce.number().int().min(1).default(10),
  /** Sign-in attempts per minute from one client, whatever the addresses tried; default 5 × RATE_LIMIT_LOGIN. */
  RATE_LIMIT_LOGIN_IP: z.coerce.number().int().min(1).optional(),
  RATE_LIMIT_REGISTER: z.coerce.number().int().min(1).default(5),
  /** An api token unused this many days lapses (sliding); none outlives TOKEN_MAX_DAYS. */
  TOKEN_IDLE_DAYS: z.coerce.number().min(0.001).max(3650).default(30),
  TOKEN_MAX_DAYS: z.coerce.number().min(0.001).max(3650).default(365),
  RATE_LIMIT_RESEND: z.coerce.number().int().min(1).default(3),
  /** Upload creations (POST /uploads) per user per minute. */
  RATE_LIMIT_UPLOADS: z.coerce.number().int().min(1).default(30),
  /** Uploads not added to the library within this many hours are removed (0: never). */
  UPLOAD_EXPIRY_HOURS: z.coerce.number().min(0).max(24 * 365).default(24),
  /** The newer AI version: the top banner, its "Try the new version" link and the home notice; empty: all hidden. */
  NEW_AI_URL: hideableUrl("https://ai.cutroom.app/"),
  /** The marketing site's pricing page: when set, /pricing goes there; unset, the app shows its own pricing view. */
  PRICING_URL: z.string().url().optional(),
  /** SPEC §2 Account: an external billing app that /account sends users without a billing customer to; unset: none. */
  BILLING_APP_URL: z.string().url().optional(),
  HELP_URL: z.string().url().default("https://help.cutroom.app/"),
  CONTACT_URL: z.string().default("mailto:support@cutroom.app"),
  TERMS_URL: z.string().url().default("https://cutroom.app/terms"),
  /** An external password-reset page: when set, the sign-in page's "Forgot your password?" goes there; unset, to the app's own reset by e-mail. */
  FORGOT_PASSWORD_URL: z.string().url().optional(),
  /** Password-reset requests (POST /user/password/forgot) per client per minute. */
  RATE_LIMIT_PASSWORD_RESET: z.coerce.number().int().min(1).default(5),
  /** The hosted AI product: home's "Open the AI editor" and the beta host's "See production version"; empty: hidden. */
  AI_PRODUCT_URL: hideableUrl("https://ai.cutroom.app/"),
  /** The quick-tips video on home; empty: hidden. */
  TIPS_VIDEO_URL: hideableUrl("https://cdn.cutroom.app/tips/quick-tips.mp4"),
  /** Issue 17: home's tips and updates from a JSON file path or an http(s) URL the server reads; unset: the entries shipped with the app. */
  HOME_FEED: z.string().trim().min(1).optional(),
  /** How often a HOME_FEED URL or file is read again. */
  HOME_FEED_REFRESH_MINUTES: z.coerce.number().min(0.05).max(24 * 60).default(15),
  /** Issue 17 analytics (SPEC §7): a self-hosted Plausible-compatible server (its base URL; events go to /api/event); unset: no analytics. */
  ANALYTICS_URL: z.string().url().optional(),
  /** The site name events are recorded under in ANALYTICS_URL; default: PUBLIC_URL's host name. */
  ANALYTICS_DOMAIN: z.string().trim().min(1).max(253).optional(),
  SUNSET_REDIRECT_URL: z.string().url().optional(),
  BETA_HOST: flag.default(false),
  STATIC_DIR: z.string().default("./dist"),
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  JOB_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /**
   * Issue 19, scale mode: `redis://[user:password@]host:6379[/db]` (or rediss://) puts the job queue in Redis
   * (BullMQ), shared by every API and worker process; unset: the jobs table of the app's own database.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, "must be a redis:// (or rediss://) URL")
    .optional(),
  /** The prefix of every Redis key the queue writes, so deployments (or tests) can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "1–64 letters, digits, '_', '.' or '-'").default("cutroom"),
  /** off: this process serves HTTP and runs no jobs (the `npm run worker` processes run them). */
  RUNNER: z.enum(["on", "off"]).default("on"),
  /** Speech recognition for subtitles: on by default; off makes no subtitles (projects say so), e.g. for fast test runs. */
  STT: flag.default(true),
  /** Speech recognition: a Whisper-compatible service (POST /v1/audio/transcriptions); without it, pocketsphinx (US English, draft). */
  STT_URL: z.string().url().optional(),
  /** Sent as a bearer token to STT_URL. */
  STT_API_KEY: z.string().optional(),
  STT_MODEL: z.string().min(1).default("whisper-1"),
  /** Upload languages sent to STT_URL, comma-separated; default: all of them. */
  STT_LANGUAGES: z
    .string()
    .optional()
    .refine((v) => !v || v.split(",").every((l) => (MEDIA_LANGUAGES as readonly string[]).includes(l.trim())), `must list languages among ${MEDIA_LANGUAGES.join(", ")}`),
  /** Longest wait for one answer of STT_URL. */
  STT_TIMEOUT_SECONDS: z.coerce.number().min(1).max(24 * 3600).default(600),
  /** Largest request STT_URL takes (OpenAI: 25 MB); longer audio is sent in pieces. */
  STT_MAX_REQUEST_MB: z.coerce.number().min(0.1).max(4096).default(25),
  /** The pocketsphinx-en-us model folder (Debian's by default). */
  POCKETSPHINX_MODEL_DIR: z.string().default("/usr/share/pocketsphinx/model/en-us"),
  /** Subtitle translation: a LibreTranslate-compatible service (GET /languages, POST /translate); without it, Apertium (en, es, pt-BR, fr, it; draft). */
  TRANSLATE_URL: z.string().url().optional(),
  /** Sent as `api_key` to TRANSLATE_URL. */
  TRANSLATE_API_KEY: z.string().optional(),
  /** Longest wait for one answer of TRANSLATE_URL. */
  TRANSLATE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** Most characters of text in one request to TRANSLATE_URL (LibreTranslate's --char-limit). */
  TRANSLATE_MAX_REQUEST_CHARS: z.coerce.number().int().min(100).max(10_000_000).default(2000),
  PUSH: z.enum(["webpush", "outbox", "off"]).default("webpush"),
  /** 1 lets subscriptions point at loopback or private addresses (a local push service in tests). */
  PUSH_PRIVATE_ENDPOINTS: z.enum(["0", "1"]).default("0"),
  /** Video-site export (YouTube Data API v3): on when both are set. */
  YOUTUBE_CLIENT_ID: z.string().optional(),
  YOUTUBE_CLIENT_SECRET: z.string().optional(),
  /** Encrypts the stored YouTube tokens (AES-256-GCM); default: derived from APP_SECRET (or the generated one). */
  YOUTUBE_TOKEN_KEY: z.string().min(32).optional(),
  /** Google's endpoints; tests point them at a local server that speaks the same protocol. */
  YOUTUBE_AUTH_URL: z.string().url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  YOUTUBE_TOKEN_URL: z.string().url().default("https://oauth2.googleapis.com/token"),
  YOUTUBE_REVOKE_URL: z.string().url().default("https://oauth2.googleapis.com/revoke"),
  YOUTUBE_API_BASE: z.string().url().default("https://www.googleapis.com"),
  /** Bytes per resumable-upload request: a multiple of 256 KiB, as YouTube requires. */
  YOUTUBE_CHUNK_BYTES: z.coerce.number().int().min(262_144).multipleOf(262_144).default(8 * 1_048_576),
  /** Background music (issue 15): the shipped catalogue's folder (catalogue.json and its files); default: the repository's music/. */
  MUSIC_CATALOGUE_DIR: z.string().optional(),
  /** The operator's own music folder: its audio files (with their tags) join the catalogue. Unset: none. */
  MUSIC_DIR: z.string().optional(),
  /** How often both are looked at again for added, changed or removed files. */
  MUSIC_SYNC_MINUTES: z.coerce.number().min(0.05).max(24 * 60).default(5),
  /** Issue 16: the operator's plans and coupons (JSON like server/payments/plans.json); replaces the shipped catalogue. */
  PLANS_FILE: z.string().optional(),
  /** Coupon checks per minute per user (no guessing codes). */
  RATE_LIMIT_COUPON: z.coerce.number().int().min(1).default(10),
  /** Card entries and 3-D Secure steps per minute per client at the local gateway (no card testing). */
  RATE_LIMIT_CARDS: z.coerce.number().int().min(1).default(30),
  /** How often the local gateway looks for trials ending and periods to renew. */
  PAYMENTS_TICK_SECONDS: z.coerce.number().min(1).default(60),
  /** Licence redemptions per minute per user (issue 16: no guessing codes). */
  RATE_LIMIT_LICENCE: z.coerce.number().int().min(1).default(10),
  /** The deals marketplace's upgrade page for a redeemed licence; `{uuid}` becomes the licence's uuid. Unset: no upgrade link. */
  APPSUMO_UPGRADE_URL: z.string().url().optional(),
  /** tawk.to's JavaScript API key (secure mode): GET /user/tawkto/hash answers HMAC-SHA256 of the e-mail with it. */
  TAWKTO_SECRET: z.string().min(1).optional(),
  /** The referral (affiliate) programme's secret: GET /user/impact/hash answers HMAC-SHA256 of the user id with it. */
  IMPACT_SECRET: z.string().min(1).optional(),
  /** The seasonal promotion's window (ISO date-times with an offset or Z); unset: no promotion. */
  PROMOTION_START: z.iso.datetime({ offset: true }).optional(),
  PROMOTION_END: z.iso.datetime({ offset: true }).optional(),
  /** The promotion's coupon codes for yearly and monthly plans (coupons of the plans file; at least one). */
  PROMOTION_COUPON_ANNUAL: z.string().trim().min(1).max(64).optional(),
  PROMOTION_COUPON_MONTHLY: z.string().trim().min(1).max(64).optional(),
  /** Stripe (issue 16): all three set → the Stripe adapter; none set → the local gateway. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Tests only: where the Stripe SDK connects instead of api.stripe.com (e.g. http://127.0.0.1:4010). */
  STRIPE_API_URL: z.string().url().optional(),
  /** Issue 19: where media is kept: `local` (DATA_DIR/store) or `s3` (an S3-compatible bucket, the S3_* settings). */
  STORAGE: z.enum(["local", "s3"]).default("local"),
  /** The S3 API's address, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (required with STORAGE=s3). */
  S3_ENDPOINT: z.string().url().optional(),
  /** The S3 endpoint browsers reach, when it differs from S3_ENDPOINT (a private address, a container name); presigned URLs name it. */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)").optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** `bucket` in the path instead of the host name (most self-hosted S3-compatible servers need it). */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** The local cache of S3 files that ffmpeg reads (per machine, LRU): at most this many MiB. */
  S3_CACHE_MB: z.coerce.number().int().min(16).max(10_000_000).default(4096),
  /** Lifetime of presigned GET (media links) and POST (/signeds3) URLs. */
  S3_PRESIGN_SECONDS: z.coerce.number().int().min(30).max(7 * 24 * 3600).default(900),
  /** Issue 17: faces found in videos (the pipeline's faces step) for the faces dialog and the framing; off: framing centres. */
  FACE_DETECTION: flag.default(true),
  /** Samples a second of video the face detector looks at. */
  FACE_SAMPLES_PER_SECOND: z.coerce.number().min(0.5).max(10).default(2),
  /** Threads the face detector uses (default: the CPU count, at most 2). */
  FACE_WORKERS: z.coerce.number().int().min(1).max(4).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "must be a mailto: address or an https: URL")
    .optional(),
});

export type Config = ReturnType<typeof loadConfig>;

/** `Name <a@b>` or `a@b` → `a@b`. */
const mailAddress = (from: string) => /<([^<>\s]+@[^<>\s]+)>/.exec(from)?.[1] ?? (/^[^\s<>]+@[^\s<>]+$/.test(from.trim()) ? from.trim() : undefined);

/** Environment → typed config. Every value has a default so `npm start` works alone. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const captcha = e.CAPTCHA ?? (e.RECAPTCHA_SECRET && e.RECAPTCHA_SITE_KEY ? "recaptcha" : "altcha");
  if (captcha === "recaptcha" && !(e.RECAPTCHA_SECRET && e.RECAPTCHA_SITE_KEY)) {
    throw new Error("Invalid configuration: CAPTCHA=recaptcha needs RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET");
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseFile: path.join(dataDir, "cutroom.sqlite"),
    /** PostgreSQL instead of databaseFile when set (never logged: it may hold a password). */
    databaseUrl: e.DATABASE_URL ?? null,
    outboxDir: path.join(dataDir, "outbox"),
    storeDir: path.join(dataDir, "store"),
    uploadsDir: path.join(dataDir, "uploads"),
    /** Issue 19: null keeps media in storeDir; else an S3-compatible bucket (secrets never logged). */
    s3: s3Config(e, dataDir),
    jobs: { concurrency: e.JOB_CONCURRENCY, leaseMs: e.JOB_LEASE_MS, runner: e.RUNNER === "on" },
    /** The BullMQ queue in Redis when set (never logged: the URL may hold a password). */
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : null,
    speechEnabled: e.STT,
    speech: {
      http: e.STT_URL
        ? {
            url: e.STT_URL,
            apiKey: e.STT_API_KEY ?? null,
            model: e.STT_MODEL,
            languages: e.STT_LANGUAGES ? e.STT_LANGUAGES.split(",").map((l) => l.trim()) : [...MEDIA_LANGUAGES],
            timeoutMs: e.STT_TIMEOUT_SECONDS * 1000,
            maxRequestBytes: Math.floor(e.STT_MAX_REQUEST_MB * 1024 * 1024),
            retries: 4,
            backoffMs: 1000,
            bitrateKbps: 24,
          }
        : null,
      pocketsphinx: { binary: "pocketsphinx_continuous", modelDir: e.POCKETSPHINX_MODEL_DIR },
    } satisfies SpeechSettings,
    translate: {
      http: e.TRANSLATE_URL
        ? {
            url: e.TRANSLATE_URL,
            apiKey: e.TRANSLATE_API_KEY ?? null,
            timeoutMs: e.TRANSLATE_TIMEOUT_SECONDS * 1000,
            maxRequestChars: e.TRANSLATE_MAX_REQUEST_CHARS,
            maxRequestLines: 100,
            retries: 4,
            backoffMs: 1000,
          }
        : null,
      apertium: { binary: "apertium", dataDir: "/usr/share/apertium", timeoutMs: 120_000 },
    } satisfies TranslateSettings,
    staticDir: path.resolve(e.STATIC_DIR),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    tokenLifetime: { idleMs: e.TOKEN_IDLE_DAYS * 86_400_000, maxMs: e.TOKEN_MAX_DAYS * 86_400_000 },
    appSecret: e.APP_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    captcha: {
      provider: captcha,
      altchaMaxNumber: e.ALTCHA_MAX_NUMBER,
      recaptchaSiteKey: e.RECAPTCHA_SITE_KEY ?? null,
      recaptchaSecret: e.RECAPTCHA_SECRET ?? null,
    },
    rateLimits: { login: e.RATE_LIMIT_LOGIN, loginPerIp: e.RATE_LIMIT_LOGIN_IP ?? 5 * e.RATE_LIMIT_LOGIN, register: e.RATE_LIMIT_REGISTER, resend: e.RATE_LIMIT_RESEND, passwordReset: e.RATE_LIMIT_PASSWORD_RESET, uploads: e.RATE_LIMIT_UPLOADS, coupon: e.RATE_LIMIT_COUPON, cards: e.RATE_LIMIT_CARDS, licence: e.RATE_LIMIT_LICENCE },
    uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 3600_000,
    links: {
      newAiApp: e.NEW_AI_URL || null,
      pricing: e.PRICING_URL ?? null,
      billingApp: e.BILLING_APP_URL ?? null,
      help: e.HELP_URL,
      contact: e.CONTACT_URL,
      terms: e.TERMS_URL,
      forgotPassword: e.FORGOT_PASSWORD_URL ?? null,
      aiProduct: e.AI_PRODUCT_URL || null,
      tipsVideo: e.TIPS_VIDEO_URL || null,
    },
    sunsetRedirectUrl: e.SUNSET_REDIRECT_URL ?? null,
    betaHost: e.BETA_HOST,
    homeFeed: e.HOME_FEED ? { source: /^https?:\/\//i.test(e.HOME_FEED) ? e.HOME_FEED : path.resolve(e.HOME_FEED), refreshMs: Math.round(e.HOME_FEED_REFRESH_MINUTES * 60_000) } : null,
    analytics: e.ANALYTICS_URL
      ? { url: e.ANALYTICS_URL.replace(/\/$/, ""), domain: e.ANALYTICS_DOMAIN ?? new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).hostname }
      : null,
    youtube:
      e.YOUTUBE_CLIENT_ID && e.YOUTUBE_CLIENT_SECRET
        ? {
            clientId: e.YOUTUBE_CLIENT_ID,
            clientSecret: e.YOUTUBE_CLIENT_SECRET,
            tokenKey: e.YOUTUBE_TOKEN_KEY ?? null,
            authUrl: e.YOUTUBE_AUTH_URL,
            tokenUrl: e.YOUTUBE_TOKEN_URL,
            revokeUrl: e.YOUTUBE_REVOKE_URL,
            apiBase: e.YOUTUBE_API_BASE.replace(/\/$/, ""),
            chunkBytes: e.YOUTUBE_CHUNK_BYTES,
          }
        : null,
    faces: { enabled: e.FACE_DETECTION, fps: e.FACE_SAMPLES_PER_SECOND, ...(e.FACE_WORKERS ? { workers: e.FACE_WORKERS } : {}) },
    music: {
      catalogueDir: path.resolve(e.MUSIC_CATALOGUE_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "music")),
      musicDir: e.MUSIC_DIR ? path.resolve(e.MUSIC_DIR) : null,
      syncEveryMs: Math.round(e.MUSIC_SYNC_MINUTES * 60_000),
    },
    // Issue 16: Stripe when its keys are set, else the local gateway (Stripe's test-card semantics, no real money).
    // Issue 16: partner licences, the support-chat and referral hashes, the seasonal promotion (all off by default).
    licences: { upgradeUrl: e.APPSUMO_UPGRADE_URL ?? null },
    userHashes: { tawkto: e.TAWKTO_SECRET ?? null, impact: e.IMPACT_SECRET ?? null },
    promotion: promotionConfig(e),
    payments: {
      gateway: stripeConfig(e),
      plansFile: e.PLANS_FILE ? path.resolve(e.PLANS_FILE) : null,
      tickMs: Math.round(e.PAYMENTS_TICK_SECONDS * 1000),
    },
    push: {
      mode: e.PUSH,
      outboxDir: path.join(dataDir, "push-outbox"),
      privateEndpoints: e.PUSH_PRIVATE_ENDPOINTS === "1",
      // Push services contact this address when a sender misbehaves.
      vapidSubject: e.VAPID_SUBJECT ?? `mailto:${mailAddress(e.MAIL_FROM) ?? "admin@localhost"}`,
    },
  } as const;
}

/**
 * The seasonal promotion (SPEC §1, §9): a window and at least one coupon code, all or nothing. Whether the
 * codes are coupons of the catalogue is checked at start (server/main.ts), once the catalogue is read.
 */
function promotionConfig(e: { PROMOTION_START?: string; PROMOTION_END?: string; PROMOTION_COUPON_ANNUAL?: string; PROMOTION_COUPON_MONTHLY?: string }) {
  const any = e.PROMOTION_START || e.PROMOTION_END || e.PROMOTION_COUPON_ANNUAL || e.PROMOTION_COUPON_MONTHLY;
  if (!any) return null;
  if (!e.PROMOTION_START || !e.PROMOTION_END) throw new Error("Invalid configuration: set PROMOTION_START and PROMOTION_END together");
  if (!e.PROMOTION_COUPON_ANNUAL && !e.PROMOTION_COUPON_MONTHLY) throw new Error("Invalid configuration: a promotion needs PROMOTION_COUPON_ANNUAL or PROMOTION_COUPON_MONTHLY");
  const startsAt = new Date(e.PROMOTION_START).toISOString();
  const endsAt = new Date(e.PROMOTION_END).toISOString();
  if (endsAt <= startsAt) throw new Error("Invalid configuration: PROMOTION_END must come after PROMOTION_START");
  return {
    startsAt,
    endsAt,
    coupons: { year: e.PROMOTION_COUPON_ANNUAL?.toUpperCase() ?? null, month: e.PROMOTION_COUPON_MONTHLY?.toUpperCase() ?? null },
  };
}

/** STORAGE=s3 needs its endpoint, bucket and both keys; STORAGE=local ignores them. */
function s3Config(e: z.output<typeof EnvSchema>, dataDir: string) {
  if (e.STORAGE !== "s3") return null;
  const missing = (["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((name) => !e[name]);
  if (missing.length) throw new Error(`Invalid configuration: STORAGE=s3 needs ${missing.join(", ")}`);
  return {
    endpoint: e.S3_ENDPOINT!,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT ?? null,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    cacheDir: path.join(dataDir, "s3-cache"),
    cacheBytes: e.S3_CACHE_MB * 1_048_576,
    presignSeconds: e.S3_PRESIGN_SECONDS,
  };
}

/** The Stripe keys: all or none (a half-configured Stripe would take cards it can never be told about). */
function stripeConfig(e: { STRIPE_SECRET_KEY?: string; STRIPE_PUBLISHABLE_KEY?: string; STRIPE_WEBHOOK_SECRET?: string; STRIPE_API_URL?: string }) {
  const keys = [e.STRIPE_SECRET_KEY, e.STRIPE_PUBLISHABLE_KEY, e.STRIPE_WEBHOOK_SECRET];
  if (keys.every((k) => !k)) return { kind: "local" as const };
  if (keys.some((k) => !k)) throw new Error("Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET together (or none for the local gateway)");
  return {
    kind: "stripe" as const,
    secretKey: e.STRIPE_SECRET_KEY!,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    apiUrl: e.STRIPE_API_URL ?? null,
  };
}
