/**
 * A real SMTP server for tests (smtp-server) on an ephemeral port of 127.0.0.1: it accepts every
 * message, parses it (mailparser) and keeps it in a mailbox. Tests point a node's email provider
 * at it (`emailPlugin(smtp)`) and read what the node sent: `next(address)` answers the next
 * message to that address, waiting for it if it has not arrived (no sleeping).
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (lower-case). */
  to: string[];
  /** The envelope's sender. */
  mailFrom: string;
  /** The `From` header as written. */
  from: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtp {
  port: number;
  /** Every message received so far, in order of arrival. */
  readonly messages: ReceivedMail[];
  /** The next message to `address` not yet taken by `next` (waits for it; fails after `timeoutMs`). */
  next(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Messages to `address` received so far (taken or not). */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: { address: string; resolve: (mail: ReceivedMail) => void }[] = [];

  const deliver = (mail: ReceivedMail) => {
    messages.push(mail);
    const index = waiters.findIndex((waiter) => mail.to.includes(waiter.address));
    if (index >= 0) {
      const [waiter] = waiters.splice(index, 1);
      taken.add(mail);
      waiter!.resolve(mail);
    }
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          deliver({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            from: parsed.from?.text ?? '',
            replyTo: parsed.replyTo?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    messages,
    to: (address) => messages.filter((mail) => mail.to.includes(address.toLowerCase())),
    next(address, timeoutMs = 15_000) {
      const wanted = address.toLowerCase();
      const waiting = messages.find((mail) => !taken.has(mail) && mail.to.includes(wanted));
      if (waiting) {
        taken.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          address: wanted,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(
              `no email to ${address} within ${timeoutMs} ms (received: ${messages.map((m) => m.to.join(',')).join('; ') || 'none'})`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `config/plugins` for a node sending through `smtp` with the `nodemailer` provider. */
export function emailPlugin(smtp: TestSmtp, settings: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    config: {
      provider: 'nodemailer',
      providerOptions: { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true },
      settings: { defaultFrom: 'Vellum Tests <tests@vellum.test>', ...settings },
    },
  };
}

/** The code of a link in an email (`?code=...`, `?confirmation=...`). */
export function codeIn(mail: ReceivedMail, parameter: 'code' | 'confirmation'): string {
  const match = new RegExp(`[?&]${parameter}=([0-9a-f]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${parameter}= in: ${mail.text}`);
  return match[1]!;
}
