import type { ContentStatus } from '@svc/contract';
import { ApiError } from '../../../core/errors';

/**
 * Every move a content item may make, and from where. Anything else is `409 INVALID_STATE`, except publishing
 * something not approved, which the spec answers `422 INVALID_OPERATION` (see `approvals.service.ts`).
 */
export const TRANSITIONS = {
  edit: ['draft', 'changes_requested'],
  submit: ['draft', 'changes_requested'],
  approve: ['pending_review', 'changes_requested'],
  reject: ['pending_review', 'changes_requested'],
  request_changes: ['pending_review'],
  publish: ['approved'],
} as const satisfies Record<string, readonly ContentStatus[]>;
export type ContentAction = keyof typeof TRANSITIONS;

const DONE: Record<ContentAction, string> = {
  edit: 'edited',
  submit: 'submitted',
  approve: 'approved',
  reject: 'rejected',
  request_changes: 'sent back for changes',
  publish: 'published',
};

export function assertTransition(action: ContentAction, status: ContentStatus): void {
  if ((TRANSITIONS[action] as readonly ContentStatus[]).includes(status)) return;
  throw ApiError.of('INVALID_STATE', {
    message: `Content that is ${status} cannot be ${DONE[action]}.`,
  });
}
