/**
 * A Kenyan mobile number in any local form (`07…`, `01…`, `+2547…`, `2547…`, `+2541…`, `2541…`; spaces and
 * hyphens between digits allowed) as Daraja takes it, `2547XXXXXXXX` or `2541XXXXXXXX`; anything else is
 * `null`, for the caller to refuse with `422`.
 */
export function normalizeMpesaPhone(input: string): string | null {
  const compact = input.trim().replace(/[\s-]/g, '');
  const m = /^(?:\+?254|0)([17]\d{8})$/.exec(compact);
  return m ? `254${m[1]}` : null;
}

/** The last four digits: what a payment shows of the phone (`phone_hint`). */
export const mpesaPhoneHint = (phone: string) => phone.slice(-4);
