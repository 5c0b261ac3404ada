import { brandFooterText, escapeHtml, readableOn } from '../../../core/brand-page';
import type { OutgoingMessage } from './message-channel';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** Links become buttons people can press: the whole URL stays visible beside it for clients that strip buttons. */
function paragraph(line: string, button: { bg: string; fg: string }): string {
  const parts = line.split(/(https?:\/\/[^\s<>"']+)/g);
  return parts
    .map((part, i) =>
      i % 2 === 1
        ? `<a href="${escapeHtml(part)}" style="display:inline-block;padding:10px 18px;background:${button.bg};color:${button.fg};border-radius:6px;text-decoration:none">Open link</a>` +
          `<br><span style="font-size:12px;color:#666;word-break:break-all">${escapeHtml(part)}</span>`
        : escapeHtml(part),
    )
    .join('');
}

/**
 * Every email has a plain-text part (the message's text, and the brand's footer) and an HTML part built from
 * it in one layout, dressed in the brand the message was written with: its logo and name, its primary colour on
 * buttons, its support contact and legal links below. Everything written into the HTML is escaped.
 */
export function renderEmail(message: Pick<OutgoingMessage, 'subject' | 'body' | 'brand'>): { subject: string; text: string; html: string } {
  const brand = message.brand ?? null;
  const subject = message.subject ?? message.body.split('\n')[0]!.slice(0, 120);
  const primary = brand && HEX.test(brand.colors.primary) ? brand.colors.primary : '#111111';
  const button = { bg: primary, fg: readableOn(primary) };
  const body = message.body
    .split(/\n+/)
    .filter((l) => l.trim() !== '')
    .map((l) => `<p style="margin:0 0 16px">${paragraph(l, button)}</p>`)
    .join('\n');
  const logo = brand?.logo_url ? `<img src="${escapeHtml(brand.logo_url)}" alt="" style="height:32px;vertical-align:middle;margin-right:8px">` : '';
  const header = brand
    ? `<div style="background:${primary};color:${button.fg};padding:12px 24px;border-radius:8px 8px 0 0;font-weight:600">${logo}${escapeHtml(brand.display_name)}</div>`
    : '';
  const footerText = brand ? brandFooterText(brand) : '';
  const footer = footerText
    ? `<div style="max-width:32rem;margin:12px auto 0;font-size:12px;color:#666;text-align:center">${footerText.split('\n').map(escapeHtml).join('<br>')}</div>`
    : '';
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,sans-serif;color:#111"><div style="max-width:32rem;margin:0 auto">${header}` +
    `<div style="background:#fff;border-radius:${brand ? '0 0 8px 8px' : '8px'};padding:24px">` +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h1>\n${body}\n</div></div>${footer}</body></html>`;
  return { subject, text: footerText ? `${message.body}\n\n${footerText}` : message.body, html };
}

/** The From header: the brand's sender name before the deployment's own address. */
export function fromWithSender(from: string, brand: OutgoingMessage['brand']): string {
  const name = brand?.email_sender_name ?? brand?.display_name;
  if (!name) return from;
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
  return `"${name.replace(/["\\\r\n]/g, '')}" <${address}>`;
}
