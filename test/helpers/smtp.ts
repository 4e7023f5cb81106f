/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) for the email tests: it keeps every
 * message it receives, raw, and can refuse recipients with a reply code.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** The raw message made readable: folded headers unfolded, quoted-printable decoded (as UTF-8). */
export function readable(raw: string): string {
  // Headers unfolded; the body's soft line breaks removed first, as a body line may start with a space.
  const split = raw.indexOf('\r\n\r\n');
  const [head, body] = split < 0 ? [raw, ''] : [raw.slice(0, split), raw.slice(split)];
  const bytes = `${head.replace(/\r\n[ \t]+/g, ' ')}${body.replace(/=\r\n/g, '').replace(/\r\n[ \t]+/g, ' ')}`.replace(
    /=([0-9A-F]{2})/g,
    (_, h: string) => String.fromCharCode(parseInt(h, 16)),
  );
  // Quoted-printable stands for UTF-8 bytes: read them as such.
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A header of a readable message, or null. */
export const header = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(text)?.[1].trim() ?? null;

/** A header of a raw message with its RFC 2047 encoded words (`=?UTF-8?Q?Jos=C3=A9?=`, as nodemailer writes non-ASCII) decoded, or null. */
export function decodedHeader(raw: string, name: string): string | null {
  const value = header(raw.split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' '), name);
  if (value === null) return null;
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

export async function startSmtp(reply: (rcpt: string) => { code: number; message: string } | null = () => null) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      const r = reply(address.address);
      if (!r) return cb();
      cb(Object.assign(new Error(r.message), { responseCode: r.code }));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: String((session.envelope.mailFrom as { address: string }).address),
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
