import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../../db/database';
import { writeMessage } from './messages.service';
import type { RecipientResolver } from './recipient-roles';

const BATCH = 100;

/**
 * Turns the notices other modules record for a role (`email_outbox`: a webhook endpoint disabled, for the
 * tenant's owners) into one email message per person, in the notice's environment, in one transaction with
 * marking the notice sent. A role nobody registered waits; rows other processes hold are skipped.
 */
export async function sendRoleNotices(db: Database, roles: ReadonlyMap<string, RecipientResolver>, log: Logger): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const notices = await trx
      .selectFrom('email_outbox')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('recipients', 'in', roles.size > 0 ? [...roles.keys()] : [''])
      .orderBy('created_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const notice of notices) {
      const scope = { tenantId: notice.tenant_id, livemode: notice.livemode };
      const data = (notice.data ?? {}) as Record<string, unknown>;
      const related = Object.values(data).filter((v): v is string => typeof v === 'string' && /^[a-z]+_[0-9a-z]{26}$/.test(v));
      const addresses = await roles.get(notice.recipients)!(trx, notice.tenant_id);
      for (const to of addresses) {
        await writeMessage(trx, scope, { channel: 'email', to, template: notice.template, subject: notice.subject, body: notice.body, related });
      }
      if (addresses.length === 0) log.warn({ notice: notice.id, recipients: notice.recipients }, 'a notice has nobody to go to');
      await trx.updateTable('email_outbox').set({ sent_at: sql<Date>`now()` }).where('id', '=', notice.id).execute();
    }
    return notices.length;
  });
}
