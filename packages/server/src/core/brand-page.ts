import { randomBytes } from 'node:crypto';
import type { EffectiveBranding } from '@svc/contract';

/** Everything written into HTML passes here: a brand named `<script>` is text. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);

const HEX = /^#[0-9a-fA-F]{6}$/;
const color = (value: string, fallback: string) => (HEX.test(value) ? value : fallback);

function luminance(hex: string): number {
  const c = (i: number) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5);
}
/** White or near-black, whichever reads better on `background`. */
export const readableOn = (background: string) => (luminance(background) > 0.179 ? '#111111' : '#ffffff');

/** A page's brand parts: its style (behind a nonce), header, footer and the CSP sources its images need. */
export interface BrandedPage {
  nonce: string;
  style: string;
  header: string;
  footer: string;
  /** For `Content-Security-Policy`: `style-src` and `img-src` additions. */
  styleSrc: string;
  imgSrc: string;
}

const originOf = (url: string | null) => {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
};

/** The brand as a page shows it: CSS variables from its colours, its logo and name, its support and legal links. */
export function brandedPage(brand: EffectiveBranding): BrandedPage {
  const nonce = randomBytes(16).toString('base64');
  const primary = color(brand.colors.primary, '#1f2937');
  const c = { primary, accent: color(brand.colors.accent, '#2563eb'), background: color(brand.colors.background, '#f6f6f4'), text: color(brand.colors.text, '#111111') };
  const style = `<style nonce="${nonce}">:root{--brand-primary:${c.primary};--brand-on-primary:${readableOn(c.primary)};--brand-accent:${c.accent};--brand-background:${c.background};--brand-text:${c.text}}
body{background:var(--brand-background);color:var(--brand-text)}.brand{display:flex;align-items:center;gap:.6rem;padding:.8rem 1.2rem;background:var(--brand-primary);color:var(--brand-on-primary)}
.brand img{height:2rem;width:auto}.brand strong{font-size:1.1rem}button{background:var(--brand-primary);color:var(--brand-on-primary);border:0;border-radius:.3rem}
a{color:var(--brand-accent)}.brand-footer{max-width:28rem;margin:1rem auto 2rem;font-size:.8rem;color:var(--brand-text);opacity:.8;text-align:center}.brand-footer a{margin:0 .3rem}</style>`;
  const logo = brand.logo_url ? `<img id="brand-logo" src="${escapeHtml(brand.logo_url)}" alt="">` : '';
  const header = `<header class="brand" id="brand">${logo}<strong id="brand-name">${escapeHtml(brand.display_name)}</strong></header>`;
  const links = [
    brand.support_email ? `<a href="mailto:${escapeHtml(brand.support_email)}">${escapeHtml(brand.support_email)}</a>` : '',
    brand.support_phone ? `<a href="tel:${escapeHtml(brand.support_phone)}">${escapeHtml(brand.support_phone)}</a>` : '',
    brand.support_url ? `<a href="${escapeHtml(brand.support_url)}">Help</a>` : '',
    brand.legal.terms_url ? `<a href="${escapeHtml(brand.legal.terms_url)}">Terms</a>` : '',
    brand.legal.privacy_url ? `<a href="${escapeHtml(brand.legal.privacy_url)}">Privacy</a>` : '',
    brand.legal.refund_policy_url ? `<a href="${escapeHtml(brand.legal.refund_policy_url)}">Refunds</a>` : '',
  ].filter(Boolean);
  const text = brand.footer_text ? `<p>${escapeHtml(brand.footer_text)}</p>` : '';
  const footer = `<footer class="brand-footer" id="brand-footer">${text}${links.length ? `<p>${links.join(' · ')}</p>` : ''}</footer>`;
  const images = [...new Set([originOf(brand.logo_url), originOf(brand.icon_url)].filter((o): o is string => o !== null))];
  return { nonce, style, header, footer, styleSrc: `'nonce-${nonce}'`, imgSrc: images.join(' ') };
}

/** The email and message footer lines in plain text: support contact and legal links. */
export function brandFooterText(brand: EffectiveBranding): string {
  const support = [brand.support_email, brand.support_phone, brand.support_url].filter(Boolean).join(' · ');
  const legal = [brand.legal.terms_url && `Terms: ${brand.legal.terms_url}`, brand.legal.privacy_url && `Privacy: ${brand.legal.privacy_url}`].filter(Boolean).join(' · ');
  return [brand.footer_text, support && `Help: ${support}`, legal].filter(Boolean).join('\n');
}
