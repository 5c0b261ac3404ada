import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { FakeProvider, type FakeAnswer, type RecordedRequest } from './fake-provider';
import * as d from './daraja-fake-bodies';

export * from './daraja-fake-bodies';

/** One STK prompt as the fake keeps it. */
export interface FakeStk {
  merchantRequestId: string;
  checkoutRequestId: string;
  phone: string;
  amountKes: number;
  accountReference: string;
  callbackUrl: string;
  /** `null` while the customer has not answered. */
  result: { resultCode: number; resultDesc: string } | null;
  receipt: string | null;
}

type Body = Record<string, unknown>;

let sharedPair: { publicKey: KeyObject; privateKey: KeyObject } | undefined;

/**
 * A local Safaricom Daraja: OAuth, STK push (then the callback to `CallBackURL` after `callbackDelayMs`,
 * outcome by the magic phones), STK Query, reversal, B2C (v3) and Transaction Status (results to
 * `ResultURL`). It checks what Daraja checks: the token, the STK password and its Nairobi timestamp, the
 * phone, and the initiator's `SecurityCredential` against its own certificate (`certificatePem`).
 */
export class DarajaFake extends FakeProvider {
  readonly stk = new Map<string, FakeStk>();
  /** Receipts of paid prompts, for reversals and Transaction Status. */
  readonly receipts = new Map<string, FakeStk>();
  readonly apps = new Map([[d.DARAJA_CONSUMER_KEY, d.DARAJA_CONSUMER_SECRET]]);
  readonly passkeys = new Map([[d.DARAJA_SHORTCODE, d.DARAJA_PASSKEY]]);
  /** Reversals by their `OriginatorConversationID`, for Transaction Status: the reversal's own receipt and result. */
  readonly reversals = new Map<string, { transactionId: string; resultCode: number | string; amountKes: number }>();
  /** While true, reversal results are never posted (lost on the way); Transaction Status still finds them. */
  loseReversalResults = false;
  /** B2C payments by their `OriginatorConversationID`: what was paid, to whom, and the result. */
  readonly b2cPayments = new Map<string, { transactionId: string; resultCode: number | string; amountKes: number; phone: string; commandId: string; partyA: string }>();
  /** While true, B2C results are never posted (lost on the way); Transaction Status still finds them. */
  loseB2cResults = false;
  /** While true, a B2C request is carried out but answered `503` (a gateway timeout after Daraja took it). */
  b2cAnswersUnavailable = false;
  /** While true, OAuth refuses every app (a revoked key). */
  refuseCredentials = false;
  /** Seconds a token lives (`expires_in`). */
  tokenTtlSeconds = 3599;
  /** Daraja refuses a second prompt to a phone whose first is unanswered; off by default, as tests reuse phones. */
  busyWhilePending = false;
  readonly certificatePem: string;
  private readonly privateKey: KeyObject;
  private readonly tokens = new Map<string, number>();

  constructor() {
    super();
    // One key for every fake of the process: making one takes a second or more on a loaded machine.
    const pair = (sharedPair ??= generateKeyPairSync('rsa', { modulusLength: 2048 }));
    this.privateKey = pair.privateKey;
    this.certificatePem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    Object.assign(this.controls, {
      'refuse-credentials': (b: Body) => void (this.refuseCredentials = b.on !== false),
      'expire-tokens': () => this.expireTokens(),
      settle: (b: Body) => this.settle(String(b.checkout_request_id), Number(b.result_code ?? 0)),
      repeat: (b: Body) => this.repeatCallback(String(b.checkout_request_id)),
    });
  }

  /** Every token issued so far stops working (Daraja answers `404.001.03`). */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** The customer answers a prompt now (a `never` phone, or a test deciding the outcome). */
  settle(checkoutRequestId: string, resultCode: number, resultDesc = resultCode === 0 ? d.SUCCESS.resultDesc : 'Request cancelled by user'): void {
    const p = this.stk.get(checkoutRequestId);
    if (!p) throw new Error(`no prompt ${checkoutRequestId}`);
    this.finish(p, { resultCode, resultDesc });
  }

  /** Posts a prompt's callback again, as Daraja does when it retries. */
  repeatCallback(checkoutRequestId: string): void {
    const p = this.stk.get(checkoutRequestId);
    if (!p?.result) throw new Error(`no result for ${checkoutRequestId}`);
    this.callback(p.callbackUrl, JSON.stringify(this.callbackOf(p)));
  }

  protected route(req: RecordedRequest): FakeAnswer {
    if (req.method === 'GET' && req.path === '/oauth/v1/generate') return this.oauth(req);
    if (req.method !== 'POST') return d.darajaError(404, '404.001.01', 'Resource not found');
    if (!((this.tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, '')) ?? 0) > Date.now())) return d.darajaError(404, '404.001.03', 'Invalid Access Token');
    const body = (req.json ?? {}) as Body;
    switch (req.path) {
      case '/mpesa/stkpush/v1/processrequest':
        return this.push(body);
      case '/mpesa/stkpushquery/v1/query':
        return this.query(body);
      case '/mpesa/reversal/v1/request':
        return this.reversal(body);
      case '/mpesa/b2c/v3/paymentrequest':
      case '/mpesa/b2c/v1/paymentrequest':
        return this.b2c(body, req.path.includes('/v3/'));
      case '/mpesa/transactionstatus/v1/query':
        return this.status(body);
      default:
        return d.darajaError(404, '404.001.01', 'Resource not found');
    }
  }

  private oauth(req: RecordedRequest): FakeAnswer {
    if (req.query.get('grant_type') !== 'client_credentials') return d.darajaError(400, '400.008.02', 'Invalid grant type passed');
    const [key, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    if (this.refuseCredentials || !key || this.apps.get(key) !== secret) return d.darajaError(400, '400.008.01', 'Invalid Authentication passed');
    const token = randomBytes(21).toString('base64url');
    this.tokens.set(token, Date.now() + this.tokenTtlSeconds * 1000);
    return { status: 200, body: { access_token: token, expires_in: String(this.tokenTtlSeconds) } };
  }

  /** The STK password and its timestamp, which must be Nairobi time within ten minutes of now. */
  private badStkAuth(body: Body): FakeAnswer | null {
    const shortcode = String(body.BusinessShortCode ?? '');
    const passkey = this.passkeys.get(shortcode);
    if (!passkey) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid BusinessShortCode');
    const ts = String(body.Timestamp ?? '');
    if (!(Math.abs(d.parseNairobi(ts) - Date.now()) < 600_000)) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid Timestamp');
    if (body.Password !== Buffer.from(shortcode + passkey + ts).toString('base64')) return d.darajaError(500, '500.001.1001', 'Wrong credentials');
    return null;
  }

  private push(body: Body): FakeAnswer {
    const bad = this.badStkAuth(body);
    if (bad) return bad;
    const phone = String(body.PhoneNumber ?? '');
    if (!/^254[17]\d{8}$/.test(phone) || body.PartyA !== phone) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid PhoneNumber');
    const amount = Number(body.Amount);
    if (!Number.isInteger(amount) || amount < 1) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid Amount');
    const buyGoods = body.TransactionType === 'CustomerBuyGoodsOnline';
    if (!buyGoods && body.TransactionType !== 'CustomerPayBillOnline') return d.darajaError(400, '400.002.02', 'Bad Request - Invalid TransactionType');
    if (!buyGoods && body.PartyB !== body.BusinessShortCode) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid PartyB');
    if (!/^https?:\/\//.test(String(body.CallBackURL ?? ''))) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid CallBackURL');
    if (String(body.TransactionDesc ?? '').length > 13 || String(body.AccountReference ?? '').length > 12) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid AccountReference');
    if (this.busyWhilePending && [...this.stk.values()].some((p) => p.phone === phone && !p.result)) {
      return d.darajaError(500, '500.001.1001', 'Unable to lock subscriber, a transaction is already in process for the current subscriber');
    }
    const id = d.nextId();
    const p: FakeStk = {
      merchantRequestId: `${id.slice(-5)}-${id}-1`,
      checkoutRequestId: `ws_CO_${d.nairobiNow().slice(4)}${id}`,
      phone,
      amountKes: amount,
      accountReference: String(body.AccountReference),
      callbackUrl: String(body.CallBackURL),
      result: null,
      receipt: null,
    };
    this.stk.set(p.checkoutRequestId, p);
    const outcome = d.DARAJA_MAGIC[phone] ?? d.SUCCESS;
    if (outcome !== 'never') this.later(this.callbackDelayMs, () => this.finish(p, outcome));
    const accepted = 'Success. Request accepted for processing';
    return { status: 200, body: { MerchantRequestID: p.merchantRequestId, CheckoutRequestID: p.checkoutRequestId, ResponseCode: '0', ResponseDescription: accepted, CustomerMessage: accepted } };
  }

  private finish(p: FakeStk, result: { resultCode: number; resultDesc: string }): void {
    if (p.result) return;
    p.result = result;
    if (result.resultCode === 0) {
      p.receipt = d.newReceipt();
      this.receipts.set(p.receipt, p);
    }
    this.callback(p.callbackUrl, JSON.stringify(this.callbackOf(p)));
  }

  private callbackOf(p: FakeStk) {
    return d.stkCallbackBody({ ...p, ...p.result!, receipt: p.receipt ?? undefined });
  }

  private query(body: Body): FakeAnswer {
    const bad = this.badStkAuth(body);
    if (bad) return bad;
    const p = this.stk.get(String(body.CheckoutRequestID ?? ''));
    if (!p) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid CheckoutRequestID');
    if (!p.result) return d.darajaError(500, '500.001.1001', 'The transaction is being processed');
    return {
      status: 200,
      body: {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: p.merchantRequestId,
        CheckoutRequestID: p.checkoutRequestId,
        ResultCode: String(p.result.resultCode),
        ResultDesc: p.result.resultDesc,
      },
    };
  }

  /** The initiator and its sealed password; a wrong one fails in the result, as Daraja does it. */
  private initiatorOk(body: Body): boolean {
    const name = body.Initiator ?? body.InitiatorName;
    return name === d.DARAJA_INITIATOR && d.openSecurityCredential(String(body.SecurityCredential ?? ''), this.privateKey) === d.DARAJA_INITIATOR_PASSWORD;
  }

  private acknowledge(body: Body, result: (ids: { originatorConversationId: string; conversationId: string }) => Parameters<typeof d.resultBody>[0] | null, hold = false): FakeAnswer {
    if (!/^https?:\/\//.test(String(body.ResultURL ?? '')) || !/^https?:\/\//.test(String(body.QueueTimeOutURL ?? ''))) {
      return d.darajaError(400, '400.002.02', 'Bad Request - Invalid ResultURL');
    }
    const id = d.nextId();
    const ids = { originatorConversationId: String(body.OriginatorConversationID ?? `${id.slice(-5)}-${id}-1`), conversationId: `AG_${d.nairobiNow().slice(0, 8)}_${id}` };
    const bodyOf = result(ids);
    if (bodyOf) this.later(this.callbackDelayMs, () => this.callback(String(body.ResultURL), JSON.stringify(d.resultBody(bodyOf)), {}, hold));
    return { status: 200, body: { OriginatorConversationID: ids.originatorConversationId, ConversationID: ids.conversationId, ResponseCode: '0', ResponseDescription: 'Accept the service request successfully.' } };
  }

  private reversal(body: Body): FakeAnswer {
    const paid = this.receipts.get(String(body.TransactionID ?? ''));
    const timeoutUrl = String(body.QueueTimeOutURL);
    return this.acknowledge(
      body,
      (ids) => {
        const base = { ...ids, timeoutUrl, transactionId: d.newReceipt() };
        const outcome = (() => {
          if (!this.initiatorOk(body)) return { ...base, resultCode: 2001, resultDesc: 'The initiator information is invalid.' };
          if (!paid || Number(body.Amount) > paid.amountKes) return { ...base, resultCode: 'R000002', resultDesc: 'The OriginalTransactionID is invalid.' };
          if (paid.phone === d.REVERSAL_FAILS_PHONE) return { ...base, resultCode: 1, resultDesc: 'The balance is insufficient for the transaction.' };
          const parameters = { DebitAccountBalance: 'Utility Account|KES|0.00', Amount: Number(body.Amount), TransCompletedTime: Number(d.nairobiNow()), OriginalTransactionID: paid.receipt!, Charge: 0, CreditPartyPublicName: `${paid.phone} - Customer`, DebitPartyPublicName: `${d.DARAJA_SHORTCODE} - Svc` };
          return { ...base, resultCode: 0, resultDesc: 'The service request is processed successfully.', parameters };
        })();
        this.reversals.set(ids.originatorConversationId, { transactionId: base.transactionId, resultCode: outcome.resultCode, amountKes: Number(body.Amount) });
        return this.loseReversalResults ? null : outcome;
      },
      paid?.phone === d.REVERSAL_HELD_PHONE,
    );
  }

  /**
   * Daraja's B2C: `BusinessPayment` (or salary, promotion) of whole shillings from the B2C shortcode to a
   * Kenyan phone; v3 takes the caller's `OriginatorConversationID` and refuses one it has seen. The result
   * goes to `ResultURL`: `2001` for a wrong initiator, `1` for the failing phone, else paid with a receipt.
   */
  private b2c(body: Body, v3: boolean): FakeAnswer {
    if (v3 && !body.OriginatorConversationID) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid OriginatorConversationID');
    if (v3 && this.b2cPayments.has(String(body.OriginatorConversationID))) return d.darajaError(409, '409.001.01', 'Duplicate OriginatorConversationID');
    const phone = String(body.PartyB ?? '');
    if (!/^254[17]\d{8}$/.test(phone)) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid PartyB');
    if (String(body.PartyA ?? '') !== d.DARAJA_B2C_SHORTCODE) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid PartyA');
    const commandId = String(body.CommandID ?? '');
    if (!['BusinessPayment', 'SalaryPayment', 'PromotionPayment'].includes(commandId)) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid CommandID');
    const amount = Number(body.Amount);
    if (!Number.isInteger(amount) || amount < 10) return d.darajaError(400, '400.002.02', 'Bad Request - Invalid Amount');
    const answer = this.acknowledge(body, (ids) => {
      const base = { ...ids, timeoutUrl: String(body.QueueTimeOutURL), transactionId: d.newReceipt() };
      const outcome = (() => {
        if (!this.initiatorOk(body)) return { ...base, resultCode: 2001, resultDesc: 'The initiator information is invalid.' };
        if (phone === d.REVERSAL_FAILS_PHONE) return { ...base, resultCode: 1, resultDesc: 'The balance is insufficient for the transaction.' };
        const parameters = { TransactionAmount: amount, TransactionReceipt: base.transactionId, B2CRecipientIsRegisteredCustomer: 'Y', ReceiverPartyPublicName: `${phone} - Customer`, TransactionCompletedDateTime: new Date().toISOString() };
        return { ...base, resultCode: 0, resultDesc: 'The service request is processed successfully.', parameters };
      })();
      this.b2cPayments.set(ids.originatorConversationId, { transactionId: base.transactionId, resultCode: outcome.resultCode, amountKes: amount, phone, commandId, partyA: String(body.PartyA) });
      return this.loseB2cResults ? null : outcome;
    });
    return this.b2cAnswersUnavailable ? d.darajaError(503, '503.001.01', 'Service Unavailable') : answer;
  }

  /**
   * By receipt, or by `OriginalConversationID`: a reversal's or B2C payment's originator id (only a completed
   * one is found), or an STK prompt's CheckoutRequestID.
   */
  private status(body: Body): FakeAnswer {
    const original = String(body.OriginalConversationID ?? '');
    const reversal = body.TransactionID ? undefined : this.reversals.get(original);
    const b2c = body.TransactionID ? undefined : this.b2cPayments.get(original);
    const p = body.TransactionID ? this.receipts.get(String(body.TransactionID)) : this.stk.get(original);
    return this.acknowledge(body, (ids) => {
      const base = { ...ids, timeoutUrl: String(body.QueueTimeOutURL), transactionId: p?.receipt ?? reversal?.transactionId ?? '' };
      if (!this.initiatorOk(body)) return { ...base, resultCode: 2001, resultDesc: 'The initiator information is invalid.' };
      if (reversal?.resultCode === 0) {
        const parameters = { ReceiptNo: reversal.transactionId, 'Conversation ID': ids.conversationId, Amount: reversal.amountKes, TransactionStatus: 'Completed', ReasonType: 'Reversal', FinalisedTime: Number(d.nairobiNow()), DebitPartyName: `${d.DARAJA_SHORTCODE} - Svc` };
        return { ...base, resultCode: 0, resultDesc: 'The service request is processed successfully.', parameters };
      }
      if (b2c?.resultCode === 0) {
        const parameters = { ReceiptNo: b2c.transactionId, 'Conversation ID': ids.conversationId, Amount: b2c.amountKes, TransactionStatus: 'Completed', ReasonType: 'Business Payment to Customer via API', FinalisedTime: Number(d.nairobiNow()), DebitPartyName: `${b2c.partyA} - Svc`, CreditPartyName: `${b2c.phone} - Customer` };
        return { ...base, transactionId: b2c.transactionId, resultCode: 0, resultDesc: 'The service request is processed successfully.', parameters };
      }
      if (!p?.receipt) return { ...base, resultCode: 'R000002', resultDesc: 'The OriginalTransactionID is invalid.' };
      const parameters = { ReceiptNo: p.receipt, 'Conversation ID': ids.conversationId, Amount: p.amountKes, TransactionStatus: 'Completed', FinalisedTime: Number(d.nairobiNow()), DebitPartyName: `${p.phone} - Customer`, CreditPartyName: `${d.DARAJA_SHORTCODE} - Svc` };
      return { ...base, resultCode: 0, resultDesc: 'The service request is processed successfully.', parameters };
    });
  }
}
