import type { Receipt } from './receipts';

/** Delivery report statuses that end a message; `Sent`, `Submitted` and `Buffered` are on the way. */
const FAILED = new Set(['Failed', 'Rejected', 'AbsentSubscriber', 'Expired']);

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();

/** A failure reason as the message's `error_code`: `UserInBlackList` → `recipient_blacklisted`, the others in snake case. */
function errorCodeOf(reason: string, status: string): string {
  if (/blacklist/i.test(reason)) return 'recipient_blacklisted';
  if (/absent/i.test(reason || status)) return 'absent_subscriber';
  return snake(reason || status) || 'undeliverable';
}

/**
 * Africa's Talking's delivery report (a form POST: `id`, `status`, `phoneNumber`, `networkCode`,
 * `failureReason`, `retryCount`). Answers the receipt, `null` for an intermediate status, or a reason the
 * body is not a report.
 */
export function readAfricasTalkingReport(fields: Record<string, unknown>, at: Date): Receipt | null | { invalid: string } {
  const id = typeof fields.id === 'string' ? fields.id : '';
  const status = typeof fields.status === 'string' ? fields.status : '';
  if (!id || !status) return { invalid: 'A delivery report carries `id` and `status`.' };
  if (status === 'Success') return { provider: 'africastalking', providerId: id, outcome: 'delivered', at };
  if (FAILED.has(status)) {
    const reason = typeof fields.failureReason === 'string' ? fields.failureReason : '';
    return { provider: 'africastalking', providerId: id, outcome: 'failed', errorCode: errorCodeOf(reason, status), at };
  }
  return null;
}
