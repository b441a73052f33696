/**
 * Reads the e-mails the server wrote to <data dir>/mail/ (the embedded default instead of SMTP)
 * and finds the verification link in them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function emlFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry);
    const stats = statSync(path);
    if (stats.isDirectory()) return emlFiles(path);
    return entry.endsWith('.eml') ? [path] : [];
  });
}

/** Undoes quoted-printable: soft line breaks and =XX escapes (=3D is '='). */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const VERIFY_LINK = /https?:\/\/[^\s"'<>]+\/authorization\/verify\?token=[^\s"'<>&]+/;

/** The verification link in the newest e-mail to `recipient`, waiting for it to arrive. */
export async function verificationLink(
  dataDir: string,
  recipient: string,
  timeoutMs = 15_000,
): Promise<string> {
  const mailDir = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const candidates = emlFiles(mailDir)
      .map((path) => ({ path, mtime: statSync(path).mtimeMs, text: decodeQuotedPrintable(readFileSync(path, 'utf8')) }))
      .filter((mail) => mail.text.toLowerCase().includes(recipient.toLowerCase()))
      .sort((a, b) => b.mtime - a.mtime);
    for (const mail of candidates) {
      const match = VERIFY_LINK.exec(mail.text);
      if (match) return match[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No verification e-mail to ${recipient} under ${mailDir} within ${timeoutMs} ms`);
}
