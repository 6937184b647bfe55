import type { z } from "zod";
import type { Db } from "../db";
import { findProject, updateProject, type ProjectRow } from "../db/projects";
import type { ShareBody, SharePage } from "../../api/share";
import type { Privacy } from "../../api/share";
import type { Project } from "../../api/projects";
import { FILE_LINK_TTL_S } from "./file-links";
import { trackKeyOf } from "./subtitles";
import { sign, verifySignature } from "./signed-links";
import type { ShareTokens } from "./share-tokens";
import { DomainError, notFound } from "./errors";
import { musicAttribution, withAttribution } from "../music/attribution";

/** A language's name in that language ("Deutsch (Deutschland)"), as track menus list them; the tag when unknown. */
function languageLabel(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale);
    return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : locale;
  } catch {
    return locale;
  }
}

export interface SharingDeps {
  db: Db;
  /** Signs the page's media links. */
  secret: string;
  shares: ShareTokens;
  toProject: (row: ProjectRow) => Project;
}

export type ShareFile = "video" | "poster" | "subtitles";

/** A well-formed token is the base64url of an HMAC-SHA256; anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Share pages (SPEC §6 "private, public or unlisted"). A page shows the project's final render while the project is
 * Render Ready: reopening it takes the page down until the next export (the same link then shows the new video), and
 * deleting the project or revoking the link makes the link not found for good. Private pages are for their signed-in
 * owner only; unlisted and public ones for anyone with the link (public ones may also be indexed by search engines).
 */
export function createSharing(deps: SharingDeps) {
  const { db, shares } = deps;

  async function mustOwn(userId: number, id: number): Promise<ProjectRow> {
    const row = await findProject(db, userId, id);
    if (!row || row.deleted_at) throw notFound("No such project");
    if (row.type === "library") throw new DomainError("bad_request", "A library item has no share page");
    return row;
  }

  /** The project whose link this is, if the link is current and its page can show a finished video to this viewer. */
  async function shownProject(token: string, viewerId: number | undefined): Promise<ProjectRow | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const row = await db.selectFrom("projects").selectAll().where("share_token_hash", "=", shares.hashOf(token)).executeTakeFirst();
    if (!row || row.deleted_at || !row.share_nonce || row.type === "library") return undefined;
    if (row.status !== "Render Ready" || !row.final_render || !row.export_key) return undefined;
    if (row.privacy !== "public" && row.privacy !== "unlisted" && row.user_id !== viewerId) return undefined;
    return row;
  }

  const fileKey = (row: ProjectRow, file: ShareFile) =>
    file === "video" ? row.export_key : file === "subtitles" ? (row.export_key ? trackKeyOf(row.export_key) : null) : row.thumbnail_key;
  // The privacy is signed too: a link handed out while the page was unlisted stops when it becomes private.
  const payload = (token: string, row: ProjectRow, file: ShareFile, key: string, expires: number) => `share|${file}|${token}|${key}|${row.privacy}|${expires}`;

  /**
   * A media link of the page, below the share link itself so no storage key (which names the owner's ids) shows.
   * Signed for the file it was made for and short-lived; every request checks the share again, so a revoked link,
   * a reopened or deleted project, or a page made private stops serving at once.
   */
  function mediaUrl(token: string, row: ProjectRow, file: ShareFile, now: number): string {
    // Rounded to the hour so a reload gets the same URL (and the browser's cache).
    const expires = Math.ceil(now / 1000 / 3600) * 3600 + FILE_LINK_TTL_S;
    const signature = sign(deps.secret, payload(token, row, file, fileKey(row, file)!, expires));
    return `/api/v1/share/${token}/${file}?expires=${expires}&signature=${signature}`;
  }

  return {
    /** Sets the privacy (and title, text); a project without a link gets one. */
    async share(userId: number, id: number, body: z.output<typeof ShareBody>): Promise<Project> {
      const row = await mustOwn(userId, id);
      const updated = await updateProject(db, id, {
        privacy: body.privacy,
        ...(body.name !== undefined ? { video_name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(row.share_nonce ? {} : shares.fresh(id)),
      });
      return deps.toProject(updated);
    },

    /** Revokes the link: the old one is not found from now on; the page is private until shared again (a new link). */
    async unshare(userId: number, id: number): Promise<Project> {
      await mustOwn(userId, id);
      return deps.toProject(await updateProject(db, id, { share_nonce: null, share_token_hash: null, privacy: "private" }));
    },

    /** The watch page's content, or not found (unknown, revoked, private to someone else, not finished, deleted). */
    async page(token: string, viewerId: number | undefined, now = Date.now()): Promise<SharePage> {
      const row = await shownProject(token, viewerId);
      if (!row) throw notFound("This video is not available");
      return {
        name: row.video_name || row.name,
        // Issue 15: the credit line of a CC-BY song the render played.
        description: withAttribution(row.description, await musicAttribution(db, row)),
        privacy: row.privacy as Privacy,
        video: { url: mediaUrl(token, row, "video", now), width: row.export_width ?? null, height: row.export_height ?? null, duration_seconds: row.duration_out_seconds },
        poster: row.thumbnail_key ? mediaUrl(token, row, "poster", now) : null,
        // Issue 14: the render's subtitles (written beside it by the render job), labelled in their own language.
        tracks: row.export_key && row.subtitles_lines_count > 0 && row.locale ? [{ locale: row.locale, label: languageLabel(row.locale), url: mediaUrl(token, row, "subtitles", now) }] : [],
      };
    },

    /**
     * The storage key a page's media link opens, or undefined when the link is bad, expired, or the page no longer
     * shows. A private page's media links were handed to its owner only; they carry no bearer header (a media element
     * cannot send one), so the signature stands for the owner's check.
     */
    async mediaKey(token: string, file: ShareFile, expires: number, signature: string, now = Date.now()): Promise<{ key: string; indexable: boolean } | undefined> {
      if (!(expires * 1000 > now) || !TOKEN_SHAPE.test(token)) return undefined;
      const row = await db.selectFrom("projects").selectAll().where("share_token_hash", "=", shares.hashOf(token)).executeTakeFirst();
      if (!row) return undefined;
      const key = fileKey(row, file);
      if (!key || !verifySignature(deps.secret, payload(token, row, file, key, expires), signature)) return undefined;
      const shown = await shownProject(token, row.user_id);
      return shown ? { key, indexable: shown.privacy === "public" } : undefined;
    },

    /** Whether search engines may index this link's page: only a public page that is showing. */
    async indexable(token: string): Promise<boolean> {
      const row = await shownProject(token, undefined);
      return row?.privacy === "public";
    },
  };
}

export type Sharing = ReturnType<typeof createSharing>;
