import { z } from "zod";
import { route } from "./route";
import { CaptchaChallenge, PublicConfig } from "./config";
import { HomeFeed } from "./home";
import { TrackBody, Tracked } from "./analytics";
import { Locale } from "./locales";
import { TimelineFile, TimelineQuery } from "./timelines";
import { Waveform } from "./subtitles";
import { VideoSiteExportBody, YoutubeConnection, YoutubeConnectLink } from "./youtube";
import { ShareBody, SharePage, ShareToken } from "./share";
import { SubtitleLinesUpdate, SubtitleSet, SubtitleSetList, SubtitleSetsQuery, TranslateOptions, TranslateRequest } from "./subtitles";
import { ProjectWords } from "./subtitles";
import { PickSongBody, Song, SongId, SongList, SongsQuery } from "./music";
import { PushSubscribeBody, PushSubscriptionInfo, PushUnsubscribeBody, PushUnsubscribed } from "./push";
import { Plan, PlanInterval } from "./plans";
import { CheckoutOffers, CheckoutSession, LtdCheckoutQuery, VideoCheckoutQuery, WizardToggleParams } from "./checkout";
import { AccountDeleteBody, DataExportLink, EmailChangeBody, ForgotPasswordBody, PasswordChangeBody, PendingEmail, ResetPasswordBody, SessionsRevoked } from "./account";
import { LicenceRedeemBody, UpgradeLink, UserHash } from "./licences";
import { CouponCheck, CouponQuery, PaymentMethod, PaymentMethodBody, PaymentMethodId, PaymentMethodList, SetupIntent, SubscriptionInfo, SubscriptionUpdate, SubscriptionUpdateBody } from "./payments";
import { SignedS3Body, SignedS3Response } from "./media";
import { LibraryCreateBody, LibraryCreateResponse, LibraryItem, LibraryListQuery, LibraryProjectSearchQuery, LibraryScenesQuery, LibrarySearchQuery, MediaFile, Paginated } from "./media";
import { CutRangeBody, Scene, SceneId, Scenes, SceneUpdateBody, Storyboard, StoryboardBody, StoryboardQuery, TrimBody } from "./scenes";
import { CreateProjectBody, CutsBody, CutsResponse, Highlights, ImportBody, OverlayImportBody, Project, ProjectCount, ProjectId, ProjectsQuery, ProjectUpdateBody, RecreateStoryboardBody, RenderBody, ResetVolumesQuery } from "./projects";
import {
  HandoffCode,
  HandoffExchangeBody,
  Limits,
  LoginBody,
  LoginResponse,
  Msg,
  ProfileBody,
  Quotas,
  RegisterBody,
  RegisterResponse,
  RenameBody,
  User,
} from "./user";

/** The contract: every JSON call of the API, by name. Server and sync worker are both built from it. */
export const routes = {
  "config.get": route({ method: "GET", path: "/config", auth: "none", summary: "Public set-up of this server", response: PublicConfig }),
  "home.feed": route({ method: "GET", path: "/home/feed", auth: "user", summary: "Home's tips and updates in the user's language (null: the app's own)", response: HomeFeed }),
  "analytics.track": route({ method: "POST", path: "/analytics/events", auth: "none", summary: "One product event (SPEC §7), passed to the self-hosted sink when one is configured", body: TrackBody, response: Tracked, status: 202, mutation: false }),
  "captcha.challenge": route({ method: "GET", path: "/captcha/challenge", auth: "none", summary: "A proof-of-work challenge for registration", response: CaptchaChallenge }),

  "user.register": route({ method: "POST", path: "/register", auth: "none", summary: "Create an account", body: RegisterBody, response: RegisterResponse, status: 201 }),
  "user.login": route({ method: "POST", path: "/user/login", auth: "none", summary: "Sign in; answers the user with a new api_token", body: LoginBody, response: LoginResponse }),
  "user.logout": route({ method: "POST", path: "/user/logout", auth: "user", summary: "Revoke the token used for this call", response: Msg }),
  "user.get": route({ method: "GET", path: "/user", auth: "user", summary: "The signed-in user", response: User }),
  "user.update": route({ method: "POST", path: "/user", auth: "user", summary: "Update the profile", body: ProfileBody, response: User }),
  "user.rename": route({ method: "PUT", path: "/user/rename", auth: "user", summary: "Change first and last name", body: RenameBody, response: User }),
  "user.locale": route({ method: "POST", path: "/user/locale/:locale", auth: "user", summary: "Save the interface language", params: z.object({ locale: Locale }), response: User }),
  "user.renderNotifications": route({
    method: "POST",
    path: "/user/settings/notifications/render/:value",
    auth: "user",
    summary: "Turn render notifications on (1) or off (0)",
    params: z.object({ value: z.enum(["0", "1"]) }),
    response: User,
  }),
  "user.resendEmail": route({ method: "GET", path: "/user/email/resend", auth: "user", summary: "Send the verification email again", response: Msg }),
  "user.limits": route({ method: "GET", path: "/user/limits", auth: "user", summary: "The limits of the user's plan", response: Limits }),
  "user.quotas": route({ method: "GET", path: "/user/quotas", auth: "user", summary: "What the user has left", response: Quotas }),
  "user.handoff": route({ method: "POST", path: "/user/handoff", auth: "user", summary: "A short-lived, single-use code for the new AI version link", response: HandoffCode }),
  "handoff.exchange": route({ method: "POST", path: "/handoff/exchange", auth: "none", summary: "Trade a handoff code for a session", body: HandoffExchangeBody, response: LoginResponse }),
  // Issue 16, the rest of the account: every call is the signed-in user's own, except the two reset calls.
  "user.changeEmail": route({ method: "POST", path: "/user/email", auth: "user", summary: "Ask to change the e-mail address; it changes once the link mailed to the new address is opened", body: EmailChangeBody, response: PendingEmail }),
  "user.pendingEmail": route({ method: "GET", path: "/user/email/pending", auth: "user", summary: "The e-mail change waiting for its link, if any", response: PendingEmail }),
  "user.cancelEmailChange": route({ method: "DELETE", path: "/user/email/pending", auth: "user", summary: "Drop the e-mail change waiting for its link", response: PendingEmail }),
  "user.changePassword": route({ method: "POST", path: "/user/password", auth: "user", summary: "Change the password; every other session is signed out", body: PasswordChangeBody, response: SessionsRevoked }),
  "user.signOutOthers": route({ method: "POST", path: "/user/sessions/revoke-others", auth: "user", summary: "Sign out every other device (all api tokens but this one)", response: SessionsRevoked }),
  "user.exportData": route({ method: "GET", path: "/user/export", auth: "user", summary: "A short-lived link to a zip of the user's projects, subtitles, settings and payment history", response: DataExportLink }),
  "user.delete": route({ method: "POST", path: "/user/delete", auth: "user", summary: "Delete the account and everything it owns (the subscription is cancelled first)", body: AccountDeleteBody, response: Msg }),
  "user.forgotPassword": route({ method: "POST", path: "/user/password/forgot", auth: "none", summary: "Mail a password reset link; the same answer whether or not the address has an account", body: ForgotPasswordBody, response: Msg }),
  "user.resetPassword": route({ method: "POST", path: "/user/password/reset", auth: "none", summary: "Set a new password with a reset link's token; every session is signed out", body: ResetPasswordBody, response: Msg }),

  "library.create": route({ method: "POST", path: "/library", auth: "user", summary: "Add a finished upload to the media library", body: LibraryCreateBody, response: LibraryCreateResponse, status: 201 }),
  "library.signedS3": route({ method: "POST", path: "/signeds3", auth: "user", summary: "A presigned POST to upload one file straight to the bucket (STORAGE=s3; 404 otherwise)", body: SignedS3Body, response: SignedS3Response }),
  "library.list": route({ method: "GET", path: "/library", auth: "user", summary: "The media library, a page at a time", query: LibraryListQuery, response: Paginated(MediaFile) }),
  "library.search": route({ method: "GET", path: "/library/projects/search", auth: "user", summary: "Library items of a tab (videos, audios, images, scenes), searched by name", query: LibrarySearchQuery, response: Paginated(LibraryItem) }),
  "library.scenes": route({ method: "GET", path: "/library/projects/:id/scenes", auth: "user", summary: "The scenes of one library item or project, a page at a time", params: ProjectId, query: LibraryScenesQuery, response: Paginated(Scene) }),
  "library.searchScenes": route({ method: "GET", path: "/library/projects/:id/search", auth: "user", summary: "Scenes of one item whose text contains the query", params: ProjectId, query: LibraryProjectSearchQuery, response: Paginated(Scene) }),
  "library.get": route({ method: "GET", path: "/library/:id", auth: "user", summary: "One library file", params: ProjectId, response: MediaFile }),
  "media.waveform": route({ method: "GET", path: "/media/:id/waveform", auth: "user", summary: "Peak levels of a media file's audio and its silences (trim and split dialogs)", params: ProjectId, response: Waveform }),

  "projects.create": route({ method: "POST", path: "/createproject", auth: "user", summary: "Create a project from library files and queue it", body: CreateProjectBody, response: Project, status: 201 }),
  "projects.list": route({ method: "GET", path: "/projects", auth: "user", summary: "Projects, newest first (?page=n), or their count (?count=1)", query: ProjectsQuery, response: z.union([Paginated(Project), ProjectCount]) }),
  "projects.get": route({ method: "GET", path: "/projects/:id", auth: "user", summary: "One project", params: ProjectId, response: Project }),
  "projects.highlights": route({ method: "GET", path: "/projects/:id/highlights", auth: "user", summary: "What the automatic edit did", params: ProjectId, response: Highlights }),
  "projects.update": route({ method: "PUT", path: "/projects/:id", auth: "user", summary: "Change a project's name or settings", params: ProjectId, body: ProjectUpdateBody, response: Project }),
  "projects.recreateStoryboard": route({ method: "POST", path: "/projects/:id/recreatestoryboard", auth: "user", summary: "Rebuild the storyboard from the analysis (all scene edits are lost)", params: ProjectId, body: RecreateStoryboardBody, response: Project }),
  "projects.resetVolumes": route({ method: "GET", path: "/projects/:id/reset/volumes", auth: "user", summary: "Every scene back to standard volumes; auto-duck on or off", params: ProjectId, query: ResetVolumesQuery, response: Project, mutation: true }),
  "projects.delete": route({ method: "DELETE", path: "/projects/:id", auth: "user", summary: "Delete a project (not undoable)", params: ProjectId, response: Project }),
  "projects.dequeue": route({ method: "DELETE", path: "/projects/:id/queue", auth: "user", summary: "Take a queued project out of the queue", params: ProjectId, response: Project }),
  "projects.restart": route({ method: "POST", path: "/projects/:id/restart", auth: "user", summary: "Queue a project that was taken out of the queue, or failed", params: ProjectId, response: Project }),
  "projects.render": route({ method: "POST", path: "/projects/:id/render", auth: "user", summary: "Render the preview (final false) or the export", params: ProjectId, body: RenderBody, response: Project }),
  "projects.renderRaw": route({ method: "POST", path: "/projects/:id/renderraw", auth: "user", summary: "Make the raw preview of the project's footage", params: ProjectId, response: Project }),
  "projects.import": route({ method: "POST", path: "/projects/:id/library/import", auth: "user", summary: "Insert library scenes at a position", params: ProjectId, body: ImportBody, response: Scenes }),
  "projects.importOverlay": route({ method: "POST", path: "/projects/:id/library/import/overscene", auth: "user", summary: "Put one library scene over a scene of the project", params: ProjectId, body: OverlayImportBody, response: Scene }),
  "projects.cuts": route({ method: "POST", path: "/projects/:id/cuts", auth: "user", summary: "Create a clips project from selected scenes", params: ProjectId, body: CutsBody, response: CutsResponse }),
  "projects.reopen": route({ method: "GET", path: "/projects/:id/reopen", auth: "user", summary: "Move a finished project back to the storyboard", params: ProjectId, response: Project, mutation: true }),
  "projects.timeline": route({
    method: "GET",
    path: "/projects/:id/timeline",
    auth: "user",
    summary: "The edit as a timeline file for a desktop editor (fcpxml, otio or edl), as an attachment",
    params: ProjectId,
    query: TimelineQuery,
    response: TimelineFile,
  }),

  "projects.share": route({ method: "PUT", path: "/projects/:id/share", auth: "user", summary: "Set the share page's privacy (and title, text); makes its link if it has none", params: ProjectId, body: ShareBody, response: Project }),
  "projects.unshare": route({ method: "DELETE", path: "/projects/:id/share", auth: "user", summary: "Revoke the share link (the old link is not found from now on); the page becomes private", params: ProjectId, response: Project }),
  "share.get": route({
    method: "GET",
    path: "/share/:token",
    auth: "none",
    summary: "A share page: the finished video (short-lived link), its title and text; private pages only for their signed-in owner",
    params: ShareToken,
    response: SharePage,
  }),

  "storyboard.get": route({ method: "POST", path: "/projects/:id/storyboard", auth: "user", summary: "A slice of the storyboard (25 first, then 250 at a time)", params: ProjectId, query: StoryboardQuery, body: StoryboardBody, response: Storyboard, mutation: false }),
  "scenes.get": route({ method: "GET", path: "/scenes/:id", auth: "user", summary: "One scene", params: SceneId, response: Scene }),
  "scenes.update": route({ method: "PUT", path: "/scenes/:id", auth: "user", summary: "Text lines and volumes of a scene", params: SceneId, body: SceneUpdateBody, response: Scene }),
  "scenes.removeLines": route({ method: "POST", path: "/scenes/:id/removelines", auth: "user", summary: "Remove a scene's text lines", params: SceneId, response: Scene }),
  "scenes.splitByLine": route({ method: "POST", path: "/scenes/:id/splitbyline/:line", auth: "user", summary: "Split before a text line (1-based)", params: SceneId.extend({ line: z.coerce.number().int() }), response: Scenes }),
  "scenes.splitByPosition": route({ method: "POST", path: "/scenes/:id/splitbyposition/:position", auth: "user", summary: "Split at seconds into the scene", params: SceneId.extend({ position: z.coerce.number() }), response: Scenes }),
  "scenes.mergeNext": route({ method: "POST", path: "/scenes/:id/mergenextscene", auth: "user", summary: "Merge with the next scene", params: SceneId, response: Scene }),
  "scenes.show": route({ method: "GET", path: "/scenes/:id/show", auth: "user", summary: "Restore a removed scene", params: SceneId, response: Scene, mutation: true }),
  "scenes.hide": route({ method: "GET", path: "/scenes/:id/hide", auth: "user", summary: "Remove a scene (restorable)", params: SceneId, response: Scene, mutation: true }),
  "scenes.order": route({ method: "GET", path: "/scenes/:id/order/:order", auth: "user", summary: "Move a scene to a 1-based position", params: SceneId.extend({ order: z.coerce.number().int() }), response: Scenes, mutation: true }),
  "scenes.typeDefault": route({ method: "GET", path: "/scenes/:id/type", auth: "user", summary: "Make a scene a default one", params: SceneId, response: Scene, mutation: true }),
  "scenes.type": route({ method: "GET", path: "/scenes/:id/type/:type", auth: "user", summary: "Make a scene the intro or the outro", params: SceneId.extend({ type: z.enum(["intro", "outro"]) }), response: Scene, mutation: true }),
  "scenes.trim": route({ method: "PUT", path: "/scenes/:id/trim", auth: "user", summary: "Move the trim markers", params: SceneId, body: TrimBody, response: Scene }),
  "scenes.removeOverlay": route({ method: "DELETE", path: "/scenes/:id/overscene", auth: "user", summary: "Take the overlay off a scene", params: SceneId, response: Scene }),
  "scenes.duplicate": route({ method: "POST", path: "/scenes/:id/duplicate", auth: "user", summary: "Duplicate a scene after itself", params: SceneId, response: Scenes }),
  // Edit by transcript (issue 14): the words of a project's files, and a cut of spoken words out of a scene.
  "projects.words": route({ method: "GET", path: "/projects/:id/words", auth: "user", summary: "The recognised words of the project's media files (times in each file)", params: ProjectId, response: ProjectWords }),
  "scenes.cutRange": route({ method: "POST", path: "/scenes/:id/cutrange", auth: "user", summary: "Cut a stretch of words out of a scene: split at the word edges and hide the middle", params: SceneId, body: CutRangeBody, response: Scenes }),

  // Video-site export (SPEC §7, issue 13): the OAuth link to YouTube, and the upload of a finished video.
  "youtube.status": route({ method: "GET", path: "/user/youtube", auth: "user", summary: "Whether YouTube export is available on this server and connected for the user", response: YoutubeConnection }),
  "youtube.connect": route({ method: "GET", path: "/user/youtube/connect", auth: "user", summary: "The Google consent page to open (OAuth 2 with PKCE); the callback stores the connection", response: YoutubeConnectLink }),
  "youtube.disconnect": route({ method: "GET", path: "/user/youtube/disconnect", auth: "user", summary: "Revoke Cutroom's access at Google and forget the tokens", response: YoutubeConnection, mutation: true }),
  "projects.shareYoutube": route({ method: "POST", path: "/projects/:id/share/youtube", auth: "user", summary: "Upload the finished video to the user's YouTube channel (title, description, privacy)", params: ProjectId, body: VideoSiteExportBody, response: Project }),

  // Subtitle sets and translation (SPEC §7, issue 14).
  "bgms.list": route({ method: "GET", path: "/bgms", auth: "user", summary: "The songs background music can use: the shipped catalogue and the operator's MUSIC_DIR (?tag, ?q)", query: SongsQuery, response: SongList }),
  "bgms.get": route({ method: "GET", path: "/bgms/:id", auth: "user", summary: "One song", params: SongId, response: Song }),
  "bgms.pick": route({ method: "PUT", path: "/bgms/:id", auth: "user", summary: "Pick this song as a project's background music (bgm_id; automatic music on)", params: SongId, body: PickSongBody, response: Project }),
  "subtitles.list": route({ method: "GET", path: "/projects/:id/autosubtitles", auth: "user", summary: "The project's subtitle sets: the original and each translation (?ready=true: only those ready)", params: ProjectId, query: SubtitleSetsQuery, response: SubtitleSetList }),
  "subtitles.options": route({ method: "GET", path: "/projects/:id/translate/options", auth: "user", summary: "Every subtitle language and whether it can be translated into here (engine, draft, or why not)", params: ProjectId, response: TranslateOptions }),
  "subtitles.translate": route({ method: "POST", path: "/projects/:id/translate", auth: "user", summary: "Translate the subtitles into a language (a job); answers the set, pending. Again: retranslates, keeping edited lines", params: ProjectId, body: TranslateRequest, response: SubtitleSet, status: 202 }),
  "subtitles.update": route({ method: "PUT", path: "/subtitles/:id", auth: "user", summary: "Edit lines of a subtitle set (the original edits the scenes' text lines); at most 35 characters a line", params: ProjectId, body: SubtitleLinesUpdate, response: SubtitleSet }),

  "push.subscribe": route({ method: "POST", path: "/push/subscriptions", auth: "user", summary: "Keep this browser's push subscription for render notifications", body: PushSubscribeBody, response: PushSubscriptionInfo, status: 201 }),
  "push.unsubscribe": route({ method: "DELETE", path: "/push/subscriptions", auth: "user", summary: "Forget one of the user's push subscriptions", body: PushUnsubscribeBody, response: PushUnsubscribed }),

  "plans.list": route({ method: "GET", path: "/payment/plans", auth: "none", summary: "Plans by billing interval", query: PlanInterval, response: z.array(Plan) }),
  "plans.free": route({ method: "GET", path: "/payment/freeplan", auth: "none", summary: "The free plan", response: Plan }),
  // Subscriptions and payments (SPEC §7, issue 16): amounts come from the server's catalogue, never the client.
  "payment.coupon": route({ method: "GET", path: "/payment/coupon", auth: "user", summary: "Whether a coupon code is valid for a plan, and the plan's price with it (rate-limited)", query: CouponQuery, response: CouponCheck }),
  "subscription.get": route({ method: "GET", path: "/user/payment/subscription", auth: "user", summary: "The user's plan, subscription, renewal and latest payment", response: SubscriptionInfo }),
  "subscription.update": route({
    method: "PUT",
    path: "/user/payment/subscription",
    auth: "user",
    summary: "Choose a plan: a 14-day trial or an upgrade now (prorated), a downgrade at the period end; the free plan cancels renewal",
    body: SubscriptionUpdateBody,
    response: SubscriptionUpdate,
  }),
  "paymentMethods.list": route({ method: "GET", path: "/user/payment/methods", auth: "user", summary: "The user's saved cards (brand, last four digits, expiry)", response: PaymentMethodList }),
  "paymentMethods.add": route({ method: "POST", path: "/user/payment/methods", auth: "user", summary: "Save a card the gateway confirmed through a setup intent (payment_method id)", body: PaymentMethodBody, response: PaymentMethod, status: 201 }),
  "paymentMethods.remove": route({ method: "DELETE", path: "/user/payment/methods/:id", auth: "user", summary: "Remove a saved card", params: PaymentMethodId, response: PaymentMethodList }),
  "payment.setupIntent": route({ method: "GET", path: "/user/payment/setupintent", auth: "user", summary: "A setup intent's client_secret for the card form, and whether payments are in test mode", response: SetupIntent, mutation: true }),
  // One-time purchases (SPEC §2 Lifetime-deal purchase, §6, §7; issue 16): a checkout session to pay on, completed by the gateway's webhook.
  "checkout.offers": route({ method: "GET", path: "/stripe/checkout/offers", auth: "none", summary: "What can be bought once: the lifetime tiers and the one-project watermark-free 1080p export, with prices", response: CheckoutOffers }),
  "checkout.ltd": route({ method: "GET", path: "/stripe/checkout/ltd", auth: "user", summary: "A checkout session for a lifetime deal (ltd_tier=tier1|tier2|tier3)", query: LtdCheckoutQuery, response: CheckoutSession, mutation: true }),
  "checkout.video": route({ method: "GET", path: "/stripe/checkout/video", auth: "user", summary: "A checkout session for one project's watermark-free 1080p export (one-time fee)", query: VideoCheckoutQuery, response: CheckoutSession, mutation: true }),
  "user.wizardToggle": route({ method: "PUT", path: "/user/wizard/toggle/:value", auth: "user", summary: "Show (1) or stop showing (0) the lifetime welcome modal", params: WizardToggleParams, response: User }),
  // Deals-marketplace licences and the support-chat and referral hashes (SPEC §7, issue 16).
  "licence.redeem": route({ method: "POST", path: "/user/licence/redeem", auth: "user", summary: "Redeem a deals-marketplace licence code: the account gets its lifetime tier ({product}_tierN; rate-limited)", body: LicenceRedeemBody, response: User }),
  "appsumo.upgradeLink": route({ method: "GET", path: "/user/appsumo/upgradelink", auth: "user", summary: "The marketplace's page to change the redeemed licence's tier (404: none configured or no licence)", response: UpgradeLink }),
  "user.tawktoHash": route({ method: "GET", path: "/user/tawkto/hash", auth: "user", summary: "The support chat's secure-mode hash of the user's e-mail (404: not configured)", response: UserHash }),
  "user.impactHash": route({ method: "GET", path: "/user/impact/hash", auth: "user", summary: "The referral programme's hash of the user's id (404: not configured)", response: UserHash }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
