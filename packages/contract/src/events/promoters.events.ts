import { CommissionSchema, PayoutSchema } from '../promoters/ledger.schemas';
import { defineEvents } from './define-events';

export const promotersEvents = defineEvents({
  'promoters.commission.created': { payload: CommissionSchema, description: 'An attributed order was paid: a `pending` commission entry.' },
  'promoters.commission.approved': { payload: CommissionSchema, description: 'The entry\'s event ended and the refund window closed (or a reversal of a paid entry): `approved`, payable.' },
  'promoters.commission.reversed': { payload: CommissionSchema, description: 'A refund returned the order\'s money in full: the unpaid entry and its reversals are `reversed`.' },
  'promoters.payout.created': { payload: PayoutSchema, description: 'A payout included the promoter\'s approved entries.' },
  'promoters.payout.paid': { payload: PayoutSchema, description: 'The payout was paid (at once for `manual`; on Daraja\'s result for `mpesa_b2c`); its entries are `paid`.' },
  'promoters.payout.failed': { payload: PayoutSchema, description: 'Daraja refused or failed the payment; its entries are `approved` again.' },
});
