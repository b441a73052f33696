/**
 * Reads the e-mails in <data dir>/mail/ and finds the verification or password-reset link in
 * them: the `.eml` files the server writes there (the embedded default instead of SMTP), or the
 * messages an SMTP catcher keeps there as a Maildir (aiosmtpd's Mailbox handler: one file per
 * message under new/ or cur/, without an extension; tmp/ holds messages still being written).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/** A Maildir's folders of delivered messages. */
const MAILDIR_FOLDERS = ['new', 'cur'];

function messageFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry);
    const stats = statSync(path);
    if (stats.isDirectory()) return messageFiles(path);
    if (entry.endsWith('.eml')) return [path];
    return MAILDIR_FOLDERS.includes(basename(dir)) && !entry.startsWith('.') ? [path] : [];
  });
}

/** Undoes quoted-printable: soft line breaks and =XX escapes (=3D is '='). */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const VERIFY_LINK = /https?:\/\/[^\s"'<>]+\/authorization\/verify\?token=[^\s"'<>&]+/;
const RESET_LINK = /https?:\/\/[^\s"'<>]+\/reset-password#token=[^\s"'<>&]+/;
const DATA_EXPORT_LINK = /https?:\/\/[^\s"'<>]+\/data-exports\/[^\s"'<>&]+/;

/**
 * The first `pattern` match in the newest e-mail to `recipient` that has one, waiting for it to
 * arrive. `newerThan` (ms since the epoch) skips e-mails written before it.
 */
async function linkInMail(
  dataDir: string,
  recipient: string,
  pattern: RegExp,
  what: string,
  { timeoutMs = 15_000, newerThan = 0 }: { timeoutMs?: number; newerThan?: number } = {},
): Promise<string> {
  const mailDir = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const candidates = messageFiles(mailDir)
      .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
      .filter((mail) => mail.mtime >= newerThan)
      .map((mail) => ({ ...mail, text: decodeQuotedPrintable(readFileSync(mail.path, 'utf8')) }))
      .filter((mail) => mail.text.toLowerCase().includes(recipient.toLowerCase()))
      .sort((a, b) => b.mtime - a.mtime);
    for (const mail of candidates) {
      const match = pattern.exec(mail.text);
      if (match) return match[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No ${what} e-mail to ${recipient} under ${mailDir} within ${timeoutMs} ms`);
}

/** The verification link in the newest e-mail to `recipient`, waiting for it to arrive. */
export function verificationLink(dataDir: string, recipient: string, timeoutMs = 15_000): Promise<string> {
  return linkInMail(dataDir, recipient, VERIFY_LINK, 'verification', { timeoutMs });
}

/**
 * The password-reset link (`…/app/reset-password#token=…`) in the newest e-mail to `recipient`
 * written since `newerThan`, waiting for it: the server sends it after answering.
 */
export function passwordResetLink(dataDir: string, recipient: string, newerThan = 0): Promise<string> {
  return linkInMail(dataDir, recipient, RESET_LINK, 'password-reset', { newerThan });
}

/**
 * The link of the archive of one's data ("Download my data") in the newest e-mail to
 * `recipient` written since `newerThan`, waiting for it: the job sends it once the zip is stored.
 */
export function dataExportLink(dataDir: string, recipient: string, newerThan = 0): Promise<string> {
  return linkInMail(dataDir, recipient, DATA_EXPORT_LINK, 'data export', { timeoutMs: 30_000, newerThan });
}
