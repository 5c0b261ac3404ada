import { describe, expect, it } from 'vitest';
import { neutralBrand } from '../../../core/branding';
import { fromWithSender, renderEmail } from './email-template';

const brand = {
  ...neutralBrand('<script>alert(1)</script> Tickets'),
  logo_url: 'https://cdn.acme.example/logo.png?a=1&b="2"',
  colors: { primary: '#ffe066', accent: '#2563eb', background: '#ffffff', text: '#111111' },
  support_email: 'help@acme.example',
  legal: { terms_url: 'https://acme.example/terms', privacy_url: null, refund_policy_url: null },
  footer_text: 'Acme <Events> Ltd',
  email_sender_name: 'Acme "Tickets"',
};

describe('renderEmail', () => {
  it('dresses the email in the brand, every value escaped', () => {
    const { html, text, subject } = renderEmail({ subject: 'Sign in', body: 'Sign in: https://t.example/x?token=1', brand });
    expect(subject).toBe('Sign in');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Tickets');
    expect(html).not.toContain('<script>');
    expect(html).toContain('src="https://cdn.acme.example/logo.png?a=1&amp;b=&quot;2&quot;"');
    // A light primary colour takes dark text.
    expect(html).toContain('background:#ffe066;color:#111111');
    expect(html).toContain('Acme &lt;Events&gt; Ltd');
    expect(text).toContain('Help: help@acme.example');
    expect(text).toContain('Terms: https://acme.example/terms');
  });

  it('is neutral without a brand', () => {
    const { html, text } = renderEmail({ subject: null, body: 'Hello there https://t.example/a', brand: null });
    expect(html).toContain('background:#111111;color:#ffffff');
    expect(html).not.toContain('brand');
    expect(text).toBe('Hello there https://t.example/a');
  });

  it('names the sender after the brand, keeping the deployment\'s address', () => {
    expect(fromWithSender('Notifications <no-reply@svc.example>', brand)).toBe('"Acme Tickets" <no-reply@svc.example>');
    expect(fromWithSender('no-reply@svc.example', neutralBrand('Beta'))).toBe('"Beta" <no-reply@svc.example>');
    expect(fromWithSender('no-reply@svc.example', null)).toBe('no-reply@svc.example');
  });
});
