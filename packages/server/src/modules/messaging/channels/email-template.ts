import type { OutgoingMessage } from './message-channel';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);

/** Links become buttons people can press: the whole URL stays visible beside it for clients that strip buttons. */
function paragraph(line: string): string {
  const parts = line.split(/(https?:\/\/[^\s<>"']+)/g);
  return parts
    .map((part, i) =>
      i % 2 === 1
        ? `<a href="${escapeHtml(part)}" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Open link</a>` +
          `<br><span style="font-size:12px;color:#666;word-break:break-all">${escapeHtml(part)}</span>`
        : escapeHtml(part),
    )
    .join('');
}

/** Every email has a plain-text part (the message's text) and an HTML part built from it in one layout. */
export function renderEmail(message: Pick<OutgoingMessage, 'subject' | 'body'>): { subject: string; text: string; html: string } {
  const subject = message.subject ?? message.body.split('\n')[0]!.slice(0, 120);
  const body = message.body
    .split(/\n+/)
    .filter((l) => l.trim() !== '')
    .map((l) => `<p style="margin:0 0 16px">${paragraph(l)}</p>`)
    .join('\n');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,sans-serif;color:#111">` +
    `<div style="max-width:32rem;margin:0 auto;background:#fff;border-radius:8px;padding:24px">` +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h1>\n${body}\n</div></body></html>`;
  return { subject, text: message.body, html };
}
