import { PaymentProviderError } from '../provider-errors';
import { DEFAULT_HTTP_OPTIONS, providerRequest, unavailable, type ProviderHttpOptions, type ProviderResponse } from '../provider-http';
import { darajaTimestamp, darajaTokens, DarajaTokenCache, securityCredential, stkPassword } from './daraja-auth';
import type { AsyncAccepted, B2cInput, DarajaSettings, ReversalInput, StkPushAccepted, StkPushInput, StkQueryResult, TransactionStatusInput } from './daraja-types';
import { normalizeMpesaPhone } from './mpesa-phone';
import { mpesaOutcome } from './mpesa-results';

/** Daraja's error body: `{requestId, errorCode, errorMessage}`. */
interface DarajaErrorBody {
  requestId?: string;
  errorCode?: string;
  errorMessage?: string;
}

const errorOf = (res: ProviderResponse): DarajaErrorBody => (res.json && typeof res.json === 'object' ? (res.json as DarajaErrorBody) : {});

/** Words by which Daraja refuses the credentials themselves (consumer key and secret, passkey, shortcode). */
const CREDENTIAL_WORDS = /invalid access token|wrong credentials|invalid credentials|invalid authentication|merchant does not exist/i;
/** Daraja's answer to a prompt while another holds the phone. */
const SUBSCRIBER_BUSY = /unable to lock subscriber|already in process/i;
/** STK Query's answers while the customer has not finished: an error body, or `ResultCode` 4999. */
const BEING_PROCESSED = /being processed|still under processing/i;

/**
 * Safaricom Daraja, the calls the payments product makes: OAuth (cached), STK push and query, reversal,
 * B2C and Transaction Status. Errors are `PaymentProviderError`s without any secret in them.
 */
export class DarajaClient {
  private readonly http: ProviderHttpOptions;
  private readonly tokens: DarajaTokenCache;
  private readonly tokenKey: string;
  private readonly base: string;

  constructor(private readonly settings: DarajaSettings) {
    this.http = { ...DEFAULT_HTTP_OPTIONS, ...settings.http };
    this.tokens = settings.tokens ?? darajaTokens;
    this.base = settings.baseUrl.replace(/\/+$/, '');
    this.tokenKey = DarajaTokenCache.keyOf(this.base, settings.consumerKey, settings.consumerSecret);
  }

  private get secrets() {
    const s = this.settings;
    return [s.consumerKey, s.consumerSecret, s.passkey, s.initiatorPassword ?? undefined];
  }

  /** An OAuth token, from the cache while it holds. Proves the consumer key and secret (verification). */
  accessToken(): Promise<string> {
    return this.tokens.get(this.tokenKey, () => this.fetchToken());
  }

  private async fetchToken(): Promise<{ token: string; expiresInSeconds: number }> {
    const basic = Buffer.from(`${this.settings.consumerKey}:${this.settings.consumerSecret}`).toString('base64');
    const res = await providerRequest(
      'mpesa',
      { method: 'GET', url: `${this.base}/oauth/v1/generate?grant_type=client_credentials`, headers: { authorization: `Basic ${basic}` }, idempotent: true },
      this.http,
      this.secrets,
    );
    const body = (res.json ?? {}) as { access_token?: string; expires_in?: string | number };
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      const said = errorOf(res).errorMessage ?? (res.json as { resultDesc?: string } | undefined)?.resultDesc ?? '';
      throw new PaymentProviderError('mpesa', 'credentials_refused', `Daraja refused the consumer key and secret (${res.status})${said ? `: ${said}` : '.'}`, res.status, errorOf(res).errorCode ?? null);
    }
    if (res.status >= 500 || res.status === 429) throw unavailable('mpesa', res, errorOf(res).errorMessage ?? '');
    if (res.status !== 200 || typeof body.access_token !== 'string' || !body.access_token) {
      throw new PaymentProviderError('mpesa', 'unavailable', `Daraja's token answer was not understood (${res.status}).`, res.status);
    }
    const expires = Number(body.expires_in);
    return { token: body.access_token, expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : 3599 };
  }

  /**
   * A POST with the bearer token. A token Daraja calls invalid before its time is dropped and fetched once
   * more; refused again, it is the credentials that are refused.
   */
  private async call(path: string, body: unknown, idempotent: boolean, retried = false): Promise<ProviderResponse> {
    const token = await this.accessToken();
    const res = await providerRequest(
      'mpesa',
      { method: 'POST', url: `${this.base}${path}`, headers: { authorization: `Bearer ${token}` }, body, idempotent, isAnswer: (r) => BEING_PROCESSED.test(errorOf(r).errorMessage ?? '') },
      this.http,
      [...this.secrets, token],
    );
    const err = errorOf(res);
    if (!retried && (err.errorCode === '404.001.03' || /invalid access token/i.test(err.errorMessage ?? ''))) {
      this.tokens.drop(this.tokenKey);
      return this.call(path, body, idempotent, true);
    }
    return res;
  }

  /** Reads a refusal: credentials, a busy subscriber, an outage, or a refusal of the request. */
  private failure(res: ProviderResponse, what: string): PaymentProviderError {
    const err = errorOf(res);
    const said = err.errorMessage ?? (res.json as { ResponseDescription?: string } | undefined)?.ResponseDescription ?? '';
    const code = err.errorCode ?? null;
    if (res.status === 401 || res.status === 403 || CREDENTIAL_WORDS.test(said)) {
      return new PaymentProviderError('mpesa', 'credentials_refused', `Daraja refused the credentials for ${what}: ${said || res.status}`, res.status, code);
    }
    if (SUBSCRIBER_BUSY.test(said)) return new PaymentProviderError('mpesa', 'rejected', `Daraja refused ${what}: ${said}`, res.status, 'subscriber_busy');
    if (res.status >= 500 || res.status === 429) return unavailable('mpesa', res, said);
    return new PaymentProviderError('mpesa', 'rejected', `Daraja refused ${what}: ${said || res.status}`, res.status, code);
  }

  private stkAuth() {
    const timestamp = darajaTimestamp(this.settings.now?.() ?? new Date());
    return { BusinessShortCode: this.settings.shortcode, Password: stkPassword(this.settings.shortcode, this.settings.passkey, timestamp), Timestamp: timestamp };
  }

  /** Sends the prompt to the phone. Tried once: a retry would prompt twice. */
  async stkPush(input: StkPushInput): Promise<StkPushAccepted> {
    const phone = normalizeMpesaPhone(input.phone);
    if (!phone) throw new PaymentProviderError('mpesa', 'rejected', 'The phone is not a Kenyan mobile number.', null, 'invalid_phone');
    if (!Number.isInteger(input.amountKes) || input.amountKes < 1) throw new RangeError('amountKes must be a whole number of shillings, at least 1');
    if (!/^[A-Za-z0-9]{1,12}$/.test(input.accountReference)) throw new RangeError('accountReference must be 1 to 12 letters or digits');
    const till = this.settings.shortcodeType === 'till';
    const res = await this.call(
      '/mpesa/stkpush/v1/processrequest',
      {
        ...this.stkAuth(),
        TransactionType: till ? 'CustomerBuyGoodsOnline' : 'CustomerPayBillOnline',
        Amount: input.amountKes,
        PartyA: phone,
        PartyB: till ? (this.settings.tillNumber ?? this.settings.shortcode) : this.settings.shortcode,
        PhoneNumber: phone,
        CallBackURL: input.callbackUrl,
        AccountReference: input.accountReference,
        TransactionDesc: input.description.slice(0, 13) || input.accountReference,
      },
      false,
    );
    const body = (res.json ?? {}) as { MerchantRequestID?: string; CheckoutRequestID?: string; ResponseCode?: string | number; CustomerMessage?: string };
    if (res.status !== 200 || String(body.ResponseCode) !== '0' || !body.CheckoutRequestID) throw this.failure(res, 'the STK push');
    return { merchantRequestId: body.MerchantRequestID ?? '', checkoutRequestId: body.CheckoutRequestID, customerMessage: body.CustomerMessage ?? '', phone };
  }

  /** Asks for the result of a prompt: this, not the callback, decides a payment. */
  async stkQuery(checkoutRequestId: string): Promise<StkQueryResult> {
    const res = await this.call('/mpesa/stkpushquery/v1/query', { ...this.stkAuth(), CheckoutRequestID: checkoutRequestId }, true);
    const said = errorOf(res).errorMessage ?? '';
    if (BEING_PROCESSED.test(said)) return { state: 'pending', description: said };
    const body = (res.json ?? {}) as { ResponseCode?: string | number; ResultCode?: string | number; ResultDesc?: string };
    if (res.status !== 200 || String(body.ResponseCode) !== '0' || body.ResultCode === undefined) throw this.failure(res, 'the STK query');
    const resultDesc = body.ResultDesc ?? '';
    const resultCode = Number(body.ResultCode);
    if (resultCode === 4999 || BEING_PROCESSED.test(resultDesc)) return { state: 'pending', description: resultDesc };
    return { state: 'final', resultCode, resultDesc, outcome: mpesaOutcome(body.ResultCode) };
  }

  private initiator(what: string): { name: string; credential: string } {
    const { initiatorName, initiatorPassword, securityCertificate } = this.settings;
    if (!initiatorName || !initiatorPassword) throw new PaymentProviderError('mpesa', 'not_configured', `${what} needs the initiator name and password.`);
    if (!securityCertificate) throw new PaymentProviderError('mpesa', 'not_configured', `${what} needs Safaricom's certificate (MPESA_SECURITY_CERTIFICATE).`);
    try {
      return { name: initiatorName, credential: securityCredential(initiatorPassword, securityCertificate) };
    } catch {
      throw new PaymentProviderError('mpesa', 'not_configured', `Safaricom's certificate could not seal the initiator password for ${what}.`);
    }
  }

  private async asyncRequest(path: string, body: Record<string, unknown>, what: string): Promise<AsyncAccepted> {
    const res = await this.call(path, body, false);
    const ack = (res.json ?? {}) as { ConversationID?: string; OriginatorConversationID?: string; ResponseCode?: string | number; ResponseDescription?: string };
    if (res.status !== 200 || String(ack.ResponseCode) !== '0' || !ack.ConversationID) throw this.failure(res, what);
    return { conversationId: ack.ConversationID, originatorConversationId: ack.OriginatorConversationID ?? '', responseDescription: ack.ResponseDescription ?? '' };
  }

  /** Reverses a payment by its receipt; the result comes to `resultUrl` (`parseDarajaResult`). */
  async reversal(input: ReversalInput): Promise<AsyncAccepted> {
    const initiator = this.initiator('A reversal');
    return this.asyncRequest(
      '/mpesa/reversal/v1/request',
      {
        Initiator: initiator.name,
        SecurityCredential: initiator.credential,
        CommandID: 'TransactionReversal',
        TransactionID: input.receipt,
        Amount: input.amountKes,
        ReceiverParty: this.settings.shortcode,
        // Daraja spells the field this way; `11` is an organization's shortcode.
        RecieverIdentifierType: '11',
        ResultURL: input.resultUrl,
        QueueTimeOutURL: input.timeoutUrl,
        Remarks: input.remarks.slice(0, 100),
        Occasion: input.occasion ?? '',
      },
      'the reversal',
    );
  }

  /** Pays a phone from the B2C shortcode; the result comes to `resultUrl`. */
  async b2cPayment(input: B2cInput): Promise<AsyncAccepted> {
    const phone = normalizeMpesaPhone(input.phone);
    if (!phone) throw new PaymentProviderError('mpesa', 'rejected', 'The phone is not a Kenyan mobile number.', null, 'invalid_phone');
    if (!this.settings.b2cShortcode) throw new PaymentProviderError('mpesa', 'not_configured', 'A B2C payment needs the B2C shortcode.');
    const initiator = this.initiator('A B2C payment');
    return this.asyncRequest(
      '/mpesa/b2c/v3/paymentrequest',
      {
        OriginatorConversationID: input.originatorConversationId,
        InitiatorName: initiator.name,
        SecurityCredential: initiator.credential,
        CommandID: input.commandId ?? 'BusinessPayment',
        Amount: input.amountKes,
        PartyA: this.settings.b2cShortcode,
        PartyB: phone,
        Remarks: input.remarks.slice(0, 100),
        QueueTimeOutURL: input.timeoutUrl,
        ResultURL: input.resultUrl,
        Occasion: input.occasion ?? '',
      },
      'the B2C payment',
    );
  }

  /** Asks for a transaction's status (its receipt, amount, reversal); the result comes to `resultUrl`. */
  async transactionStatus(input: TransactionStatusInput): Promise<AsyncAccepted> {
    const initiator = this.initiator('A Transaction Status query');
    return this.asyncRequest(
      '/mpesa/transactionstatus/v1/query',
      {
        Initiator: initiator.name,
        SecurityCredential: initiator.credential,
        CommandID: 'TransactionStatusQuery',
        ...('transactionId' in input ? { TransactionID: input.transactionId } : { OriginalConversationID: input.originalConversationId }),
        PartyA: this.settings.shortcode,
        // `4`: an organization's shortcode.
        IdentifierType: '4',
        ResultURL: input.resultUrl,
        QueueTimeOutURL: input.timeoutUrl,
        Remarks: input.remarks.slice(0, 100),
        Occasion: input.occasion ?? '',
      },
      'the Transaction Status query',
    );
  }
}
