import nodemailer, { type Transporter } from 'nodemailer';
import { env } from './env';

let transport: Transporter | null = null;

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends one message through the SMTP server of `SMTP_URL` (the local Mailpit under `make up`).
 * Without SMTP_URL the message goes to the log, so a self-hosted install without mail still lets
 * an admin read a verification link there; never silently dropped.
 */
export async function sendMail(mail: Mail): Promise<void> {
  if (!env.SMTP_URL) {
    console.warn(
      `[mail] SMTP_URL is not set; not sent to ${mail.to}: ${mail.subject}\n${mail.text}`,
    );
    return;
  }
  transport ??= nodemailer.createTransport(env.SMTP_URL);
  await transport.sendMail({ from: env.MAIL_FROM, ...mail });
}
