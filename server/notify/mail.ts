import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import nodemailer from "nodemailer";
import type { FastifyBaseLogger } from "fastify";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links the message carries (kept in the outbox file so a developer can click them; never logged). */
  links?: string[];
  /** Which template made it: the outbox log names it instead of the message's content. */
  template?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** SMTP when SMTP_URL is set. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
  };
}

/** `ana@example.com` → `a***@example.com`: enough to tell messages apart in a log, not to read an address. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return "***";
  return `${address.slice(0, Math.min(1, at))}***${address.slice(at)}`;
}

/**
 * Without SMTP: each message is written to DATA_DIR/outbox/ as JSON (links included). The log says only
 * that a message was written — to whom (masked), from which template, in which file — never its links:
 * a verification link in a log would let anyone who reads the log verify any address.
 */
export function outboxMailer(dir: string, from: string, log: Pick<FastifyBaseLogger, "info">): Mailer {
  return {
    async send(mail) {
      await fs.mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}.json`;
      const file = path.join(dir, name);
      await fs.writeFile(file, JSON.stringify({ from, ...mail, created_at: new Date().toISOString() }, null, 2));
      log.info({ outbox: name, to: maskAddress(mail.to), template: mail.template ?? "other" }, "mail written to outbox");
    },
  };
}
