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
  /** Links the message carries, logged in outbox mode so a developer can click them. */
  links?: string[];
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

/** Without SMTP: each message is written to DATA_DIR/outbox/ as JSON, and its links are logged. */
export function outboxMailer(dir: string, from: string, log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      await fs.mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}.json`;
      const file = path.join(dir, name);
      await fs.writeFile(file, JSON.stringify({ from, ...mail, created_at: new Date().toISOString() }, null, 2));
      log.info({ outbox: file, to: mail.to, links: mail.links }, `mail written to outbox: ${mail.subject}`);
    },
  };
}
