import { VideoNetworkRejection, type CreatedLiveInput, type ReplacedLiveInput } from '../video-network';
import { ProviderNotFound, type ProviderApi } from './provider-api';
import { videoStatus, type ProviderLiveInput, type ProviderVideo } from './provider-types';

/** Days after a broadcast that a kept stream's recordings are deleted (the account's rule, in the spec). */
export const RECORDING_RETENTION_DAYS = 30;

/** What the live-input lifecycle needs of its account's network. */
export interface LiveInputsContext {
  api: ProviderApi;
  /** The service's reference of an account object. */
  ref: (providerId: string) => string;
  /** Schedules the deletion of a deleted input's recordings (`videoRefs`) `afterSeconds` from now. */
  onInputDeleted?: (videoRefs: string[], afterSeconds: number) => Promise<void>;
}

type Output = { uid: string; url: string; streamKey: string; enabled?: boolean };

const list = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

/** The stream's ingest from the account's live input: RTMPS and SRT, WHIP where offered, no backup RTMP. */
export function liveInputResult(ctx: LiveInputsContext, input: ProviderLiveInput): CreatedLiveInput {
  const srt = input.srt?.url && input.srt.streamId ? `${input.srt.url}?streamid=${input.srt.streamId}` : null;
  return {
    providerRef: ctx.ref(input.uid),
    streamKey: input.rtmps.streamKey,
    srtPassphrase: srt ? (input.srt?.passphrase ?? null) : null,
    ingest: {
      rtmp_url: input.rtmps.url.replace(/\/+$/, ''),
      rtmp_backup_url: null,
      srt_url: srt,
      whip_url: input.webRTC?.url ?? null,
    },
  };
}

async function orNothing<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ProviderNotFound) return undefined;
    throw err;
  }
}

/** The input and the ones it replaced (key resets), as far as the account still has them. */
async function lineage(ctx: LiveInputsContext, uid: string): Promise<ProviderLiveInput[]> {
  const input = await orNothing(ctx.api.account<ProviderLiveInput>('GET', `/stream/live_inputs/${uid}`));
  if (!input) return [];
  return [input, ...list(input.meta?.previousInputs).map((id) => ({ uid: id }) as ProviderLiveInput)];
}

/**
 * Deletes the input (and those it replaced); their recordings, which the account keeps, go one reconnect
 * window plus a minute later (a broadcast cut short still ends its recording meanwhile).
 */
export async function deleteLiveInputs(ctx: LiveInputsContext, uid: string): Promise<void> {
  const inputs = await lineage(ctx, uid);
  if (inputs.length === 0) return;
  const refs: string[] = [];
  for (const input of inputs) {
    const videos = await orNothing(ctx.api.account<ProviderVideo[]>('GET', `/stream/live_inputs/${input.uid}/videos`));
    refs.push(...list(videos).map((v) => ctx.ref(v.uid)));
    await ctx.api.account('DELETE', `/stream/live_inputs/${input.uid}`);
  }
  if (refs.length > 0 && ctx.onInputDeleted) await ctx.onInputDeleted(refs, (inputs[0]!.recording?.timeoutSeconds ?? 0) + 60);
}

/**
 * The account cannot replace a live input's key, so the input is replaced: a new one with the same settings
 * and outputs takes over, and the old one is disabled at once (its key stops) and kept, named in the new
 * one's `meta`, so its recordings stay with the stream. Refused while the last broadcast's recording is still
 * being made: the stream must be idle and its recording closed.
 */
export async function replaceLiveInput(
  ctx: LiveInputsContext,
  uid: string,
): Promise<{ streamKey: string; srtPassphrase: string | null; replacement: ReplacedLiveInput }> {
  const [old] = await lineage(ctx, uid);
  if (!old) throw new VideoNetworkRejection('The live input no longer exists on the video account.');
  const videos = await ctx.api.account<ProviderVideo[]>('GET', `/stream/live_inputs/${uid}/videos`);
  if (list(videos).some((v) => videoStatus(v) === 'preparing')) {
    throw new VideoNetworkRejection('The video account is still making the last broadcast\'s recording; reset the key once it is ready.');
  }
  const outputs = await ctx.api.account<Output[]>('GET', `/stream/live_inputs/${uid}/outputs`);
  const created = await ctx.api.account<ProviderLiveInput>('POST', '/stream/live_inputs', {
    recording: old.recording,
    deleteRecordingAfterDays: old.deleteRecordingAfterDays ?? RECORDING_RETENTION_DAYS,
    enabled: old.enabled ?? true,
    meta: { previousInputs: [...list(old.meta?.previousInputs), uid] },
  });
  const simulcastRefs: Record<string, string> = {};
  for (const o of list(outputs)) {
    const copy = await ctx.api.account<{ uid: string }>('POST', `/stream/live_inputs/${created.uid}/outputs`, {
      url: o.url,
      streamKey: o.streamKey,
      enabled: o.enabled ?? true,
    });
    simulcastRefs[ctx.ref(o.uid)] = ctx.ref(copy.uid);
  }
  await ctx.api.account('PUT', `/stream/live_inputs/${uid}`, { enabled: false });
  const next = liveInputResult(ctx, created);
  return { streamKey: next.streamKey, srtPassphrase: next.srtPassphrase, replacement: { providerRef: next.providerRef, ingest: next.ingest, simulcastRefs } };
}
