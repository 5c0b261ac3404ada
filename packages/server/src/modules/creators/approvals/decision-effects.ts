import type { Transaction } from 'kysely';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { ContentRow } from '../../../db/creators.schema';
import type { DB } from '../../../db/schema';
import { organizationOwnerContacts, writeMessage } from '../../identity';
import type { Actor } from '../creator-access';
import * as repo from '../contents/content-rows.service';
import { serializeContent } from '../contents/contents.serializer';

export type Decision = 'approved' | 'published' | 'rejected' | 'changes_requested';

const WORDS: Record<Decision, { subject: (title: string) => string; body: (title: string, note: string | null) => string }> = {
  approved: {
    subject: (t) => `"${t}" was approved`,
    body: (t, note) => `Your content "${t}" was approved and will be published.${note ? ` Note from the reviewer: ${note}` : ''}`,
  },
  published: { subject: (t) => `"${t}" is live`, body: (t) => `Your content "${t}" is now published on your capsule.` },
  rejected: { subject: (t) => `"${t}" was not approved`, body: (t, note) => `Your content "${t}" was rejected. Reason: ${note ?? ''}` },
  changes_requested: {
    subject: (t) => `Changes requested on "${t}"`,
    body: (t, note) => `The reviewer asked for changes to "${t}": ${note ?? ''} Edit it and submit it again.`,
  },
};

/**
 * What every review decision does with the state change, in its transaction: the history row with who decided,
 * a message to each owner of the creator organization (the outbox), and the webhook event.
 */
export async function recordDecision(
  trx: Transaction<DB>,
  scope: Scope,
  decision: Decision,
  before: ContentRow,
  after: ContentRow,
  actor: Actor,
  extra: { note?: string | null; items?: string[]; message?: boolean } = {},
) {
  await repo.insertApproval(trx, scope, {
    id: newId('content_approval'),
    content_id: after.id,
    action: decision,
    actor_type: actor.type,
    actor_id: actor.id,
    note: extra.note ?? null,
    items: extra.items ?? [],
  });
  if (extra.message !== false) {
    const owners = await organizationOwnerContacts(trx, scope.tenantId, after.organization_id);
    const words = WORDS[decision];
    for (const owner of owners) {
      const email = owner.email;
      await writeMessage(trx, scope, {
        channel: email ? 'email' : 'sms',
        to: (email ?? owner.phone)!,
        template: `content_${decision}`,
        subject: email ? words.subject(after.title) : null,
        body: words.body(after.title, extra.note ?? null),
        related: [after.id, after.organization_id, owner.id],
      });
    }
  }
  const content = serializeContent(after);
  await emitEvent(trx, scope, { type: `creators.content.${decision}`, subject: after.id, object: content, previousAttributes: { status: before.status } });
  return content;
}
